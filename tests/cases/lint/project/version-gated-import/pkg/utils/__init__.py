"""One timer per Transformers generation, picked at import."""
import transformers
from packaging import version

TF_VERSION = version.parse(transformers.__version__)

if TF_VERSION >= version.parse("4.45.0"):
    from .timer_new import Timer
elif TF_VERSION >= version.parse("4.40.0"):
    from .timer_mid import Timer
else:
    from .timer_old import Timer

if TF_VERSION >= version.parse("4.44.0"):  # its import of transformers.deepspeed fails from 4.46.0 on
    from .memory import report_memory

__all__ = ["Timer", "report_memory"]
