import re
import sys

from setuptools import setup

if "--never" not in sys.argv:
    raise SystemExit("dsdoctor must read this file, never run it")

# one table of every requirement, looked up by name below
_deps = [
    "accelerate>=0.30",
    "deepspeed==0.15.1",
    "numpy",
    "torch==2.3.1",
    "transformers==4.44.2",
    "peft==0.12.0",
]

deps = {b: a for a, b in (re.findall(r"^(([^!=<>~ ]+)(?:[!=<>~ ].*)?$)", x)[0] for x in _deps)}


def deps_list(*pkgs):
    return [deps[pkg] for pkg in pkgs]


extras = {}
extras["torch"] = deps_list("torch")
extras["lora"] = deps_list("peft")
extras["dev"] = extras["torch"] + extras["lora"]

install_requires = [
    deps["accelerate"],
    deps["deepspeed"],
    deps["numpy"],
    deps["transformers"],
]

setup(name="example", extras_require=extras, install_requires=install_requires)
