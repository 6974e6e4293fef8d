"""Python warns about the code it compiles (``1if x else 0``: "invalid decimal literal"; an invalid escape). What
lint compiles (``ast.parse``, ``compile``, ``symtable``) is the user's files: those warnings are about their code,
no message of dsdoctor's, and must not reach its stderr. (The fixed text checked before ``--fix`` writes it is read
by libcst, which warns about nothing.)"""

from __future__ import annotations

import functools
import warnings
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def quiet_user_code(fn: F) -> F:
    """``fn`` run with Python's warnings about compiled code ignored."""
    @functools.wraps(fn)
    def quiet(*args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.filterwarnings("ignore", r"invalid (escape sequence|decimal literal|octal escape)", DeprecationWarning)
            return fn(*args, **kwargs)
    return quiet  # type: ignore[return-value]
