import transformers


def build_trainer(training_args):
    args = getattr(transformers, "Seq2SeqTrainingArguments")(**training_args)
    return getattr(transformers, "Seq2SeqTrainer")(model=None, args=args)
