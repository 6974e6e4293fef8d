from setuptools import setup

setup(name="deltalib", version="0.1", packages=["deltalib"], install_requires=["transformers>=4.10.0"])
