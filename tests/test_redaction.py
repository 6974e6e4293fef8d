"""Redaction proof: secrets planted in the environment, in config files and in logs never appear in anything
the real CLI prints (check, lint, explain, verify, report), in every output format the CLI offers (read from
``--help`` and the Format enum, so formats added later are covered), on stdout and stderr, nor in the file
``report -o`` writes; JSON/SARIF stays valid JSON. With ``DSDOCTOR_REDACT=0`` most of the same secrets do
reach the output, which shows the test plants them where dsdoctor really prints.

Plus unit tests for every pattern and for no false positives on ordinary DeepSpeed / HF log lines.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, Iterator, List, Sequence, Tuple

import pytest

from dsdoctor.redact import MASK, Redactor, redact_env, secret_literals
from dsdoctor.redact_streams import RedactingStream
from dsdoctor.secret_names import is_secret_name

REPO = Path(__file__).resolve().parents[1]
FAILURE_LOG = REPO / "tests" / "cases" / "explain" / "cuda-mismatch-ds0.19.7.log"
USER = "alicesecretuser"

# kind -> the secret value (each distinct, so a leak names its kind)
SECRETS: Dict[str, str] = {
    # environment of the dsdoctor process
    "env HF_TOKEN (hf_ shape)": "hf_QzX7wYp2LmN4kR8sT1vB6cD9fG3hJ5aE0u",
    "env WANDB_API_KEY (40 hex, no shape)": "4f9d2c7a1e8b3f6d0a5c9e2b7f1d4a8c3e6b9f0d",
    "env AWS_ACCESS_KEY_ID (AKIA)": "AKIAZ7Q3XRW5MP2LKD8N",
    "env AWS_SECRET_ACCESS_KEY": "wJ8rXuTnF2Emk7MDeNG/bPxRfiCYq3Kz9LaV1oHs",
    "env AWS_SESSION_TOKEN": "FwoGZXIvYXdzEJr//////////wEaDLq7uNpTj2kXy8Z3iCKGAVmQr4",
    "env AZURE_CLIENT_SECRET": "Qk~8Q~vT3.xYz_Lm9Np2Rs5Tu7Vw0XyZ1aBcDeFg",
    "env AZURE_STORAGE_CONNECTION_STRING AccountKey": "Zm9vYmFyYmF6cXV4QWNjb3VudEtleVNlY3JldDEyMw==",
    "env GOOGLE_APPLICATION_CREDENTIALS path": "/var/run/gcp/sa-7f3k9q2m-credentials.json",
    "env *_PASSWORD with quote and backslash": 'pa"ss\\wo rd!X9q',
    "env GITHUB_TOKEN (ghp_)": "ghp_R4nd0mT0k3nV4lu3F0rT3st1ng0123456789",
    "env OPENAI_API_KEY (sk-proj-)": "sk-proj-Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7Bc0Ef3Hi6",
    "env NCCL_*_SECRET (name only)": "n9cclS3cr3tValu3x",
    "env HF_ENDPOINT with URL credentials": "UrlPassw0rdInEnv",
    "env DS_ACCELERATOR holding a pasted token (shown by check)": "hf_PastedIntoTheWrongVariable0123456789",
    # config files in the project dsdoctor lints
    "ds_config wandb api_key": "7c1e9a4f2b8d6e3a0f5c9b2d7e4a1f8c6b3d0e9a",
    "accelerate yaml hub_token": "hf_AccelerateYamlHubToken0123456789abcdef",
    ".deepspeed_env HF_TOKEN": "hf_DeepSpeedEnvFileToken0123456789abcdefg",
    "launch script --hub_token": "hf_LaunchScriptHubTokenArg0123456789abcd",
    "launch script export WANDB_API_KEY": "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567",
    "hostfile comment password": "HostfilePassw0rd99",
    # logs given to explain / report --log
    "log URL credentials": "L0gUrlPassw0rd",
    "log Authorization Bearer JWT": "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyMTIzNDUifQ.c2lnbmF0dXJlMTIzNDU2Nzg5",
    "log Slack xoxb token": "xoxb-2048-4096-S1ackB0tT0kenVa1ue",
    "log Google API key (AIza)": "AIzaSyD3mOkEyF0rTeStInG-0123456789abcde",
    "log PEM private key": "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7PrivateKeyBody",
    "log --password arg": "CmdLinePassw0rd",
    "log Azure SAS sig": "sv2022SasSignatureValue0123abc",
    "log token in traceback": "hf_TracebackToken0123456789abcdefghijkl",
}
assert len(SECRETS) >= 20 and len(set(SECRETS.values())) == len(SECRETS)
S = SECRETS


def planted_env(tmp: Path) -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DSDOCTOR_", "NO_COLOR"))}
    env.update({
        "HF_TOKEN": S["env HF_TOKEN (hf_ shape)"],
        "WANDB_API_KEY": S["env WANDB_API_KEY (40 hex, no shape)"],
        "AWS_ACCESS_KEY_ID": S["env AWS_ACCESS_KEY_ID (AKIA)"],
        "AWS_SECRET_ACCESS_KEY": S["env AWS_SECRET_ACCESS_KEY"],
        "AWS_SESSION_TOKEN": S["env AWS_SESSION_TOKEN"],
        "AZURE_CLIENT_SECRET": S["env AZURE_CLIENT_SECRET"],
        "AZURE_STORAGE_CONNECTION_STRING": "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey="
                                           + S["env AZURE_STORAGE_CONNECTION_STRING AccountKey"] + ";EndpointSuffix=core.windows.net",
        "GOOGLE_APPLICATION_CREDENTIALS": S["env GOOGLE_APPLICATION_CREDENTIALS path"],
        "MLFLOW_TRACKING_PASSWORD": S["env *_PASSWORD with quote and backslash"],
        "GITHUB_TOKEN": S["env GITHUB_TOKEN (ghp_)"],
        "OPENAI_API_KEY": S["env OPENAI_API_KEY (sk-proj-)"],
        "NCCL_IB_SECRET": S["env NCCL_*_SECRET (name only)"],
        "HF_ENDPOINT": f"https://mirror:{S['env HF_ENDPOINT with URL credentials']}@hf-mirror.example.com",
        "DS_ACCELERATOR": S["env DS_ACCELERATOR holding a pasted token (shown by check)"],
        "TORCH_EXTENSIONS_DIR": f"/home/{USER}/.cache/torch_extensions",
        "NO_COLOR": "1",
        "COLUMNS": "200",
    })
    return env


def make_project(root: Path) -> Dict[str, Path]:
    root.mkdir(parents=True, exist_ok=True)
    ds = root / "ds_config.json"
    ds.write_text(json.dumps({
        "train_batch_size": 16, "train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 1,
        "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}, "offload_param": {"device": "cpu"}},
        "wandb": {"enabled": True, "project": "p", "api_key": S["ds_config wandb api_key"]},
        "bf16": {"enabled": True},
    }, indent=2) + "\n")
    (root / "accelerate_config.yaml").write_text(
        "compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\n"
        "deepspeed_config:\n  deepspeed_config_file: ds_config.json\n  zero3_init_flag: true\n"
        f"hub_token: {S['accelerate yaml hub_token']}\nnum_processes: 8\n")
    (root / ".deepspeed_env").write_text(
        f"HF_TOKEN={S['.deepspeed_env HF_TOKEN']}\nNCCL_DEBUG=INFO\nDS_SKIP_CUDA_CHECK=true\nBAD LINE {S['.deepspeed_env HF_TOKEN']}\n")
    (root / "hostfile").write_text(f"# ssh password: {S['hostfile comment password']}\nworker-0 slots=8\nworker-1 slots=8\n")
    (root / "run.sh").write_text(
        "#!/bin/bash\n"
        f"export WANDB_API_KEY={S['launch script export WANDB_API_KEY']}\n"
        "export DS_SKIP_CUDA_CHECK=true\n"
        "deepspeed --hostfile hostfile --num_gpus 8 train.py --deepspeed ds_config.json "
        f"--hub_token {S['launch script --hub_token']} --per_device_train_batch_size 4\n")
    (root / "train.py").write_text(
        "from transformers import AutoModelForCausalLM, TrainingArguments\n"
        "args = TrainingArguments(output_dir='out', deepspeed='ds_config.json')\n"
        f"model = AutoModelForCausalLM.from_pretrained('org/model', device_map='auto', token='{S['launch script --hub_token']}')\n")
    log = root / "train.log"
    pem = ("-----BEGIN PRIVATE KEY-----\n" + S["log PEM private key"] + "\nAnotherBase64LineOfTheKey0123456789abcdef\n"
           "-----END PRIVATE KEY-----")
    lines = [
        f"+ pip install --index-url https://builder:{S['log URL credentials']}@pypi.example.com/simple deepspeed",
        f"+ curl -H 'Authorization: Bearer {S['log Authorization Bearer JWT']}' https://api.example.com/v1/run",
        f"notify: posting to slack with {S['log Slack xoxb token']}",
        f"maps client ready key={S['log Google API key (AIza)']}",
        f"+ python train.py --db_password {S['log --password arg']} --output_dir out",
        f"download https://acct.blob.core.windows.net/c/model.bin?sv=2022-11-02&se=2030&sig={S['log Azure SAS sig']}",
        f"loaded service account key:\n{pem}",
        f"token from env: {S['env HF_TOKEN (hf_ shape)']} wandb {S['env WANDB_API_KEY (40 hex, no shape)']}",
        f"escaped in json: {json.dumps({'password': S['env *_PASSWORD with quote and backslash']})}",
        # a job script that echoes its environment's values (only the environment's own values tell what is secret)
        *(f"debug cred: {S[k]}" for k in SECRETS if k.startswith("env ") and "URL" not in k and "DS_ACC" not in k),
        *FAILURE_LOG.read_text().splitlines(),
        "Traceback (most recent call last):",
        '  File "/home/' + USER + '/proj/train.py", line 3, in <module>',
        "    login(token=token)",
        f"ValueError: Invalid user token {S['log token in traceback']} (HTTP 401 for https://huggingface.co/api/whoami-v2"
        f"?token={S['log token in traceback']})",
    ]
    log.write_text("\n".join(lines) + "\n")
    return {"root": root, "ds_config": ds, "log": log}


def cli_formats(command: str, env: Dict[str, str]) -> List[str]:
    """The --format choices of ``command`` as its --help shows them, plus the Format enum's values."""
    from dsdoctor.render.formats import Format

    out = subprocess.run([sys.executable, "-m", "dsdoctor", command, "--help"], capture_output=True, text=True,
                         env=dict(env, COLUMNS="300"), timeout=60).stdout
    m = re.search(r"--format[^\n<\[]*[<\[]([a-z|]+)[>\]]", out)
    shown = m.group(1).split("|") if m else []
    return sorted(set(shown) | ({f.value for f in Format} if shown else set()))


def run_cli(args: Sequence[str], env: Dict[str, str], cwd: Path) -> Tuple[int, str, str]:
    p = subprocess.run([sys.executable, "-m", "dsdoctor", *args], capture_output=True, text=True, env=env, cwd=cwd,
                       timeout=300, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def invocations(paths: Dict[str, Path], env: Dict[str, str], out_file: Path) -> Iterator[Tuple[str, List[str]]]:
    py = sys.executable
    ds, log = str(paths["ds_config"]), str(paths["log"])
    for fmt in cli_formats("check", env):
        yield f"check -f {fmt}", ["check", "-v", "--ds-config", ds, "--format", fmt]
    for fmt in cli_formats("lint", env):
        yield f"lint -f {fmt}", ["lint", "-v", ".", "--format", fmt]
    yield "lint --diff", ["lint", ".", "--diff", "--unsafe-fixes"]
    for fmt in cli_formats("explain", env):
        yield f"explain -f {fmt}", ["explain", "-v", "--env", log, "--format", fmt]
    yield "explain stdin", ["explain", "-"]
    for fmt in cli_formats("verify", env):
        yield f"verify -f {fmt}", ["verify", "-v", "--python", py, "--format", fmt]
    yield "report", ["report", "--log", log, "--ds-config", ds]
    yield "report --redact-paths", ["report", "--log", log, "--ds-config", ds, "--redact-paths"]
    yield "report -o", ["report", "--log", log, "--ds-config", ds, "-o", str(out_file)]
    yield "usage error", ["check", "--password", S["log --password arg"]]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Dict[str, str]]:
    """{'redacted'|'raw': {invocation: stdout + stderr (+ the -o file)}}; JSON-ness checked per invocation."""
    tmp = tmp_path_factory.mktemp("redaction")
    paths = make_project(tmp / "proj")
    env = planted_env(tmp)
    got: Dict[str, Dict[str, str]] = {"redacted": {}, "raw": {}}
    for mode in ("redacted", "raw"):
        run_env = dict(env, DSDOCTOR_REDACT="0") if mode == "raw" else env
        out_file = tmp / f"report-{mode}.md"
        for name, args in invocations(paths, env, out_file):
            if name == "explain stdin":
                p = subprocess.run([sys.executable, "-m", "dsdoctor", *args], capture_output=True, text=True, env=run_env,
                                   cwd=paths["root"], timeout=300, input=paths["log"].read_text())
                rc, so, se = p.returncode, p.stdout, p.stderr
            else:
                rc, so, se = run_cli(args, run_env, paths["root"])
            assert rc in (0, 1, 2) and "Traceback (most recent call last)" not in se, (name, rc, se[-2000:])
            fmt = args[args.index("--format") + 1] if "--format" in args else "text"
            if fmt in ("json", "sarif") and mode == "redacted":
                json.loads(so)  # still valid JSON after redaction
            text = so + "\n" + se
            if name == "report -o":
                assert so == "" and out_file.exists()
                text += "\n" + out_file.read_text()
            got[mode][name] = text
    return got


def leaks(text: str) -> List[str]:
    return [kind for kind, value in SECRETS.items() if value in text]


def test_no_secret_in_any_output(outputs: Dict[str, Dict[str, str]]) -> None:
    bad = {name: leaks(text) for name, text in outputs["redacted"].items() if leaks(text)}
    assert not bad, bad
    # every fragment of the quote/backslash password, in every escaping, is gone too
    pw = S["env *_PASSWORD with quote and backslash"]
    forms = {pw, json.dumps(pw)[1:-1], repr(pw)[1:-1]}
    assert not [n for n, t in outputs["redacted"].items() if any(f in t for f in forms)]


def test_every_format_was_run(outputs: Dict[str, Dict[str, str]]) -> None:
    from dsdoctor.render.formats import Format

    names = set(outputs["redacted"])
    for command in ("check", "lint", "explain", "verify"):
        for fmt in Format:
            assert f"{command} -f {fmt.value}" in names


def test_planted_secrets_reach_the_output_when_redaction_is_off(outputs: Dict[str, Dict[str, str]]) -> None:
    """Not vacuous: with DSDOCTOR_REDACT=0 the same runs print most planted secrets."""
    shown = {kind for text in outputs["raw"].values() for kind in leaks(text)}
    assert len(shown) >= 24, sorted(set(SECRETS) - shown)  # not: the hostfile comment and accelerate YAML key


def test_report_redacts_paths_on_request(outputs: Dict[str, Dict[str, str]]) -> None:
    assert USER in outputs["redacted"]["report"]  # paths are kept by default (they help) ...
    assert USER not in outputs["redacted"]["report --redact-paths"]  # ... and replaced on request
    assert "/home/$USER/" in outputs["redacted"]["report --redact-paths"]


def test_report_sections(outputs: Dict[str, Dict[str, str]]) -> None:
    rep = outputs["redacted"]["report"]
    for heading in ("### Versions", "### Findings", "### Log: train.log", "### Environment variables", "### Environment facts"):
        assert heading in rep
    assert "cuda-version-mismatch" in rep  # explain's diagnosis of the log
    assert f"HF_TOKEN={MASK}" in rep and f"WANDB_API_KEY={MASK}" in rep and f"NCCL_IB_SECRET={MASK}" in rep
    assert f"HF_ENDPOINT=https://mirror:{MASK}@hf-mirror.example.com" in rep
    assert "NCCL_" in rep and "DS_ACCELERATOR=" in rep


# ---------------------------------------------------------------------------------------------------------
# unit tests: patterns

R = Redactor(env={}, redact_paths=False)


PATTERN_CASES = [
    ("HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH"),
    ("using hf_abcdefghijklmnopqrstuvwxyzABCDEFGH now", "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH"),
    ("git push https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
    ("gho_abcdefghijklmnopqrstuvwxyz0123456789", "gho_abcdefghijklmnopqrstuvwxyz0123456789"),
    ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"),
    ("glpat-abcdefghij0123456789", "glpat-abcdefghij0123456789"),
    ("key id AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    ("ASIAY34FZKBOKMUTVV7A temp", "ASIAY34FZKBOKMUTVV7A"),
    ("xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"),
    ("xoxp-1234-5678-abcdefghij", "xoxp-1234-5678-abcdefghij"),
    ("sk-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijkl", "sk-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijkl"),
    ("sk-proj-Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7Bc0Ef3Hi6", "sk-proj-Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7Bc0Ef3Hi6"),
    ("sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789"),
    ("AIzaSyA-abcdefghijklmnopqrstuvwxyz12345", "AIzaSyA-abcdefghijklmnopqrstuvwxyz12345"),
    ("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijk end", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijk"),
    ("npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm_abcdefghijklmnopqrstuvwxyz0123456789"),
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIEsecretbody\n-----END RSA PRIVATE KEY-----", "MIIEsecretbody"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXk"),
    ('{"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEjsonbody\\n-----END PRIVATE KEY-----\\n"}', "MIIEjsonbody"),
    ("-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEtruncated", "MHcCAQEEtruncated"),
    ("DefaultEndpointsProtocol=https;AccountName=a;AccountKey=abc+def/ghi==;EndpointSuffix=x", "abc+def/ghi=="),
    ("Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=k;SharedAccessKey=Zm9vYmFy1234=", "Zm9vYmFy1234="),
    ("Authorization: Bearer abc.def-ghi_jkl012345", "abc.def-ghi_jkl012345"),
    ('"Authorization": "Basic dXNlcjpwYXNzd29yZA=="', "dXNlcjpwYXNzd29yZA=="),
    ("authorization=token t0k3nv4lu3", "t0k3nv4lu3"),
    ("header bearer ABCDEFGHIJKLMNOPQRSTUVWXYZ", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    ("postgres://admin:hunter2pw@db:5432/x", "hunter2pw"),
    ("https://user:p%40ss@example.com/", "p%40ss"),
    ("https://x.blob.core.windows.net/c?sv=1&sig=AbC%2Bdef&se=2", "AbC%2Bdef"),
    ("https://s3.amazonaws.com/b/k?X-Amz-Signature=deadbeef0011&X-Amz-Credential=AK/2024", "deadbeef0011"),
    ("--password hunter2", "hunter2"),
    ("--password=hunter2", "hunter2"),
    ("--hub_token x", " x"),
    ("--hf-token abc123", "abc123"),
    ("--wandb_api_key=0123abcd", "0123abcd"),
    ("token=x", "=x"),
    ("api_key: s3cr3tvalue", "s3cr3tvalue"),
    ('"api_key": "s3cr3t value"', "s3cr3t value"),
    ("{'hub_token': 'hf_xx', 'lr': 1}", "hf_xx"),
    ("WANDB_API_KEY=abcdef0123", "abcdef0123"),
    ("export MY_SERVICE_KEY=abcdef0123", "abcdef0123"),
    ("DB_PASSWORD='p w'", "p w"),
    ("password: 123456", "123456"),
    ("client_secret=abc~def.ghi", "abc~def.ghi"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG", "wJalrXUtnFEMI/K7MDENG"),
    ("log: token=\\\"abcdef\\\" end", "abcdef"),  # a log line inside a JSON string
    ("apiKey: AbCdEf012345", "AbCdEf012345"),
    ("accessToken=AbCdEf012345", "AbCdEf012345"),
    ("sort_key=a1b2c3d4e5f6a7b8c9d0", "a1b2c3d4e5f6a7b8c9d0"),  # weak name, random-looking value
]


@pytest.mark.parametrize("text, secret", PATTERN_CASES)
def test_pattern(text: str, secret: str) -> None:
    out = R.redact(text)
    assert secret not in out and MASK in out, out


def test_long_text_one_pass_scan_redacts_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """A log of >= 64 KiB is searched for the triggers in one aho-corasick pass: every case above, among non-ASCII
    progress bars and warnings (character offsets, not bytes), comes out as with ``str.find`` per trigger."""
    import dsdoctor.redact as redact_mod

    filler = ["  3%|█▏      | 12/400 [00:03<01:40,  3.9it/s]", "UserWarning: the use_reentrant parameter should be "
              "passed explicitly", "€ step 5 loss 1.25"]
    lines: List[str] = []
    cases = [c for c in PATTERN_CASES if "-----BEGIN" not in c[0]]  # an unterminated key block runs to the end
    for text, _ in cases:
        lines += filler * 40 + [text]
    big = "\n".join(lines) + "\n"
    assert len(big) >= 1 << 16
    one_pass = R.redact(big)
    monkeypatch.setattr(redact_mod, "_ONE_PASS", 1 << 62)
    assert one_pass == R.redact(big)
    assert all(secret not in one_pass for _, secret in cases if len(secret) >= 6) and one_pass.count(MASK) >= len(cases)


@pytest.mark.parametrize("line", [
    "[2026-11-29 12:00:01,123] [INFO] [config.py:1000:print] train_batch_size ............. 32",
    "  train_micro_batch_size_per_gpu  2",
    "Created wheel for deepspeed: filename=deepspeed-0.15.0-py3-none-any.whl size=1500001 "
    "sha256=2f3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c",
    "  Stored in directory: /root/.cache/pip/wheels/aa/bb/cc0123456789abcdef0123456789abcdef0123456789abcdef01234567",
    "inputs: input_ids, attention_mask, token_type_ids=None, labels",
    "tokenizer.pad_token = tokenizer.eos_token; pad_token='<|endoftext|>' eos_token: </s> bos_token=<s>",
    "Special tokens have been added: pad_token=[PAD] mask_token: [MASK]",
    "max_new_tokens=512 num_tokens: 2048 tokens_per_second=1234.5",
    "KeyError: 'model.layers.0.self_attn.q_proj.weight'",
    "key_padding_mask = None; dict_keys(['loss', 'logits'])",
    "{'loss': 1.2345, 'grad_norm': 0.123, 'learning_rate': 1.9e-05, 'epoch': 0.01}",
    "[rank3]: RuntimeError: CUDA error: an illegal memory access was encountered",
    "def forward(self, token: str, key: int = 0):",
    "git rev 3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a",
    "Using /root/.cache/torch_extensions/py311_cu121 as PyTorch extensions root...",
    "NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.1<0>",
    "deepspeed --hostfile hostfile --include worker-0:0,1 train.py --deepspeed ds_config.json --use_auth_token --bf16",
    "hf_device_map = {'': 0}; hf_deepspeed_config = HfDeepSpeedConfig(ds_config)",
    "ssh://worker-1:22 and http://10.0.0.1:29500/ and https://huggingface.co/meta-llama/Llama-2-7b-hf/resolve/main/config.json",
    "use_auth_token=True, token=None, passed=3, bypass=1 secretary=no",
    "warnings.warn('`use_auth_token` is deprecated'); password: ********",
    "HF_TOKEN=$HF_TOKEN WANDB_API_KEY=${WANDB_API_KEY} hub_token=<HUB_TOKEN>",
    "a disk-partition-name-that-is-long-enough-0123 and task-sk-abc",
    "Bearer token required",
    '["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "WANDB_API_KEY", "TRANSFORMERS_CACHE"]',  # a list of names, not values
    'KEY = "stage3_gather_16bit_weights_on_model_save"',  # a weak name with a value made of words
    "partial = {FINGERPRINT_KEY: fingerprint(name, uri)}",  # NAME: call(...) is code
    "see `HF_TOKEN=...` and `use_auth_token=True`.",
])
def test_no_false_positive(line: str) -> None:
    assert R.redact(line) == line


def test_env_secret_literals_and_escaped_forms() -> None:
    pw = 'q"u\\ote pass'
    r = Redactor(env={"DB_PASSWORD": pw, "HF_HUB_OFFLINE": "1", "PWD": "/home/x/project", "SHORT_TOKEN": "abc"})
    assert pw in r.literals and json.dumps(pw)[1:-1] in r.literals and "/home/x/project" not in r.literals
    assert "abc" not in r.literals  # too short to match anywhere (shown masked where the variable is shown)
    for text in (f"value {pw} end", json.dumps({"x": f"the {pw}"}), repr(pw), json.dumps(json.dumps(pw))):
        out = r.redact(text)
        assert "q\"u" not in out and 'q\\"u' not in out and "ote pass" not in out, out
    doc = json.dumps({"a": pw, "b": [f"x {pw} y", pw + "\\"]}, indent=2)
    json.loads(r.redact(doc))


def test_json_stays_valid() -> None:
    r = Redactor(env={"WANDB_API_KEY": "ends-with-backslash\\"})
    doc = {"evidence": ["token=", "api_key: \"x\"", "HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "k", ":",
                        "password=\"a,b\"", "token='x', other='y'", "ends-with-backslash\\", "{\"token=\": 1}",
                        "Authorization: Bearer abcdefghijklmnopqrstuvwxyz"],
           "token=": "x", "secret": "s3cr3t", "nested": {"api_key": "abc\"def"}}
    for indent in (None, 2):
        text = json.dumps(doc, indent=indent)
        out = r.redact(text)
        back = json.loads(out)
        assert back["secret"] == MASK and "ends-with-backslash" not in out and "hf_abc" not in out


@pytest.mark.parametrize("name, secret", [
    ("HF_TOKEN", True), ("HUGGING_FACE_HUB_TOKEN", True), ("WANDB_API_KEY", True), ("AWS_SECRET_ACCESS_KEY", True),
    ("AWS_SESSION_TOKEN", True), ("AWS_ACCESS_KEY_ID", True), ("GOOGLE_APPLICATION_CREDENTIALS", True),
    ("AZURE_CLIENT_SECRET", True), ("AZURE_STORAGE_KEY", True), ("AZURE_STORAGE_CONNECTION_STRING", True),
    ("MLFLOW_TRACKING_PASSWORD", True), ("SMTP_PASSWD", True), ("DB_PASS", True), ("MY_CREDENTIALS_FILE", True),
    ("NCCL_IB_SECRET", True), ("GITHUB_TOKEN", True), ("SOME_SERVICE_KEY", True), ("hf_token", True),
    ("HF_HUB_DISABLE_IMPLICIT_TOKEN", True),
    ("PWD", False), ("OLDPWD", False), ("TOKENIZERS_PARALLELISM", False), ("HF_TOKEN_PATH", False), ("PAD_TOKEN", False),
    ("CUDA_HOME", False), ("DS_SKIP_CUDA_CHECK", False), ("KEY", False), ("BYPASS", False), ("HF_HOME", False),
    ("NCCL_IB_HCA", False), ("MASTER_ADDR", False),
])
def test_secret_names(name: str, secret: bool) -> None:
    assert is_secret_name(name) is secret


def test_redact_env_masks_by_name_whatever_the_length() -> None:
    env = {"HF_TOKEN": "ab", "HF_HUB_DISABLE_IMPLICIT_TOKEN": "1", "HF_ENDPOINT": "https://u:pw12@h", "HF_HOME": "/x"}
    shown = redact_env(env, sorted(env))
    assert shown == {"HF_TOKEN": MASK, "HF_HUB_DISABLE_IMPLICIT_TOKEN": "1", "HF_ENDPOINT": f"https://u:{MASK}@h",
                     "HF_HOME": "/x"}


def test_paths() -> None:
    r = Redactor(env={}, redact_paths=True, home="/data/users/bob", user="bob")
    text = ("/home/alice/envs/train/bin/python /Users/carol/x /data/users/bob/ckpt /scratch/bob/run "
            "C:\\Users\\dave\\x /opt/bobcat /home/")
    out = r.redact(text)
    for name in ("alice", "carol", "/bob/", "dave"):
        assert name not in out, out
    assert "/opt/bobcat" in out and "/home/$USER/envs/train" in out
    assert Redactor(env={}, redact_paths=False).redact(text) == text


def test_fast_path_equals_the_pattern() -> None:
    """Long texts only run the pattern on lines with a trigger: same result as running it on everything."""
    r = Redactor(env={"DB_PASSWORD": "lit3ralSecretValue"}, redact_paths=True, home="/home/zed", user="zed")
    samples = [t for t, _ in [
        ("HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", 0), ("x lit3ralSecretValue y", 0),
        ("-----BEGIN PRIVATE KEY-----\nbody\nmore\n-----END PRIVATE KEY-----", 0), ("--password hunter2", 0),
        ("https://u:p@h/x", 0), ("/home/zed/x /scratch/zed/y", 0), ("Authorization: Bearer abcdefghijklmnopqrstuvwxyz", 0),
        ("ordinary line train_batch_size=32", 0), ("AKIAIOSFODNN7EXAMPLE", 0), ("a=b sig=c&d", 0),
        ("-----BEGIN RSA PRIVATE KEY-----\nunterminated", 0),
    ]]
    filler = "[INFO] step=12 loss=1.23 lr=[1e-05]\n" * 200
    text = filler.join(samples) + filler
    assert r.redact(text) == r.pattern.sub(r._sub, text)


def test_stream_redacts_whole_lines_and_multiline_keys() -> None:
    inner = io.StringIO()
    r = Redactor(env={"HF_TOKEN": "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH"})
    s = RedactingStream(inner, lambda: r)
    for piece in ("tok hf_abcdefghij", "klmnopqrstuvwxyzABCDEFGH end\n", "-----BEGIN PRIVATE KEY-----\n", "MIIEline1\n",
                  "MIIEline2\n", "-----END PRIVATE KEY-----\nafter\n", "prompt? "):
        s.write(piece)
    s.flush()
    out = inner.getvalue()
    assert "hf_abc" not in out and "MIIE" not in out and "after\n" in out and out.endswith("prompt? ")
    with pytest.raises(TypeError):
        s.write(b"bytes")  # type: ignore[arg-type]
    s.buffer.write(b"password=hunter2\n")
    s.flush()
    assert "hunter2" not in inner.getvalue()


def test_secret_literals_skip_short_and_flag_values() -> None:
    lits = secret_literals({"A_TOKEN": "true", "B_KEY": "12345", "C_SECRET": "longenough", "PATH": "/usr/bin:/bin"})
    assert lits == ["longenough"]


def test_in_process_main_restores_streams(capsys: pytest.CaptureFixture[str]) -> None:
    from dsdoctor.cli import main

    before = sys.stdout, sys.stderr
    assert main(["version"]) == 0
    assert (sys.stdout, sys.stderr) == before
    assert capsys.readouterr().out.strip()


def test_secret_parts_of_env_values_are_matched_alone() -> None:
    env = {"AZURE_STORAGE_CONNECTION_STRING": "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=Zm9vYmFyYmF6==;EndpointSuffix=x",
           "HTTPS_PROXY": "http://proxyuser:proxypw1@proxy:3128"}
    lits = secret_literals(env)
    assert "Zm9vYmFyYmF6==" in lits and "proxypw1" in lits
    out = Redactor(env=env).redact("key Zm9vYmFyYmF6== and pw proxypw1")
    assert "Zm9v" not in out and "proxypw1" not in out


def test_markdown_inline_code_keeps_its_backticks() -> None:
    out = R.redact("set `HF_TOKEN=abcdef0123` and `--password hunter2` and `https://u:pw12345@h`")
    assert out == f"set `HF_TOKEN={MASK}` and `--password {MASK}` and `https://u:{MASK}@h`"


def test_call_style_env_assignment() -> None:
    assert R.redact('os.environ.setdefault("HF_TOKEN", "abcdef0123")') == f'os.environ.setdefault("HF_TOKEN", "{MASK}")'
    assert R.redact("os.environ['WANDB_API_KEY'] = 'abcdef0123'") == f"os.environ['WANDB_API_KEY'] = '{MASK}'"
