"""What TRL's model-loading helpers return (read in trl v0.9.6 and main 2026-11, ``trl/trainer/utils.py``)."""

# ``get_kbit_device_map()``: ``{"": PartialState().local_process_index}`` on CUDA (``{"": "xpu:N"}`` on XPU), a
# non-None device_map whenever a GPU is there.
KBIT_DEVICE_MAP = "get_kbit_device_map"
# ``get_quantization_config(model_args)``: ``BitsAndBytesConfig(load_in_8bit=True)`` when ``--load_in_8bit``,
# 4-bit when ``--load_in_4bit`` (with ``bnb_4bit_quant_storage`` only from trl 0.12), else None.
QUANTIZATION_CONFIG = "get_quantization_config"
QUANTIZATION_OPTIONS = frozenset({"load_in_4bit", "load_in_8bit"})  # its result is None unless one is passed
