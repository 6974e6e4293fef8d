from rlkit.settings.ds import make_ds_config

__all__ = ["make_ds_config"]
