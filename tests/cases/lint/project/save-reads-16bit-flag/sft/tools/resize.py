import sys

from transformers import AutoModelForCausalLM, AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained(sys.argv[1])
tokenizer.add_tokens(["<extra>"])
model = AutoModelForCausalLM.from_pretrained(sys.argv[1])
model.resize_token_embeddings(len(tokenizer))
model.save_pretrained(sys.argv[2])  # a plain single-process tool: no DeepSpeed here
