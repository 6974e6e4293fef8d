"""Runs in the *target* interpreter, in a subprocess: the only dsdoctor code that imports torch or
deepspeed. Standard library + the user's packages only (dsdoctor need not be installed there).

Usage: python child.py load OP   -> builds/loads the op with DeepSpeed's own builder (cpu_adam: by
constructing DeepSpeedCPUAdam, as ZeRO-Offload does), prints a marker.
"""

import sys
import time

OK_MARK = "DSDOCTOR-CHILD-OK"
BUILDERS = {"cpu_adam": "CPUAdamBuilder", "async_io": "AsyncIOBuilder", "cpu_adagrad": "CPUAdagradBuilder",
            "cpu_lion": "CPULionBuilder", "fused_adam": "FusedAdamBuilder"}


def load(op: str) -> int:
    t0 = time.time()
    import deepspeed  # noqa: F401  # subprocess-only
    from deepspeed.ops import op_builder  # subprocess-only

    if op == "cpu_adam":
        # What ZeRO-Offload does: the optimizer's constructor runs CPUAdamBuilder().load(), so a failure
        # shows the user's real chain (on <= 0.19.7 the ds_opt_adam AttributeError follows at GC).
        import torch  # subprocess-only
        from deepspeed.ops.adam import DeepSpeedCPUAdam  # subprocess-only

        DeepSpeedCPUAdam([torch.nn.Parameter(torch.zeros(4))])
    else:
        builder = getattr(op_builder, BUILDERS[op])()
        if op == "async_io" and not builder.is_compatible(verbose=True):
            print("async_io is not compatible on this system", file=sys.stderr)
            return 3
        builder.load(verbose=True)
    print(f"{OK_MARK} {op} {time.time() - t0:.1f}s", flush=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "load" or sys.argv[2] not in BUILDERS:
        print("usage: child.py load OP", file=sys.stderr)
        sys.exit(2)
    sys.exit(load(sys.argv[2]))
