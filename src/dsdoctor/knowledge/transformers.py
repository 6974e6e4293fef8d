"""Version-ranged facts about Hugging Face Transformers / Accelerate / PEFT with DeepSpeed. No I/O.

Sections (append to the one you need; never copy a fact that lives elsewhere):
  1. ZeRO-3 load-time guards in ``from_pretrained`` (low_cpu_mem_usage / device_map / quantization)
  2. HfDeepSpeedConfig / Trainer integration ("auto" keys, which values the Trainer fills)
  3. Saving under ZeRO-3
  4. Messages (log signatures are built from these in ``knowledge/signatures.py``)
"""

from __future__ import annotations
