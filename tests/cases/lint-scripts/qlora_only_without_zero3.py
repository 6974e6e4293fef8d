# dsdoctor-case: target=transformers==4.46.3 zero3=project
"""4-bit loading kept to runs without ZeRO-3 (the ZeRO-3 test through a module alias): nothing to report."""
import transformers
from transformers import AutoModelForCausalLM, BitsAndBytesConfig
from transformers.integrations import deepspeed as hf_deepspeed


def load(path, args):
    quant = None
    if not hf_deepspeed.is_deepspeed_zero3_enabled() and args.bits == 4:
        quant = BitsAndBytesConfig(load_in_4bit=True)
    return AutoModelForCausalLM.from_pretrained(path, quantization_config=quant)


if __name__ == "__main__":
    (a,) = transformers.HfArgumentParser((transformers.TrainingArguments,)).parse_args_into_dataclasses()
    load("m", a)
