import subprocess


def train_round(round_num: int, model_name: str) -> None:
    command = [
        "deepspeed",
        "--num_gpus",
        "2",
        f"./train.py",  # noqa: F541 (written as the orchestrators that inspired it write it)
        "--deepspeed",
        "ds_z3.json",
        "--model_name",
        model_name,
        "--round",
        str(round_num),
    ]
    subprocess.run(command, check=True)


if __name__ == "__main__":
    for r in range(3):
        train_round(r, "facebook/opt-125m")
