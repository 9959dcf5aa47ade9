"""Why Kaggle failed an agent's move, said in a few lines and in the agent's own terms.

Kaggle's statuses (``ERROR``, ``INVALID``, ``TIMEOUT``) say that a move failed, not why; the
reason is in what the agent returned, the traceback it raised or the time it took. The harness
(``connectx.evaluation``) and the validator (``connectx.submission``) both keep those raw facts and
turn them into these lines, so ``play``, ``match``, ``tournament``, ``ladder`` and ``validate`` say
the same thing about the same failure; the record keeps the whole traceback.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

ERROR_LINES = 4
"""The lines of a traceback shown where a failure is reported: the innermost frame, its code line, the exception."""


def returned_problem(type_name: str, text: str, legal: Sequence[int] | None = None) -> str | None:
    """What is wrong with an answer Kaggle will not play, or None for a plain ``int`` among ``legal`` (if given).

    ``type_name`` is the answer's type as `module.qualname` (`numpy.int64`), ``text`` its repr.
    Kaggle's schema wants a JSON integer: a numpy integer fails it (INVALID, although the column may
    be legal), and a float passes it to crash the ConnectX rules, so both are named for what they are.
    """
    if type_name == "int":
        if legal is not None and int(text) not in legal:
            return f"returned {text}, not a legal column (the open ones: {', '.join(map(str, legal))})"
        return None
    if type_name == "float":
        return f"returned {text}, a float: Kaggle wants an int (return int(column))"
    if type_name == "bool":
        return f"returned {text}, a bool: Kaggle wants an int"
    if type_name == "NoneType":
        return "returned None: Kaggle wants an int (a path through the agent ends without return)"
    return f"returned {type_name} ({text}): Kaggle wants an int (return int(column))"


def invalid_text(answer: tuple[str, str] | None) -> str:
    """Why Kaggle marked a move INVALID, from the answer's type and text (None when it was never seen)."""
    if answer is None:
        return "Kaggle marked the move INVALID"
    return returned_problem(*answer) or f"returned {answer[1]}, a column Kaggle would not play (full, or off the board)"


def type_name_of(value: object) -> str:
    """``value``'s type as `module.qualname`, builtins bare: `numpy.int64`, ``float``."""
    kind = type(value)
    module = kind.__module__
    return kind.__qualname__ if module == "builtins" else f"{module.split('.')[0]}.{kind.__qualname__}"


def shown(value: object) -> str:
    """An answer as its author would write it: a number plainly (``0`` of `numpy.int64(0)`), anything else's repr."""
    text = str(value) if isinstance(value, (int, float)) or hasattr(value, "__index__") else repr(value)
    return text[:80]


def error_lines(traceback_text: str, lines: int = ERROR_LINES) -> str:
    """Where and what a traceback says: its innermost frame (``File "mine.py", line 4, in agent``), that
    frame's code and the exception, at most ``lines`` lines; the engine's frames and carets are left out.

    Of chained tracebacks only the last counts. Text that is no traceback is cut to its last ``lines`` lines.
    """
    text = traceback_text.strip()
    if not text:
        return ""
    last = text.rsplit("Traceback (most recent call last):", 1)[-1]
    kept = [line.rstrip() for line in last.splitlines() if line.strip() and not re.fullmatch(r"\s*[\^~]+\s*", line)]
    frames = [index for index, line in enumerate(kept) if line.lstrip().startswith('File "')]
    if frames:
        kept = kept[frames[-1] :]
    return "\n".join(kept[:2] + kept[2:][-(lines - 2) :] if len(kept) > lines else kept)


def timeout_text(seconds: float, act_timeout: float, bank: float) -> str:
    """A move Kaggle timed out: how long it took against its limit, ``actTimeout`` plus the bank it had."""
    return (
        f"took {seconds:.1f} s, the limit is {act_timeout:g} s plus the bank ({bank:.1f} s left of Kaggle's "
        f"overage time): {act_timeout + bank:.1f} s"
    )
