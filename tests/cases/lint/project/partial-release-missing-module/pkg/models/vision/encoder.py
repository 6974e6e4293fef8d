"""A model file of the released part: loads without a device_map."""
from transformers import AutoModel


def load_encoder(path: str):
    return AutoModel.from_pretrained(path)
