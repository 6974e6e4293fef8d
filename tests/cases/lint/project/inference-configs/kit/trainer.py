from transformers import Seq2SeqTrainer


class KitTrainer(Seq2SeqTrainer):
    def save_model(self, output_dir=None, _internal_call=False):
        """Also writes the tokenizer beside the weights."""
        super().save_model(output_dir, _internal_call)
        if self.args.should_save and self.tokenizer is not None:
            self.tokenizer.save_pretrained(output_dir or self.args.output_dir)
