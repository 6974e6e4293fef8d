import colossalai

colossalai.launch_from_torch()
