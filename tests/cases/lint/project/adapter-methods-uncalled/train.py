import transformers
from chat.model_adapter import RewardLoader, get_conversation_template


def main():
    (args,) = transformers.HfArgumentParser(transformers.TrainingArguments).parse_args_into_dataclasses()
    template = get_conversation_template("lmsys/vicuna-7b")
    reward = RewardLoader().load("my-org/reward")
    model = transformers.AutoModelForCausalLM.from_pretrained("lmsys/vicuna-7b")
    print(template, reward)
    transformers.Trainer(model=model, args=args).train()


if __name__ == "__main__":
    main()
