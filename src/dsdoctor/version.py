"""dsdoctor's version (``dsdoctor.__version__``), in a module of its own so that lower layers (the SARIF
renderer) read it without importing the package's entry layer."""

__version__ = "0.1.0"
