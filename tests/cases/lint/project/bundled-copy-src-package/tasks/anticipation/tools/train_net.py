# ruff: noqa: I001  (the path set-up import must come first)
import _init_paths  # noqa: F401

from anticip.models import build_model

if __name__ == "__main__":
    print(build_model("short"))
