"""Oracle helper, run with the provisioned venv and a real DeepSpeed on PYTHONPATH (or ``--source FILE``
pairs taken from a DeepSpeed sdist): one process serves many cases: each stdin line is a JSON case, answered by one
stdout line with what DeepSpeed's own ``estimate_zero3_model_states_mem_needs`` /
``estimate_zero2_model_states_mem_needs`` return for it."""

import ast
import json
import sys


def _from_source(path, name):
    """The function ``name`` exactly as written in a DeepSpeed source file (for sdist-only versions)."""
    with open(path) as fh:
        tree = ast.parse(fh.read())
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    ns = {}
    exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec"), ns)
    return ns[name]


def main():
    if len(sys.argv) == 3:  # stage3.py stage_1_and_2.py from an extracted sdist
        z3 = _from_source(sys.argv[1], "estimate_zero3_model_states_mem_needs")
        z2 = _from_source(sys.argv[2], "estimate_zero2_model_states_mem_needs")
    else:
        from deepspeed.runtime.zero.stage3 import estimate_zero3_model_states_mem_needs as z3
        from deepspeed.runtime.zero.stage_1_and_2 import estimate_zero2_model_states_mem_needs as z2
    print("READY", flush=True)
    for line in sys.stdin:
        c = json.loads(line)
        if c["stage"] == 3:
            res = z3(c["P"], c["L"], c["G"], c["N"], cpu_offload=c["off_opt"], cpu_offload_params=c["off_param"],
                     zero_init=c["zero_init"])
        else:
            res = z2(c["P"], c["G"], c["N"], cpu_offload=c["off_opt"])
        print(json.dumps(list(res)), flush=True)


if __name__ == "__main__":
    main()
