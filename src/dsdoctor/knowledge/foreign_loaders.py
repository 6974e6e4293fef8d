"""Packages that ship model loaders of their own under Transformers' and PEFT's names. No I/O.

Read in the released wheels ipex-llm 2.2.0 and intel-extension-for-transformers 1.4.2:
``ipex_llm/transformers/model.py`` ``_BaseAutoModelClass.from_pretrained`` (its ``AutoModelForCausalLM``) pops
``quantization_config`` and converts the weights to ipex-llm's own low-bit format, and its ``transformers/qlora.py``
has a ``prepare_model_for_kbit_training`` of its own; ``intel_extension_for_transformers/transformers/modeling/
modeling_auto.py`` ``_BaseQBitsAutoModelClass.from_pretrained`` does the same with its QBits kernels. What they do
under ZeRO-3 is not what Transformers and PEFT do: lint judges neither (lint/script/dataflow.py).
"""

from __future__ import annotations

OWN_LOADER_PACKAGES = ("ipex_llm", "intel_extension_for_transformers")
