deepspeed framework/cli.py recipes/sft.yaml
