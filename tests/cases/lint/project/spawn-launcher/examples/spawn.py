"""Start a training script on every device: python spawn.py --world_size N script.py [its arguments]."""
import subprocess
import sys
from argparse import REMAINDER, ArgumentParser


def main():
    parser = ArgumentParser()
    parser.add_argument("--world_size", type=int, default=1)
    parser.add_argument("--use_deepspeed", action="store_true")
    parser.add_argument("training_script", type=str)
    parser.add_argument("training_script_args", nargs=REMAINDER)
    args = parser.parse_args()
    launcher = ["deepspeed", f"--num_gpus={args.world_size}"] if args.use_deepspeed else [sys.executable]
    subprocess.run([*launcher, args.training_script, *args.training_script_args], check=True)


if __name__ == "__main__":
    main()
