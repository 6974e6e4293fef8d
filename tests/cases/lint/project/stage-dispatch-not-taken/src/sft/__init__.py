from .workflow import run_sft

__all__ = ["run_sft"]
