"""One redactor for everything dsdoctor prints: secrets never reach stdout, stderr, a report or an error text.

What is redacted (see docs/report.md):

- the values of secret-named environment variables (``HF_TOKEN``, ``WANDB_API_KEY``, AWS/GCP/Azure keys,
  anything named ``*_TOKEN``/``*_KEY``/``*_SECRET``/``*PASSWORD*``/``*_PASSWD``/``*CREDENTIAL*`` ...) wherever they
  appear, also JSON-escaped or in Python ``repr`` form (values shorter than :data:`MIN_LITERAL` are only
  redacted where dsdoctor shows the variable itself);
- well-known token shapes anywhere in text: Hugging Face ``hf_...``, GitHub ``ghp_``/``gho_``/``github_pat_``,
  GitLab ``glpat-``, AWS access key ids (``AKIA``/``ASIA``...), Slack ``xox?-``, OpenAI/Anthropic ``sk-...``,
  Google ``AIza...``, npm/PyPI tokens, JWTs, PEM private-key blocks;
- assignments of secret-named keys: ``HF_TOKEN=...``, ``"api_key": "..."``, ``password: ...``,
  ``--hub_token ...``, Azure ``AccountKey=...``, ``Authorization: Bearer ...``, ``Bearer ...``, URL query
  parameters (``?sig=``, ``&token=``, ``X-Amz-Signature=``) and credentials in URLs (``scheme://user:pass@host``);
- optionally (``redact_paths``, ``--redact-paths`` or ``DSDOCTOR_REDACT_PATHS=1``) user names in home paths:
  ``/home/<name>``, ``/Users/<name>``, ``$HOME`` and the login name as a path component become ``$USER``.

Speed: one compiled regular expression (the environment's secret literals are part of it) and one pass;
``bench/redact_throughput.py`` measures it (docs/performance.md).

The replacement is ``[REDACTED]`` (no quotes or backslashes: JSON stays valid; brackets: Markdown shows it).

Which names and values are secrets is :mod:`dsdoctor.secret_names`; stdout and stderr go through the redactor by
:mod:`dsdoctor.redact_streams`.
"""

from __future__ import annotations

import functools
import getpass
import json
import os
import re
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Match, Optional, Pattern, Sequence, Tuple

from .secret_names import MASK as MASK  # the replacement (defined where values already masked are recognised)
from .secret_names import exempt_value, is_secret_name, norm, text_key_strength

USER_MASK = "$USER"
MIN_LITERAL = 6  # shorter secret values are masked only where the variable itself is shown (see docs/report.md)
REDACT_ENV = "DSDOCTOR_REDACT"  # "0": print secrets (debugging dsdoctor itself)
PATHS_ENV = "DSDOCTOR_REDACT_PATHS"  # "1": also replace user names in home paths, in every command


# ---------------------------------------------------------------------------------------------------------
# the pattern

_KW = r"(?:passw(?:or)?d|secret|credentials?|token|key|pwd|pass|signature)"
_VALUE = (r"(?:\"(?![ \t]*[,:\]}])(?P<vd>(?:[^\"\\\n]|\\[^\n])*)\""  # "double quoted" (not a JSON string's end)
          r"|\\\"(?P<ve>(?:[^\"\\\n]|\\[^\"\n])*)\\\""  # \"escaped double quotes\" (a log line in a JSON string)
          r"|'(?P<vs>[^'\"\n]*)'"  # 'single quoted'
          r"|(?P<vp>\\?')?(?P<vu>[^\s\"'`\\,;&<>(){}\[\]=:][^\s\"'`\\,;&<>(){}\[\]]*))")  # bare
_FLAG_VALUE = r"(?P<fv>[^\s\"'`\\,;&<>(){}\[\]]+)"

_SHAPES = (
    # PEM private key blocks (unterminated: to the end of the text)
    r"(?P<pem>-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|\Z))",
    # token shapes: the whole match is the secret
    r"(?P<tok>\bhf_[A-Za-z0-9]{30,}"
    r"|\bapi_org_[A-Za-z0-9]{30,}"
    r"|\bgh[pousr]_[A-Za-z0-9]{36,}"
    r"|\bgithub_pat_[A-Za-z0-9_]{22,}"
    r"|\bglpat-[A-Za-z0-9_-]{20,}"
    r"|\b(?:AKIA|ASIA)[A-Z0-9]{16}\b"
    r"|\bxox[abposre]-[A-Za-z0-9-]{10,}"
    r"|\bsk-(?:proj-|svcacct-|admin-|ant-[a-z0-9]{2,8}-)?[A-Za-z0-9_-]{32,}"
    r"|\bAIza[0-9A-Za-z_-]{35}"
    r"|\bnpm_[A-Za-z0-9]{36}"
    r"|\bpypi-AgE[A-Za-z0-9_-]{50,}"
    r"|\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*)",
    # Authorization headers: the credential after the scheme
    r"(?P<auth>(?i:\b(?:proxy-)?authorization\b[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?:(?:bearer|basic|token|digest|bot|apikey|sharedkey|aws4-hmac-sha256)[ \t]+)?))(?P<authv>[^\s\"'`\\,;]+)",
    r"(?P<bear>\b[Bb]earer[ \t]+)(?P<bearv>[A-Za-z0-9._~+/-]{16,}=*)",
    # credentials in URLs: scheme://user:PASSWORD@host
    r"(?P<url>\b[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s/:@\"'<>\\]*:)(?P<urlv>[^\s/@\"'`<>\\]+)(?=@)",
    # URL query parameters that carry credentials
    r"(?P<qp>[?&](?i:sig|signature|token|access_token|api_key|apikey|key|password|x-amz-signature"
    r"|x-amz-security-token|x-amz-credential|x-goog-signature|x-goog-credential)=)(?P<qpv>[^&\s\"'`#<>\\]+)",
    # --flag value / --flag=value
    r"(?P<flag>(?<![\w-])--[A-Za-z0-9_-]*?(?i:" + _KW + r")[A-Za-z0-9_-]*)(?P<fs>=|[ \t]+)" + _FLAG_VALUE,
    # name=value, "name": "value", name: value (the name is read back from the keyword in the callback)
    r"(?P<kv>(?i:" + _KW + r")[A-Za-z0-9_.-]*(?P<kq>\\?[\"']?\]?)[ \t]*(?P<ksep>[:=,])[ \t]*)" + _VALUE,
)


# lower-case substrings one of which every match of _SHAPES contains (the fast path of Redactor.redact)
# (as precise as the shapes allow: "gh" alone or "sig" alone would send every line with "through" or "design" to the regex)
_TRIGGERS = ("-----begin", "hf_", "api_org_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "akia", "asia",
             "xox", "sk-", "aiza", "npm_", "pypi-", "eyj", "authorization", "bearer", "://", "sig=", "signature", "pass", "pwd",
             "secret", "credential", "token", "key")


def _literal_forms(value: str) -> List[str]:
    forms = {value, json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1], repr(value)[1:-1],
             json.dumps(json.dumps(value)[1:-1])[1:-1]}
    return [f for f in forms if len(f) >= MIN_LITERAL]


def secret_literals(env: Mapping[str, str]) -> List[str]:
    """What to match anywhere, from ``env``: the values of secret-named variables, and the secret parts the
    patterns find inside any value (the ``AccountKey`` of a connection string, the password of a proxy URL),
    each also JSON-escaped and ``repr``-escaped."""
    out: set[str] = set()
    for name, value in env.items():
        if not value:
            continue
        if is_secret_name(name) and len(value) >= MIN_LITERAL and not exempt_value(value, 2, False):
            out.update(_literal_forms(value))
        for part in _secret_parts(value):
            out.update(_literal_forms(part))
    return sorted(out, key=lambda s: (-len(s), s))


_base: List["Redactor"] = []


def _secret_parts(value: str) -> List[str]:
    """The substrings of ``value`` the patterns alone would mask."""
    if not _base:
        _base.append(Redactor(env={}))
    base = _base[0]
    parts = []
    for m in base.pattern.finditer(value):
        orig, rep = m.group(0), base._sub(m)
        if rep == orig:
            continue
        a = 0
        while a < min(len(orig), len(rep)) and orig[a] == rep[a]:
            a += 1
        b = 0
        while b < min(len(orig), len(rep)) - a and orig[-1 - b] == rep[-1 - b]:
            b += 1
        part = orig[a:len(orig) - b]
        if len(part) >= MIN_LITERAL and not exempt_value(part, 2, False):
            parts.append(part)
    return parts


# ---------------------------------------------------------------------------------------------------------
# the redactor


def _user_name() -> Optional[str]:
    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no passwd entry, no LOGNAME: nothing to replace
        return None


class Redactor:
    """Redacts secrets (and optionally user names in paths) from text; build once, call :meth:`redact` often."""

    def __init__(self, env: Optional[Mapping[str, str]] = None, redact_paths: bool = False,
                 home: Optional[str] = None, user: Optional[str] = None) -> None:
        env = os.environ if env is None else env
        self.literals = secret_literals(env)
        self.redact_paths = redact_paths
        parts = []
        if self.literals:
            parts.append("(?P<lit>" + "|".join(re.escape(s) for s in self.literals) + ")")
        parts += _SHAPES
        if redact_paths:
            parts += self._path_patterns(env.get("HOME") if home is None else home, user if user is not None else _user_name())
        self.pattern: Pattern[str] = re.compile("|".join(parts))
        self._exact_triggers = list(self.literals)
        self._low_triggers = list(_TRIGGERS)
        if redact_paths:
            self._low_triggers += ["/home/", "/users/", "\\users\\"]
            home = env.get("HOME") if home is None else home
            if home and home.count("/") >= 2:
                self._exact_triggers.append(home.rstrip("/"))
            user = user if user is not None else _user_name()
            if user and user != "root" and len(user) >= 2:
                self._exact_triggers += ["/" + user, "\\" + user]

    @staticmethod
    def _path_patterns(home: Optional[str], user: Optional[str]) -> List[str]:
        out = [r"(?P<homep>(?<![\w.-])(?:/home|/Users|/usr/home|[A-Za-z]:(?:\\\\|\\|/)Users)(?:\\\\|\\|/))(?P<homev>[^/\\\s\"'`:;,<>$]+)"]
        home = (home or "").rstrip("/")
        if home and home.count("/") >= 2 and os.path.basename(home) not in ("root", "") and not home.startswith(("/home/", "/Users/")):
            out.append(r"(?P<hdir>" + re.escape(os.path.dirname(home)) + r"/)(?P<hdirv>" + re.escape(os.path.basename(home)) + r")(?![\w.-])")
        if user and user != "root" and len(user) >= 2:
            out.append(r"(?P<userp>(?<=[/\\]))(?P<userv>" + re.escape(user) + r")(?=[/\\]|$|[\s\"':;,)])")
        return out

    def _sub(self, m: Match[str]) -> str:
        g = m.groupdict()
        if g.get("lit") is not None or g["tok"] is not None:
            return MASK
        if g["pem"] is not None:
            return MASK + " (private key)"
        for head, val in (("auth", "authv"), ("bear", "bearv"), ("url", "urlv"), ("qp", "qpv")):
            if g[head] is not None:
                v = g[val]
                return m.group(0) if exempt_value(v, 2, False) else g[head] + MASK
        if g["flag"] is not None:
            strength = text_key_strength(g["flag"])
            v = g["fv"]
            if strength == 0 or v.startswith("-") or exempt_value(v, strength, _numeric_ok(g["flag"])):
                return m.group(0)
            return g["flag"] + g["fs"] + MASK
        if g["kv"] is not None:
            return self._kv(m)
        for head in ("homep", "hdir", "userp"):
            if g.get(head) is not None:
                return g[head] + USER_MASK
        return m.group(0)

    @staticmethod
    def _kv(m: Match[str]) -> str:
        text, start = m.string, m.start()
        i = start
        while i > 0 and (text[i - 1].isalnum() or text[i - 1] in "_.-"):
            i -= 1
        name_end = m.start("kq") if m.group("kq") else m.end("kv")
        full = text[i:name_end].rstrip(" \t:=\"'")
        strength = text_key_strength(full)
        if strength == 0:
            return m.group(0)
        if m.group("ksep") == "," and not (m.group("kq") and text[i - 2:i] in ('("', "('")
                                           and (m.group("vd") is not None or m.group("vs") is not None)):
            return m.group(0)  # only a call's ("NAME", "value"): a list of names or prose is not an assignment
        if m.group("vu") is not None and text[m.end():m.end() + 1] == "(":
            return m.group(0)  # NAME = function(...): code, not a value
        for grp in ("vd", "ve", "vs", "vu"):
            v = m.group(grp)
            if v is not None:
                if exempt_value(v, strength, _numeric_ok(full)):
                    return m.group(0)
                a, b = m.start(grp) - start, m.end(grp) - start
                whole = m.group(0)
                return whole[:a] + MASK + whole[b:]
        return m.group(0)

    def redact(self, text: str) -> str:
        """``text`` with every secret (and, with ``redact_paths``, every home-path user name) replaced.

        The text is not run through the pattern as a whole (Python's ``re`` scans an alternation at a few MB/s):
        only the lines holding a trigger substring (found with ``str.find``) are, and only they can change."""
        if not text:
            return text
        spans = self._candidate_lines(text)
        if not spans:
            return text
        out: List[str] = []
        pos = 0
        for a, b in spans:
            out.append(text[pos:a])
            out.append(self.pattern.sub(self._sub, text[a:b]))
            pos = b
        out.append(text[pos:])
        return "".join(out)

    def _candidate_lines(self, text: str) -> List[Tuple[int, int]]:
        """Merged (start, end) line spans of ``text`` that contain a trigger (a private-key block: to its END)."""
        low = text.lower()
        n = len(text)
        spans: List[Tuple[int, int]] = []
        for hay, triggers in ((low, self._low_triggers), (text, self._exact_triggers)):
            for trig, i in _occurrences(hay, triggers):
                j = i
                if trig == "-----begin":
                    end = low.find("-----end", i)
                    j = n if end < 0 else end
                b = text.find("\n", j)
                spans.append((text.rfind("\n", 0, i) + 1, n if b < 0 else b))
        if not spans:
            return spans
        spans.sort()
        merged = [spans[0]]
        for a, b in spans[1:]:
            if a <= merged[-1][1] + 1:
                if b > merged[-1][1]:
                    merged[-1] = (merged[-1][0], b)
            else:
                merged.append((a, b))
        return merged

    def redact_open(self, text: str) -> Tuple[str, bool]:
        """(redacted text, whether it ends inside an unterminated private-key block) for streaming."""
        out = self.redact(text)
        i = text.rfind("-----BEGIN")
        return out, i >= 0 and "PRIVATE KEY" in text[i:i + 80] and "-----END" not in text[i:]


_ONE_PASS = 1 << 16  # texts this long are searched for all triggers in one aho-corasick pass (not worth its import below)


@functools.lru_cache(maxsize=8)
def _automaton(triggers: Tuple[str, ...]) -> Any:
    try:
        import ahocorasick_rs
    except ImportError:  # no wheel for this platform: str.find per trigger
        return None
    return ahocorasick_rs.AhoCorasick(list(triggers))


def _occurrences(hay: str, triggers: Sequence[str]) -> Iterator[Tuple[str, int]]:
    """(trigger, position) of triggers in ``hay``: every line holding one yields at least one (not every overlap)."""
    ac = _automaton(tuple(triggers)) if len(hay) >= _ONE_PASS and triggers else None
    if ac is not None:
        for k, start, _ in ac.find_matches_as_indexes(hay):
            yield triggers[k], start
        return
    for trig in triggers:
        i = hay.find(trig)
        while i >= 0:
            yield trig, i
            b = hay.find("\n", i)
            i = -1 if b < 0 else hay.find(trig, b)


def _numeric_ok(name: str) -> bool:
    n = norm(name)
    return not any(w in n for w in ("password", "passwd", "pwd", "pass", "secret"))



# ---------------------------------------------------------------------------------------------------------
# module-level API

_cache: Dict[Tuple[Any, ...], Redactor] = {}
_paths_override: List[Optional[bool]] = [None]  # set_redact_paths(): this process's choice over the environment's


def override_paths(on: Optional[bool]) -> None:
    """This process's choice of home-path redaction over the environment's (None: the environment decides)."""
    _paths_override[0] = on


def enabled(env: Optional[Mapping[str, str]] = None) -> bool:
    """False only when ``DSDOCTOR_REDACT=0`` (for debugging dsdoctor; never the default)."""
    return (os.environ if env is None else env).get(REDACT_ENV, "1").strip() != "0"


def paths_default(env: Optional[Mapping[str, str]] = None) -> bool:
    """``DSDOCTOR_REDACT_PATHS=1``: redact user names in home paths in every command."""
    return (os.environ if env is None else env).get(PATHS_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def get_redactor(redact_paths: Optional[bool] = None) -> Redactor:
    """The redactor for this process's environment (rebuilt when secret-named variables change)."""
    paths = _paths_override[0] if redact_paths is None else redact_paths
    if paths is None:
        paths = paths_default()
    key = (paths, os.environ.get("HOME"), tuple(sorted((k, v) for k, v in os.environ.items() if is_secret_name(k))))
    r = _cache.get(key)
    if r is None:
        _cache.clear()
        r = _cache[key] = Redactor(redact_paths=paths)
    return r


def redact(text: str, redact_paths: Optional[bool] = None) -> str:
    """Redact secrets from ``text`` (call it on every message dsdoctor shows, e.g. ``DsDoctorError``)."""
    if not enabled():
        return text
    return get_redactor(redact_paths).redact(text)


def redact_env(env: Mapping[str, str], names: Iterable[str], redact_paths: Optional[bool] = None) -> Dict[str, str]:
    """``{name: shown value}`` for ``names`` present in ``env``: secret-named variables masked whatever their
    length (flag values 0/1/true/false shown), every other value through :func:`redact`."""
    out: Dict[str, str] = {}
    for name in names:
        if name not in env:
            continue
        value = env[name]
        if is_secret_name(name) and value.strip().lower() not in ("", "0", "1", "true", "false", "yes", "no", "on", "off"):
            out[name] = MASK if enabled() else value
        else:
            out[name] = redact(value, redact_paths)
    return out
