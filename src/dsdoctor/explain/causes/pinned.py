"""Pinned (page-locked) host memory that could not be allocated: torch's ``pin_memory()`` failing with CUDA's ``out of
memory`` (cudaHostAlloc), under DeepSpeed's offload buffers or a DataLoader's batches. The GPU's memory is not what ran
out, so GPU-memory advice (smaller batches, the allocator's settings) does not apply. The messages live in
``knowledge/cuda.py``, DeepSpeed's pinning call and the releases that honour ``pin_memory`` in ``knowledge/ds_ops.py``.

A rich traceback pasted without its header is not read as a traceback (its frames are not parsed): its call line
(``❱ 217 │ return tensor.pin_memory()``) is matched as a line, and names the cause only where the log shows no other
exception or interrupt (``context.decide``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Tuple

from ... import fixes as F
from ... import names as N
from ...knowledge import cuda as CK
from ...knowledge import deepspeed as K
from ...knowledge.versions import v
from ...model import Severity
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, code_fix, frame, log, rx

if TYPE_CHECKING:
    from ..match import Hit, Scanner

# the exception a failed pin raises: CUDA's out of memory (cudaHostAlloc), in torch's forms (knowledge/cuda.py)
PIN_OOM = "%s|%s" % (re.escape(CK.MSG_CUDA_ERROR_OOM), re.escape(CK.MSG_THC_OOM))
# a source line whose one call is a pin of a named tensor: "return data.pin_memory(device)", "buf = t.pin_memory()"
PIN_CALL = r"^(?:return\s{1,4}|[\w.\[\]]{1,80}\s{0,2}=\s{0,2})?[\w.\[\]]{1,80}\.pin_memory\([\w.=\s'\"]{0,60}\)\s{0,4}$"
_ACCEL = "|".join("^%s\\s{0,4}$" % re.escape(src) for src in K.SRC_ACCELERATOR_PIN)
_RICH = r"❱\s{0,4}\d{1,7}\s{0,4}[│|][│|\s]{0,40}"  # rich's call line: the line its frame was running
_PIN_RX = re.compile(PIN_OOM)
_DS_OFFLOAD = ('ds_config: "zero_optimization": {"offload_optimizer": {"device": "cpu", "pin_memory": false}, '
               '"offload_param": {"device": "cpu", "pin_memory": false}}')
_SAMPLE_TB = ("Traceback (most recent call last):\n"
              '  File "/venv/lib/python3.10/site-packages/deepspeed/accelerator/cuda_accelerator.py", line 215, in pin_memory\n'
              "    return tensor.pin_memory()\n")


def _pinned(s: Seen, f: LogFacts) -> Advice:
    old = f.ds is not None and f.ds < v(K.ZERO12_PIN_CONFIG_SINCE)
    ds_fix = code_fix("DeepSpeed's offload: keep its CPU buffers unpinned", _DS_OFFLOAD,
                      reason=f"pinned is only faster to copy; the default is true from DeepSpeed {K.PIN_MEMORY_DEFAULT_TRUE_FROM}; "
                             "ZeRO-3 pins its CPU copies of offloaded parameters in every release: offload only the "
                             "optimizer if that is still too much")
    upgrade = F.pip_fix(f"deepspeed>={K.ZERO12_PIN_CONFIG_SINCE}", f"ZeRO-1/2 on DeepSpeed < {K.ZERO12_PIN_CONFIG_SINCE}: "
                        "upgrade, those releases pin the offload buffers whatever pin_memory says")
    fixes = [upgrade, ds_fix] if old else [ds_fix] + ([upgrade] if f.ds is None else [])
    fixes.append(code_fix("If a DataLoader pins the batches (the failing frame is torch's pin_memory.py)",
                          "DataLoader(..., pin_memory=False)   # Trainer: TrainingArguments(dataloader_pin_memory=False)"))
    native = code_fix("On WSL2, train on native Linux: its driver caps pinned memory far below the RAM",
                      "uname -r   # a WSL2 kernel's name ends in microsoft-standard-WSL2",
                      reason="elsewhere pinned memory is RAM locked for good: it cannot exceed what is free (free -g)")
    fixes = [native] + fixes if f.platform == "wsl" else fixes + [native]
    if _PIN_RX.search(s.text):
        return Advice("Pinning (page-locking) host memory failed: CUDA could not allocate pinned memory for a CPU buffer; "
                      "the GPU's memory is not what ran out", "", fixes)
    return Advice("The run failed in pin_memory(), page-locking a CPU buffer: most often CUDA could not allocate the "
                  "pinned memory (out of memory), not the GPU's", "", fixes)


def not_a_pin(text: str) -> bool:
    """``text`` (an exception line) is not what a failed pin raises."""
    return not _PIN_RX.search(text)


def raised_by_pin(hit: "Hit", sc: "Scanner") -> bool:
    """``hit``'s line is the exception of a traceback whose innermost frame is a pin call (torch may name a failed
    cudaHostAlloc an OutOfMemoryError: it is host memory all the same)."""
    pin = re.compile(PIN_CALL)
    return any(tb.source == hit.source and tb.exc_line == hit.line and tb.frames and pin.search(tb.frames[-1].code)
               and _PIN_RX.search(tb.exc_text) for tb in sc.tracebacks)


SPECS: Tuple[Cause, ...] = (
    cause(
    N.PINNED_MEMORY_ALLOC_FAILED,
    Severity.ERROR,
    "Pinned (page-locked) host memory could not be allocated",
    _pinned,
    Docs(
        what="torch's `pin_memory()` failed with CUDA's `out of memory` (`RuntimeError: CUDA error: out of memory`, "
             "`torch.AcceleratorError` in torch 2.8+): the pin of a CPU buffer by DeepSpeed's offload (its "
             "accelerator's `pin_memory`) or by a DataLoader. A traceback cut at DeepSpeed's pinning call counts too.",
        why="Pinned memory is host RAM the CUDA driver locks (cudaHostAlloc) so the GPU can copy it directly; when the "
            "driver cannot lock more, CUDA reports out of memory although the GPU has room. ZeRO-Offload pins its CPU "
            "optimizer buffers (and ZeRO-3 its offloaded parameters' CPU copies), which can be most of the RAM; WSL2's "
            "driver caps pinned memory far below the RAM (NVIDIA's CUDA on WSL, known limitations). A smaller batch or "
            "the GPU allocator's settings change nothing here.",
        fix='Keep the buffers unpinned: `"pin_memory": false` in `offload_optimizer` / `offload_param` (ZeRO-1/2 '
            "honour it from DeepSpeed 0.10.1; it defaults to true from 0.19.5), `DataLoader(pin_memory=False)` for a "
            "loader's batches; on WSL2 train on native Linux.",
        examples=(log("pinned-memory-offload-oom", "ZeRO-2 with optimizer offload pinning its gradient buffer at start:",
                      "[rank0]:   File \"/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/stage_1_and_2.py\", line "
                      "425, in __init__\n"
                      "[rank0]:     self.temp_grad_buffer_for_cpu_offload = get_accelerator().pin_memory(\n"
                      "[rank0]:   File \"/venv/lib/python3.10/site-packages/deepspeed/accelerator/cuda_accelerator.py\", line "
                      "204, in pin_memory\n"
                      "[rank0]:     return tensor.pin_memory()\n"
                      "[rank0]: RuntimeError: CUDA error: out of memory\n"),),
        reads="log"),
    signatures=(
              frame("accelerator.py", "*", "deepspeed/accelerator/*_accelerator.py pinning a CPU buffer (cuda_accelerator.py "
                    "pin_memory 0.8.0-0.19.4, abstract_accelerator.py _pin_memory 0.19.5, _torch_pin_memory / "
                    "_torch_empty_pinned 0.19.7-0.19.8) as the innermost frame: CUDA's out of memory, or the log cut there",
                    _SAMPLE_TB + "RuntimeError: CUDA error: out of memory\n", _SAMPLE_TB,
                    exc=r"^$|" + PIN_OOM, code=_ACCEL),
              frame(".py", "*", "torch's Tensor.pin_memory (cudaHostAlloc through C10_CUDA_CHECK, torch 1.8-2.14; THC "
                    "before) called alone on the innermost frame's line, e.g. torch/utils/data/_utils/pin_memory.py "
                    "pin_memory (a DataLoader with pin_memory=True)",
                    "Traceback (most recent call last):\n"
                    '  File "/venv/lib/python3.11/site-packages/torch/utils/data/_utils/pin_memory.py", line 70, in pin_memory\n'
                    "    return data.pin_memory(device)\n"
                    "torch.AcceleratorError: CUDA error: out of memory\n",
                    exc=PIN_OOM, code=PIN_CALL),
              *(rx(_RICH + re.escape(src), src, "the same call line as rich.traceback prints it (❱ marks the line its "
                   "frame was running), a paste that lost the box's header", f"│ ❱ 215 │   │   {src}   │")
                for src in K.SRC_ACCELERATOR_PIN)),
),
)
