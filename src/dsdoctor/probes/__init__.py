"""Probes read the world and decide nothing. They never import torch, deepspeed or transformers."""
