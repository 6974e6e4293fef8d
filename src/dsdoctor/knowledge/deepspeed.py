"""Version-ranged facts about DeepSpeed, as one namespace: ``from ..knowledge import deepspeed as K`` then
``K.NAME``. No I/O: probes read the world, checks decide with these.

This module is a facade and stays small: it holds no fact but :data:`LATEST_KNOWN` and re-exports every public
name (each module's ``__all__``) of the modules that hold them, one per area:

- :mod:`.ds_cuda_check`: the CUDA version check, ``DS_SKIP_CUDA_CHECK``, what a mismatch does to cpu_adam;
- :mod:`.ds_ops`: cpu_adam's builder and what a JIT build needs; install / op-build messages, builder bugs;
- :mod:`.ds_accelerator`: accelerator selection;
- :mod:`.ds_launcher`: the launcher, ``.deepspeed_env``, hostfiles;
- :mod:`.ds_messages`: log signatures ``explain`` matches and ``check`` quotes;
- :mod:`.ds_config`: the ds_config schema per version and its messages;
- :mod:`.ds_memory`: the memory estimators.

Every fact names the DeepSpeed versions where it holds (see ``docs/knowledge.md`` and the oracle tests
in ``tests/oracle`` which compare these tables with the real released sources and behaviour). A new fact goes in
its area's module and that module's ``__all__``.
"""

from __future__ import annotations

from .ds_accelerator import *  # noqa: F403
from .ds_config import *  # noqa: F403
from .ds_cuda_check import *  # noqa: F403
from .ds_launcher import *  # noqa: F403
from .ds_memory import *  # noqa: F403
from .ds_messages import *  # noqa: F403
from .ds_ops import *  # noqa: F403

# The newest DeepSpeed release whose sources these facts were read from: what lint and estimate assume when no
# version is given or installed.
LATEST_KNOWN = "0.19.8"

# DeepSpeed keeps its own state on torch's objects (parameters and modules) under names starting with this prefix
# (`param.ds_status`, `ds_tensor`, `ds_numel`, `module.ds_grads_remaining`, ...: assigned throughout
# runtime/zero/*.py in every sdist read, 0.3.x-0.19.8). One of them missing is DeepSpeed's state not set up on that
# path, not an API another package lacks.
OWN_ATTRIBUTE_PREFIX = "ds_"

# DeepSpeedEngine methods true exactly under ZeRO-3 (runtime/engine.py 0.9.x-0.19.8:
# ``zero_optimization_partition_weights()`` is ``zero_optimization_stage() >= ZeroStageEnum.weights``, 3)
ENGINE_ZERO3_TESTS = ("zero_optimization_partition_weights",)
