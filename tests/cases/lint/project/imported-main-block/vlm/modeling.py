from transformers import AutoModelForCausalLM


def build_model(path):
    return AutoModelForCausalLM.from_pretrained(path)


if __name__ == "__main__":  # a quick check of the model file on one GPU
    model = AutoModelForCausalLM.from_pretrained("my-org/base-model")
    model.save_pretrained("/tmp/check")
