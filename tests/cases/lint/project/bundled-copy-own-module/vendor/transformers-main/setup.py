from setuptools import find_packages, setup

setup(
    name="transformers",
    version="4.28.0.dev0",
    package_dir={"": "src"},
    packages=find_packages("src"),
)
