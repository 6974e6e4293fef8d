from setuptools import setup

setup(
    name="transformers",
    package_dir={"": "src"},
)
