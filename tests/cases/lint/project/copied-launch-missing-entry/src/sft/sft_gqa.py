print("moved into src/sft/")
