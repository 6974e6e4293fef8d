"""peft's own DreamBooth example, bundled with the library's repository: the project never runs it."""
from accelerate import Accelerator
from peft import get_peft_model_state_dict
from transformers import AutoModel


def main():
    accelerator = Accelerator()
    model = accelerator.prepare(AutoModel.from_pretrained("bert-base-uncased"))
    accelerator.wait_for_everyone()
    if accelerator.is_main_process:
        state_dict = get_peft_model_state_dict(model, state_dict=accelerator.get_state_dict(model))
        accelerator.save(state_dict, "out.bin")


if __name__ == "__main__":
    main()
