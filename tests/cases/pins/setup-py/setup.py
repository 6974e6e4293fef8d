import sys

from setuptools import find_packages, setup

if "--never" not in sys.argv:
    raise SystemExit("dsdoctor must read this file, never run it")

REQUIRED = [
    "deepspeed==0.14.4",
    "transformers>=4.38,<4.41",
]

setup(
    name="example",
    packages=find_packages(),
    install_requires=REQUIRED + ["torch==2.2.2"],
    extras_require={"rl": ["trl==0.8.6"]},
    tests_require=open("requirements-test.txt").read().splitlines(),
)
