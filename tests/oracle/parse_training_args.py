"""Run by the oracle venv (real transformers on PYTHONPATH): ``parse_training_args.py CASES.json``, CASES a list of
``[option, value or null]``. Each option is parsed alone by a real ``HfArgumentParser((TrainingArguments,))``
with ``--output_dir out``; prints one JSON list: per case, "ok" or the exception's type and message head."""

import contextlib
import io
import json
import sys
import warnings

warnings.filterwarnings("ignore")
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    from transformers import HfArgumentParser, TrainingArguments


def parse(option, value):
    argv = ["--output_dir", "out", f"--{option}"] + ([value] if value is not None else [])
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses(args=argv)
    except SystemExit as exc:  # argparse's own refusal (a bad value)
        return f"SystemExit: {exc}"
    except Exception as exc:  # noqa: BLE001 - the oracle reports what the release raises
        return f"{type(exc).__name__}: {str(exc)[:120]}"
    return "ok"


def main():
    cases = json.loads(open(sys.argv[1]).read())
    print(json.dumps([parse(o, v) for o, v in cases]), flush=True)


if __name__ == "__main__":
    main()
