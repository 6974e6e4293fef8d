import sys

# Æô¶¯ (a GBK comment: python tool.py refuses it on 3.11+)
print(sys.argv)
