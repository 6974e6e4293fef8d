"""placeholder of the library layout"""
