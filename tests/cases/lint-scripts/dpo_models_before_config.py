# dsdoctor-case: target=transformers==4.46.3 zero3=project
# expect: model-loaded-before-ds-config@13 error
# expect: model-loaded-before-ds-config@14 error
"""A preference-tuning script that builds the policy and the frozen reference model before its TRL config
(a TrainingArguments subclass) exists: neither load runs under zero.Init."""
import sys

from transformers import AutoModelForCausalLM, AutoTokenizer
from trl import DPOConfig, DPOTrainer


def main(path, out):
    policy = AutoModelForCausalLM.from_pretrained(path)
    reference = AutoModelForCausalLM.from_pretrained(path)
    tok = AutoTokenizer.from_pretrained(path)
    config = DPOConfig(output_dir=out, deepspeed="ds_z3.json")
    DPOTrainer(model=policy, ref_model=reference, args=config, processing_class=tok).train()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
