"""The launch reader splits a shell line into commands only at separators outside quotes (issue 18: a quoted
``"a||b"`` argument dropped the whole launch, so its ds_config was never linted)."""

from __future__ import annotations

import pytest

from dsdoctor.lint.launch.shell import _commands


@pytest.mark.parametrize("line,want", [
    ('deepspeed t.py --deepspeed z3.json --tasks "a||b"', ['deepspeed t.py --deepspeed z3.json --tasks "a||b"']),
    ("deepspeed t.py --sep 'x && y; z'", ["deepspeed t.py --sep 'x && y; z'"]),
    ("cd src && deepspeed t.py || exit 1", ["cd src ", " deepspeed t.py ", " exit 1"]),
    ("a=1; b=2", ["a=1", " b=2"]),
    ('deepspeed t.py --note "not # a comment" # a comment', ['deepspeed t.py --note "not # a comment" ']),
    ("echo $# ${#ARR[@]}", ["echo $# ${#ARR[@]}"]),
    (r'deepspeed t.py --x "a\"||b"', [r'deepspeed t.py --x "a\"||b"']),
    (r"echo a\;b", [r"echo a\;b"]),
])
def test_commands(line: str, want: list) -> None:
    assert _commands(line) == want


@pytest.mark.parametrize("text,want", [
    # bash: a comment line's trailing backslash continues nothing; the launch after it is a command of its own
    ("#--save_steps 5000 \\\ndeepspeed t.py \\\n    --deepspeed z3.json\n", [["deepspeed", "t.py", "--deepspeed", "z3.json"]]),
    ("deepspeed t.py \\\n    --deepspeed z3.json \\\n    --bf16 True\n", [["deepspeed", "t.py", "--deepspeed", "z3.json", "--bf16", "True"]]),
    # a quote open over lines (one of them blank) holds one word; a comment's or a heredoc body's stray quote opens none
    ('bash -c "cd run &&\n\n  deepspeed t.py"\nls\n', [["bash", "-c", "cd run &&\n\n  deepspeed t.py"], ["ls"]]),
    ("# don't\ndeepspeed t.py\n", [["deepspeed", "t.py"]]),
    ("cat > n.txt <<EOF\nit's\nEOF\ndeepspeed t.py\n", [["cat", ">", "n.txt", "<<EOF"], ["EOF"], ["deepspeed", "t.py"]]),
    ('echo "never closed\ndeepspeed t.py\n', [["deepspeed", "t.py"]]),
    # a `#` inside a word is the word's (bash comments start a word): the options after it are read
    ("deepspeed t.py --data wds#tag --deepspeed z3.json\n", [["deepspeed", "t.py", "--data", "wds#tag", "--deepspeed", "z3.json"]]),
])
def test_logical_lines(text: str, want: list) -> None:
    from dsdoctor.lint.launch.shell import parse

    assert [c.argv for c in parse(text).commands] == want


@pytest.mark.parametrize("line,want", [
    ('ssh -p 22 -o BatchMode=yes me@node1 "cd /run && deepspeed t.py --deepspeed z3.json" &',
     [["cd", "/run"], ["deepspeed", "t.py", "--deepspeed", "z3.json"]]),
    ('ssh node1 eval "torchrun t.py"', [["torchrun", "t.py"]]),
    ("pdsh -R ssh -w node[1-4] 'torchrun t.py'", [["torchrun", "t.py"]]),
    ("ssh node1", []),
])
def test_remote_commands(line: str, want: list) -> None:
    """The command ``ssh HOST`` / ``pdsh -w HOSTS`` runs remotely is read as a command line, as ``bash -c``'s is."""
    from dsdoctor.lint.launch.shell import parse, unwrap

    assert [u.argv for c in parse(line).commands for u in unwrap(c)] == want


@pytest.mark.parametrize("line,want", [
    ("uv run accelerate launch --config_file z3.yaml t.py", [["accelerate", "launch", "--config_file", "z3.yaml", "t.py"]]),
    ("uv run --with deepspeed python t.py", [["python", "t.py"]]),
    ("uv add deepspeed", []),
    ("uv pip install deepspeed", []),
])
def test_uv_run(line: str, want: list) -> None:
    """``uv run`` runs the command after its options (the value of ``--with`` is a package, not a command); ``uv
    add`` / ``uv pip install`` run none."""
    from dsdoctor.lint.launch.shell import parse, unwrap

    assert [u.argv for c in parse(line).commands for u in unwrap(c)] == want


def test_array_assignment_expands_to_its_first_element() -> None:
    """``A=("x" "y")``: ``$A`` is ``x`` (bash), so an option list built from it reads on (CogCoM's train_data)."""
    from dsdoctor.lint.launch.shell import assignments

    vals = {name: val for _, name, val in assignments('A=(x y z)\nB=("$(pwd)/p#q" r)\nC=()\n')}
    assert vals == {"A": "x", "B": "$(pwd)/p#q", "C": ""}


def test_positional_parameter_defaults_expand() -> None:
    # a script run without arguments takes the default of ${N-default} / ${N:-default}, one or two digits
    # (fast-differential-privacy's deepspeed_config=${18:-"table2text/ds.json"}); a named variable still wins
    from dsdoctor.lint.launch.shell import expand

    assert expand('${1-.}/configs/ds.json', {}) == "./configs/ds.json"
    assert expand("${18:-table2text/ds.json}", {}) == "table2text/ds.json"
    assert expand("${2}", {}) == "${2}"  # no default: left as it is
    assert expand("${BASE:-x}/ds.json", {"BASE": "root"}) == "root/ds.json"


def test_words_split_as_posix_shlex_does() -> None:
    """launch/shell.words reads a command's words with regular expressions, not shlex: on 20,000 generated commands
    dense in quotes, backslashes, mixed whitespace, unicode and control characters it gives what POSIX shlex gives
    (quotes removed, escapes applied, an open quote or a trailing backslash: None where shlex raises)."""
    import random
    import shlex

    from dsdoctor.lint.launch.shell_words import words

    def by_shlex(part: str) -> "list | None":
        try:
            lex = shlex.shlex(part, posix=True, punctuation_chars=False)
            lex.whitespace_split = True
            lex.commenters = ""
            return list(lex)
        except ValueError:
            return None

    rng = random.Random(18)
    alphabet = ["a", "Z", "0", "-", "=", "#", "$", "{", "}", "/", ".", ":", " ", "  ", "\t", "\r", "\n", "\x0b",
                "\x0c", "\u00a0", "\u3000", "é", "|", "(", ")", "*", "~", "'", '"', "\\"]
    cases = ["deepspeed --num_gpus 8 train.py --deepspeed ds_z3.json", "  torchrun\t--nproc_per_node=4  t.py ",
             "python a.py --tag data#1", "", "   ", "x=\u00a0y", "a\x0bb", "echo 'open", 'say "a b" c', r"a\ b"]
    cases += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(20000)]
    for part in cases:
        assert words(part) == by_shlex(part), repr(part)


def test_commands_fast_path_is_the_loop() -> None:
    """_commands returns a line without quotes, backslashes, ``#``, ``;``, ``&`` or ``|`` whole, as its character
    loop does (generated lines with and without those characters)."""
    import random

    import dsdoctor.lint.launch.shell as S

    rng = random.Random(7)
    alphabet = ["a", "-", "=", " ", "\t", "$", "{", "}", "'", '"', "\\", "#", ";", "&", "|", "&&", "||", "é"]
    lines = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 25))) for _ in range(5000)]
    special, S._SPECIAL = S._SPECIAL, __import__("re").compile(r"[\s\S]")  # every line through the loop
    try:
        slow = [_commands(line) for line in lines]
    finally:
        S._SPECIAL = special
    assert [_commands(line) for line in lines] == slow
