"""What explain says when no specific cause matched: symptoms (pointers to an earlier cause, never the cause), an op that
failed without its cause in the log, a hang while an op was built, an exception in the user's own code, a failure nobody
recognises, and no failure at all. ``diagnose`` decides between them; these specs give their names, docs and advice."""

from __future__ import annotations

import json
import re
from typing import Callable, Dict, List, Tuple

from ... import names as N
from ...fixes import stale_lock_fix
from ...knowledge import cuda as CK
from ...knowledge import deepspeed as K
from ...knowledge import transformers as TK
from ...model import Fix, Severity
from ...spec import RuleExample
from .. import failure as F
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, code_fix, collect_fix, cut_fix, form, frame, hang_fix, log, msg, rx
from .regressions import maybe_fix

OP_BUILD_SYMPTOM = N.OP_BUILD_FAILED
_ARGS, _LOCAL = CK.MSG_UNRECOGNIZED_LOCAL_RANK.rsplit(" ", 1)
ARGPARSE_LOCAL_RANK = re.compile(re.escape(_ARGS) + r" (?:\S{1,200} ){0,20}" + re.escape(_LOCAL) + "[-_]rank")
LAUNCH_SYMPTOM = N.LAUNCH_FAILED


def _op_build_failed(s: Seen, f: LogFacts) -> Advice:
    return Advice("An op failed to build/load, but the log does not show why (the compiler output or the first "
                  "exception is not in it)", "", [collect_fix()])


def _launch_failed(s: Seen, f: LogFacts) -> Advice:
    return Advice("A process failed, but the log does not show why", "", [collect_fix()])


def user_code(s: Seen, f: LogFacts) -> Advice:
    """``s.text``: the exception line; ``s.groups``: ``func``, ``path``, ``line`` of the user's raising frame."""
    if ARGPARSE_LOCAL_RANK.search(s.text):
        return Advice("The script's argument parser rejects the --local_rank argument the launcher passes to every rank",
                      "The deepspeed launcher (and torch.distributed.launch) append --local_rank=N (torch 2.x's launcher: "
                      "--local-rank=N) to the script's arguments; argparse exits with status 2 on an unknown argument: "
                      f"`{s.text.strip()[:200]}`.",
                      [code_fix("Accept it in the script", 'parser.add_argument("--local_rank", "--local-rank", type=int, default=-1)'),
                       code_fix("Or do not pass it: read LOCAL_RANK from the environment",
                                "deepspeed --no_local_rank train.py ...   # torchrun never passes it")])
    if TK.MSG_NO_PAD_TOKEN in s.text:
        return Advice("The script pads with a tokenizer that has no padding token", "", [code_fix(
            "Give the tokenizer a pad token before tokenizing with padding", "tokenizer.pad_token = tokenizer.eos_token   # or: "
            "tokenizer.add_special_tokens({'pad_token': '[PAD]'}); model.resize_token_embeddings(len(tokenizer))")])
    g = s.groups
    facts = (f"Raised in {g.get('func')} at {g['path']}:{g.get('line')}, not in DeepSpeed/torch/Transformers."
             if g.get("path") else "")
    return Advice(f"An exception in your own code: {s.text[:200]}", "", [], facts)


def _report_fix(libs: str) -> Fix:
    pkgs = libs or "deepspeed|torch|transformers|accelerate"
    return code_fix("Report the failing call with the versions of the libraries in its frames",
                    f"pip list 2>/dev/null | grep -i -E '^({pkgs}) '",
                    "dsdoctor check -v               # the environment the call ran in",
                    reason="the library and function that raised (above), its exception line and these versions are what a "
                           "maintainer needs; check the library's release notes and issues for that exception first")


def _rank_fix() -> Fix:
    return code_fix("Find the failing rank's own error above the launcher's report",
                    "grep -n -m 5 -E 'Traceback|Error|Killed|out of memory' train.log   # the full log of every rank",
                    "sudo dmesg -T | grep -i -E 'killed process|out of memory'   # a rank the kernel's OOM killer ended",
                    reason="the launcher only says that a rank ended; the rank's first error (or the kernel's log, for a "
                           "SIGKILL / -9 / Killed) says why")


def _build_fix(op_build: bool) -> Fix:
    if op_build:
        return collect_fix()
    return code_fix("Keep the whole build output and read its first error",
                    "pip install -v --no-build-isolation <the package> 2>&1 | tee build.log",
                    "grep -n -m 5 -E 'error:|#error|error [A-Z][0-9]+:' build.log",
                    reason="the first compiler error names the header, compiler or flag the build needs; the lines after "
                           "it are consequences")


def _timeout_fix() -> Fix:
    return code_fix("Rerun with NCCL's and torch.distributed's debug output",
                    "export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET",
                    "export TORCH_DISTRIBUTED_DEBUG=DETAIL",
                    reason="they show which rank and which collective stalled, and whether the network came up")


def _cuda_fix() -> Fix:
    return code_fix("Rerun with CUDA's errors reported where they happen",
                    "CUDA_LAUNCH_BLOCKING=1 python train.py ...   # your command: the traceback then points at the failing op",
                    reason="CUDA reports a kernel's error at a later call; the frame that shows it may not be the op that "
                           "failed")


def _diverged_fix() -> Fix:
    return code_fix("Find the first step whose loss is nan / inf and what changed there",
                    "grep -n -m 5 -i -E \"loss.{0,4}(nan|inf)|OVERFLOW\" train.log   # the first one, and the lines before it",
                    "--bf16 true --fp16 false --max_grad_norm 1.0 --learning_rate 1e-5   # Trainer: bf16, clipping, a lower LR",
                    reason="a loss that turns nan / inf stays so: fp16 overflow (a model pretrained in bf16), a learning "
                           "rate too high, no gradient clipping or a bad sample; resume from a checkpoint before it")


def _missing_fix(text: str) -> Fix:
    cmd = F.missing_command(text) or "<command>"
    return code_fix(f"Install {cmd} on every node, or put it on the PATH of the shell that runs the launch",
                    f"command -v {cmd} || echo 'not on PATH: '\"$PATH\"",
                    reason="a launcher runs its tools (pdsh, ssh, numactl, the launcher itself on other nodes) through a "
                           "shell whose PATH may not be your interactive one (a job script, ssh's non-interactive shell, sudo)")


def _next_steps(kind: str, g: Dict[str, str], text: str = "") -> List[Fix]:
    """What to do next for a failure of ``kind`` (``failure``'s kinds) that no cause explains (``text``: its line:
    an NCCL or CUDA error gets that library's debug run first)."""
    if kind == F.COMPILER:
        return [_build_fix(g.get("op_build") == "1")]
    steps: Dict[str, Tuple[Callable[[], Fix], ...]] = {F.TIMEOUT: (_timeout_fix, _rank_fix), F.DIVERGED: (_diverged_fix,),
                                                      **dict.fromkeys((F.HANG, F.INTERRUPTED), (hang_fix, _timeout_fix)),
                                                      **dict.fromkeys((F.LAUNCHER, F.EXIT, F.SIGNAL), (_rank_fix,))}
    if kind in steps:
        return [fx() for fx in steps[kind]]
    if kind == F.MISSING:
        return [_missing_fix(text)]
    first = ([cut_fix()] if kind == F.CUT else [_timeout_fix()] if re.search(r"\bNCCL\b|\bnccl\w", text) else
             [_cuda_fix()] if re.search(r"CUDA error|device-side assert|CUBLAS_STATUS|CUDNN_STATUS", text) else [])
    return first + [_report_fix(g.get("libs", "") or g.get("rb_package", ""))] + maybe_fix(g.get("maybe_bug", ""))


def unknown(s: Seen, f: LogFacts) -> Advice:
    """``s.text``: the failing line ("" for a launcher's report only); ``s.groups``: ``kind`` (``failure``'s),
    ``who`` raised it, ``libs`` (the packages in its frames, ``|``-joined), ``op_build`` ("1": the log built an
    op), the user's last frame (``path``, ``line``, ``func``)."""
    g = s.groups
    kind = g.get("kind", F.EXCEPTION)
    if not s.text:
        return Advice("A process failed, but the log does not show why", "", _next_steps(kind, g),
                      "Only the launcher's report is in the log; the failing rank's own output is not.")
    said = [f"Raised by {g['who']}." if g.get("who") else "",
            f"Your last frame: {g['path']}:{g['line']} in {g['func']}." if g.get("path") else "",
            "The log is cut after the traceback's frames: its exception line is missing." if kind == F.CUT else ""]
    rb = tuple((k[3:], v) for k, v in g.items() if k.startswith("rb_"))
    if g.get("rb_caller_path"):  # the user's frame that called into the library that raised
        said[1] = f"Your frame that called into it: {g['rb_caller_path']}:{g.get('rb_caller_line')} in {g.get('rb_caller_function')}."
    if g.get("rb_cut"):
        said[2] = ("The log is cut after the traceback's frames: its exception line is missing, and the raising frame "
                   "may be deeper than the last one shown.")
    if g.get("said"):  # who raised it is known (attribute.py): still no cause
        said[0] = ("No known cause names it; the message is the library's own, read in its released sources."
                   if g.get("indexed") else f"Raised by {g['who']}; no known cause names it.")
        fixes = ([code_fix(f"Do what the message says: {g['fix']}", reason=f"the message {g['who']} raises says so")]
                 if g.get("fix") else [])
        return Advice(f"Raised by {g['who']}: {g['said'][:200]}", "", fixes + _next_steps(kind, g, s.text),
                      " ".join(x for x in said if x), rb)
    what = {F.HANG: ("A hang (the log ends on a progress bar that finished no step)" if F.no_step(s.text) else
                     "A hang (a stack dump of a stuck process)"),
            F.DIVERGED: "Training diverged (the loss is nan / inf)", F.MISSING: "A command the shell could not find",
            F.INTERRUPTED: "The run was interrupted (Ctrl-C), most often because it stopped progressing"}.get(kind, "A failure")
    if rb:  # a cut traceback whose last frame shown is a library's
        return Advice(f"{what} in {g['who']}, the last frame the log shows: {s.text[:200]}", "", _next_steps(kind, g),
                      " ".join(x for x in said[1:] if x), rb)
    return Advice(f"{what}{': ' if kind == F.INTERRUPTED else ' dsdoctor does not recognise: '}{s.text[:200]}", "",
                  _next_steps(kind, g, s.text), " ".join(x for x in said if x))


BATON = "torch/utils/file_baton.py FileBaton.wait under cpp_extension _jit_compile (torch 1.x-2.14)"


def lock_stale(s: Seen, f: LogFacts) -> Advice:
    lock = f"{f.ext_root}/<op>/lock" if f.ext_root else "~/.cache/torch_extensions/py*/<op>/lock"
    fix = (code_fix("Find and delete stale lock files (no build running)", f"ls -la {lock}  # then rm -f it")
           if "<op>" in lock or "*" in lock else stale_lock_fix(lock))
    summary = ("An op build waits on another process's lock (torch's FileBaton.wait in the stack): a stale "
               "torch-extensions lock, or a concurrent build of the same op" if "file_baton" in s.text else
               "The log ends while an op was being built or waited for: likely a stale torch-extensions lock "
               "(a silent hang), or the run was cut")
    return Advice(summary,
                  "torch <= 2.13 waits forever, silently, on a leftover lock file in the build dir.", [fix])


def no_failure(s: Seen, f: LogFacts) -> Advice:
    """``s.groups["notes"]``: how many notable warnings the log has; ``s.groups["last"]``: the log's last line."""
    n = int(s.groups.get("notes", "0"))
    last = s.groups.get("last", "")
    # a run that died or hung after the last line printed its failure elsewhere or none (--enable_each_rank_log: runner.py 0.8-0.19)
    fixes = [code_fix("If the run stopped after the log's last line, collect each rank's own output",
                      "deepspeed --enable_each_rank_log ./rank_logs ... train.py   # one file per rank",
                      reason="an excerpt cut before the failure, or a rank that died without its traceback in this "
                             "log, shows nothing to diagnose"), hang_fix()] if last else []
    return Advice("No failure in the log" + (f"; {n} notable warning(s)" if n else ""), "", fixes,
                  f"The log ends on `{last[:200]}`." if last else "")


# `dsdoctor verify` leads with this symptom when the log shows no cause it recognises (its docs group)
OP_BUILD_DOCS = Docs(
    what="`dsdoctor verify` really built and loaded the op (DeepSpeed's own `<Builder>().load()` in a subprocess "
         "with a fresh TORCH_EXTENSIONS_DIR) and it failed or did not finish within `--timeout`, and the build "
         "log does not show a cause dsdoctor recognises. (A recognised cause is reported under its own name.)",
    why="The op will fail the same way in training; without the cause in the log only the build log and the "
        "environment can tell.",
    fix="Collect the full build log (shown with `-v`, and kept in the extensions dir) and `dsdoctor check -v`; "
        "on a timeout look for a stale lock in the build dir or raise `--timeout` for a slow compile.",
    examples=(
        RuleExample("verify", "`dsdoctor verify --op cpu_adam` where the build log ends with only the symptom "
                              "(the compiler output is not in it). The log is fed to verify's diagnosis, which "
                              "also runs `dsdoctor check` on this machine.",
                    "Exception ignored in: <function DeepSpeedCPUAdam.__del__ at 0x7f5cd4f4a020>\n"
                    "Traceback (most recent call last):\n"
                    "  File \"/opt/envs/ds/0.19.7/deepspeed/ops/adam/cpu_adam.py\", line 99, in __del__\n"
                    "    self.ds_opt_adam.destroy_adam(self.opt_id)\n"
                    "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'\n",
                    source="tests/cases/explain/op-build-cause-cut.log"),
    ),
    reads="environment",
)


# `dsdoctor launch` heads its report with this symptom (its docs group)
LAUNCH_DOCS = Docs(
    what="`dsdoctor launch`: the launcher (`deepspeed`, `torchrun`, `accelerate launch`, run unchanged after "
         "`--`) exited non-zero. The finding heads the explanation of its log (`dsdoctor explain` on what it "
         "printed); dsdoctor exits with the launcher's code. In `explain` it is a symptom line (`exits with "
         "return code`, `ChildFailedError`), never the cause.",
    why="The run failed; the cause is in the findings that follow it.",
    fix="Apply the fixes of the cause explained below it; when none is recognised, follow `unknown`'s advice "
        "(`dsdoctor check -v`, the full log).",
    examples=(
        RuleExample("command", "A launched command that exits with code 7 (no preflight):",
                    "$ dsdoctor launch --no-preflight -- python -c \"import sys; print('step 1'); sys.exit(7)\"\n",
                    data=json.dumps({"argv": ["launch", "--no-preflight", "--", "{python}", "-c",
                                              "import sys; print('step 1'); sys.exit(7)"], "files": {}}, sort_keys=True)),
    ),
    reads="run",
)


SPECS: Tuple[Cause, ...] = (
    # ---- symptoms: pointers to an earlier cause, never the cause
    cause(N.OP_BUILD_FAILED, Severity.ERROR, "dsdoctor verify: the op failed to build or load", _op_build_failed,
          OP_BUILD_DOCS, ("verify",), signatures=(
              msg(CK.MSG_ERROR_BUILDING, "torch/utils/cpp_extension.py _run_ninja_build (torch 1.x-2.14)",
                  "RuntimeError: Error building extension 'cpu_adam'", symptom=True),
              msg(K.MSG_DS_OPT_ADAM, "deepspeed/ops/adam/cpu_adam.py __del__ (0.9-0.19.7)",
                  "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'", symptom=True),
              msg(K.MSG_CPU_ADAM_WRAPPED, "deepspeed/ops/adam/cpu_adam.py __init__ (0.19.8)",
                  "RuntimeError: DeepSpeedCPUAdam requires the cpu_adam op, which failed to build/load.", symptom=True),
              msg(K.MSG_OP_WRAPPED, "deepspeed/ops/adam, adagrad, lion __init__ (0.19.8)",
                  "RuntimeError: DeepSpeedCPUAdagrad requires the cpu_adagrad op, which failed to build/load.", symptom=True),
              msg(K.MSG_NOT_COMPATIBLE, "deepspeed/ops/op_builder/builder.py jit_load (0.9-0.19.8)",
                  "RuntimeError: Unable to JIT load the evoformer_attn op due to it not being compatible due to "
                  "hardware/software issue. None", symptom=True),
              msg(CK.MSG_NINJA_STOPPED, "ninja (1.10-1.13)", "ninja: build stopped: subcommand failed.", symptom=True),
              msg(CK.MSG_ERROR_COMPILING, "torch/utils/cpp_extension.py BuildExtension (setup.py builds, torch 1.x-2.14)",
                  "RuntimeError: Error compiling objects for extension", symptom=True),
              # pip building DeepSpeed's sdist (its ops are pre-built by setup.py): the step failed, its cause above
              msg(CK.MSG_PIP_STEP_FAILED, "pip _internal/exceptions/build.py (pip 22-26)",
                  "  × Getting requirements to build wheel did not run successfully.", symptom=True),
              msg(CK.MSG_PIP_WHEEL_FAILED, "pip _internal/wheel_builder.py (pip < 24)",
                  "  ERROR: Failed building wheel for deepspeed", symptom=True),
              rx(r"^FAILED: \S{1,400}\.(?:o|so|pyd)\s*$", "FAILED: ", "ninja (1.10-1.13), a failed build step (its compiler "
                 "output, when kept, follows)", "FAILED: cpu_adam.o", symptom=True),
              rx(r"Command '\['ninja', '-v'", "Command '['ninja', '-v'", "torch/utils/cpp_extension.py _run_ninja_build, "
                 "subprocess.CalledProcessError (torch 1.x-2.14)",
                 "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.", symptom=True),
              rx(r"torch_extensions[/\\][^:\s]{1,400}\.so: cannot open shared object file", "cannot open shared object file",
                 "torch/utils/cpp_extension.py _import_module_from_library (torch 1.x-2.14): another rank's build of the "
                 "op failed, so its .so does not exist",
                 "ImportError: /root/.cache/torch_extensions/py38_cu116/fused_adam/fused_adam.so: cannot open shared object "
                 "file: No such file or directory", symptom=True),
              frame("op_builder/builder.py", "jit_load", "deepspeed/ops/op_builder/builder.py (0.9-0.19.8): the op's JIT "
                    "build or load failed", "Traceback (most recent call last):\n"
                    "  File \"/venv/lib/python3.10/site-packages/deepspeed/ops/op_builder/builder.py\", line 497, in jit_load\n"
                    "    op_module = load(name=self.name,\n", anywhere=True, symptom=True)), predicted="verify"),
    cause(N.LAUNCH_FAILED, Severity.ERROR, "dsdoctor launch: the launcher exited non-zero (the log is explained)",
          _launch_failed, LAUNCH_DOCS,
          ("launch",), signatures=(
              msg(K.MSG_LAUNCH_EXIT, "deepspeed/launcher/launch.py sigkill_handler (0.9-0.19.8)",
                  "[2026-11-29 16:36:04,989] [ERROR] [launch.py:259:sigkill_handler] ['/opt/envs/venv/bin/python', '-u', "
                  "'train.py', '--local_rank=1'] exits with return code = 1", symptom=True),
              msg(CK.MSG_CHILD_FAILED, "torch/distributed/elastic/multiprocessing/errors (torchrun, torch 2.x-2.14)",
                  "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:", symptom=True),
              rx(r"Signal \d{1,2} \(SIG[A-Z]{2,6}\) received by PID", "received by PID",
                 "torch/distributed/elastic/multiprocessing/api.py (torchrun, torch 2.x-2.14)",
                 "traceback : Signal 15 (SIGTERM) received by PID 13516", symptom=True))),
    # ---- no specific cause
    cause(
    N.OP_BUILD_FAILED_CAUSE_NOT_IN_LOG,
    Severity.ERROR,
    "An op failed to build/load but the log does not show why",
    _op_build_failed,
    Docs(
        what="The log shows that an op failed to build or load (`ds_opt_adam` AttributeError, `failed to build/load`, "
              "`Error building extension`, `ninja: build stopped`) but not why: the compiler output or the first "
              "exception is not in it (a truncated log, or one rank's tail).",
        why="The lines it shows are consequences only; guessing a cause from them would be wrong half the time, so "
              "explain says what to collect instead: the build log with the cause, to run explain on.",
        fix="Collect what shows the cause: `dsdoctor verify --op cpu_adam` (rebuilds the op in a fresh dir and shows "
              "the compiler output) and `dsdoctor check -v` (the environment the op is built in); keep the full build "
              "log (the lines between `Building extension module` and the error) and run explain on it.",
        examples=(log("op-build-cause-cut", "A log that kept only its last lines:",
                   "Exception ignored in: <function DeepSpeedCPUAdam.__del__ at 0x7f5cd4f4a020>\n"
                   "Traceback (most recent call last):\n"
                   "  File \"/opt/envs/ds/0.19.7/deepspeed/ops/adam/cpu_adam.py\", line 99, in __del__\n"
                   "    self.ds_opt_adam.destroy_adam(self.opt_id)\n"
                   "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'\n"),),
        reads="log"),
    predicted="verify"),
    # a stack dump (py-spy, faulthandler, the traceback of a killed or interrupted run) inside torch's wait for the
    # build dir's lock: the build waits on another process (a stale lock left by a killed build, or a concurrent one)
    form(N.TORCH_EXTENSIONS_LOCK_STALE, lock_stale, level=Severity.WARNING, signatures=(
              rx(r"\bwait \((?:\S{0,300}/)?torch/utils/file_baton\.py:\d{1,5}\)", "file_baton.py:",
                 BATON + " in a py-spy dump (py-spy 0.3)", "    wait (torch/utils/file_baton.py:42)"),
              rx(r"torch[/\\]utils[/\\]file_baton\.py\", line \d{1,5},? in wait\b", 'file_baton.py", line ',
                 BATON + " in a Python traceback or a faulthandler dump",
                 '  File "/opt/envs/venv/lib/python3.11/site-packages/torch/utils/file_baton.py", line 42, in wait',
                 'File "/opt/envs/venv/lib/python3.11/site-packages/torch/utils/file_baton.py", line 42 in wait'))),
    cause(
    N.USER_CODE_ERROR,
    Severity.ERROR,
    "The failure is an exception in the user's own code",
    user_code,
    Docs(
        what="The failure is an exception raised in the user's own code (the innermost frame of the traceback is in "
              "the training script, not in DeepSpeed/torch/Transformers).",
        why="No environment or configuration cause: the evidence points at the file and line that raised.",
        fix="Fix the code at the reported file:line (explain shows the frame).",
        examples=(log(N.USER_CODE_ERROR, "A KeyError in the script's own batch building:",
                   "Traceback (most recent call last):\n"
                   "  File \"/home/user/proj/train.py\", line 7, in <module>\n"
                   "    main()\n"
                   "  File \"/home/user/proj/train.py\", line 3, in <listcomp>\n"
                   "    return [r['input_ids'] for r in rows]\n"
                   "KeyError: 'input_ids'\n"),),
        reads="log"),
    signatures=(
        rx(ARGPARSE_LOCAL_RANK.pattern, _ARGS, "CPython Lib/argparse.py ArgumentParser.parse_args "
           "(3.x), on the launcher's --local_rank", "train.py: error: unrecognized arguments: --local_rank=1"),
        msg(TK.MSG_NO_PAD_TOKEN, "transformers/tokenization_utils_base.py _get_padding_truncation_strategies (4.26-5.25)",
            "ValueError: Asking to pad but the tokenizer does not have a padding token. Please select a token to use as "
            "`pad_token` `(tokenizer.pad_token = tokenizer.eos_token e.g.)` or add a new pad token via "
            "`tokenizer.add_special_tokens({'pad_token': '[PAD]'})`."))),
    cause(
    N.UNKNOWN,
    Severity.ERROR,
    "A failure dsdoctor does not recognise",
    unknown,
    Docs(
        what="A failure dsdoctor does not recognise: a line shows that the run failed (an exception anywhere in a line, a "
              "traceback cut before its exception, a compiler error, the launcher killing its ranks, a non-zero exit code, a "
              "signal or `Killed`, an NCCL watchdog timeout, a stuck process's stack dump, a log that ends on a progress bar "
              "that finished no step, a loss logged as nan / inf, a command the shell could not find, a log of the "
              "DeepSpeed launcher's start-up only: no rank printed, a log that stops inside deepspeed.initialize's "
              "set-up: no `DeepSpeed Final Optimizer`) and no known cause explains it.",
        why="No known cause matched, and explain never invents one; it quotes the failing line and says who raised it "
              "(`raised_by` in JSON), only what is certain: the innermost traceback frame that is not Python's own, when "
              "it is a library's (installed, or a library's source checkout), names the package, module and function, "
              "and the user's frame that called into it; without frames, the message index (every message of "
              "DeepSpeed, Transformers, Accelerate, PEFT, TRL and torch's distributed/extension modules, read in their "
              "released sources) names the function, or the functions of one package, and the releases that carry the "
              "message, else the exception's class path or the C++ source the message quotes names the package. The fix "
              "the message itself states comes first.",
        fix="Next steps fit the kind of failure: an exception in a library call: report its frame with the versions "
              "of the libraries in the frames (`pip list`, `dsdoctor check -v`), after an NCCL error's debug run or a "
              "CUDA error's `CUDA_LAUNCH_BLOCKING=1` run (a traceback cut before its exception: get its end first); "
              "a launcher's kill, an exit code or a "
              "signal: find the first rank's own error above it, and the kernel log (`dmesg`) for an OOM kill; a "
              "compiler error: keep the whole build log (`dsdoctor verify --op <op>` when an op build failed); a "
              "timeout: rerun with `NCCL_DEBUG=INFO`; a hang: dump every rank's stack (`py-spy dump`); a nan / inf "
              "loss: find its first step (bf16, gradient clipping, a lower learning rate); a command not found: install "
              "it or put it on the launch shell's PATH; the launcher's start-up only: each rank's own log; a log that "
              "stops inside deepspeed.initialize: the kernel log (`dmesg`) for an OOM kill, every rank's stack for a hang.",
        examples=(log("unknown-nccl", "An NCCL error:",
                   "[rank3]: Traceback (most recent call last):\n"
                   "[rank3]:   File \"/home/user/proj/train.py\", line 91, in <module>\n"
                   "[rank3]:     trainer.train()\n"
                   "[rank3]:   File \"/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py\", line 3404, "
                   "in all_reduce\n"
                   "[rank3]:     work = group.allreduce([tensor], opts)\n"),),
        reads="log")),
    cause(
    N.NO_FAILURE,
    Severity.INFO,
    "The log shows no failure",
    no_failure,
    Docs(
        what="The log shows no failure: no traceback and no known failure message. Notable warnings are listed "
              "(e.g. a CUDA mismatch allowed by DS_SKIP_CUDA_CHECK=1, CPU-only ops built silently).",
        why="No traceback and no known failure message, and explain never invents a cause. If the run hung, the log "
              "cannot show why: look for a stale torch-extensions lock (`dsdoctor check`, or `dsdoctor explain --env`).",
        fix="Nothing to fix in the log. If the run stopped or hung after the log's last line (explain quotes it), "
              "collect what came after it: each rank's own output (`deepspeed --enable_each_rank_log DIR`), a hang's "
              "stacks (`py-spy dump` on every rank); look for a stale torch-extensions lock (`dsdoctor check`, or "
              "`dsdoctor explain --env`).",
        examples=(log("no-failure-skip-check", "A run that went on with DS_SKIP_CUDA_CHECK=1:",
                   "W1129 16:36:37.096000 14009 torch/utils/cpp_extension.py:183] No CUDA runtime is found, using "
                   "CUDA_HOME='/opt/envs/nvcc/13.5/nvidia/cu13'\n"
                   "constructed\n"),),
        reads="log")),
)
