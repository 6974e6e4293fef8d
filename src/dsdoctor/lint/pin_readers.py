"""The pin files lint reads in a directory, in order: glob pattern -> reader (lint/pin_files.py and the readers of
its neighbours); :func:`.pins.read_pins` reads them."""

from __future__ import annotations

from typing import Callable, List, Tuple

from . import pin_checkout as C
from . import pin_files as F
from . import pin_readme as R
from .pin_conda import conda_env_file, environment_yml, requirements_or_export
from .pin_files import Pin
from .pin_own import package_init, version_txt
from .pin_setup import setup_py

READERS: Tuple[Tuple[str, Callable[[str, str], List[Pin]]], ...] = (
    ("version.txt", version_txt),  # the package the project is (lint/pin_own.py): its own version wins
    ("*/__init__.py", package_init),
    ("src/*/__init__.py", package_init),
    # and requirement.txt, the singular some projects write, and the misspelt requirments.txt (CAIG)
    ("requir*.txt", requirements_or_export),
    ("requirements/*.txt", F.requirements),
    # named for the training environment (OpenThinkIMG's train_requirements.txt beside tool_server_requirements.txt):
    # the one the linted code runs in; other purposes' files (dev_, docs_, serve_ ...) are not read
    ("train*requir*.txt", F.requirements),
    ("finetun*requir*.txt", F.requirements),
    ("*deepspeed*req*.txt", F.requirements),  # named for the DeepSpeed environment (code-act's deepspeed_reqs.txt)
    # an environment directory's (500xCompressor's env/pip_requirements.txt, InstructERC's envs/requirements.txt);
    # not any directory whose name starts so (a tool's env-check/ beside the code)
    *((f"{d}/*requirement*.txt", F.requirements) for d in ("env", "envs", "environment", "environments")),
    ("requirement*.lock", F.requirements),  # rye's lock files: pip's format, every version exact
    ("req.txt", requirements_or_export),  # the short names some projects give theirs (HALVA's req.txt)
    ("reqs.txt", requirements_or_export),
    ("requirement*.in", F.requirements),  # pip-compile's input
    ("poetry.lock", F.lock_toml),
    ("uv.lock", F.lock_toml),
    ("pdm.lock", F.lock_toml),
    ("setup.py", setup_py),
    ("setup.cfg", F.setup_cfg),
    ("pyproject.toml", F.pyproject),
    ("environment.yml", environment_yml),
    ("environment.yaml", environment_yml),
    ("*.yml", conda_env_file),  # named otherwise (py3.7pytorch1.8.yaml)
    ("*.yaml", conda_env_file),
    ("README*", C.readme),
    ("INSTALL*.md", C.readme),  # install documents: the same lines as a README's
    ("docs/[Ii]nstall*.md", C.readme),
    ("docs/INSTALL*.md", C.readme),
    ("*.md", R.markdown_installs),  # another guide's `pip install` commands (eval/EVAL.md), for its directory
    ("Dockerfile", F.dockerfile),  # the image the code runs in: its RUN pip install lines
    ("Dockerfile.*", F.dockerfile),
    ("*.Dockerfile", F.dockerfile),
    ("*.sh", F.shell_script),  # a launch script's own `pip install deepspeed==0.9.1`: its directory's pin
    # an environment set-up script kept in scripts/ installs for the directory above it (MiniMA's
    # minima/scripts/install_requirements.sh), as a requirements file there would
    ("scripts/install*.sh", F.shell_script),
    ("scripts/*requirements*.sh", F.shell_script),
    ("scripts/setup_env*.sh", F.shell_script),
)
