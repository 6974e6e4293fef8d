import torch
from transformers import AutoModelForCausalLM


def build_model(path):
    return AutoModelForCausalLM.from_pretrained(path)


def export_weights(path):
    # an offline conversion the __main__ block runs: the training launch imports build_model only
    model = AutoModelForCausalLM.from_pretrained(path)
    torch.save(model.state_dict(), "/tmp/export.pt")


if __name__ == "__main__":  # a quick check of the model file on one GPU
    model = AutoModelForCausalLM.from_pretrained("my-org/base-model")
    model.save_pretrained("/tmp/check")
    export_weights("my-org/base-model")
