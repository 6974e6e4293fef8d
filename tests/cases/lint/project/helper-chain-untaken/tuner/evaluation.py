"""Evaluation helpers: the training script takes format_prompt and score_run; the loaders serve the evaluation
scripts, run with plain python."""
from transformers import AutoModelForCausalLM


def format_prompt(text: str) -> str:
    return f"### Input:\n{text}\n### Output:\n"


def load_lm(path: str, device_map: str = "auto"):
    # used only by load_lm_and_tokenizer and load_many, which nothing the launch runs uses: no finding
    return AutoModelForCausalLM.from_pretrained(path, device_map=device_map)


def load_lm_and_tokenizer(path: str):
    return load_lm(path), None


def load_many(paths: list, depth: int = 0):
    # recursive, and calls load_lm: still nothing the launch runs uses it
    if depth > 3:
        return []
    return [load_lm(p) for p in paths] + load_many(paths, depth + 1)


def load_scorer(path: str):
    # used by score_run, which the launch calls: an error under ZeRO-3
    return AutoModelForCausalLM.from_pretrained(path, device_map="auto")


def score_run(path: str) -> float:
    return float(load_scorer(path).num_parameters())


if __name__ == "__main__":
    print(load_lm_and_tokenizer("gpt2"))
