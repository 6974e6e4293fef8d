"""Causes around ZeRO-3 partitioned parameters after loading: a partition (size 0) used outside a gather, weights
saved without gathering, deepspeed.initialize moving a quantized model, TRL copying a partitioned model, parameters
zero.Init never converted, and a second zero.Init model under ZeRO++ hpZ. The messages live in
``knowledge/transformers.py`` and ``knowledge/deepspeed.py``."""

from __future__ import annotations

import re
from typing import Tuple

from ... import fixes as F
from ... import names as N
from ...knowledge import deepspeed as K
from ...knowledge import transformers as TK
from ...model import Fix, Severity
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, code_fix, frame, lit, log, msg, rx
from .loading import PARTITION, quant_storage_fix

LOAD_STATE = "torch/nn/modules/module.py load_state_dict size mismatch (torch 1.x-2.14)"
SET_TENSOR = "accelerate/utils/modeling.py set_module_tensor_to_device (0.2x-1.x)"
# its message with the new value's and the placeholder's shapes (one of them torch.Size([0]))
_SET_TENSOR = r'Trying to set a tensor of shape torch\.Size\(\[%s\]\) in "[^"]{1,200}" \(which has shape torch\.Size\(\[%s\]\)\)'
# torch/nn/init.py's fan-in/fan-out helper (xavier_*, kaiming_* call it): its one raise is TK.ONE_D_WEIGHT[2], so a
# traceback cut inside it failed there (torch 1.x-2.x read)
FAN_IN = ("torch/nn/init.py", "_calculate_fan_in_and_fan_out")
# Transformers' own weight initialisation (from_pretrained's _initialize_weights -> the model's _init_weights)
MODEL_INIT = ("_initialize_weights", "_init_weights")


def _gather_fix() -> Fix:
    return code_fix("Gather the parameters around the code that reads them",
                    "with deepspeed.zero.GatheredParameters(list(module.parameters()), modifier_rank=None): ...")


def _meta_load_into_partition(s: Seen, f: LogFacts) -> Advice:
    return Advice("from_pretrained's meta-device loader wrote a full checkpoint tensor into a ZeRO-3 placeholder (size 0)",
                  "",
                  [code_fix("Let zero.Init load the weights: no low_cpu_mem_usage=True / device_map under ZeRO-3",
                            "from_pretrained(name, torch_dtype=torch.bfloat16)   # no device_map, no low_cpu_mem_usage"),
                   quant_storage_fix("A 4-bit (QLoRA) load under ZeRO-3 needs releases that gather 4-bit weights, or "
                                      "train it with ZeRO-2")])


def _partitioned_access(s: Seen, f: LogFacts) -> Advice:
    if TK.MSG_SET_TENSOR_SHAPE in s.text:
        return _meta_load_into_partition(s, f)
    return Advice("A ZeRO-3 partitioned parameter (size 0 on this rank) was used outside a gather", "",
                  [code_fix("Run the model through the DeepSpeed engine (a reference / frozen model too: "
                            "deepspeed.initialize or accelerator.prepare it), or build it outside zero.Init",
                            "ref_engine, *_ = deepspeed.initialize(model=ref_model, config=ds_config)",
                            reason="under ZeRO-3 only the engine's forward gathers the weights"),
                   _gather_fix(),
                   code_fix("Loading a full checkpoint into a zero.Init model: load with from_pretrained, or inside a gather",
                            "with deepspeed.zero.GatheredParameters(list(model.parameters()), modifier_rank=0): "
                            "model.load_state_dict(sd)")])


def model_init_advice() -> Advice:
    """A torch init function on a ZeRO-3 partition, called by Transformers' own weight initialisation."""
    return Advice("from_pretrained re-initialised weights the checkpoint lacks with the model's _init_weights, which "
                  "touched a ZeRO-3 partition (1-D, size 0) that from_pretrained had not gathered", "",
                  [code_fix("Load that model outside the ZeRO-3 context and let deepspeed.initialize partition it",
                            "model = AutoModel.from_pretrained(path)   # before TrainingArguments(deepspeed=...) / "
                            "HfDeepSpeedConfig exist",
                            reason="without zero.Init the weights are whole when _init_weights runs (each rank holds "
                                   "the whole model in CPU memory while it loads)"),
                   code_fix("Or load a checkpoint that holds every weight the model declares: only missing weights "
                            "are re-initialised",
                            "model.save_pretrained(path)   # from a full load without ZeRO-3, then load that")])


def _saved_partitioned(s: Seen, f: LogFacts) -> Advice:
    return Advice("Weights were saved from ZeRO-3 without gathering them (size-0 tensors or no weights)", "",
                  [code_fix("Gather 16-bit weights on save",
                            'ds_config: "zero_optimization": {"stage3_gather_16bit_weights_on_model_save": true}'),
                   code_fix("Or save through the Trainer / consolidate the checkpoint", "trainer.save_model(out)",
                            "python <checkpoint>/zero_to_fp32.py <checkpoint> <out_dir>")])


def _moved_quantized(s: Seen, f: LogFacts) -> Advice:
    return Advice("The DeepSpeed engine moved a bitsandbytes-quantized model to its device, which Transformers refuses",
                  "",
                  [F.pip_fix("bitsandbytes>=0.43.2", "4-bit: upgrade bitsandbytes (and Transformers) so .to() is allowed"),
                   code_fix("8-bit: load in 4-bit, or keep the quantized model out of deepspeed.initialize",
                            "BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_storage=torch.bfloat16)")])


def _create_reference_model(s: Seen, f: LogFacts) -> Advice:
    return Advice("TRL's create_reference_model() cannot copy a ZeRO-3 partitioned model", "",
                  [code_fix("Load the reference model on its own (TRL then prepares it with DeepSpeed)",
                            "ref_model = AutoModelForCausalLM.from_pretrained(name)   # instead of create_reference_model(model)"),
                   code_fix("Or pass ref_model=None with a PEFT model (the adapter-disabled policy is the reference)",
                            "DPOTrainer(model, ref_model=None, peft_config=lora_config, ...)")])


def _not_converted(s: Seen, f: LogFacts) -> Advice:
    return Advice("A parameter without ZeRO-3's ds_* attributes reached ZeRO-3 code: it was never converted by zero.Init "
                  "or was replaced afterwards", "",
                  [code_fix("Build the model under zero.Init: create TrainingArguments(deepspeed=...) / HfDeepSpeedConfig "
                            "before from_pretrained",
                            "args = TrainingArguments(..., deepspeed=cfg); model = AutoModel.from_pretrained(...)",
                            reason="parameters created before, or added after (new heads, PEFT modules built outside the "
                                   "Trainer), are plain tensors"),
                   code_fix("Model code that replaces a parameter (self.weight = nn.Parameter(...)) drops the ds_* "
                            "attributes: update it in place instead",
                            "self.weight.data = torch.nn.functional.normalize(self.weight.data)",
                            reason="e.g. a remote-code head that re-creates its weight on the first forward")])


def _zeropp_hpz(s: Seen, f: LogFacts) -> Advice:
    return Advice("ZeRO++ hierarchical partitioning (zero_hpz_partition_size > 1) was set up twice: a second model was "
                  "built under zero.Init in the same process", "",
                  [code_fix("Use hpZ with one zero.Init model per process, or turn it off",
                            'ds_config: "zero_optimization": {"zero_hpz_partition_size": 1}',
                            reason="DeepSpeed creates the intra-node parameter group once (utils/groups.py) and asserts "
                                   "on the second")])


SPECS: Tuple[Cause, ...] = (
    cause(
    N.ZERO3_PARTITIONED_PARAM_ACCESS,
    Severity.ERROR,
    "A ZeRO-3 partitioned parameter used outside a gather (size-0 weights)",
    _partitioned_access,
    Docs(
        what="A ZeRO-3 partitioned parameter (size 0 on this rank) was used outside a gather: e.g. the model called "
              "directly instead of through the engine, or a weight read in custom code (`'weight' must be 2-D`).",
        why="Under ZeRO-3 each rank holds only its partition; the full tensor exists only inside the engine's "
              "forward or a `GatheredParameters` block.",
        fix="Gather the parameters around the code that reads them: `with "
              "deepspeed.zero.GatheredParameters(list(module.parameters()), modifier_rank=None): ...` (or run the "
              "model through the DeepSpeed engine).",
        examples=(log("zero3-partitioned-forward", "A model built under zero.Init, called outside the engine:",
                   "[rank0]:   File \"/opt/envs/venv/lib/python3.11/site-packages/torch/nn/functional.py\", line 2621, in "
                   "embedding\n"
                   "[rank0]:     return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)\n"
                   "[rank0]: RuntimeError: 'weight' must be 2-D\n"),),
        reads="log"),
    signatures=(
              msg(TK.MSG_WEIGHT_2D, "torch/nn/functional.py embedding (torch 1.x-2.14) on a size-0 ZeRO-3 weight",
                  "RuntimeError: 'weight' must be 2-D"),
              msg(TK.MSG_SIZE0_CURRENT, f"{LOAD_STATE}: the model side is a ZeRO-3 partition",
                  "size mismatch for model.layers.0.mlp.up_proj.weight: copying a param with shape torch.Size([11008, "
                  "4096]) from checkpoint, the shape in current model is torch.Size([0])."),
              rx(r"The size of tensor a \(0\) must match the size of tensor b \(\d{1,9}\)|"
                 r"The size of tensor a \(\d{1,9}\) must match the size of tensor b \(0\)",
                 "must match the size of tensor b", "ATen broadcasting check (torch 1.x-2.14) with a size-0 ZeRO-3 partition",
                 "RuntimeError: The size of tensor a (0) must match the size of tensor b (2048) at non-singleton dimension 1"),
              rx(r"shape '\[(?:-?\d{1,12}, ){0,6}0(?:, -?\d{1,12}){0,6}\]' is invalid for input of size",
                 "' is invalid for input of size", "ATen InferSize.h view/reshape (torch 1.x-2.14) to a size read from a "
                 "partitioned parameter (e.g. config.vocab_size from a size-0 embedding)",
                 "RuntimeError: shape '[-1, 0]' is invalid for input of size 1048576"),
              rx(r"The expanded size of the tensor \(\d{1,9}\) must match the existing size \(0\) at non-singleton",
                 "must match the existing size (0)", "ATen expand (torch 1.x-2.14) of a size-0 ZeRO-3 partition",
                 "RuntimeError: The expanded size of the tensor (4096) must match the existing size (0) at non-singleton "
                 "dimension 0.  Target sizes: [4096, 16, 1].  Tensor sizes: [0, 1, 1]"),
              # indexing a partition (weight[padding_idx]); named only when the log shows ZeRO-3 (explain/context.py)
              rx(r"index -?\d{1,12} " + lit(TK.MSG_INDEX_SIZE0).replace(r"(?P<dim>\S{1,200}?)", r"\d{1,3}") + r"(?!\d)",
                 TK.MSG_INDEX_SIZE0.split(" {")[0], "ATen's index bounds check (torch 1.x-2.14) on a size-0 ZeRO-3 partition",
                 "IndexError: index 0 is out of bounds for dimension 0 with size 0"),
              # a weight printed (state_dict(), a parameter) as an empty tensor: its partition on this rank
              rx(r"(?:weight|bias)'?,? tensor\(\[\], (?:device|dtype|size)=", "tensor([], ",
                 "torch Tensor repr of a size-0 ZeRO-3 partition (torch 1.x-2.14)",
                 "('model.embed_tokens.weight', tensor([], device='cuda:0', dtype=torch.bfloat16))"),
              # from_pretrained's meta-device loader (low_cpu_mem_usage, device_map, a bitsandbytes load) writing a full
              # checkpoint tensor into a zero.Init placeholder
              rx(_SET_TENSOR % (r"[\d, ]{1,60}", "0"), TK.MSG_SET_TENSOR_SHAPE, f"{SET_TENSOR}: the model side is a "
                 "ZeRO-3 partition", 'ValueError: Trying to set a tensor of shape torch.Size([32000, 4096]) in "weight" '
                 "(which has shape torch.Size([0])), this looks incorrect."),
              # torch 2.x's own checks on a 1-D size-0 weight (run on torch 2.13 and 2.14.1 CPU with torch.empty(0), the
              # partition ZeRO-3 leaves in param.data): F.linear without a bias reaches mv's size check, the norms check
              # the weight's shape
              rx(r"size mismatch, got input \(\d{1,12}\), mat \(\d{1,12}x\d{1,12}\), vec \(0\)", "), vec (0)",
                 "ATen mv's size check (aten/src/ATen/native/Blas.cpp, torch 2.x): F.linear without a bias on a "
                 "size-0 ZeRO-3 weight", "RuntimeError: size mismatch, got input (6), mat (6x4096), vec (0)"),
              rx(r"but got weight of shape \[0\] and (?:normalized_shape =|input of shape)", "got weight of shape [0]",
                 "ATen layer_norm / rms_norm / group_norm input checks (aten/src/ATen/native/layer_norm.h, "
                 "group_norm.cpp; torch 2.x) on a size-0 ZeRO-3 norm weight",
                 "RuntimeError: Expected weight to be of same shape as normalized_shape, but got weight of shape [0] "
                 "and normalized_shape = [4096]"),
              # a 1-D weight where a matrix / a conv kernel is expected: a partition only where the log shows ZeRO-3
              # (explain/context.py)
              rx(re.escape(TK.ONE_D_WEIGHT[0]), TK.ONE_D_WEIGHT[0], "ATen addmm's check (torch 2.x): F.linear with a bias on a "
                 "1-D size-0 ZeRO-3 weight", "RuntimeError: mat2 must be a matrix, got 1-D tensor"),
              rx(re.escape(TK.ONE_D_WEIGHT[1]), TK.ONE_D_WEIGHT[1], "ATen convolution's check (torch 2.x) on a 1-D size-0 "
                 "ZeRO-3 weight", "RuntimeError: weight should have at least three dimensions"),
              rx(re.escape(TK.ONE_D_WEIGHT[2]), TK.ONE_D_WEIGHT[2], "torch/nn/init.py _calculate_fan_in_and_fan_out "
                 "(torch 2.0-2.15): xavier_* re-initialising a 1-D size-0 ZeRO-3 weight",
                 "ValueError: Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"),
              rx(re.escape(TK.ONE_D_WEIGHT[3]), TK.ONE_D_WEIGHT[3], "torch/nn/init.py orthogonal_ (torch 2.0-2.15) on a "
                 "1-D size-0 ZeRO-3 weight", "ValueError: Only tensors with 2 or more dimensions are supported"),
              rx(r"shape '\[(?:-?\d{1,12}, ){0,6}-?\d{1,12}\]' " + re.escape(TK.MSG_VIEW_SIZE0) + r"(?!\d)",
                 TK.MSG_VIEW_SIZE0, "ATen InferSize.h view/reshape (torch 1.x-2.14) of a size-0 ZeRO-3 partition to "
                 "its full shape", "RuntimeError: shape '[4096, 4096]' is invalid for input of size 0"),
              frame("torch/nn/functional.py", "linear", "torch/nn/functional.py linear -> torch.addmm (torch 1.x) on a "
                    "1-D size-0 ZeRO-3 weight", "Traceback (most recent call last):\n"
                    '  File "/venv/lib/python3.7/site-packages/torch/nn/functional.py", line 1690, in linear\n'
                    "    ret = torch.addmm(bias, input, weight.t())\n"
                    "RuntimeError: tensors must be 2-D\n", exc=re.escape(TK.MSG_TENSORS_2D)),
              # a traceback cut inside the fan-in helper: its one raise (a partition only in a context, explain/context.py)
              frame(*FAN_IN, "torch/nn/init.py _calculate_fan_in_and_fan_out (torch 1.x-2.x): its one raise is the "
                    "fewer-than-2-dimensions ValueError; a traceback cut below the frame",
                    "[2023-05-02 10:11:12,345] [INFO] [partition_parameters.py:453:__exit__] finished initializing model\n"
                    "Traceback (most recent call last):\n"
                    '  File "/venv/lib/python3.9/site-packages/torch/nn/init.py", line 314, in xavier_normal_\n'
                    "    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)\n"
                    '  File "/venv/lib/python3.9/site-packages/torch/nn/init.py", line 287, in '
                    "_calculate_fan_in_and_fan_out\n", exc=r"\A\Z"))),
    cause(
    N.ZERO3_SAVED_PARTITIONED_WEIGHTS,
    Severity.ERROR,
    "Weights saved from ZeRO-3 without gathering (size-0 tensors / no weights)",
    _saved_partitioned,
    Docs(
        what="Weights saved from ZeRO-3 without gathering: loading them finds size-0 tensors (`copying a param with "
              "shape torch.Size([0])`), PEFT adapters saved empty, or accelerate/Trainer refusing to save without "
              "`stage3_gather_16bit_weights_on_model_save`.",
        why="`model.save_pretrained()` / `state_dict()` on a ZeRO-3 model writes each rank's partition (size 0) "
              "unless the 16-bit weights are gathered on save.",
        fix="Gather 16-bit weights on save (ds_config `\"zero_optimization\": "
              "{\"stage3_gather_16bit_weights_on_model_save\": true}`), or save through the Trainer "
              "(`trainer.save_model(out)`) / consolidate the checkpoint (`python <checkpoint>/zero_to_fp32.py "
              "<checkpoint> <out_dir>`). `dsdoctor lint` finds the save in the script (zero3-unsafe-save, DS510).",
        examples=(log("zero3-saved-partitioned", "Loading a LoRA adapter that was saved under ZeRO-3:",
                   "Traceback (most recent call last):\n"
                   "  File \"/home/user/proj/infer.py\", line 9, in <module>\n"
                   "    model = PeftModel.from_pretrained(base, \"out/adapter\")\n"
                   "RuntimeError: Error(s) in loading state_dict for PeftModelForCausalLM:\n"
                   "\tsize mismatch for base_model.model.model.layers.0.self_attn.q_proj.lora_B.default.weight: copying a "
                   "param with shape torch.Size([0]) from checkpoint, the shape in current model is torch.Size([4096, "
                   "16]).\n"),),
        reads="log"),
    signatures=(
              msg(TK.MSG_SIZE0_CHECKPOINT, "torch/nn/modules/module.py load_state_dict size mismatch (torch 1.x-2.14)",
                  "size mismatch for base_model.model.model.layers.0.self_attn.q_proj.lora_B.default.weight: copying a "
                  "param with shape torch.Size([0]) from checkpoint, the shape in current model is torch.Size([4096, 16])."),
              rx(_SET_TENSOR % ("0", r"[\d, ]{1,60}"), TK.MSG_SET_TENSOR_SHAPE, f"{SET_TENSOR}: the checkpoint side is an "
                 "empty partition", 'ValueError: Trying to set a tensor of shape torch.Size([0]) in "weight" (which has '
                 "shape torch.Size([32000, 4096])), this looks incorrect."),
              msg(TK.MSG_PEFT_UNGATHERED, "peft/utils/save_and_load.py, warning on save (PEFT 0.21.2)",
                  "UserWarning: Adapter 'default': 2 LoRA tensor(s) have invalid shape: "
                  "base_model.model.model.layers.0.self_attn.q_proj.lora_A.default.weight:torch.Size([0]). A 1-D or "
                  "zero-sized lora_A / lora_B tensor indicates that DeepSpeed ZeRO-3 / FSDP shards were not gathered "
                  "before save_pretrained() and are therefore incomplete."),
              msg(TK.MSG_ACCELERATE_NO_16BIT, "accelerate/accelerator.py get_state_dict (Accelerate 0.2x-1.15)",
                  "ValueError: Cannot get 16bit model weights because `stage3_gather_16bit_weights_on_model_save` in "
                  "DeepSpeed config is False. To save the model weights in 16bit, set "
                  "`stage3_gather_16bit_weights_on_model_save` to True in DeepSpeed config file or set "
                  "`zero3_save_16bit_model` to True when using `accelerate config`. To save the full checkpoint, run "
                  "`model.save_checkpoint(save_dir)` and use `zero_to_fp32.py` to recover weights."),
              msg(TK.MSG_GATHER_16BIT_FALSE, "transformers/trainer.py save_model warning (Transformers 4.2x-5.x)",
                  "stage3_gather_16bit_weights_on_model_save=false. Saving the full checkpoint instead, use "
                  "zero_to_fp32.py to recover weights", note=True)),
    predicted=N.ZERO3_UNSAFE_SAVE),
    cause(
    N.DEEPSPEED_MOVES_QUANTIZED_MODEL,
    Severity.ERROR,
    "deepspeed.initialize moved a bitsandbytes-quantized model",
    _moved_quantized,
    Docs(
        what="`deepspeed.initialize` failed while moving a bitsandbytes 4-bit/8-bit model to its GPU: Transformers "
              "raises ``ValueError: `.to` is not supported for `8-bit` bitsandbytes models``.",
        why="DeepSpeed's engine calls `module.to(device)` on the model it wraps (engine.py "
              "`_configure_distributed_model`). Transformers forbids moving 8-bit models, and 4-bit ones with "
              "bitsandbytes < 0.43.2.",
        fix="For 4-bit: `pip install 'bitsandbytes>=0.43.2'` with a current Transformers. For 8-bit: load in 4-bit "
              "instead, or keep the quantized model out of `deepspeed.initialize`.",
        examples=(log(N.DEEPSPEED_MOVES_QUANTIZED_MODEL, "An 8-bit model handed to deepspeed.initialize:",
                   "  File \"/venv/lib/python3.11/site-packages/deepspeed/runtime/engine.py\", line 1311, in "
                   "_configure_distributed_model\n"
                   "    self.module.to(self.device)\n"
                   "ValueError: `.to` is not supported for `8-bit` bitsandbytes models. Please use the model as it is, "
                   "since the model has already been set to the correct devices and casted to the correct `dtype`.\n"),),
        reads="log"),
    signatures=(
              msg(TK.MSG_BNB_TO, "transformers/modeling_utils.py PreTrainedModel.to (4.30-4.57; not in 5.x), called by DeepSpeed "
                  "engine.py _configure_distributed_model",
                  "ValueError: `.to` is not supported for `8-bit` bitsandbytes models. Please use the model as it is, "
                  "since the model has already been set to the correct devices and casted to the correct `dtype`."),)),
    cause(
    N.ZERO3_CREATE_REFERENCE_MODEL,
    Severity.ERROR,
    "TRL create_reference_model() under ZeRO-3",
    _create_reference_model,
    Docs(
        what="TRL refused to build a reference model by copying the policy: ``DeepSpeed ZeRO-3 is enabled and is not "
              "compatible with `create_reference_model()` ``.",
        why="`create_reference_model()` deep-copies the policy model; under ZeRO-3 its parameters are partitions, so "
              "the copy would share or lose them.",
        fix="Load the reference model on its own with `from_pretrained` (TRL prepares it with DeepSpeed), or with a "
              "PEFT model pass `ref_model=None` so the adapter-disabled policy serves as the reference.",
        examples=(log(N.ZERO3_CREATE_REFERENCE_MODEL, "A DPO script calling create_reference_model under ZeRO-3:",
                   "[rank0]:     raise ValueError(\n"
                   "[rank0]: ValueError: DeepSpeed ZeRO-3 is enabled and is not compatible with `create_reference_model()`. "
                   "Please instantiate your reference model directly with `AutoModelForCausalLM.from_pretrained()`.\n"),),
        reads="log"),
    signatures=(
              msg(TK.MSG_TRL_REF_MODEL, "trl/models/modeling_base.py create_reference_model (TRL 0.8-0.19, and some 0.7.x; "
                  "trl/experimental/utils.py in 1.x)",
                  "ValueError: DeepSpeed ZeRO-3 is enabled and is not compatible with `create_reference_model()`. "
                  "Please instantiate your reference model directly with `AutoModelForCausalLM.from_pretrained()`."),)),
    cause(
    N.ZERO3_PARAM_NOT_CONVERTED,
    Severity.ERROR,
    "A parameter without ZeRO-3's ds_* attributes reached ZeRO-3 code",
    _not_converted,
    Docs(
        what="ZeRO-3 code met a parameter without the `ds_*` attributes zero.Init attaches: `'Parameter' object has "
              "no attribute 'ds_numel'` / `'ds_status'` / `'ds_id'`.",
        why="Under ZeRO-3 every parameter is converted when the model is built inside zero.Init. A model built before "
              "ZeRO-3 was registered (TrainingArguments(deepspeed=...) / HfDeepSpeedConfig created after "
              "from_pretrained), a module added afterwards outside the Trainer, or model code that replaces a parameter "
              "(`self.weight = nn.Parameter(...)`) leaves plain tensors.",
        fix="Create TrainingArguments(deepspeed=...) (or keep an HfDeepSpeedConfig alive) before from_pretrained; add "
              "modules before the engine is built; in model code update parameters in place "
              "(`self.weight.data = ...`) instead of replacing them. `dsdoctor lint` finds the first one in the script "
              "(model-loaded-before-ds-config, DS502).",
        examples=(log(N.ZERO3_PARAM_NOT_CONVERTED, "The Trainer counting parameters of a model built before ZeRO-3 was set up:",
                   "  File \"/venv/lib/python3.11/site-packages/transformers/trainer_pt_utils.py\", line 1102, in numel\n"
                   "    return p.ds_numel\n"
                   "AttributeError: 'Parameter' object has no attribute 'ds_numel'\n"),),
        reads="log"),
    signatures=(
              rx(r"'Parameter' object has no attribute 'ds_[a-z_]{2,30}'", "object has no attribute 'ds_",
                 f"Python AttributeError on a parameter DeepSpeed {PARTITION} never converted (ds_numel read by "
                 "transformers trainer_pt_utils.py get_model_param_count, ds_status by the ZeRO-3 fetch; 0.8-0.19.8)",
                 "AttributeError: 'Parameter' object has no attribute 'ds_numel'",
                 "AttributeError: 'Parameter' object has no attribute 'ds_status'"),),
    predicted=N.MODEL_LOADED_BEFORE_DS_CONFIG),
    cause(
    N.ZEROPP_HPZ_SECOND_MODEL,
    Severity.ERROR,
    "ZeRO++ hpZ with a second zero.Init model in the process",
    _zeropp_hpz,
    Docs(
        what="DeepSpeed asserted `ZeRO parameter intra parallel group is already initialized`: ZeRO++ hierarchical "
              "partitioning (`zero_hpz_partition_size` > 1) was set up a second time.",
        why="With hpZ, each zero.Init creates the intra-node parameter process group; DeepSpeed allows that once per "
              "process, so a second model built under zero.Init (a vision tower and an LLM, a reference model) asserts.",
        fix="Keep hpZ to one zero.Init model per process, or set `\"zero_hpz_partition_size\": 1`.",
        examples=(log(N.ZEROPP_HPZ_SECOND_MODEL, "Two from_pretrained calls under a ZeRO++ hpZ config:",
                   "AssertionError: ZeRO parameter intra parallel group is already initialized\n"),),
        reads="log"),
    signatures=(
              msg(K.MSG_HPZ_GROUP, "deepspeed/utils/groups.py _create_zero_param_parallel_group (0.10-0.19.8)",
                  "AssertionError: ZeRO parameter intra parallel group is already initialized"),)),
)
