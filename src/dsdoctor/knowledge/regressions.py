"""Known bugs of released DeepSpeed / Transformers versions, as data: the message (or the source line of the frame)
that shows one, the releases that have it, the release that fixed it, and where that was read. No I/O.

Each row was read in the released sources (pip download of the releases around the boundary, the file diffed);
``source`` says which. explain names a release regression only from a row, never by guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

from packaging.version import Version


@dataclass(frozen=True)
class Regression:
    """A bug of ``package`` releases ``first``..``last`` (inclusive; ``first`` is the oldest release read that has
    it), fixed in ``fixed``. ``text`` is a literal every line showing it contains."""

    key: str
    package: str
    text: str
    first: str
    last: str
    fixed: str
    what: str
    source: str
    # what check can predict from installed versions: the severity ("" = nothing: the bug needs more than versions
    # to show), and the API whose absence in another installed package the bug needs ((package, module, name):
    # e.g. torch's torch.compiler.is_compiling; answered by knowledge/api_history, never guessed)
    predict: str = ""
    needs_missing: Tuple[Tuple[str, str, str], ...] = ()
    shows: str = ""  # how a run meets it, for check's message ("`import deepspeed` fails")

    def affects(self, ver: Optional[Version]) -> bool:
        """``ver`` has the bug (False when the log shows no version)."""
        return ver is not None and Version(self.first) <= ver <= Version(self.last)


DS_TRITON_CIRCULAR_IMPORT = Regression(
    "triton-circular-import", "deepspeed",
    "from partially initialized module 'deepspeed.model_implementations.transformers.ds_transformer'",
    "0.12.0", "0.19.7", "0.19.8",
    "with triton installed, `import deepspeed` can fail in an import cycle: ds_transformer.py imports "
    "deepspeed.ops.transformer.inference.triton.mlp at module level, whose package __init__ imports ds_transformer "
    "again",
    "deepspeed/model_implementations/transformers/ds_transformer.py: module-level `if deepspeed.HAS_TRITON: from "
    "deepspeed.ops.transformer.inference.triton.mlp import TritonMLP` in the 0.12.0-0.19.7 sdists read; 0.19.8 "
    "imports it inside DeepSpeedTransformerInference.__init__")

DS_TORCH_IS_COMPILING = Regression(
    "torch-compiler-is-compiling", "deepspeed",
    "module 'torch.compiler' has no attribute 'is_compiling'",
    "0.15.3", "0.15.3", "0.15.4",
    "DeepSpeed 0.15.3's logger calls torch.compiler.is_compiling(), which older torch releases do not have",
    "deepspeed/utils/logging.py: `torch.compiler.is_compiling()` in 0.15.3 (0.15.2 has none); 0.15.4 calls "
    "deepspeed.runtime.compiler.is_compiling, which falls back to torch._dynamo's or False; torch.compiler."
    "is_compiling is in the torch 2.3.0-2.15.0 wheels, not in 2.0.0-2.2.2",
    predict="error", needs_missing=(("torch", "torch.compiler", "is_compiling"),),
    shows="`import deepspeed` fails with AttributeError: module 'torch.compiler' has no attribute 'is_compiling'")

TF_TMP_CHECKPOINT = Regression(
    "tmp-checkpoint-rename", "transformers",
    "tmp-checkpoint-",
    "4.36.0", "4.38.2", "4.39.0",
    "Trainer._save_checkpoint writes each checkpoint to `tmp-checkpoint-N` and renames it to `checkpoint-N` once "
    "all ranks are done (4.36), then removes the staging dir (4.38); on a shared filesystem, with "
    "save_on_each_node, or when one rank renames first, another rank's rename or rmtree finds the directory gone "
    "or not empty",
    "transformers/trainer.py _save_checkpoint: `staging_output_dir = os.path.join(run_dir, f\"tmp-{checkpoint_folder}\")` "
    "and `os.rename(staging_output_dir, output_dir)` in the 4.36.0-4.38.2 wheels (4.38: `shutil.rmtree("
    "staging_output_dir)` too); 4.35.2 and 4.39.0 save to checkpoint-N directly",
    predict="info", shows="a multi-node run saving to shared storage (or with save_on_each_node) can fail in "
    "Trainer._save_checkpoint (FileNotFoundError / Directory not empty on tmp-checkpoint-N)")

DEEPSPEED: Tuple[Regression, ...] = (DS_TRITON_CIRCULAR_IMPORT, DS_TORCH_IS_COMPILING)
ALL: Tuple[Regression, ...] = (*DEEPSPEED, TF_TMP_CHECKPOINT)


def deepspeed_bug(text: str, ver: Optional[Version] = None, *, any_version: bool = False) -> Optional[Regression]:
    """The DeepSpeed bug a line shows: one whose text it contains, in the log's DeepSpeed release (any release
    with ``any_version``, for a text only that bug prints)."""
    for reg in DEEPSPEED:
        if reg.text in text and (any_version or reg.affects(ver)):
            return reg
    return None
