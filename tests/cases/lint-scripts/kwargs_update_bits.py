# dsdoctor-case: target=transformers==4.46.3 zero3=project
# expect: zero3-device-map-conflict@21 info
# expect: qlora-quant-storage-missing@22 info
# expect: zero3-unsupported-quantization@24 info
"""A kwargs dict filled by .update(dict(...)) under `if args.bits in (4, 8)`: the quantization and the device_map
reach from_pretrained only with --bits 4 / 8, at the entries that set them (info: run.sh never passes --bits)."""
from dataclasses import dataclass

import transformers
from transformers import AutoModelForCausalLM, BitsAndBytesConfig


@dataclass
class Args(transformers.TrainingArguments):
    bits: int = 16


def build(args):
    extra = {}
    if args.bits in (4, 8):
        extra.update(dict(device_map={"": args.local_rank},
                          quantization_config=BitsAndBytesConfig(
                              load_in_4bit=args.bits == 4,
                              load_in_8bit=args.bits == 8)))
    return AutoModelForCausalLM.from_pretrained("m", **extra)


if __name__ == "__main__":
    (args,) = transformers.HfArgumentParser((Args,)).parse_args_into_dataclasses()
    build(args)
