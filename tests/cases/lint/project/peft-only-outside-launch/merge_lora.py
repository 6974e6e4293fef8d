"""Merges a LoRA adapter trained elsewhere into its base model, on one process (no DeepSpeed)."""
import sys

from peft import PeftModel
from transformers import AutoModelForCausalLM

base = AutoModelForCausalLM.from_pretrained(sys.argv[1])
PeftModel.from_pretrained(base, sys.argv[2]).merge_and_unload().save_pretrained(sys.argv[3])
