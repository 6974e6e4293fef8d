../other/missing_tool.py
