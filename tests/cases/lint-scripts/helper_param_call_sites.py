# dsdoctor-case: target=transformers==4.46.3 zero3=project
# expect: zero3-device-map-conflict@12 error
"""A loading helper whose placement comes from its callers in the same file: the training path passes a
device_map, so the helper's default (None) does not make it safe. The quantized branch is taken only when a caller
passes quantize=True, and none does."""
import transformers
from transformers import AutoModelForCausalLM, BitsAndBytesConfig


def build(path, placement=None, quantize=False):
    if not quantize:
        return AutoModelForCausalLM.from_pretrained(path, device_map=placement)
    return AutoModelForCausalLM.from_pretrained(path, quantization_config=BitsAndBytesConfig(load_in_8bit=True))


def main():
    (args,) = transformers.HfArgumentParser((transformers.TrainingArguments,)).parse_args_into_dataclasses()
    model = build("m", {"": args.local_rank})
    transformers.Trainer(model=model, args=args).train()


if __name__ == "__main__":
    main()
