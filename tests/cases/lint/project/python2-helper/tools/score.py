import sys


def main():
    print "score:", len(sys.argv)


main()
