from .agent import Agent
from .lm import LM


def load_model(args):
    return Agent(LM("openlm-research/open_llama_3b"), args)
