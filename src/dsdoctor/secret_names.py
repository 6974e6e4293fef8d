"""Which names and values are secrets, for :mod:`dsdoctor.redact`: secret-named environment variables and
keys (``HF_TOKEN``, ``*_KEY``, ``password`` ...; tokenizer vocabulary such as ``pad_token`` is not), how strongly
a key in text names a secret, and the values that are never masked (flags, placeholders, plain words)."""

from __future__ import annotations

import re

MASK = "[REDACTED]"  # what a secret becomes (a value that already holds it is not masked again)

_SECRET_ENV_NAMES = frozenset({
    "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HUGGINGFACE_TOKEN", "WANDB_API_KEY", "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN", "AWS_ACCESS_KEY_ID", "AWS_SECURITY_TOKEN", "GOOGLE_APPLICATION_CREDENTIALS",
    "AZURE_CLIENT_SECRET", "AZURE_STORAGE_CONNECTION_STRING", "AZURE_STORAGE_KEY", "AZURE_STORAGE_SAS_TOKEN",
    "OPENAI_API_KEY", "GITHUB_TOKEN", "GH_TOKEN", "NGC_API_KEY", "COMET_API_KEY", "NEPTUNE_API_TOKEN",
})
_NOT_SECRET_ENV = frozenset({"PWD", "OLDPWD"})
# a word that makes any name secret wherever it appears in it (normalized: lower case, no separators)
_ALWAYS = ("password", "passwd", "secret", "credential", "connectionstring", "privatekey", "accesskey",
           "sessiontoken", "authtoken", "accesstoken", "apikey", "apitoken", "refreshtoken", "sastoken")
# <prefix>token names that are tokenizer vocabulary, not credentials (normalized prefix)
_VOCAB_TOKENS = frozenset({
    "", "pad", "eos", "bos", "unk", "sep", "cls", "mask", "special", "additionalspecial", "start", "end", "stop",
    "image", "video", "audio", "boi", "eoi", "boa", "eoa", "decoderstart", "chat", "think", "tool", "default",
    "max", "min", "num", "total", "next", "first", "last", "per", "sink", "prompt", "split", "eot", "eom", "fim",
    "text", "label", "ignore", "placeholder", "new", "vision", "control", "reserved", "sentinel", "extra",
})
_VOCAB_TOKENS_TEXT = _VOCAB_TOKENS - {""}  # in text a bare ``token=`` is a credential (``token=x`` args)
# <prefix>key names that are credentials even in lower case text (normalized prefix ends with one of these)
_KEY_PREFIXES = ("api", "access", "secret", "private", "account", "sharedaccess", "master", "client", "encryption",
                 "signing", "subscription", "license", "storage", "wandb", "openai", "hf", "comet", "neptune",
                 "service", "auth", "app", "consumer", "session", "ssh", "gpg", "pgp", "deploy", "admin", "root",
                 "primary", "secondary", "sas", "ngc")


def norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def is_secret_name(name: str) -> bool:
    """Whether an environment variable (or a config key) of this name holds a secret: ``*_TOKEN``, ``*_KEY``,
    ``*_SECRET``, ``*PASSWORD*``, ``*_PASSWD``, ``*CREDENTIAL*``, connection strings, private/access keys ...
    (tokenizer vocabulary such as ``pad_token``/``EOS_TOKEN`` excepted)."""
    up = name.upper()
    if up in _SECRET_ENV_NAMES:
        return True
    if up in _NOT_SECRET_ENV:
        return False
    n = norm(name)
    if any(w in n for w in _ALWAYS):
        return True
    last = re.split(r"[_.\-]", up)[-1] if re.search(r"[_.\-]", up) else up
    if last in ("TOKEN", "SECRET", "KEY", "PASSWD", "PWD", "PASS", "APIKEY", "SIGNATURE", "SAS", "PAT"):
        if last == "TOKEN":
            return norm(name[: -len("token")]) not in _VOCAB_TOKENS
        return len(up) > len(last)  # KEY / PASS / PWD alone: not a secret name
    return False


def text_key_strength(full: str) -> int:
    """For a key seen in text (``name=value``, ``"name": value``, ``--name value``): 2 secret, 1 secret when the
    value looks random, 0 not secret."""
    name = full.split(".")[-1].lstrip("-")
    if not name:
        return 0
    n = norm(name)
    up = name.upper() == name and any(c.isalpha() for c in name)
    if up and name.upper() in _SECRET_ENV_NAMES:
        return 2
    if any(w in n for w in _ALWAYS) or n in ("token", "signature", "sig", "secret"):
        return 2
    if n.endswith("token"):
        return 0 if n[:-5] in _VOCAB_TOKENS_TEXT else 2
    if n.endswith(("passwd", "pwd")) and n not in ("pwd", "oldpwd"):
        return 2
    if re.search(r"(?:[_-]pass|[a-z0-9]Pass|[_-]PASS)$", name):
        return 2
    if n.endswith("key") and len(n) > 3:
        prefix = n[:-3]
        if up and re.search(r"[_-]KEY$", name):
            return 2  # environment-variable style: anything named *_KEY
        if prefix.endswith(_KEY_PREFIXES):
            return 2
        return 1 if re.search(r"[_\-.]key$|[a-z0-9]Key$", name) else 0
    if n == "key":
        return 1
    return 0


_EXEMPT_VALUES = frozenset({
    "", "true", "false", "none", "null", "nil", "yes", "no", "on", "off", "auto", "str", "int", "bool", "bytes",
    "optional", "any", "required", "string", "redacted", "[redacted]", "***", "<redacted>", "undefined", "empty",
})


def exempt_value(value: str, strength: int, numeric_ok: bool) -> bool:
    v = value.strip().rstrip(".!?")
    low = v.lower()
    if low in _EXEMPT_VALUES or v.startswith(("$", "%", "{{", "<")) or set(v) <= {"*", ".", "-", "#"}:
        return True
    if MASK in v:
        return True
    if numeric_ok and v.isdigit() and len(v) <= 8:
        return True
    if strength == 1:  # a weak name (``key``, ``*_key``): only random-looking values
        return not _looks_random(v)
    return False


def _looks_random(v: str) -> bool:
    """16+ characters with letters and digits, and mostly not words (``stage3_gather_16bit_weights`` is words)."""
    if len(v) < 16 or any(c.isspace() for c in v) or not re.search(r"[0-9]", v) or not re.search(r"[A-Za-z]", v):
        return False
    words = sum(len(w) for w in re.findall(r"[a-z]{4,}", v))
    return words * 2 < len(v)
