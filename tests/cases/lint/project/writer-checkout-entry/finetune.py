import argparse

import deepspeed

parser = argparse.ArgumentParser()
parser = deepspeed.add_config_arguments(parser)
args = parser.parse_args()
for step in range(3):
print(step)  # an indentation error: the launch cannot start
