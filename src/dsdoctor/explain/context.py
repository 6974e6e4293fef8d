"""Decisions that read the rest of the log: which cause a line names when that depends on what else the log shows.

- Transformers 4.20-4.50 print one message for ``low_cpu_mem_usage`` and ``device_map`` under ZeRO-3: the call
  line in the user's frame says which argument it passed; a log that also shows ZeRO-3 refusing a quantized model's
  weights is that quantized model (its loader passed the argument).
- A ZeRO-3 placeholder (size 0) written into by a load is the quantized-model conflict when the log shows a
  bitsandbytes-quantized load (``load_in_4bit``, ``--use_4bit_quantization``, ``bnb_4bit_*``, QLoRA, ...): the
  quantized loader, not a plain read of a partition.
- Messages that name a cause only in a context (an empty tensor indexed or viewed, a 1-D weight where torch wants a
  matrix: a ZeRO-3 partition, also without a ZeRO-3 line where Transformers' own weight initialisation raised it, since
  the model declares that weight a matrix; an integer tensor asked to require gradients: a quantized model
  under ZeRO-3; a meta tensor copied inside zero.Init: a quantized load; torch's default process group never
  initialized: a start without a launcher, unless the log shows one; the Trainer's DeepSpeedEngine calls on a bare
  model or on accelerate's placeholder optimizer: a start without a launcher, unless the log shows one, an Accelerate
  >= 1.0.0, or the user's own frame making the call; the Trainer's "requires `accelerate`": a notebook kernel that
  kept transformers' answer from its import, only in a notebook's log) are dropped when the log does not show that
  context: an honest ``unknown`` is better than a wrong specific cause.
- A DeepSpeed release regression's own line (``knowledge/regressions.py``) is dropped when the log shows a
  DeepSpeed release outside the row's affected range: that release does not have the bug.
- A collective that hangs (an NCCL timeout, a dump inside a collective) in a ZeRO-3 run of a sparse-MoE model whose
  MoE block is not a ZeRO-3 leaf module (:func:`_moe_not_leaf`) is that MoE block: its ranks route tokens to different
  experts, so ZeRO-3's per-module all-gathers differ between ranks.
- Transformers' ``Can't find a valid checkpoint at <dir>`` is a folder without DeepSpeed's engine state only where
  the log shows a DeepSpeed run (without DeepSpeed the Trainer's own loader says it of a folder with no weights).
- A pin's call line from a rich traceback read without its header names a failed pin only where the log shows no
  other exception; an out-of-memory error raised by a pin call is host memory the driver could not pin, also when
  torch names it ``OutOfMemoryError`` (``causes/pinned.py``).
- DeepSpeed's deprecated ``mpu.get_model_parallel_rank`` branch is Ulysses' sequence-parallel mpu only from the
  release that added that mpu on: a log showing an older DeepSpeed names no cause there.

The context lines are the scanner's marks (:data:`MARKS`, read by literal, so the prefilter passes them); a
mark that turns the option off (``load_in_4bit=False``) does not count.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, List, Optional, Tuple

from packaging.version import Version

from .. import names as N
from ..knowledge import deepspeed as KDS
from ..knowledge import distributed as KD
from ..knowledge import transformers as TK
from ..knowledge.versions import parse, v
from . import failure as FM
from .causes import Advice
from .causes import pinned as PM
from .causes import regressions as RG
from .causes.launch import MPI_FAILED
from .causes.loading import zero3_both
from .causes.zero3_params import FAN_IN, MODEL_INIT, model_init_advice

if TYPE_CHECKING:  # match imports MARKS from here
    from .match import Frame, Hit, Scanner

ZERO3 = "zero3"
QUANTIZED = "quantized"
LAUNCHED = "launched"
MOE = "moe"  # a sparse-MoE model
MOE_LEAF = "moe-leaf"  # the run registered its MoE block as a ZeRO-3 leaf itself
NOTEBOOK = "notebook"  # the log is a notebook's (Colab / Jupyter traceback forms)
# (kind, literal): a line holding the literal shows the context. ZeRO-3: its messages, a config's stage, a config name;
# not "stage3_*" keys (DeepSpeed prints them in every stage's config dump).
MARKS: Tuple[Tuple[str, str], ...] = (
    *((ZERO3, lit) for lit in ("ZeRO-3", "Zero-3", "zero3", "ZeRO3", "Zero3", "ZeRO Stage 3", "ZeRO stage 3",
                               '"stage": 3', "zero_stage=3", "zero_stage: 3", "ds_z3",
                               # DeepSpeed's log lines from zero.Init's module (ZeRO-3 only): "finished initializing model"
                               "[partition_parameters.py:")),
    # (and a traceback through ZeRO-3's modules: _FRAMES, read from the frames, not marked: a warning every step
    # names stage3.py, and every line holding a literal is read whole)
    # a launcher started the run: its own lines or its command
    *((LAUNCHED, lit) for lit in ("[launch.py:", "launcher/launch.py", "torch.distributed.run", "torch.distributed.launch",
                                  "torchrun", "deepspeed --", "deepspeed.launcher", "accelerate launch", "srun ",
                                  "mpirun", "WORLD_SIZE=", "--local_rank", "--local-rank")),
    # (not rank prefixes: explain reads a log the same with or without them, tests/test_explain_cases.py)
    *((QUANTIZED, lit) for lit in ("load_in_4bit", "load_in_8bit", "_4bit_quant", "_8bit_quant", "BitsAndBytesConfig",
                                   "quantization_bit", "q_lora", "qlora", "QLoRA", "QLora", "Linear4bit",
                                   "Linear8bitLt", "Params4bit", "Int8Params")),
    *((MOE, lit) for lit in TK.MOE_DEFAULT_LEAF + TK.MOE_OTHER + TK.MOE_CONFIG_KEYS),
    *((MOE_LEAF, lit) for lit in TK.MOE_LEAF_SET),
    *((NOTEBOOK, lit) for lit in TK.NOTEBOOK_MARKS),
)
_FRAMES = {ZERO3: ("zero/stage3.py", "zero/partition_parameters.py")}
# the option written off: "load_in_4bit=False", "--use_4bit_quantization False", "quantization_bit: null"
_OFF = re.compile(r"(?:load_in_[48]bit|[48]bit_quantization|q_?lora|quantization_bit)[\"']?\s{0,3}[=:]?\s{0,3}[\"']?"
                  r"(?:False|false|None|none|null|0)\b")
# a load writing a full tensor into a ZeRO-3 placeholder (accelerate's set_module_tensor_to_device, load_state_dict)
_LOAD_INTO_PLACEHOLDER = (TK.MSG_SET_TENSOR_SHAPE, TK.MSG_SIZE0_CURRENT)
_INDEX_SIZE0 = TK.MSG_INDEX_SIZE0.split(" {")[0]
# size-0 / 1-D messages other tensors print too, and the frame line of a traceback cut inside the fan-in helper
_ZERO3_ONLY = (_INDEX_SIZE0, TK.MSG_VIEW_SIZE0, *TK.ONE_D_WEIGHT, f"in {FAN_IN[1]}")
INT_REQUIRES_GRAD = "dtype can require gradients"  # torch (c10 autograd): requires_grad on an integer tensor
META_COPY = "Cannot copy out of meta tensor"  # torch: .to()/copy of a meta tensor (no data)
# Transformers' message, and the functions that raise it without DeepSpeed (trainer.py; 4.5-4.18 in train, then
# _load_from_checkpoint: a folder with no model weights); the source line quoted in a cut traceback is DeepSpeed's
_BARE_NO_CHECKPOINT = TK.MSG_NO_DS_CHECKPOINT + " "
_HF_OWN_LOADERS = ("_load_from_checkpoint", "train")


def shows(sc: "Scanner", kind: str) -> bool:
    """The log has a line showing ``kind`` (:data:`ZERO3`, :data:`QUANTIZED`) that does not turn it off: a marked
    line, or a traceback's frame (its path, or its source line: the scanner reads those as structure)."""
    if any(not _OFF.search(m.text) for m in sc.marks.get(kind, ())):
        return True
    lits = [lit for k, lit in MARKS if k == kind] + list(_FRAMES.get(kind, ()))
    return any(any(lit in t for lit in lits) and not _OFF.search(t)
               for tb in sc.tracebacks for f in tb.frames for t in (f.path, f.code))


def decide(name: str, hits: List["Hit"], sc: "Scanner", fr: Optional["Frame"]) -> Tuple[str, Optional[Advice]]:
    """The cause ``hits`` (the first one's line) show in this log: ``name``, another name with its advice when the
    decision writes one, or ``""`` when the line names no cause without a context the log does not show."""
    text = hits[0].text
    if name == N.ZERO3_LOW_CPU_MEM_USAGE_CONFLICT:
        return (N.ZERO3_QUANTIZED_MODEL_CONFLICT, None) if _quantized_refused(sc) else _combined(text, fr)
    if name == N.ZERO3_PARTITIONED_PARAM_ACCESS and any(m in text for m in _LOAD_INTO_PLACEHOLDER) and shows(sc, QUANTIZED):
        return N.ZERO3_QUANTIZED_MODEL_CONFLICT, None
    if name == N.DISTRIBUTED_LAUNCHER_MISSING and KD.MSG_NO_DEFAULT_PG[:40] in text and shows(sc, LAUNCHED):
        return "", None
    if name == N.DISTRIBUTED_LAUNCHER_MISSING and _engine_call(text) and not _engine_unwrapped(sc, fr):
        return "", None
    if name == N.NOTEBOOK_RESTART_AFTER_INSTALL and not shows(sc, NOTEBOOK):
        return "", None  # a fresh process: accelerate is missing or too old, as the message says
    if name == N.ZERO3_PARTITIONED_PARAM_ACCESS and any(m in text for m in _ZERO3_ONLY):
        if _model_init(sc):
            return name, model_init_advice()
        if not shows(sc, ZERO3):
            return "", None  # an empty tensor indexed or viewed, a 1-D weight: a partition only where the log shows ZeRO-3
    if name == N.LAUNCHER_MPI_DISCOVERY and KDS.MSG_MPI_DISCOVERY_INFO in text and _hostname_handled(sc):
        return "", None
    if name == N.DEEPSPEED_RELEASE_REGRESSION and RG.vetoed(text, _shown_ds(sc)):
        return "", None  # a known bug's line from a release the log shows does not have that bug
    if name == N.SEQUENCE_PARALLEL_MPU_ZERO0 and (_shown_ds(sc) or v(KDS.SP_MPU_SINCE)) < v(KDS.SP_MPU_SINCE):
        return "", None  # a release before Ulysses' mpu existed: another mpu reached that branch
    if name == N.NCCL_TIMEOUT and _moe_not_leaf(sc):
        return N.ZERO3_MOE_NOT_LEAF_MODULE, None
    if name == N.DEEPSPEED_CHECKPOINT_STATE_MISSING and _BARE_NO_CHECKPOINT in text and _BARE_NO_CHECKPOINT + "{" not in text \
            and not _deepspeed_resume(sc):
        return "", None  # the Trainer's own branch (no DeepSpeed: a folder without model weights) prints it too
    if name == N.PINNED_MEMORY_ALLOC_FAILED and "\u2771" in text and _other_exception(sc):
        return "", None  # a pin's rich call line read alone: another exception is what the log shows raised
    if name == N.GPU_OOM and PM.raised_by_pin(hits[0], sc):
        return N.PINNED_MEMORY_ALLOC_FAILED, None  # host memory the driver could not pin, whatever torch names it
    if name == N.ZERO3_QUANTIZED_MODEL_CONFLICT:
        if INT_REQUIRES_GRAD in text and not shows(sc, ZERO3):
            return "", None
        if META_COPY in text and not shows(sc, QUANTIZED):
            return "", None
    return name, None


def _model_init(sc: "Scanner") -> bool:
    """A torch init function called by Transformers' own weight initialisation (a frame of from_pretrained's
    ``_initialize_weights`` or a model's ``_init_weights`` in Transformers or remote code, torch/nn/init.py below
    it): the model declares that weight as a matrix, so a 1-D one there is a ZeRO-3 partition."""
    for tb in sc.tracebacks:
        paths = [(f.path.replace("\\", "/"), f.func) for f in tb.frames]
        for i, (path, func) in enumerate(paths):
            if func in MODEL_INIT and "transformers" in path and any(p.endswith(FAN_IN[0]) for p, _ in paths[i + 1:]):
                return True
    return False


def _other_exception(sc: "Scanner") -> bool:
    """The log shows an exception that is not a failed pin's (another CUDA error, an interrupt): a pin's call line
    read without its traceback is then not known to be what raised."""
    shown = [tb.exc_text for tb in sc.tracebacks if tb.exc_text]
    shown += [h.text for h in sc.failures if h.name in (FM.EXCEPTION, FM.INTERRUPTED)]
    return any(PM.not_a_pin(t) for t in shown)


def _deepspeed_resume(sc: "Scanner") -> bool:
    """The log shows that the Trainer resumed under DeepSpeed, where ``Can't find a valid checkpoint at`` means a folder
    without ``global_step*`` (integrations/deepspeed.py deepspeed_load_checkpoint): a DeepSpeed frame, release, launcher
    or ZeRO-3 line, and no traceback raising in the Trainer's own loader (``_load_from_checkpoint``: no DeepSpeed, no
    weights)."""
    frames = [f for tb in sc.tracebacks for f in tb.frames]
    if any(tb.frames[-1].func in _HF_OWN_LOADERS and tb.frames[-1].path.endswith("transformers/trainer.py")
           for tb in sc.tracebacks if tb.frames):  # raised by the Trainer's own loader
        return False
    return (shows(sc, ZERO3) or "deepspeed" in sc.versions or any("deepspeed" in f.path for f in frames)
            or any("deepspeed" in m.text or "[launch.py:" in m.text for m in sc.marks.get(LAUNCHED, ())))


def _engine_call(text: str) -> bool:
    """The line is a DeepSpeedEngine call on an object that is not one (the model's ``save_checkpoint``, accelerate's
    placeholder optimizer's ``step``)."""
    return any(m.split("{cls}")[-1] in text for m in (KD.MSG_NO_ENGINE_SAVE, KD.MSG_DUMMY_OPTIM_STEP))


def _engine_unwrapped(sc: "Scanner", fr: Optional["Frame"]) -> bool:
    """The engine's call failed because no launcher started the process (the Trainer with Accelerate < 1.0.0): the
    log shows no launcher, no Accelerate release that initializes DeepSpeed in a plain process, and save_checkpoint is
    not the user's own call (their object was never deepspeed.initialize's engine: their bug, not the launch)."""
    shown = sc.versions.get("accelerate")
    if shown is not None and (parse(shown[0]) or v("0")) >= v(KD.ACCELERATE_WRAPS_PLAIN_PROCESS):
        return False
    own = fr is not None and "save_checkpoint" in (fr.code or "")  # (a DummyOptim's step is an Accelerate loop's own)
    return not own and not shows(sc, LAUNCHED)


def _quantized_refused(sc: "Scanner") -> bool:
    """The log also shows ZeRO-3 refusing a quantized model's weights (a line of the quantized-model conflict, in its
    context): the loader's device_map / low_cpu_mem_usage (a quantized load passes them) was its first symptom, and
    removing the argument only leads to that line (people paste both steps)."""
    return any(decide(N.ZERO3_QUANTIZED_MODEL_CONFLICT, [h], sc, None)[0] == N.ZERO3_QUANTIZED_MODEL_CONFLICT
               for h in sc.hits.get(N.ZERO3_QUANTIZED_MODEL_CONFLICT, ()))


def _shown_ds(sc: "Scanner") -> Optional[Version]:
    """The DeepSpeed release the log shows (the first one), or None."""
    shown = sc.versions.get("deepspeed")
    return parse(shown[0]) if shown else None


def _moe_not_leaf(sc: "Scanner") -> bool:
    """A collective hang in a ZeRO-3 run of a sparse-MoE model that is not a ZeRO-3 leaf: the log shows ZeRO-3 and an
    MoE model, not that the run registered a leaf, and either an MoE family DeepSpeed does not make a leaf by default
    or a DeepSpeed older than its default leaves (0.18.0; the families and keys: knowledge/transformers.py)."""
    if not (shows(sc, ZERO3) and shows(sc, MOE)) or shows(sc, MOE_LEAF):
        return False
    texts = [m.text for m in sc.marks.get(MOE, ())] + [f.path for tb in sc.tracebacks for f in tb.frames]
    if any(lit in t for t in texts for lit in TK.MOE_OTHER):
        return True
    ds = _shown_ds(sc)
    return ds is not None and ds < v(KDS.Z3_LEAF_CONFIG_SINCE)


def _hostname_handled(sc: "Scanner") -> bool:
    """MPI discovery's `hostname -I` failed where DeepSpeed falls back (the log shows a release that does) and
    nothing else of MPI failed: the hostname line is not what ended the run."""
    ds = _shown_ds(sc)
    if ds is None or ds < v(KDS.MPI_HOSTNAME_FALLBACK_SINCE):
        return False
    failed = [h.text for h in sc.symptoms] + [t.exc_text for t in sc.tracebacks if t.exc_text]
    return not any(re.search(MPI_FAILED, t) for t in failed)


def _combined(text: str, fr: Optional["Frame"]) -> Tuple[str, Optional[Advice]]:
    """Transformers 4.20-4.50's combined ZeRO-3 message: which argument did the call pass?"""
    if TK.MSG_ZERO3_LOW_MEM_411 in text or TK.MSG_ZERO3_LOW_MEM_419 in text:
        return N.ZERO3_LOW_CPU_MEM_USAGE_CONFLICT, None
    # 4.20-4.50's one message for both arguments, or a cut line that could be either
    code = fr.code if fr else ""
    dm, low = "device_map" in code, "low_cpu_mem_usage" in code
    if dm and not low:
        return N.ZERO3_DEVICE_MAP_CONFLICT, None
    if low and not dm:
        return N.ZERO3_LOW_CPU_MEM_USAGE_CONFLICT, None
    return N.ZERO3_LOW_CPU_MEM_USAGE_CONFLICT, zero3_both(text)
