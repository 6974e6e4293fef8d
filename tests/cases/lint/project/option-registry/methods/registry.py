from methods.plain import Plain
from methods.replay import Replay

METHODS = {"plain": Plain, "replay": Replay}
