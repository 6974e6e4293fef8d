from setuptools import setup

setup(name="transformers", version="0.0.0")
