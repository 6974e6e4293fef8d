"""Facts about CPython itself: the messages its import system raises. No I/O here."""

from __future__ import annotations

# Lib/importlib/_bootstrap.py _find_and_load_unlocked (read in CPython 3.11.7; the same format in 3.3-3.13): importing
# `pkg.mod` when `pkg` was imported as a plain module (a file pkg.py, no __path__), most often a local file named like
# an installed package that shadows it (the script's folder, the working directory or PYTHONPATH come first)
MSG_NOT_A_PACKAGE = "No module named '{mod}'; '{pkg}' is not a package"
