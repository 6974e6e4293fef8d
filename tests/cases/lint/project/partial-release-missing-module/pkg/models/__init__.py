# from .blip import *   (the BLIP models were not released)
