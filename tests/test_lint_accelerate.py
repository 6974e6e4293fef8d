"""accelerate config YAML: the config DeepSpeedPlugin builds from ``deepspeed_config`` is linted; findings at YAML keys."""

from __future__ import annotations

from pathlib import Path
from typing import List, Tuple

from dsdoctor.lint import lint
from dsdoctor.lint.accelerate import build, parse


def names(tmp: Path, yaml: str, ds_json: str = "") -> List[Tuple[str, str, int, int]]:
    (tmp / "acc.yaml").write_text(yaml)
    if ds_json:
        (tmp / "ds.json").write_text(ds_json)
    res = lint([str(tmp / "acc.yaml")], ds_version="0.19.8")
    return [(f.name, f.severity.value, f.line or 0, f.col or 0) for f in res.report.findings
            if f.path == str(tmp / "acc.yaml")]


def test_offload_param_below_stage3(tmp_path: Path) -> None:
    """An accelerate YAML's offload_param_device at stage 2 is info (the run is the stage-2 run it asks for); the
    same block written in a ds_config JSON stays a warning (lint/config/offload_param_ignored_below_stage3.py)."""
    got = names(tmp_path, "deepspeed_config:\n  offload_param_device: cpu  # comment\n  zero_stage: 2\n"
                          "mixed_precision: bf16\n")
    assert ("offload-param-ignored-below-stage3", "info", 2, 3) in got


def test_invalid_device_and_stage(tmp_path: Path) -> None:
    got = names(tmp_path, "deepspeed_config:\n  offload_optimizer_device: gpu\n  zero_stage: 3\n")
    assert ("ds-config-invalid", "error", 2, 3) in got


def test_mixed_precision_against_config_file(tmp_path: Path) -> None:
    got = names(tmp_path, "deepspeed_config:\n  deepspeed_config_file: ds.json\nmixed_precision: fp16\n",
                '{"bf16": {"enabled": true}, "zero_optimization": {"stage": 3}}')
    assert ("fp16-bf16-both-enabled", "error", 3, 1) in got


def test_clean_stage3_offload(tmp_path: Path) -> None:
    yaml = ("compute_environment: LOCAL_MACHINE\ndeepspeed_config:\n  gradient_accumulation_steps: 1\n"
            "  offload_optimizer_device: cpu\n  offload_param_device: cpu\n  zero3_init_flag: true\n"
            "  zero3_save_16bit_model: true\n  zero_stage: 3\ndistributed_type: DEEPSPEED\nmixed_precision: bf16\n")
    assert [n for n in names(tmp_path, yaml) if n[1] == "error"] == []


def test_built_config_mirrors_plugin() -> None:
    y = parse("deepspeed_config:\n  zero_stage: 3\n  offload_param_device: nvme\n  offload_param_nvme_path: /nvme\n"
              "mixed_precision: fp16\n")
    assert y is not None
    import json

    cfg = json.loads(build(y)[0])
    assert cfg["zero_optimization"]["offload_param"] == {"device": "nvme", "nvme_path": "/nvme"}
    assert cfg["zero_optimization"]["offload_optimizer"] == {"device": "none", "nvme_path": None}
    assert cfg["fp16"] == {"enabled": True, "auto_cast": True} and cfg["gradient_accumulation_steps"] == "auto"
    assert parse("compute_environment: LOCAL_MACHINE\n") is None


def test_launch_argument_under_deepspeed_config(tmp_path: Path) -> None:
    """A deepspeed_config key named as an option of `accelerate launch` (main_process_port) sets that option (the
    launch copies every deepspeed_config key onto its arguments, derived from the releases read): info, not an
    ignored DeepSpeed setting; a key no release's launch has (overlap_comm) stays a warning."""
    from dsdoctor.knowledge.accelerate import _data, launch_arguments

    assert {"main_process_port", "num_processes", "mixed_precision"} <= launch_arguments()
    assert "overlap_comm" not in launch_arguments() and _data()["provenance"]["package"] == "accelerate"
    got = names(tmp_path, "distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 2\n"
                          "  main_process_port: 29600\n  overlap_comm: true\n")
    assert ("accelerate-yaml-unknown-deepspeed-key", "info", 4, 3) in got
    assert ("accelerate-yaml-unknown-deepspeed-key", "warning", 5, 3) in got


def test_activation_checkpointing_block_is_info(tmp_path: Path) -> None:
    """A nested activation_checkpointing block under deepspeed_config: ignored, and only deepspeed.checkpointing's
    API would read it anyway (info); the nested zero_optimization beside it is lost (a warning)."""
    got = names(tmp_path, "distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_optimization:\n    stage: 2\n"
                          "  activation_checkpointing:\n    partition_activations: true\n")
    assert ("accelerate-yaml-unknown-deepspeed-key", "warning", 3, 3) in got
    assert ("accelerate-yaml-unknown-deepspeed-key", "info", 5, 3) in got
