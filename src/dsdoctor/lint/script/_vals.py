"""Value kinds of the data flow (kept free of libcst so that importing the rules stays cheap)."""

NONE, FALSE, TRUE, UNKNOWN = "none", "false", "true", "unknown"  # FALSE: falsy but not None ({} / False / 0)
