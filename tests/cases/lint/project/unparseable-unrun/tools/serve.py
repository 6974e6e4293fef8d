import sys

def main(port):
    print("serving on", port) extra words
    return 0

if __name__ == "__main__":
    sys.exit(main(int(sys.argv[2])))
