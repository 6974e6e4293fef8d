"""The package's models, and one Transformers class it re-exports."""
from transformers import T5EncoderModel

from .video import FrameDecoder, TunedLM, VideoNet, WrappedLM

__all__ = ["FrameDecoder", "T5EncoderModel", "TunedLM", "VideoNet", "WrappedLM"]
