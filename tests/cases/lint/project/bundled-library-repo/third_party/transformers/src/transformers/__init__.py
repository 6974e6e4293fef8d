"""the bundled copy of the library (a stand-in)."""
