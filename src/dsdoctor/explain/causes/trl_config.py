"""Causes in fine-tuning code's own argument checks: TRL's GRPO (and RLOO) generation batch that does not hold whole
groups of ``num_generations`` completions; a LoRA script's refusal of ZeRO-3 for the layers it trains in full through
PEFT's ``modules_to_save`` (Qwen's finetune.py). The messages live in ``knowledge/trl.py`` and ``knowledge/qwen.py``."""

from __future__ import annotations

from typing import List, Optional, Tuple

from ... import names as N
from ...knowledge import qwen as QWEN
from ...knowledge import trl as TRL
from ...model import Fix, Severity
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, code_fix, log, msg

GRPO = "trl/trainer"


def _num(text: Optional[str]) -> int:
    return int(text) if text and text.isdigit() else 0


def _generations(s: Seen, f: LogFacts) -> Advice:
    g = s.groups
    gens, procs, batch = _num(g.get("gens")), _num(g.get("procs")), _num(g.get("batch"))
    steps, size = _num(g.get("steps")) or 1, _num(g.get("size"))
    knob = "per_device_eval_batch_size" if "eval batch size" in s.text else "per_device_train_batch_size"
    total = size or procs * batch * steps
    gen_knob = TRL.EVAL_GENERATIONS_KNOB if "used for evaluation" in s.text else "num_generations"
    facts = (f"Here {total} completion(s) per generation batch, not a multiple of {gen_knob}={gens}."
             if total and gens else "")
    fixes: List[Fix] = []
    if gens and procs and batch:
        fit = next(b for b in range(batch, batch + gens + 1) if (procs * b * steps) % gens == 0)
        fixes.append(code_fix(f"Raise {knob} to {fit} (a batch that holds whole groups of {gens} completions)",
                              f"--{knob} {fit}", reason=f"{procs} process(es) x {fit}" + (f" x {steps}" if steps > 1 else "")
                              + f" = {procs * fit * steps}, a multiple of {gens}"))
    else:
        fixes.append(code_fix("Make the generation batch (by default num_processes x per_device_train_batch_size x "
                              "gradient_accumulation_steps) a multiple of num_generations",
                              "--per_device_train_batch_size <num_generations>   # or any value making the product a "
                              "multiple of it",
                              "--generation_batch_size <a multiple of num_generations and of the global batch>   # TRL "
                              ">= 0.20, where you set it"))
    divisors = [n for n in range(2, total + 1) if total % n == 0 and n < gens] if total and gens else []
    if divisors or not (total and gens):  # a batch of 1 completion has no group of 2 or more
        fixes.append(code_fix(f"Or lower {gen_knob} to a divisor of the generation batch (at least 2)",
                              f"--{gen_knob} {divisors[-1]}" if divisors else f"--{gen_knob} <a divisor of the "
                              "generation batch, >= 2>",
                              reason=f"TRL counts per_device_train_batch_size in completions from "
                                     f"{TRL.GRPO_BATCH_SINCE}: a config written for 0.14 (a batch of prompts) needs a "
                                     "batch num_generations times larger"))
    return Advice("TRL's GRPO batch does not hold whole groups of num_generations completions per prompt", "", fixes,
                  facts=facts)


def _modules_to_save(s: Seen, f: LogFacts) -> Advice:
    return Advice("LoRA on a base model trains its embedding and output layers in full (PEFT modules_to_save), and the "
                  "script refuses that under DeepSpeed ZeRO-3", "",
                  [code_fix("Run the LoRA fine-tuning of a base model with ZeRO-2",
                            f"--deepspeed {QWEN.ZERO2_CONFIG}   # instead of the ZeRO-3 config",
                            reason="the script's LoRA recipes use ZeRO-2 by default: ZeRO-2 keeps whole parameters on "
                                   "every GPU, so the full copies of the embedding and output layers train normally"),
                   code_fix("Or LoRA-fine-tune the chat model of the same size (it needs no modules_to_save)",
                            "--model_name_or_path Qwen/Qwen-7B-Chat   # the base model's chat release",
                            reason="a chat model already knows the ChatML special tokens, so only the LoRA weights train"),
                   code_fix("Or, when your data adds no special tokens, train no full layers and keep ZeRO-3",
                            f"modules_to_save = None   # in finetune.py, instead of {QWEN.MODULES_TO_SAVE}",
                            reason="without new tokens to learn the embeddings can stay frozen; then remove the check "
                                   "above it that raises this error",
                            applicability="unsafe")])


SPECS: Tuple[Cause, ...] = (
    cause(
    N.GRPO_GENERATIONS_NOT_DIVIDING_BATCH,
    Severity.ERROR,
    "TRL GRPO: the generation batch is not a multiple of num_generations",
    _generations,
    Docs(
        what="TRL's GRPO (or RLOO) trainer refused its arguments: the completions generated per batch (num_processes x "
              "per_device_train_batch_size, x gradient_accumulation_steps / steps_per_generation in later releases) "
              "are not a multiple of `num_generations`: `The global train batch size (1 x 1) must be evenly divisible "
              "by the number of generations per prompt (4)` (TRL 0.15-0.16), `The effective train batch size (...)` "
              "(0.17-0.19), `generation_batch_size (N) must be divisible by num_generations (G)` (0.20 on).",
        why="GRPO compares each completion with the other completions of the same prompt, so a generation batch must "
              "hold whole groups of `num_generations` completions. From TRL 0.15 `per_device_train_batch_size` counts "
              "completions, not prompts (0.14 repeated each prompt `num_generations` times): a config that ran on 0.14 "
              "(batch 1, 4 generations) fails after an upgrade.",
        fix="Raise `per_device_train_batch_size` (or the accumulation steps / GPUs) until num_processes x "
              "per_device_train_batch_size x gradient_accumulation_steps is a multiple of `num_generations`, or lower "
              "`num_generations` to one of the valid values the message lists (at least 2); for the eval batch, "
              "`per_device_eval_batch_size` alike (`num_generations_eval` from TRL 0.26.2).",
        examples=(log(N.GRPO_GENERATIONS_NOT_DIVIDING_BATCH, "a GRPO run on 2 GPUs with a batch of 1 and 8 generations "
                      "(TRL 0.17):",
                   "[rank1]: ValueError: The effective train batch size (2 x 1 x 1) must be evenly divisible by the "
                   "number of generations per prompt (8). Given the current effective train batch size, the valid "
                   "values for the number of generations are: [2].\n"),),
        reads="log"),
    signatures=(
        msg(TRL.MSG_GRPO_GLOBAL_TRAIN, f"{GRPO}/grpo_trainer.py GRPOTrainer.__init__ (TRL 0.15.0-0.16.1)",
            "ValueError: The global train batch size (1 x 1) must be evenly divisible by the number of generations per "
            "prompt (4). Given the current train batch size, the valid values for the number of generations are: []."),
        msg(TRL.MSG_GRPO_EFFECTIVE_TRAIN, f"{GRPO}/grpo_trainer.py GRPOTrainer.__init__ (TRL 0.17.0), grpo_config.py "
            "GRPOConfig.__post_init__ (0.18.0-0.19.1)",
            "ValueError: The effective train batch size (4 x 1 x 2) must be evenly divisible by the number of "
            "generations per prompt (16). Given the current effective train batch size, the valid values for the number "
            "of generations are: [2, 4, 8]."),
        msg(TRL.MSG_GRPO_GLOBAL_EVAL, f"{GRPO}/grpo_trainer.py GRPOTrainer.__init__ (TRL 0.15.0-0.16.1), grpo_config.py "
            "GRPOConfig.__post_init__ (0.18.0-0.19.1)",
            "ValueError: The global eval batch size (1 x 2) must be evenly divisible by the number of generations per "
            "prompt (8). Given the current eval batch size, the valid values for the number of generations are: [2]."),
        msg(TRL.MSG_GRPO_EFFECTIVE_EVAL, f"{GRPO}/grpo_trainer.py GRPOTrainer.__init__ (TRL 0.17.0)",
            "ValueError: The effective eval batch size (2 x 1) must be evenly divisible by the number of generations "
            "per prompt (8). Given the current effective eval batch size, the valid values for the number of "
            "generations are: [2]."),
        msg(TRL.MSG_GEN_BATCH, f"{GRPO}/grpo_config.py GRPOConfig.__post_init__ (TRL 0.20.0-1.16.0), rloo_config.py "
            "RLOOConfig.__post_init__ (0.22.0-1.16.0)",
            "ValueError: generation_batch_size (6) must be divisible by num_generations (4)."),
        msg(TRL.MSG_GRPO_EVAL_022, f"{GRPO}/grpo_config.py / rloo_config.py __post_init__ (TRL 0.22.0-0.26.0)",
            "ValueError: The global eval batch size (2 * 1) must be divisible by num_generations (8)."),
        msg(TRL.MSG_GRPO_EVAL_026, f"{GRPO}/grpo_config.py / rloo_config.py __post_init__ (TRL 0.26.2-1.16.0)",
            "ValueError: The global eval batch size (2 * 1) must be divisible by the number of generations used for "
            "evaluation (8)."))),
    cause(
    N.PEFT_MODULES_TO_SAVE_UNDER_ZERO3,
    Severity.ERROR,
    "LoRA that trains full layers (PEFT modules_to_save) refused under ZeRO-3",
    _modules_to_save,
    Docs(
        what="A LoRA fine-tuning script refused DeepSpeed ZeRO-3 because it trains some layers in full next to the "
              "LoRA weights: Qwen's finetune.py raises `RuntimeError: ZeRO3 is incompatible with LoRA when finetuning "
              "on base model.`",
        why="For LoRA on a base model, finetune.py also trains the embedding and output layers (PEFT "
              "`modules_to_save`, so the model learns ChatML's special tokens). Those full trainable copies did not "
              "work under ZeRO-3's partitioned parameters, so the script checks before loading the model: LoRA, not "
              "QLoRA, ZeRO-3, and a model path without \"chat\".",
        fix="Use ZeRO-2 for LoRA on a base model (the script's LoRA recipes do), or LoRA-fine-tune the chat model; "
              "when the data adds no special tokens, set `modules_to_save = None` and keep ZeRO-3. Renaming the model "
              "path or adding --q_lora only skips the check.",
        examples=(log(N.PEFT_MODULES_TO_SAVE_UNDER_ZERO3, "LoRA on Qwen-7B (base) with a ZeRO-3 config:",
                   "RuntimeError: ZeRO3 is incompatible with LoRA when finetuning on base model.\n"),),
        reads="log"),
    signatures=(
        msg(QWEN.MSG_LORA_BASE_ZERO3, "QwenLM/Qwen finetune.py train() (2024-01 on)",
            "RuntimeError: ZeRO3 is incompatible with LoRA when finetuning on base model.",
            "'ZeRO3 is incompatible with LoRA when finetuning on base model.'"),)),
)
