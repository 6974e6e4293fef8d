"""The project model (lint/recipes.py, lint/reach.py, lint/launched.py): ``dsdoctor lint .`` reports ZeRO-3 script
findings only where a ZeRO-3 launch of the project reaches the code, and lints the configs its recipes launch with.

Each directory of ``tests/cases/lint/project`` is a small project of one false-positive (or miss) shape seen on
real repositories; its ``expect`` lists every error and warning ``dsdoctor lint .`` must report there (or
``dsdoctor lint`` the files its ``args`` names: one file linted alone in its project, lint/named.py).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set

import pytest

from dsdoctor.lint.launched import is_test
from dsdoctor.lint.reach import import_graph, reach
from dsdoctor.lint.recipes import file_recipes, shell_recipes

CASES = Path(__file__).parent / "cases" / "lint" / "project"


def _lint(root: Path, args: Sequence[str] = (".",)) -> "dict[str, object]":
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", *args, "--format", "json", "--exit-zero"], cwd=root,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)  # type: ignore[no-any-return]


def _expected(case: Path) -> Set[str]:
    return {line.strip() for line in (case / "expect").read_text().splitlines() if line.strip() and
            not line.startswith("#")}


@pytest.mark.parametrize("name", sorted(p.name for p in CASES.iterdir() if p.is_dir()))
def test_project_case(name: str, tmp_path: Path) -> None:
    """``dsdoctor lint .`` in a copy of the project (or ``dsdoctor lint`` the paths its ``args`` file names, in a
    copy made a git work tree: a file named alone in its project): exactly the expected errors and warnings. An
    ``expect`` line ``# skip-if-installed: NAME`` skips where that package is installed (the case is about a
    version nothing gives)."""
    from dsdoctor.lint.script.context import installed

    m = re.search(r"^# skip-if-installed: (\S+)", (CASES / name / "expect").read_text(), re.M)
    if m and installed(None, (m.group(1),)):
        pytest.skip(f"{m.group(1)} is installed here: the case needs none")
    root = tmp_path / name
    shutil.copytree(CASES / name, root, ignore=shutil.ignore_patterns("expect", "args"))
    args = (CASES / name / "args").read_text().split() if (CASES / name / "args").is_file() else ["."]
    if args != ["."]:
        (root / ".git").mkdir()
    out = _lint(root, args)
    got = {f"{f['severity']} {f['path']}:{f['line']} {f['name']}" for f in out["findings"]  # type: ignore[attr-defined]
           if f["severity"] in ("error", "warning")}
    assert got == _expected(CASES / name)


def test_shell_variables_and_flags(tmp_path: Path) -> None:
    """Variables assigned before a launch line are expanded; ``--ds.zero_stage 3`` is a stage; the world size
    comes from the launch line."""
    (tmp_path / "train.py").write_text("")
    (tmp_path / "z3.json").write_text('{"zero_optimization": {"stage": 3}}')
    text = ('CFG=z3.json\nexport N=2\ndeepspeed --num_gpus $N train.py --deepspeed "${CFG}"\n'
            'torchrun --nproc_per_node=4 train.py --ds.zero_stage 3\n'
            'python -m torch.distributed.run --nproc_per_node 2 train.py --deepspeed ${MISSING:-z3.json}\n'
            'echo python train.py\n')
    rs = shell_recipes(str(tmp_path / "run.sh"), text, str(tmp_path))
    assert [(r.launcher, r.stage, r.world_size) for r in rs] == [("deepspeed", 3, 2), ("torchrun", 3, 4),
                                                                 ("torchrun", 3, 2)]
    assert rs[0].configs == [str(tmp_path / "z3.json")] and rs[0].entry == str(tmp_path / "train.py")
    assert rs[0].where.endswith("run.sh:3") and rs[1].stage_source.startswith("--ds.zero_stage 3")


def test_shell_paths(tmp_path: Path) -> None:
    """A launch is read per path through the script's branches: a config chosen on a branch keeps the options of
    its own path; an ``elif`` chain on an argument keeps every branch live, a literal before it decides it, a
    later test of the same variable follows the branch taken; a path that sets the config from an argument adds
    nothing where the script ships a default; blocks that do not pair up (also a keyword a continuation line
    swallows), or more paths than the cap, leave the script read in text order (the last assignment before the
    launch)."""
    (tmp_path / "train.py").write_text("")
    for st in (2, 3):
        (tmp_path / f"z{st}.json").write_text('{"zero_optimization": {"stage": %d}}' % st)
    text = ('m=$1\nif [[ $m == lora ]]; then C=z2.json; Q=1; elif [ "$m" = "full" ]; then C=z3.json; Q=0\n'
            'else\n  C=z3.json\n  Q=2\nfi\nif [ $m = lora ]; then B=4; else B=16; fi\n'
            'deepspeed train.py --deepspeed $C --q $Q --bits $B\n')
    rs = shell_recipes(str(tmp_path / "run.sh"), text, str(tmp_path))
    got = {(r.stage, tuple(sorted(f for f in r.flags if f.startswith(("q=", "bits="))))) for r in rs}
    assert got == {(2, ("bits=4", "q=1")), (3, ("bits=16", "q=0", "q=2"))}
    decided = "lora=false\nif $lora; then C=z2.json; else C=z3.json; fi\ndeepspeed train.py --deepspeed $C\n"
    assert [r.stage for r in shell_recipes(str(tmp_path / "d.sh"), decided, str(tmp_path))] == [3]
    unpaired = "C=z2.json\nif [ -n $X ]; then C=z3.json\ndeepspeed train.py --deepspeed $C\n"
    assert [r.stage for r in shell_recipes(str(tmp_path / "u.sh"), unpaired, str(tmp_path))] == [3]
    many = "".join(f"if [ -n \"$A{i}\" ]; then C=z2.json; F{i}=1; fi\n" for i in range(8)) + \
        "deepspeed train.py --deepspeed $C " + " ".join(f"--f{i} $F{i}" for i in range(8)) + "\n"
    assert len(shell_recipes(str(tmp_path / "m.sh"), many, str(tmp_path))) == 1
    args = ('C=z2.json\nwhile [[ "$1" != "" ]]; do\n  case $1 in\n    --deepspeed ) shift\n      C=$1\n      ;;\n'
            '  esac\n  shift\ndone\ndeepspeed train.py --deepspeed $C\n')  # the shipped default, not the argument
    assert [r.stage for r in shell_recipes(str(tmp_path / "a.sh"), args, str(tmp_path))] == [2]
    swallowed = ('C=z3.json\nif [ $d = cpu ]; then\n  deepspeed train.py --deepspeed $C \\\nelif [ $d = gpu ]; then\n'
                 '  echo no\nfi\n')  # a continuation swallows `elif`: read in text order
    assert [r.stage for r in shell_recipes(str(tmp_path / "s.sh"), swallowed, str(tmp_path))] == [3]


def test_wrapped_and_variable_launches(tmp_path: Path) -> None:
    """Wrappers (``env K=V``, ``srun`` options, ``bash -c``), ``eval`` of a variable, a variable holding several
    words and a config the script writes itself; a wrapper that runs no launch and a bare ``eval`` are none."""
    (tmp_path / "train.py").write_text("")
    (tmp_path / "z3.json").write_text('{"zero_optimization": {"stage": 3}}')
    (tmp_path / "gen.json").write_text('{"zero_optimization": {"stage": 3}}')
    text = ('env NCCL_DEBUG=INFO torchrun --nproc_per_node 2 train.py --deepspeed z3.json\n'
            'srun -p gpu --ntasks=2 bash -c "deepspeed train.py --deepspeed z3.json"\n'
            'OPTS="--bits 16 \\\n  --deepspeed z3.json"\nRUN="deepspeed train.py $OPTS"\neval ${RUN}\n'
            'srun -p gpu hostname\neval\n'
            'cat <<EOT > gen.json\n{}\nEOT\ndeepspeed train.py --deepspeed gen.json\n')
    rs = shell_recipes(str(tmp_path / "run.sh"), text, str(tmp_path))
    z3 = str(tmp_path / "z3.json")
    assert [(r.launcher, r.configs) for r in rs] == [("torchrun", [z3]), ("deepspeed", [z3]), ("deepspeed", [z3]),
                                                     ("deepspeed", [])]
    assert "bits=16" in rs[2].flags and rs[3].names_config and rs[3].stage is None


def test_accelerate_and_readme(tmp_path: Path) -> None:
    """``accelerate launch --config_file`` reads the YAML's config and zero_stage; README code blocks are recipes."""
    (tmp_path / "acc.yaml").write_text("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\n")
    (tmp_path / "sft.py").write_text("")
    (tmp_path / "README.md").write_text("# x\n\n```bash\naccelerate launch --config_file acc.yaml \\\n"
                                        "    --num_processes 8 sft.py\n```\n")
    (r,) = file_recipes(str(tmp_path / "README.md"), "markdown", str(tmp_path))
    assert (r.launcher, r.stage, r.world_size, r.entry) == ("accelerate", 3, 8, str(tmp_path / "sft.py"))
    assert r.where.endswith("README.md:4")


def _files(root: Path, files: "dict[str, str]") -> List[str]:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return [str(root / rel) for rel in files]


def test_reach(tmp_path: Path) -> None:
    """Relative, package and sibling imports are followed (with the packages' __init__); third-party ones are
    not; a file that does not parse is read with a regex."""
    paths = _files(tmp_path, {"train.py": "import os\nfrom pkg.sub import helper\nimport utils\n",
                              "utils.py": "x = (\n", "pkg/__init__.py": "", "pkg/sub/__init__.py": "",
                              "pkg/sub/helper.py": "from ..common import y\n", "pkg/common.py": "",
                              "vendor/lib.py": "import torch\n"})
    got = reach(import_graph(paths, str(tmp_path)), [str(tmp_path / "train.py")])
    rel = {str(Path(p).relative_to(tmp_path)) for p in got}
    assert rel == {"train.py", "utils.py", "pkg/__init__.py", "pkg/sub/__init__.py", "pkg/sub/helper.py",
                   "pkg/common.py"}


def test_names_taken(tmp_path: Path) -> None:
    """Each edge records the names the importer takes: a function, the module itself (None), or nothing (a
    package whose __init__ only runs)."""
    paths = _files(tmp_path, {"train.py": "from pkg.util import load, save\nimport pkg.other\n",
                              "pkg/__init__.py": "", "pkg/util.py": "", "pkg/other.py": ""})
    named: "dict[tuple[str, str], object]" = {}
    import_graph(paths, str(tmp_path), named)  # type: ignore[arg-type]
    t, p = str(tmp_path / "train.py"), tmp_path / "pkg"
    assert named[(t, str(p / "util.py"))] == {"load", "save"} and named[(t, str(p / "other.py"))] is None
    assert named[(t, str(p / "__init__.py"))] == set()


def test_is_test() -> None:
    """Test files are judged below the linted root, not by where the root itself lies."""
    assert is_test("/r/tests/x.py", "/r") and is_test("/r/a/test_x.py", "/r") and is_test("/r/conftest.py", "/r")
    assert not is_test("/r/tests/cases/p/train.py", "/r/tests/cases/p")


def test_repository_verdicts_well_formed() -> None:
    """bench/lint_repos_verdicts.tsv: repository, commit, rule, file:line, verdict, one sentence why; a known rule,
    a known verdict, a 40-hex commit and one (repository, rule, file:line) per row."""
    from dsdoctor import names as N

    path = Path(__file__).parents[1] / "bench" / "lint_repos_verdicts.tsv"
    lines = path.read_text().splitlines()
    assert lines[0].split("\t") == ["repository", "commit", "rule", "file:line", "verdict", "why"]
    seen = set()
    for line in lines[1:]:
        repo, commit, rule, loc, verdict, why = line.split("\t")
        assert "/" in repo and len(commit) == 40 and rule in N.CODES and ":" in loc, line
        assert verdict in ("true", "false", "debatable") and why.endswith(".") and "\n" not in why, line
        assert (repo, rule, loc) not in seen, line
        seen.add((repo, rule, loc))


def test_flag_gated_finding_is_info(tmp_path: Path) -> None:
    """A problem behind ``if args.bits in (4, 8):`` is info when no ZeRO-3 launch passes --bits, and says so."""
    root = tmp_path / "flag-gated"
    shutil.copytree(CASES / "flag-gated", root, ignore=shutil.ignore_patterns("expect"))
    infos = [f for f in _lint(root)["findings"] if f["severity"] == "info" and f["path"] == "train.py"]  # type: ignore[attr-defined]
    assert sorted((f["line"], f["name"]) for f in infos) == [(13, "qlora-quant-storage-missing"),
                                                             (13, "zero3-device-map-conflict")]
    assert all("only with --bits" in f["title"] for f in infos)


def test_one_finding_per_problem(tmp_path: Path) -> None:
    """The device_map of one kwargs dict reaching two loads is one finding, which names both loads."""
    root = tmp_path / "one-per-problem"
    shutil.copytree(CASES / "one-per-problem", root, ignore=shutil.ignore_patterns("expect"))
    got = [f for f in _lint(root)["findings"] if f["name"] == "zero3-device-map-conflict"]  # type: ignore[attr-defined]
    assert len(got) == 1 and got[0]["line"] == 7
    assert "AutoModelForCausalLM.from_pretrained, AutoModelForSeq2SeqLM.from_pretrained" in got[0]["title"]


def test_merge_same_place() -> None:
    """Same rule, path and line: one finding, the most severe; other places and lineless findings stay apart."""
    from dsdoctor.lint.once import merge_same_place
    from dsdoctor.model import Finding, Severity

    a = Finding("zero3-unsafe-save", Severity.WARNING, "save of A.state_dict() here", path="t.py", line=3)
    b = Finding("zero3-unsafe-save", Severity.ERROR, "save of B.state_dict() here", path="t.py", line=3)
    c = Finding("zero3-unsafe-save", Severity.ERROR, "save of A.state_dict() here", path="t.py", line=4)
    d = Finding("script-unparseable", Severity.WARNING, "x", path="u.py")
    out, replaced = merge_same_place([a, b, c, d, d])
    assert len(out) == 4 and out[1:] == [c, d, d]
    assert out[0].severity == Severity.ERROR and out[0].title.endswith("2 variants: A.state_dict(), B.state_dict())")
    assert replaced[out[0]] == [a, b] and [e.what for e in out[0].evidence] == ["variant: A.state_dict()",
                                                                           "variant: B.state_dict()"]


def test_named_only_is_info(tmp_path: Path) -> None:
    """A loader the ZeRO-3 launch only names in a registry (the call cannot be resolved) is info, and says so; the
    inference loader nothing calls has no finding at all."""
    root = tmp_path / "imported-not-called"
    shutil.copytree(CASES / "imported-not-called", root, ignore=shutil.ignore_patterns("expect"))
    found = [f for f in _lint(root)["findings"] if f["path"] == "chatpkg/modeling.py"]  # type: ignore[attr-defined]
    assert [(f["line"], f["severity"]) for f in found] == [(10, "error"), (19, "info")]
    assert "in load_8bit(), which the ZeRO-3 launch names but never calls" in found[1]["title"]


def test_unused_class_is_info(tmp_path: Path) -> None:
    """The methods of a class the ZeRO-3 launch imports but never uses, and a function only they call, never run
    there: info, saying why; a class it builds keeps its error."""
    root = tmp_path / "unused-api-class"
    shutil.copytree(CASES / "unused-api-class", root, ignore=shutil.ignore_patterns("expect"))
    found = [f for f in _lint(root)["findings"] if f["path"] == "rankpkg/api.py"]  # type: ignore[attr-defined]
    assert [(f["line"], f["severity"]) for f in found] == [(5, "info"), (15, "info")]
    assert "in load_scorer(), used only from methods of Ranker that nothing the ZeRO-3 launch" in found[0]["title"]
    assert "in Ranker.reload(), a method of Ranker, a class nothing the ZeRO-3 launch runs uses" in found[1]["title"]


def test_function_reach_classes(tmp_path: Path) -> None:
    """A method runs only through its class: a function only an unused class's methods call is ``unused``; of a
    used class (or a subclass of one that is used; any class once code may look one up at run time, ``globals()``)
    of the project's own, the methods running code calls or names run (a dunder always); of a class deriving from
    another library's, every method (the library may call any)."""
    from dsdoctor.lint.calls import function_reach

    lib = ("def a():\n    pass\n\ndef b():\n    pass\n\ndef c():\n    pass\n\ndef d():\n    pass\n\n"
           "class Api:\n    def go(self):\n        a()\n\nclass Base:\n    def go(self):\n        b()\n\n"
           "class Child(Base):\n    def run(self):\n        c()\n\n"
           "class Net(torch.nn.Module):\n    def forward(self, x):\n        d()\n")
    paths = _files(tmp_path, {"train.py": "from m import *\nChild().run()\nNet()\n", "m.py": lib})
    got = function_reach(paths, paths[0])[paths[1]]
    assert {k: v[0] for k, v in got.items()} == {"a": "unused", "b": "unused", "c": "called", "d": "called",
                                                  "Api.go": "unused", "Base.go": "unused"}
    assert got["a"][3] == "Api" and got["Base.go"][3] == "Base#"  # Base is used, its go() is not
    paths = _files(tmp_path / "go", {"train.py": "from m import *\nChild().go()\n", "m.py": lib})
    assert function_reach(paths, paths[0])[paths[1]]["b"][0] == "called"
    paths = _files(tmp_path / "dyn", {"train.py": "from m import *\nobj = globals()[input()]()\n"
                                                  "getattr(obj, input())()\n", "m.py": lib})
    assert {v[0] for v in function_reach(paths, paths[0])[paths[1]].values()} == {"called"}


def test_training_argument_unknown_pins_no_release(tmp_path: Path) -> None:
    """training-argument-unknown judges the newest release read only where nothing pins Transformers: an exact pin
    beside a git URL (VLM-3R's requirements.txt and pyproject) names no release dsdoctor can read, so it says
    nothing rather than judge a release the project does not install."""
    from dsdoctor.lint import lint

    proj = tmp_path / "p"
    shutil.copytree(CASES / "training-argument-unknown", proj)
    (proj / "expect").unlink()

    def found() -> List[str]:
        return [f.severity.value for f in lint([str(proj)]).report.findings if f.name == "training-argument-unknown"]

    (proj / "requirements.txt").write_text("torch==2.2.2\ndeepspeed==0.14.0\n")
    (proj / "scripts" / "sft.sh").write_text((proj / "scripts" / "sft.sh").read_text().replace(
        "--eval_strategy", "--evaluation_strategy"))
    assert found() == ["info"]  # nothing pinned: judged on the newest release read, which lacks the field
    (proj / "requirements.txt").write_text("torch==2.2.2\ntransformers==4.40.0.dev0\ndeepspeed==0.14.0\n")
    (proj / "pyproject.toml").write_text('[project]\nname = "p"\nversion = "0"\ndependencies = [\n'
                                         '  "transformers@git+https://github.com/huggingface/transformers.git@1c39974",\n]\n')
    (proj / "README.md").write_text("```bash\npip install transformers==4.40.0\n```\n")
    assert found() == []


def test_function_reach_nested_def(tmp_path: Path) -> None:
    """A call of a function defined inside the calling function (a recursive ``load`` nested in a copy of
    Transformers' loader) is no use of another file's top-level function of that name (LiFT's ``llava.entry.load``,
    which star-imported, would keep the inference builder live in the training launch)."""
    from dsdoctor.lint.calls import function_reach

    paths = _files(tmp_path, {"train.py": "from m import *\nfrom u import *\nrun()\n",
                              "m.py": "def load(path):\n    pass\n",
                              "u.py": "def run():\n    def load(mod):\n        for c in mod:\n            load(c)\n"
                                      "    load([])\n"})
    got = function_reach(paths, paths[0])
    assert got[paths[1]]["load"][0] == "dead" and got[paths[2]]["run"][0] == "called"


def test_function_reach_registry_selection(tmp_path: Path) -> None:
    """A class a registry's decorator holds is live by its decorator only where what the launches hand the entry
    (``selects``) names it or its literal key (case aside, as a whole word), also after a run-time look-up and a
    membership test of its name (``name in ['Big']`` builds nothing); a non-literal key, or another decorator beside
    the registry's, keeps it live; so does no ``selects`` at all."""
    from dsdoctor.lint.calls import function_reach

    lib = ("@REG.register\nclass Small:\n    def go(self):\n        pass\n\n"
           "@registry.register_model('big_v2')\nclass Big:\n    def go(self):\n        pass\n\n"
           "@registry.register_model(NAME)\nclass Named:\n    def go(self):\n        pass\n\n"
           "@REG.register\n@add_docstring('x')\nclass Doc:\n    def go(self):\n        pass\n")
    paths = _files(tmp_path, {"train.py": "from m import *\nimport importlib\nimportlib.import_module(input())\n"
                                          "REG.build(cfg['name']).go()\n"
                                          "if cfg['name'] in ['Big', 'Named']:\n    print('large')\n", "m.py": lib})

    from dsdoctor.lint.reach import _resolve

    have, root = set(paths), str(tmp_path)

    def resolves(f: str, level: int, mod: str, names: List[str]) -> Dict[str, Optional[Set[str]]]:
        return _resolve(f, level, mod, names, root, have)

    def verdicts(selects: Optional[str]) -> Set[str]:
        got = function_reach(paths, paths[0], resolves=resolves, selects=selects)[paths[1]]
        return {k.split(".")[0] for k, v in got.items() if v[0] == "unused"}

    assert verdicts(None) == set()
    assert verdicts("model:\n  name: small\n") == {"Big"}
    assert verdicts("arch: BIG_V2") == {"Small"}
    assert verdicts("arch: big_v2_large") == {"Small", "Big"}
    assert function_reach(paths, paths[0], resolves=resolves, selects="")[paths[1]]["Big.go"][3] == "Big@"


def test_function_reach_registry_not_looked_up(tmp_path: Path) -> None:
    """A registry's class (``@Factory.register``, ``Factory`` a class of the project) is live by its decorator only
    where something that runs names the registry: the decorators that fill it do not, a class only a look-up by a
    run-time name may build does not; an import of a module by a run-time name that drops the module builds no
    class. Naming the registry in a function that runs keeps its classes live."""
    from dsdoctor.lint.calls import function_reach

    lib = ("class Factory:\n    held = {}\n\n    @classmethod\n    def register(cls, c):\n        return c\n\n"
           "    @classmethod\n    def create(cls, name):\n        return cls.held[name]()\n\n"
           "@Factory.register\nclass Big:\n    def go(self):\n        pass\n\n"
           "class Engine:\n    def run(self, name):\n        Factory.create(name).go()\n\n"
           "class Other:\n    def go(self):\n        pass\n")
    lazy = "import importlib\n\ndef optional(name):\n    importlib.import_module(name)\n"
    paths = _files(tmp_path, {"train.py": "from m import *\nfrom lazy import optional\noptional(input())\n",
                              "m.py": lib, "lazy.py": lazy})
    got = function_reach(paths, paths[0])[paths[1]]
    assert got["Big.go"] == ("unused", 14, 15, "Big^") and got["Other.go"][3] == "Other"  # Other: not live
    (tmp_path / "train.py").write_text("from m import *\nfrom lazy import optional\noptional(input())\n"
                                       "def build(name):\n    return Factory.create(name)\nbuild('x')\n")
    assert "Big.go" not in function_reach(paths, paths[0])[paths[1]]  # a live class's methods run: no verdict
    (tmp_path / "lazy.py").write_text("import importlib\n\ndef optional(name):\n"
                                      "    return getattr(importlib.import_module(name), 'Engine')\n")
    (tmp_path / "train.py").write_text("from m import *\nfrom lazy import optional\noptional(input())\n")
    got = function_reach(paths, paths[0])[paths[1]]
    assert got["Other.go"][3] == "Other#" and got["Big.go"][3] == "Big^"  # any class may be built, not Factory's


def test_function_reach_tables_hints_and_own_names(tmp_path: Path) -> None:
    """A module-level table of names (``TABLE = {"a": Spec(cls=A)}``) uses them only where running code reads it
    (its calls run on import); a type annotation names a class without building it; a class's own statements naming
    it (``name = "A"``) do not make it used."""
    from dsdoctor.lint.calls import function_reach

    lib = ("class Spec:\n    def __init__(self, cls):\n        self.cls = cls\n\n"
           "class A:\n    name = 'A'\n\n    def go(self):\n        pass\n\n"
           "class B:\n    def go(self):\n        pass\n\n"
           "TABLE = {'a': Spec(cls=A)}\nhint: 'B' = None\n\ndef typed(x: B) -> B:\n    return x\n")
    paths = _files(tmp_path, {"train.py": "from m import *\ntyped(1)\n", "m.py": lib})
    got = function_reach(paths, paths[0])[paths[1]]
    assert got["A.go"][3] == "A" and got["B.go"][3] == "B" and "Spec.__init__" not in got  # Spec(...) runs
    assert "TABLE" not in got  # a table gets no verdict
    (tmp_path / "train.py").write_text("from m import *\ntyped(1)\nTABLE['a'].cls().go()\n")
    assert "A.go" not in function_reach(paths, paths[0])[paths[1]]


def test_registry_selection_text(tmp_path: Path) -> None:
    """What the ZeRO-3 launches of an entry hand it: their options, handed files and the code's option defaults;
    unknown (None) where one hands no configuration file or passes arguments not known here."""
    from dsdoctor.lint.recipe import Recipe
    from dsdoctor.lint.registry_select import selection

    (tmp_path / "z3.yaml").write_text("model: Small\n")
    z3 = Recipe("a.sh:1", entry="run.py", stage=3, flags={"seed=1"}, handed=[str(tmp_path / "z3.yaml")])
    plain = Recipe("b.sh:1", entry="run.py", stage=None, handed=[])
    text = selection([z3, plain], "run.py", {"arch": "tiny"})
    assert text is not None and "model: Small" in text and "seed=1" in text and "arch=tiny" in text
    assert selection([z3, Recipe("c.sh:1", entry="run.py", stage=3)], "run.py", {}) is None
    assert selection([Recipe("d.sh:1", entry="run.py", stage=3, opaque=True, handed=z3.handed)], "run.py", {}) is None


def test_function_reach(tmp_path: Path) -> None:
    """Called, named (a registry, a decorator) or dead: from the entry's running code, through the functions it
    calls; a module's ``__main__`` block does not run on import."""
    from dsdoctor.lint.calls import function_reach

    paths = _files(tmp_path, {"train.py": "from m import *\nif __name__ == '__main__':\n    run()\n",
                              "m.py": "def run():\n    helper()\n\ndef helper():\n    pass\n\ndef reg():\n    pass\n\n"
                                      "@register\ndef plugin():\n    pass\n\ndef smoke():\n    pass\n\n"
                                      "def unused():\n    pass\nTABLE = {'r': reg}\nif __name__ == '__main__':\n"
                                      "    smoke()\n"})
    got = function_reach(paths, str(tmp_path / "train.py"))[str(tmp_path / "m.py")]
    assert {k: v[0] for k, v in got.items()} == {"run": "called", "helper": "called", "reg": "named",
                                                  "plugin": "named", "smoke": "dead", "unused": "dead"}


def test_function_reach_tied_to_files(tmp_path: Path) -> None:
    """With the project's imports known, a use is tied to the file its import names (``io.load()`` is io.py's
    load, not api.py's), another package's names are no use (``json.load``), and a function only called on an
    object (``obj.serve()``) is named, not called, and so are the functions it calls."""
    from dsdoctor.lint.calls import function_reach
    from dsdoctor.lint.reach import _resolve

    paths = _files(tmp_path, {"train.py": "import json\nfrom pkg import io\nfrom pkg.api import *\n"
                                          "json.load(open('a'))\nio.load('b')\nobj.serve()\n",
                              "pkg/__init__.py": "",
                              "pkg/io.py": "def load(p):\n    return {'load': 1}['load']\n",
                              "pkg/api.py": "def load(p):\n    return builder(p)\n\ndef builder(p):\n    pass\n\n"
                                            "def serve():\n    return helper()\n\ndef helper():\n    pass\n"})
    have = set(paths)
    root = str(tmp_path)
    got = function_reach(paths, paths[0], resolves=lambda f, level, mod, names: _resolve(f, level, mod, names, root, have))
    assert {k: v[0] for k, v in got[paths[2]].items()} == {"load": "called"}
    assert {k: v[0] for k, v in got[paths[3]].items()} == {"load": "dead", "builder": "dead", "serve": "named",
                                                          "helper": "named"}


def test_no_deepspeed_zero_stage_still_lints(tmp_path: Path) -> None:
    """In a project that never names DeepSpeed the ZeRO-3 script findings go; ``--zero-stage 3`` asks for them."""
    root = tmp_path / "no-deepspeed"
    shutil.copytree(CASES / "no-deepspeed", root, ignore=shutil.ignore_patterns("expect"))
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", ".", "--format", "json", "--exit-zero",
                        "--zero-stage", "3"], cwd=root, capture_output=True, text=True, timeout=300)
    names = {f["name"] for f in json.loads(p.stdout)["findings"] if f["path"] == "finetune_lora.py"}
    assert {"zero3-device-map-conflict", "zero3-unsafe-save"} <= names


def test_machine_limit_is_info(tmp_path: Path) -> None:
    """The memlock limit of the machine lint runs on is no fact of the repository: memlock-too-low is info in
    ``dsdoctor lint .`` (``dsdoctor check`` on the training host reports it as a warning)."""
    import resource

    root = tmp_path / "machine-limit"
    shutil.copytree(CASES / "machine-limit", root, ignore=shutil.ignore_patterns("expect"))
    _, hard = resource.getrlimit(resource.RLIMIT_MEMLOCK)

    def low() -> None:
        resource.setrlimit(resource.RLIMIT_MEMLOCK, (64 * 1024, hard))

    p = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", ".", "--format", "json", "--exit-zero"], cwd=root,
                       capture_output=True, text=True, timeout=300, preexec_fn=low)
    got = [(f["severity"], f["name"]) for f in json.loads(p.stdout)["findings"] if f["name"] == "memlock-too-low"]
    assert got == [("info", "memlock-too-low")]


def test_readme_cd_and_false_flags() -> None:
    """A README block's ``cd`` moves where its paths resolve (two train.py in the project: only the cd says which);
    an option given as False is not passed."""
    root = CASES / "readme-cd"
    rs = file_recipes(str(root / "README.md"), "markdown", str(root))
    assert [(Path(r.entry or "").relative_to(root).as_posix(), r.stage) for r in rs] == [("finetune/train.py", 3),
                                                                                        ("finetune/train.py", 2)]
    assert "use_lora" not in rs[0].flags and {"use_lora", "bits"} <= rs[1].flags


def test_readme_from_another_directory() -> None:
    """A README command written for a reader in train/: the entry and config are the one file ending so."""
    root = CASES / "readme-elsewhere"
    rs = file_recipes(str(root / "README.md"), "markdown", str(root))
    assert [(Path(r.entry or "").relative_to(root).as_posix(), [Path(c).relative_to(root).as_posix() for c in r.configs])
            for r in rs] == [("train/train_sft.py", ["train/ds_config/zero3.json"])]


def test_unloaded_config_is_info(tmp_path: Path) -> None:
    """A config nothing loads (named beside ``deepspeed = False``; passed to a script that builds its arguments in
    code and never reads its command line): its findings are info and say why."""
    root = tmp_path / "unloaded-configs"
    shutil.copytree(CASES / "unloaded-configs", root, ignore=shutil.ignore_patterns("expect"))
    got = {f["path"]: f for f in _lint(root)["findings"]}  # type: ignore[attr-defined]
    assert got["seg/zero_configs/adam_zero1.json"]["severity"] == "info"
    assert "seg/configs/upernet_small.py:2 names it beside `deepspeed = False`" in \
        got["seg/zero_configs/adam_zero1.json"]["title"]
    assert got["rl/ds_zero2.json"]["severity"] == "info"
    assert "passes it to rl/grpo.py, which builds its training arguments in code" in got["rl/ds_zero2.json"]["title"]
    assert got["sft/ds_zero2.json"]["severity"] == "error"


def test_deepspeed_off() -> None:
    """Only a Python config that sets ``deepspeed = False`` and nothing else turns DeepSpeed off."""
    from dsdoctor.lint.discover import deepspeed_off

    assert deepspeed_off("deepspeed = False\ndeepspeed_config = 'z.json'\n") == 1
    assert deepspeed_off("lr = 1e-4\ndeepspeed = False  # off here\n") == 2
    assert deepspeed_off("deepspeed = False\nif use_ds:\n    deepspeed = True\n") == 0  # a flag a script turns on
    assert deepspeed_off("def f(deepspeed=False):\n    pass\n") == 0


def test_checkpointing_enabled_twice_is_one_finding(tmp_path: Path) -> None:
    """The run's checkpointing mode is one problem: the second call that sets it is the finding's evidence."""
    from dsdoctor.lint import lint

    root = tmp_path / "p"
    shutil.copytree(CASES / "checkpointing-twice", root, ignore=shutil.ignore_patterns("expect"))
    found = [f for f in lint([str(root)]).report.findings if f.name == "peft-checkpointing-reentrant"]
    assert [f.line for f in found] == [8]
    assert [e.line for e in found[0].evidence if "also enabled" in e.what] == [15]


def test_yaml_scope(tmp_path: Path) -> None:
    """A stage-3 accelerate YAML sets up only an accelerate launch that may load it: where every launch of a file
    is a deepspeed launch (or names another YAML), its ZeRO-3 findings are info and say why; an ``accelerate
    launch`` without ``--config_file`` (any YAML) makes them errors again."""
    root = tmp_path / "accelerate-yaml-other-launcher"
    shutil.copytree(CASES / "accelerate-yaml-other-launcher", root, ignore=shutil.ignore_patterns("expect"))
    found = [f for f in _lint(root)["findings"] if f["path"] == "train.py"]  # type: ignore[attr-defined]
    assert [(f["line"], f["severity"]) for f in found] == [(15, "info"), (18, "info")]
    assert "an accelerate YAML that none of the launches running this file loads" in found[0]["title"]
    (root / "run_acc.sh").write_text("#!/bin/bash\naccelerate launch train.py --output_dir out\n")
    found = [f for f in _lint(root)["findings"] if f["path"] == "train.py"]  # type: ignore[attr-defined]
    # the save (18) stays info: the device_map load before it raises first (one problem, one finding)
    assert [(f["line"], f["severity"]) for f in found] == [(15, "error"), (18, "info")]


def test_mentions_searched_in_the_linted_directory(tmp_path: Path) -> None:
    """``dsdoctor lint proj`` from its parent: whether a config is named is read in the project linted, not in the
    working directory (a note beside the project mentioning ``zero3.yaml`` names neither of its configs)."""
    shutil.copytree(CASES / "config-name-elsewhere", tmp_path / "proj", ignore=shutil.ignore_patterns("expect"))
    (tmp_path / "notes.md").write_text("Run with zero3.yaml.\n")
    found = {(f["path"], f["severity"]) for f in _lint(tmp_path, ("proj",))["findings"]  # type: ignore[attr-defined]
             if f["name"] == "zero3-16bit-save-disabled"}
    assert found == {("proj/conf/zero3.yaml", "warning"), ("proj/deploy/conf/zero3.yaml", "info")}
    # `./zero3.yaml` is a bare name, as `zero3.yaml` is: it may mean either copy
    (tmp_path / "proj" / "deploy" / "RUN.md").write_text("accelerate launch --config_file ./zero3.yaml train.py\n")
    found = {(f["path"], f["severity"]) for f in _lint(tmp_path, ("proj",))["findings"]  # type: ignore[attr-defined]
             if f["name"] == "zero3-16bit-save-disabled"}
    assert found == {("proj/conf/zero3.yaml", "warning"), ("proj/deploy/conf/zero3.yaml", "warning")}


def test_mentions_read_the_same_by_any_path(tmp_path: Path) -> None:
    """The project linted by an absolute path, or by ``../proj`` from a sibling directory: a config nothing names
    is info there as with ``dsdoctor lint .`` (the paths are written another way; the project is the same)."""
    proj = tmp_path / "proj"
    shutil.copytree(CASES / "config-name-elsewhere", proj, ignore=shutil.ignore_patterns("expect"))
    (tmp_path / "side").mkdir()
    for cwd, arg, prefix in ((proj, ".", ""), (tmp_path, str(proj), str(proj) + os.sep),
                             (tmp_path / "side", os.path.join("..", "proj"), os.path.join("..", "proj") + os.sep)):
        found = {(f["path"], f["severity"]) for f in _lint(cwd, (arg,))["findings"]  # type: ignore[attr-defined]
                 if f["name"] == "zero3-16bit-save-disabled"}
        assert found == {(prefix + "conf/zero3.yaml", "warning"), (prefix + "deploy/conf/zero3.yaml", "info")}, arg


def test_peft_helper_gated(tmp_path: Path) -> None:
    """A PEFT model made by the project's own helper (its body calls get_peft_model) behind an option no ZeRO-3
    launch passes: the checkpointing finding is info; a launch passing the option makes it an error."""
    root = tmp_path / "peft-helper-gated"
    shutil.copytree(CASES / "peft-helper-gated", root, ignore=shutil.ignore_patterns("expect"))
    found = [f for f in _lint(root)["findings"] if f["path"] == "vlm/train.py"]  # type: ignore[attr-defined]
    assert [(f["line"], f["severity"]) for f in found] == [(17, "info")]
    assert "only with --use_adapters" in found[0]["title"]
    launch = root / "scripts" / "full.sh"
    launch.write_text(launch.read_text().replace("--use_adapters False", "--use_adapters True"))
    found = [f for f in _lint(root)["findings"] if f["path"] == "vlm/train.py"]  # type: ignore[attr-defined]
    assert [(f["line"], f["severity"]) for f in found] == [(17, "error")]


def test_flags_of_callers_only(tmp_path: Path) -> None:
    """The options that gate a problem in an imported module are those of the ZeRO-3 launches that call into it:
    --load_in_8bit on the launch of a script that only imports the package is none; on the launch of the script
    that calls get_model it makes the 8-bit load an error."""
    root = tmp_path / "flags-of-callers-only"
    shutil.copytree(CASES / "flags-of-callers-only", root, ignore=shutil.ignore_patterns("expect"))
    found = [f for f in _lint(root)["findings"] if f["path"] == "pkg/model_utils.py"]  # type: ignore[attr-defined]
    assert [(f["line"], f["severity"]) for f in found] == [(6, "info"), (10, "info")]
    assert all("the launch of sft.py" in f["title"] for f in found)
    launch = root / "run_sft.sh"
    launch.write_text(launch.read_text().replace("--deepspeed", "--load_in_8bit True --deepspeed"))
    found = [f for f in _lint(root)["findings"] if f["path"] == "pkg/model_utils.py"]  # type: ignore[attr-defined]
    assert [(f["line"], f["severity"]) for f in found] == [(6, "error"), (10, "error")]


def test_option_default_elsewhere(tmp_path: Path) -> None:
    """A load past ``if args.explore == "off": return`` runs only with another value; the launch does not pass
    --explore and the options dataclass train.py imports declares "off": info, saying so. Passing another value,
    or no declared default, keeps the gate open."""
    from dsdoctor.lint.script.flags import is_open

    root = tmp_path / "option-default-elsewhere"
    shutil.copytree(CASES / "option-default-elsewhere", root, ignore=shutil.ignore_patterns("expect"))
    found = [f for f in _lint(root)["findings"] if f["path"] == "explorepkg/actor.py"]  # type: ignore[attr-defined]
    assert [(f["line"], f["severity"]) for f in found] == [(8, "info")]
    assert "only with --explore other than off (its default)" in found[0]["title"]
    assert not is_open("explore!=off", set(), {"explore": "off"})
    assert is_open("explore!=off", {"explore", "explore=thompson"}, {"explore": "off"})
    assert not is_open("explore!=off", {"explore", "explore=off"}, {})
    assert is_open("explore!=off", set(), {}) and is_open("explore!=off", set(), {"explore": "\0"})
    import ast

    from dsdoctor.lint.defaults import CONFLICT, declared_defaults

    code = ("p.add_argument('--exp-method', default='no')\np.add_argument('--lora', action='store_true')\n"
            "p.add_argument('--bits')\nclass A:\n    mode: str = field(default='x')\n    twice: int = 1\n"
            "class B:\n    twice: int = 2\n")
    assert declared_defaults(ast.parse(code)) == {"exp_method": "no", "lora": "False", "bits": "None", "mode": "x",
                                                  "twice": CONFLICT}


def test_caller_gated_flag_passed(tmp_path: Path) -> None:
    """A helper whose every call is behind ``--merge_after``: a ZeRO-3 launch that passes it makes the helper's
    findings errors again (the saves after a device_map load that raises first stay info)."""
    root = tmp_path / "caller-gated"
    shutil.copytree(CASES / "caller-gated", root, ignore=shutil.ignore_patterns("expect"))
    launch = root / "run_zero3.sh"
    launch.write_text(launch.read_text().replace("--output_dir out", "--output_dir out --merge_after"))
    found = [f for f in _lint(root)["findings"] if f["path"] == "tuner/loading.py"]  # type: ignore[attr-defined]
    assert [(f["line"], f["severity"]) for f in found] == [(11, "error"), (12, "info"), (17, "error"), (18, "info")]


def test_option_value_test_other_path(tmp_path: Path) -> None:
    """``"zero3" in training_args.deepspeed`` reads the launch's path: a stage-3 config whose name lacks "zero3"
    leaves low_cpu_mem_usage on, and the finding comes back."""
    root = tmp_path / "option-value-test"
    shutil.copytree(CASES / "option-value-test", root, ignore=shutil.ignore_patterns("expect"))
    (root / "configs" / "zero3.json").rename(root / "configs" / "full.json")
    launch = root / "run.sh"
    launch.write_text(launch.read_text().replace("zero3.json", "full.json"))
    found = [f for f in _lint(root)["findings"] if f["path"] == "train.py"]  # type: ignore[attr-defined]
    assert [(f["line"], f["name"]) for f in found] == [(7, "zero3-low-cpu-mem-usage-conflict")]


@pytest.mark.parametrize("case, path, line", [("guard-by-config-name", "train.py", 9),
                                              ("guard-by-config-name-imported", "pkg/train.py", 11)])
def test_guard_by_config_name_other_path(tmp_path: Path, case: str, path: str, line: int) -> None:
    """An ``if "zero3" not in training_args.deepspeed:`` statement is decided by the launch's path too, in the entry
    and in a module it imports: with the stage-3 config named otherwise its branch runs, and the device_map finding
    comes back."""
    root = tmp_path / case
    shutil.copytree(CASES / case, root, ignore=shutil.ignore_patterns("expect"))
    (root / "scripts" / "zero3.json").rename(root / "scripts" / "full.json")
    launch = root / "scripts" / "run.sh"
    launch.write_text(launch.read_text().replace("zero3.json", "full.json"))
    found = [f for f in _lint(root)["findings"] if f["path"] == path]  # type: ignore[attr-defined]
    assert [(f["line"], f["name"], f["severity"]) for f in found] == [(line, "zero3-device-map-conflict", "error")]


def test_hf_config_kept_at_module_level(tmp_path: Path) -> None:
    """An HfDeepSpeedConfig made at module level lives for the whole run: Transformers sees ZeRO-3 in every file, and
    builder.py's low_cpu_mem_usage load is a warning again."""
    root = tmp_path / "hf-config-local"
    shutil.copytree(CASES / "hf-config-local", root, ignore=shutil.ignore_patterns("expect"))
    main = root / "main.py"
    main.write_text(main.read_text().replace("import deepspeed\n", "import deepspeed\n"
                                             "from transformers.integrations import HfDeepSpeedConfig\n", 1)
                    .replace("    config = ds_config(args.zero_stage)\n",
                             "    config = ds_config(args.zero_stage)\n    global KEEP\n    KEEP = HfDeepSpeedConfig(config)\n"))
    found = [(f["path"], f["line"], f["severity"]) for f in _lint(root)["findings"]  # type: ignore[attr-defined]
             if f["name"] == "zero3-low-cpu-mem-usage-conflict"]
    assert sorted(found) == [("utils/builder.py", 9, "warning"), ("utils/hf_model.py", 8, "warning")]


def test_hf_config_never_made(tmp_path: Path) -> None:
    """A process that imports HfDeepSpeedConfig but never makes one (a fork that dropped the line) registers ZeRO-3
    with Transformers nowhere: both low_cpu_mem_usage loads are info."""
    root = tmp_path / "hf-config-local"
    shutil.copytree(CASES / "hf-config-local", root, ignore=shutil.ignore_patterns("expect"))
    model = root / "utils" / "hf_model.py"
    model.write_text(re.sub(r"    if ds_config.*\n.*\n", "", model.read_text()))
    assert "HfDeepSpeedConfig(" not in model.read_text()
    found = [(f["path"], f["line"], f["severity"]) for f in _lint(root)["findings"]  # type: ignore[attr-defined]
             if f["name"] == "zero3-low-cpu-mem-usage-conflict"]
    assert sorted(found) == [("utils/builder.py", 9, "info"), ("utils/hf_model.py", 6, "info")]


def test_standalone_script_that_registers(tmp_path: Path) -> None:
    """The merge tool with an Accelerator may run under the project's ZeRO-3 accelerate YAML: its save is an error
    again."""
    root = tmp_path / "standalone-merge-tool"
    shutil.copytree(CASES / "standalone-merge-tool", root, ignore=shutil.ignore_patterns("expect"))
    tool = root / "tools" / "merge_lora.py"
    tool.write_text("from accelerate import Accelerator\n" + tool.read_text() + "Accelerator().wait_for_everyone()\n")
    found = [(f["path"], f["line"], f["name"]) for f in _lint(root)["findings"]  # type: ignore[attr-defined]
             if f["severity"] in ("error", "warning")]
    assert ("tools/merge_lora.py", 8, "zero3-unsafe-save") in found


def test_main_block_tool_used_elsewhere(tmp_path: Path) -> None:
    """The standalone scorer's class used by another project file: its device_map load is an error again."""
    root = tmp_path / "main-block-tool"
    shutil.copytree(CASES / "main-block-tool", root, ignore=shutil.ignore_patterns("expect"))
    (root / "use.py").write_text('from scoring import Scorer\n\nScorer("gpt2")\n')
    found = [f for f in _lint(root)["findings"] if f["path"] == "scoring/scorer.py"]  # type: ignore[attr-defined]
    assert [(f["line"], f["severity"]) for f in found] == [(15, "error")]


def test_cd_from_a_directory_above_the_script(tmp_path: Path) -> None:
    """``cd t2i-r1/src`` in ``src/scripts/run.sh``, a script run from ``src/`` (T2I-R1, aside152): the target
    resolves from a directory above the script (as a launch's own paths do), so the launch's
    ``--deepspeed ../configs/zero3.json`` is that project's config and is linted, not listed as named by nothing."""
    from dsdoctor.lint.launch_dirs import launch_dir

    (tmp_path / "src" / "scripts").mkdir(parents=True)
    (tmp_path / "src" / "t2i-r1" / "src").mkdir(parents=True)
    (tmp_path / "src" / "t2i-r1" / "configs").mkdir()
    script = tmp_path / "src" / "scripts" / "run.sh"
    got = launch_dir(str(script), "t2i-r1/src", str(script), str(tmp_path))
    assert got == str(tmp_path / "src" / "t2i-r1" / "src" / "run.sh")
    assert launch_dir(str(script), "nowhere/src", str(script), str(tmp_path)) is None


def test_bench_verdicts_kept_apart_by_commit(tmp_path: Path) -> None:
    """bench/lint_repos.py: repositories of one name from several owners (three GEMs) keep their verdicts apart by
    the commits read; a repository's verdicts read at another of its exports count; an export at a commit nobody
    read gets every one's."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("lint_repos", Path(__file__).parents[1] / "bench" / "lint_repos.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    a, b = "a" * 40, "b" * 40
    (tmp_path / "v.tsv").write_text("repository\tcommit\trule\tfile:line\tverdict\twhy\n"
                                    f"x/GEM\t{a}\tzero3-unsafe-save\ttrain.py:3\ttrue\tReal.\n"
                                    f"y/GEM\t{b}\tzero3-unsafe-save\ttrain.py:3\tfalse\tNot run.\n")
    with (tmp_path / "v.tsv").open("a") as fh:  # one read at another export of x/GEM: still x/GEM's
        fh.write(f"x/GEM\t{'d' * 40}\tlaunch-config-missing\trun.sh:2\ttrue\tMissing.\n")
    got = mod.read_verdicts(tmp_path / "v.tsv")["GEM"]
    assert mod.for_export(got, a)[("zero3-unsafe-save", "train.py:3")][0] == "true"
    assert ("launch-config-missing", "run.sh:2") in mod.for_export(got, a)
    assert mod.for_export(got, b)[("zero3-unsafe-save", "train.py:3")][0] == "false"
    assert len(mod.for_export(got, b)) == 1 and len(mod.for_export(got, "c" * 40)) == 2


def test_option_values_branches() -> None:
    """lint/option_values.py: the values every ZeRO-3 launch of an entry gives an option (passed, or the declared
    default where left out; a variable, an opaque launch or a conflicting default: unknown) and the tests they make
    false (``==`` / ``in`` / ``!=`` / ``not in``, ``or`` of all, ``and`` of one; an option namespace's attribute only)."""
    import ast

    from dsdoctor.lint.option_values import launch_values, never
    from dsdoctor.lint.recipe import Recipe

    def launch(*flags: str, stage: int = 3, opaque: bool = False) -> Recipe:
        return Recipe(where="run.sh:1", entry="train.py", stage=stage, flags=set(flags), opaque=opaque)

    sft = launch("stage", "stage=sft", "bits", "bits=16")
    dflt = launch("bits", "bits=8")
    zero2 = launch("stage", "stage=ppo", stage=2)
    got = dict(launch_values([sft, dflt, zero2], "train.py", {"stage": "sft", "mode": "\0"}))
    assert got == {"stage": frozenset({"sft"}), "bits": frozenset({"16", "8"})}
    assert dict(launch_values([sft, launch("stage")], "train.py", {})) == {}  # --stage $STAGE: any value
    assert launch_values([sft, launch(opaque=True)], "train.py", {"stage": "sft"}) == ()
    values = {"stage": frozenset({"sft"}), "bits": frozenset({"16", "8"})}
    for test, want in [('args.stage == "ppo"', True), ('args.stage == "sft"', False), ('"ppo" == args.stage', True),
                       ('finetuning_args.stage in ("ppo", "dpo")', True), ('args.stage in ["sft"]', False),
                       ('args.stage != "sft"', True), ('args.stage not in ("sft", "pt")', True),
                       ('args.bits == 4', True), ('args.bits in (4, 8)', False), ('self.model_args.stage == "rm"', True),
                       ('args.stage == "ppo" or args.bits == 4', True), ('args.stage == "ppo" or args.bits == 8', False),
                       ('args.stage == "ppo" and flag', True), ('model.config.stage == "ppo"', False),
                       ('stage == "ppo"', False), ('args.stage == other', False), ('args.epochs == 3', False)]:
        assert never(ast.parse(test, mode="eval").body, values) is want, test
