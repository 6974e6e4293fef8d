import transformers


def build_trainer(training_args):
    args = transformers.Seq2SeqTrainingArguments(**training_args)
    return transformers.Seq2SeqTrainer(model=None, args=args)
