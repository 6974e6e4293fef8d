"""Value kinds of the data flow (kept free of libcst so that importing the rules stays cheap)."""

NONE, FALSE, TRUE, UNKNOWN = "none", "false", "true", "unknown"  # FALSE: falsy but not None ({} / False / 0)

# Saves that gather the ZeRO-3 partitions: collectives every rank must enter (Trainer.save_model,
# Accelerator.get_state_dict, DeepSpeedEngine.save_16bit_model / save_checkpoint /
# _zero3_consolidated_16bit_state_dict).
COLLECTIVE_SAVES = ("save_model", "get_state_dict", "save_16bit_model", "save_checkpoint",
                    "_zero3_consolidated_16bit_state_dict")

# The class names a model constructor call ends with (``LlamaForCausalLM(config)``): dataflow.MODEL_CTOR.
MODEL_CTOR_SUFFIXES = ("ForCausalLM", "ForConditionalGeneration", "ForSeq2SeqLM", "ForSequenceClassification",
                       "ForTokenClassification", "ForMaskedLM", "ForQuestionAnswering", "LMHeadModel")
# Calls whose result is a model besides the loads (dataflow.is_model_call).
MODEL_MAKERS = ("get_peft_model", "prepare_model_for_kbit_training", "unwrap_model", "from_config", "_from_config",
                "merge_and_unload")

# Quantization configs zero3-unsupported-quantization reports under ZeRO-3 (here, not in the rule module, so that
# quiet.py's per-rule words import no rule: no import cycle).
UNSUPPORTED_QUANT_CONFIGS = ("GPTQConfig", "AwqConfig", "AqlmConfig", "EetqConfig", "HqqConfig")
