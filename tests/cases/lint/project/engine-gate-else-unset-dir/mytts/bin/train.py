import argparse

import deepspeed

from mytts.utils.train_utils import dtype_of


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--train_engine", default="torch_ddp", choices=["torch_ddp", "deepspeed"])
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    print(dtype_of(args))
    if args.train_engine == "deepspeed":
        deepspeed.init_distributed()


if __name__ == "__main__":
    main()
