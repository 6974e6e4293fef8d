"""Loading helpers shared by training and inference."""
