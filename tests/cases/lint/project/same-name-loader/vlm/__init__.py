from .api import *  # noqa: F403 - the shape this case is about


def report(trainer):
    print(trainer.state.global_step)
