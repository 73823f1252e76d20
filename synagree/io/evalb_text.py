"""EVALB's parameter files and bracketed files as bytes and lines (the light part).

`read_settings` reads a parameter file's bytes as EVALB reads them (every rule and
message of `synagree.io.evalb_params.parse_params`, which builds its `EvalbParams`
from them); `split_lines` cuts a bracketed file into its lines as EVALB's ``fgets``
reads them (`synagree.io.evalb_lines.read_bracket_lines`).  Kept apart from those
modules (dataclasses, pathlib, the readers' registry) so that the fast path of
``synagree compare`` on bracketed files (`synagree.cli.parseval_fast`) uses the same
functions without loading them (issue 36: start-up).
"""
from __future__ import annotations

import re

from synagree.base.escape import quote

try:  # CPython's own SHA-256, the one hashlib falls back to: importing hashlib starts
    # OpenSSL, a tenth of a small PARSEVAL run on the fast path (issue 36); same digest
    from _sha256 import sha256  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - Python 3.12 names it _sha2; or none built
    from hashlib import sha256

# typing is needed only by the type checker (its import costs start-up: issue 36)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Optional, Tuple

__all__ = ["BUNDLED", "DEFAULT_PARAMS", "C_SPACE", "MAX_LINE_BYTES", "LIMITS", "KEYS",
           "read_settings", "c_atoi", "split_lines", "latin1_text"]

#: bundled parameter files: name -> file name under synagree/data/evalb
BUNDLED: Dict[str, str] = {"collins": "COLLINS.prm", "new": "new.prm", "nk": "nk.prm"}
DEFAULT_PARAMS = "collins"

#: what C's ``isspace`` accepts in the "C" locale
C_SPACE = " \t\n\v\f\r"

MAX_LINE_BYTES = 499  # EVALB reads a parameter line with fgets(buff, 500, ...)
# EVALB's fixed arrays: MAX_DELETE_LABEL, MAX_EQ_LABEL, MAX_EQ_WORD, MAX_QUOTE_TERM
LIMITS = {"DELETE_LABEL": 100, "DELETE_LABEL_FOR_LENGTH": 100, "EQ_LABEL": 100,
          "EQ_WORD": 100, "QUOTE_LABEL": 20}
_INT = re.compile(r"[+-]?[0-9]+")
_SPLIT = re.compile(f"[{re.escape(C_SPACE)}]+")

KEYS = ("DEBUG", "MAX_ERROR", "CUTOFF_LEN", "LABELED", "DELETE_LABEL",
        "DELETE_LABEL_FOR_LENGTH", "EQ_LABEL", "EQ_WORD", "QUOTE_LABEL")
# numeric keys: (lowest, highest) allowed, None: no bound
_NUMERIC: Dict[str, Tuple[Optional[int], Optional[int]]] = {
    "DEBUG": (0, 2), "MAX_ERROR": (None, None), "CUTOFF_LEN": (None, None), "LABELED": (0, 1)}


def latin1_text(s: str) -> str:
    """A Latin-1 byte string as the text it encodes (UTF-8; bad bytes replaced)."""
    return s.encode("latin-1").decode("utf-8", errors="replace")


def read_settings(data: bytes, bad: Callable[[int, str], Any]) -> Dict[str, Any]:
    r"""What a parameter file's bytes ``data`` set, read as EVALB reads them; each problem
    is given to ``bad`` (line number, message: `parse_params` lists them as
    ``bad-params``), and the settings returned are then incomplete.

    Returns
    -------
    dict
        The fields of `synagree.io.evalb_params.EvalbParams` but its name and
        source: ``sha256``, ``debug``, ``max_error``, ``cutoff_len``, ``labeled``,
        ``delete_labels``, ``delete_labels_for_length``, ``eq_labels``, ``eq_words``,
        ``quote_labels``.

    Examples
    --------
    >>> s = read_settings(b"MAX_ERROR 7\nDELETE_LABEL TOP\n", print)
    >>> s["max_error"], s["delete_labels"], s["labeled"]
    (7, ('TOP',), True)
    """
    text = data.decode("latin-1")
    values: Dict[str, object] = {}
    lists: Dict[str, list] = {k: [] for k in LIMITS}
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline ending the last line
    for no, raw in enumerate(lines, start=1):
        if len(raw) + 1 > MAX_LINE_BYTES:
            bad(no, f"line of {len(raw) + 1} bytes: EVALB reads at most {MAX_LINE_BYTES} "
                f"bytes a line and would split it")
            continue
        # EVALB cuts trailing white space, never the first character
        line = raw[:1] + raw[1:].rstrip(C_SPACE)
        if line.startswith("#") or len(line) < 3:
            continue
        parts = _SPLIT.split(line, maxsplit=1)
        key = parts[0]
        value = parts[1] if len(parts) > 1 else ""
        if key not in KEYS:
            bad(no, f"unknown key {quote(latin1_text(key))}: EVALB reads {', '.join(KEYS)}")
            continue
        if not value:
            bad(no, f"{key} has no value")
            continue
        tokens = _SPLIT.split(value)  # C's white space only (not Latin-1's \xa0)
        if key in _NUMERIC:
            lo, hi = _NUMERIC[key]
            if not _INT.fullmatch(value):
                bad(no, f"{key} needs a whole number, not {quote(latin1_text(value))}")
                continue
            n = c_atoi(value)  # as EVALB's atoi reads it (a C int)
            if (lo is not None and n < lo) or (hi is not None and n > hi):
                bad(no, f"{key} must be {lo} to {hi}, not {n}"
                    if lo is not None and hi is not None
                    else f"{key} must be at least {lo}, not {n}")
                continue
            values[key] = n
            continue
        want = 2 if key in ("EQ_LABEL", "EQ_WORD") else 1
        if len(tokens) != want:
            bad(no, f"{key} takes {'two values' if want == 2 else 'one label'}, found "
                f"{len(tokens)}: {quote(latin1_text(value))}")
            continue
        if len(lists[key]) >= LIMITS[key]:
            bad(no, f"more than {LIMITS[key]} {key} entries, EVALB's limit")
            continue
        lists[key].append(tuple(tokens) if want == 2 else tokens[0])
    return {"sha256": sha256(data).hexdigest(),
            "debug": int(values.get("DEBUG", 0)),  # type: ignore[call-overload]
            "max_error": int(values.get("MAX_ERROR", 10)),  # type: ignore[call-overload]
            "cutoff_len": int(values.get("CUTOFF_LEN", 40)),  # type: ignore[call-overload]
            "labeled": bool(values.get("LABELED", 1)),
            "delete_labels": tuple(lists["DELETE_LABEL"]),
            "delete_labels_for_length": tuple(lists["DELETE_LABEL_FOR_LENGTH"]),
            "eq_labels": tuple(lists["EQ_LABEL"]),
            "eq_words": tuple(lists["EQ_WORD"]),
            "quote_labels": tuple(lists["QUOTE_LABEL"])}


def c_atoi(text: str) -> int:
    """A whole number as glibc's ``atoi`` gives it to EVALB: ``(int) strtol(text, NULL, 10)``.

    ``strtol`` saturates at the 64-bit ``long``'s bounds; the cast to ``int``
    keeps the low 32 bits (two's complement, as gcc does on every platform
    EVALB is built on).

    Examples
    --------
    >>> c_atoi("10"), c_atoi("99999999999999999999999"), c_atoi("-99999999999999999999999")
    (10, -1, 0)
    >>> c_atoi("4294967296"), c_atoi("2147483648"), c_atoi("+7")
    (0, -2147483648, 7)
    """
    n = max(-2**63, min(2**63 - 1, int(text)))
    return (n + 2**31) % 2**32 - 2**31


def split_lines(raw: bytes) -> List[str]:
    """A bracketed file's bytes as its lines, one Latin-1 character a byte (the newline
    that ends the last line is not a line of its own, as ``fgets`` reads it)."""
    lines = raw.decode("latin-1").split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines
