"""Value kinds of the data flow (kept free of libcst so that importing the rules stays cheap)."""

NONE, FALSE, TRUE, UNKNOWN = "none", "false", "true", "unknown"  # FALSE: falsy but not None ({} / False / 0)

# Saves that gather the ZeRO-3 partitions: collectives every rank must enter (Trainer.save_model,
# Accelerator.get_state_dict, DeepSpeedEngine.save_16bit_model / save_checkpoint /
# _zero3_consolidated_16bit_state_dict).
COLLECTIVE_SAVES = ("save_model", "get_state_dict", "save_16bit_model", "save_checkpoint",
                    "_zero3_consolidated_16bit_state_dict")
