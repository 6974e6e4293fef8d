"""explain's ranking facts (explain/ranking.py): the platform read from the log vetoes fixes it cannot run, an
error the library handled yields to a later fatal one, a kill with no exception is the host OOM killer only when
no other exit code is shown. The logs are written here from the libraries' message templates."""

from __future__ import annotations

from dsdoctor import fixes as F
from dsdoctor import names as N
from dsdoctor.explain import diagnose_log
from dsdoctor.model import Fix

KILL = "[2026-11-29 16:36:04,986] [INFO] [launch.py:253:sigkill_handler] Killing subprocess 13229\n"
MEMORY = "[2026-11-29 16:36:01,948] [INFO] [utils.py:789:see_memory_usage] CPU Virtual Memory:  used = 60.9 GB, percent = 97.2%\n"
MISMATCH = ('Traceback (most recent call last):\n'
            '  File "{root}train.py", line 12, in <module>\n'
            '    opt = DeepSpeedCPUAdam(params)\n'
            '  File "{site}deepspeed{sep}ops{sep}op_builder{sep}builder.py", line 130, in assert_no_cuda_mismatch\n'
            '    raise CUDAMismatchException(\n'
            'deepspeed.ops.op_builder.builder.CUDAMismatchException: >- DeepSpeed Op Builder: Installed CUDA version 12.1 '
            'does not match the version torch was compiled with 11.8, unable to compile cuda/cpp extensions without a '
            'matching cuda version.\n')


def _commands(report_fixes: tuple[Fix, ...]) -> list[str]:
    return [c for f in report_fixes for c in f.commands]


def test_for_platform_drops_only_what_the_platform_cannot_run() -> None:
    fx = F.command_fix("Install libaio", "apt-get install libaio-dev")
    assert F.for_platform(fx, "windows") is None
    assert F.for_platform(fx, "macos") is None
    assert F.for_platform(fx, "") is fx and F.for_platform(fx, "wsl") is fx
    both = F.command_fix("Point CUDA_HOME at it", "pip install nvidia-cuda-nvcc", "export CUDA_HOME=/opt/cuda")
    kept = F.for_platform(both, "windows")
    assert kept is not None and kept.commands == ("pip install nvidia-cuda-nvcc",)
    assert F.for_platform(F.command_fix("Raise it", "ulimit -l unlimited"), "windows") is None


def test_windows_log_gets_no_linux_only_fix() -> None:
    linux = MISMATCH.format(root="/home/user/proj/", site="/opt/envs/venv/lib/python3.10/site-packages/", sep="/")
    win = MISMATCH.format(root="C:\\Users\\user\\proj\\", site="C:\\venv\\Lib\\site-packages\\", sep="\\")
    on_linux, on_windows = diagnose_log(linux).findings[0], diagnose_log(win).findings[0]
    assert on_linux.name == on_windows.name == N.CUDA_VERSION_MISMATCH
    assert any(c.startswith("export ") for c in _commands(on_linux.fixes))
    assert _commands(on_windows.fixes)  # the fixes that apply there are kept
    assert not any(c.startswith("export ") or "apt-get" in c or "apt install" in c for c in _commands(on_windows.fixes))


def test_wsl_paths_are_linux() -> None:
    log = MISMATCH.format(root="/mnt/c/Users/user/proj/", site="/home/user/venv/lib/python3.10/site-packages/", sep="/")
    assert any(c.startswith("export ") for c in _commands(diagnose_log(log).findings[0].fixes))


def test_silent_kill_with_memory_trend_is_host_oom() -> None:
    first = diagnose_log(MEMORY + KILL).findings[0]
    assert first.name == N.HOST_OOM_KILLED
    assert "97.2%" in first.explanation and any("percent = 97.2%" in e.what for e in first.evidence)


def test_a_kill_after_a_traceback_or_another_exit_code_is_not_host_oom() -> None:
    segv = KILL + "[2026-11-29 16:36:04,989] [ERROR] [launch.py:259:sigkill_handler] ['python', 'train.py'] exits with return code = -11\n"
    assert N.HOST_OOM_KILLED not in [f.name for f in diagnose_log(segv).findings]
    tb = 'Traceback (most recent call last):\n  File "/home/user/proj/train.py", line 3, in <module>\n    f()\nValueError: bad value\n'
    assert diagnose_log(tb + KILL).findings[0].name != N.HOST_OOM_KILLED


def test_a_handled_error_yields_to_a_later_fatal_one() -> None:
    handled = ("ValueError: Cannot get 16bit model weights because `stage3_gather_16bit_weights_on_model_save` in DeepSpeed "
               "config is False.\n"
               "[WARNING|trainer.py:3721] 2026-11-29 16:40:01,120 >>  stage3_gather_16bit_weights_on_model_save=false. "
               "Saving the full checkpoint instead, use zero_to_fp32.py to recover weights\n")
    fatal = "OSError: [Errno 28] No space left on device\n"
    names = [f.name for f in diagnose_log(handled + "step 500\n" * 5 + fatal).findings]
    assert names[0] == N.DISK_WRITE_FAILED and N.ZERO3_SAVED_PARTITIONED_WEIGHTS in names
    # alone, the handled error is still what the log shows
    assert diagnose_log(handled).findings[0].name == N.ZERO3_SAVED_PARTITIONED_WEIGHTS
