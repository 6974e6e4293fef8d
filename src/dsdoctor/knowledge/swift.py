"""Facts about ms-swift (modelscope/ms-swift), read in its git tags v1.5.4-v4.5.2. No I/O.

swift decides between data parallelism and device_map model parallelism from the number of visible GPUs and
its local world size, ``int(os.getenv('LOCAL_WORLD_SIZE', 1))`` (swift/utils/torch_utils.py get_dist_setting,
swift/utils/env.py in 4.x): more than one GPU per local process means model parallelism, which it refuses to
combine with DeepSpeed (``is_mp()``). torchrun sets LOCAL_WORLD_SIZE; a single process (NPROC_PER_NODE unset,
or an ``env \\`` continuation broken before ``swift sft``) or the deepspeed launcher (which sets LOCAL_SIZE)
leaves it at 1.
"""

from __future__ import annotations

LOCAL_WORLD_SIZE_VAR = "LOCAL_WORLD_SIZE"
NPROC_VAR = "NPROC_PER_NODE"  # swift's own launcher runs torchrun with this many processes per node
MSG_DDP_MP = "Using DDP + MP(device_map)"  # swift/utils/torch_utils.py is_ddp_plus_mp, logger.info (2.x)
