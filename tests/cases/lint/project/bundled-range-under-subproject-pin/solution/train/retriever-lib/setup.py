from setuptools import find_packages, setup

setup(
    name="retriever",
    version="0.1",
    packages=find_packages(),
    install_requires=["torch>=1.6.0", "transformers>=4.33.0", "datasets"],
)
