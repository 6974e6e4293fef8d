import argparse

from runner.trainer import Runner

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--config_file", type=str)
    args = parser.parse_args()
    Runner(args.config_file).train()
