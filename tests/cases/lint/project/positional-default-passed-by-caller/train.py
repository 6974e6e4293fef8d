from accelerate import Accelerator

accelerator = Accelerator()
