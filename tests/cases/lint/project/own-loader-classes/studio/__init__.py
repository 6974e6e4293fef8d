"""A video pipeline's package."""
