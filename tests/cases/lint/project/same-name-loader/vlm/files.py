import json

READERS = {".json": json.loads}


def load(path):
    """Records of a data file, by extension (the registry's keys are extensions, not functions)."""
    with open(path) as fh:
        text = fh.read()
    for ext in READERS:
        if path.endswith(ext) and "load" not in READERS:
            return READERS[ext](text)
    return text.splitlines()
