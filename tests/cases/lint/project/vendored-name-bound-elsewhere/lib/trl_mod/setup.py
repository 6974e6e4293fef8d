from setuptools import setup

setup(name="trl", version="0.8.0.dev0", packages=["trl_mod"])
