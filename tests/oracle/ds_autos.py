"""The "auto" values of a ds_config dict, for the oracle scripts run by the oracle venv (trainer_autos.py,
accelerate_autos.py): the dotted path of each, and deleting one by its path."""


def autos(node, prefix=""):
    for k, v in node.items():
        if v == "auto":
            yield prefix + k
        elif isinstance(v, dict):
            yield from autos(v, prefix + k + ".")


def delete(cfg, path):
    *parents, leaf = path.split(".")
    for p in parents:
        cfg = cfg[p]
    del cfg[leaf]
