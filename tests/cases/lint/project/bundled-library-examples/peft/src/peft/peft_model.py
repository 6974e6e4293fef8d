"""PeftModel (the bundled copy)."""
