from .workflow import run_ppo

__all__ = ["run_ppo"]
