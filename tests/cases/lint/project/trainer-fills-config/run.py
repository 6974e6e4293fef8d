import argparse

import deepspeed
from pkg.engine.loop import Loop


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--deepspeed_config")
    a = p.parse_args()
    deepspeed.init_distributed()
    Loop(a).fit()


if __name__ == "__main__":
    main()
