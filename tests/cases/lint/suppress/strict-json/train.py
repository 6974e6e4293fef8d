from transformers import TrainingArguments

args = TrainingArguments("out", deepspeed="ds.json")
other = TrainingArguments("out", deepspeed="legacy/ds2.json")
