import sys

import transformers
from rankpkg import Builder
from rankpkg.builders import parse_dtype


def main():
    parser = transformers.HfArgumentParser(transformers.TrainingArguments)
    (training_args,) = parser.parse_args_into_dataclasses()
    model = Builder().build("my-org/base", head=sys.argv[-1]).to(parse_dtype("torch.bfloat16"))
    transformers.Trainer(model=model, args=training_args).train()


if __name__ == "__main__":
    main()
