"""Rules on DeepSpeed config files (ds_config): one rule per module."""
