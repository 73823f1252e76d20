"""Fitting a text table to a width: text columns truncated (with an ellipsis) or
wrapped, headers wrapped at spaces (and after a key's underscores), numbers never cut.

One small idea, kept apart so that it can move with the table model: given a
header, rows of cells (strings) and which columns hold free text, `fit_rows`
returns header and rows whose aligned layout (`layout`) is at most ``width``
display columns wide whenever the columns that are not text fit at all.
Only the plain-text tables go through it; JSON, CSV, Markdown and LaTeX
carry every cell in full.

Widths are display columns (`cell_width`): East Asian wide and fullwidth
characters count two, combining marks none.  A cell or header that comes
back holding ``\\n`` spans several lines of the layout.
"""
from __future__ import annotations

import contextlib
import os
import re
import sys
import unicodedata
from contextvars import ContextVar

from synagree.base.numbers import ascii_digits

# typing is needed only by the type checker (its import costs start-up: issue 36)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterator, List, Optional, Sequence, Tuple

__all__ = ["DEFAULT_WIDTH", "UNLIMITED", "ELLIPSIS", "terminal_width", "cell_width", "truncate",
           "wrap", "hanging", "fit_rows", "layout", "text_columns", "table_width", "cut_cells",
           "is_terminal", "CUT_NOTE"]

#: The width of a table that is not written to a terminal (a pipe, a file):
#: none, the table is written whole (an identifying cell is never cut where no
#: one can widen the window).
UNLIMITED = 1_000_000
DEFAULT_WIDTH = UNLIMITED
#: The width of a terminal whose size cannot be read.
TERMINAL_WIDTH = 100
#: Marks a cut cell.
ELLIPSIS = "…"
#: Narrowest a text column is made (fewer columns would say nothing).
MIN_TEXT = 6


#: The width set for the text written now (`table_width`), if any.
_WIDTH: ContextVar[Optional[int]] = ContextVar("synagree_table_width", default=None)
#: How many cells were cut since the last `cut_cells` reset (a list, so that the
#: count made inside a `table_width` block is seen outside it).
_CUTS: ContextVar[Optional[List[int]]] = ContextVar("synagree_cut_cells", default=None)

#: What the CLI says once after a text table whose cells were cut to fit a terminal.
CUT_NOTE = ("cells ending in … were cut to fit the terminal ({width} columns); to see them "
            "whole, widen it (COLUMNS=N), pipe the output (| cat, | less -S){csv}")
#: (``{csv}``: ", or --output FORMAT", a format of the command that keeps every cell whole)


def terminal_width(stream=None, default: int = DEFAULT_WIDTH) -> int:
    """The width to fit text tables to.

    In this order: the width set by `table_width` (the CLI sets it: unlimited
    for ``-o FILE``); when ``stream`` (default ``sys.stdout``) is a terminal,
    ``$COLUMNS`` if set, else the terminal's width (`TERMINAL_WIDTH` if it
    cannot be read); otherwise ``default``
    (`UNLIMITED`: a table written to a pipe or a file is never cut).

    Parameters
    ----------
    stream : file object, optional
    default : int

    Returns
    -------
    int
        At least 20.
    """
    fixed = _WIDTH.get()
    if fixed is not None:
        return max(20, fixed)
    stream = sys.stdout if stream is None else stream
    if not is_terminal(stream):
        return default
    env = os.environ.get("COLUMNS", "")
    if ascii_digits(env.strip()) and int(env) > 0:
        return max(20, int(env))
    try:
        return max(20, os.get_terminal_size(stream.fileno()).columns)
    except (AttributeError, ValueError, OSError):
        return TERMINAL_WIDTH


def is_terminal(stream) -> bool:
    """Whether ``stream`` is a terminal (False for anything without ``isatty``)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


@contextlib.contextmanager
def table_width(width: Optional[int]) -> Iterator[None]:
    """Fit the text tables written inside the block to ``width`` columns
    (`UNLIMITED`: never cut; None: as `terminal_width` finds).

    >>> with table_width(UNLIMITED):
    ...     terminal_width() == UNLIMITED
    True
    """
    token = _WIDTH.set(width)
    try:
        yield
    finally:
        _WIDTH.reset(token)


@contextlib.contextmanager
def cut_cells() -> Iterator[List[int]]:
    """Count the cells `fit_rows` cuts inside the block: yields a one-item list
    holding the count (read it after the block).

    >>> with cut_cells() as cut:
    ...     _ = fit_rows(["text"], [["a long sentence of words"]], [0], 20)
    >>> cut[0]
    1
    """
    box = [0]
    token = _CUTS.set(box)
    try:
        yield box
    finally:
        _CUTS.reset(token)


def _count_cut(n: int) -> None:
    box = _CUTS.get()
    if box is not None and n:
        box[0] += n


def _char_width(ch: str) -> int:
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def cell_width(s: str) -> int:
    """Display columns of ``s`` (one line)."""
    if s.isascii():
        return len(s)
    return sum(_char_width(ch) for ch in s)


def truncate(s: str, width: int) -> str:
    """``s`` cut to ``width`` display columns, the cut marked with ``…``."""
    if cell_width(s) <= width:
        return s
    out, w = [], 0
    for ch in s:
        cw = _char_width(ch)
        if w + cw > width - 1:
            break
        out.append(ch)
        w += cw
    return "".join(out).rstrip() + ELLIPSIS


def _split_word(word: str, width: int) -> List[str]:
    parts, cur, w = [], "", 0
    for ch in word:
        cw = _char_width(ch)
        if cur and w + cw > width:
            parts.append(cur)
            cur, w = "", 0
        cur += ch
        w += cw
    return parts + ([cur] if cur else [])


def wrap(s: str, width: int) -> List[str]:
    """``s`` broken into lines of at most ``width`` display columns, at spaces
    where possible (a longer word is split).
    """
    width = max(1, width)
    lines: List[str] = []
    cur, w = "", 0
    for word in s.split():
        ww = cell_width(word)
        if cur and w + 1 + ww <= width:
            cur, w = cur + " " + word, w + 1 + ww
            continue
        if cur:
            lines.append(cur)
        if ww > width:
            *full, cur = _split_word(word, width)
            lines += full
            w = cell_width(cur)
        else:
            cur, w = word, ww
    if cur or not lines:
        lines.append(cur)
    return lines


#: where a header may break: at a space, or after the ``_`` of a registered key
_HEADER_PIECE = re.compile(r"[^_\s]*_+|[^_\s]+")


def _header_pieces(word: str) -> List[str]:
    """A header word in the pieces it may be broken into (``cohen_kappa`` → ``cohen_``,
    ``kappa``)."""
    return _HEADER_PIECE.findall(word) or [word]


def wrap_header(s: str, width: int) -> List[str]:
    """A header broken into lines of at most ``width`` columns, at spaces and after
    the underscores of a key (``specific_macro`` → ``specific_`` / ``macro``); a
    piece wider than ``width`` stays whole.
    """
    lines: List[str] = []
    cur = ""
    for word in s.split():
        for k, piece in enumerate(_header_pieces(word)):
            joined = cur + ("" if k or not cur else " ") + piece
            if cur and cell_width(joined) > width:
                lines.append(cur)
                cur = piece
            else:
                cur = joined
    return lines + [cur] if cur or not lines else lines


def _longest_piece(header: str) -> int:
    return max((cell_width(p) for w in header.split() for p in _header_pieces(w)), default=0)


def hanging(text: str, width: int, prefix: str = "note: ") -> List[str]:
    """``prefix`` + ``text`` wrapped to ``width`` columns, the lines after the
    first indented under the text.
    """
    pad = cell_width(prefix)
    lines = wrap(text, max(MIN_TEXT, width - pad))
    return [prefix + lines[0]] + [" " * pad + line for line in lines[1:]]


#: a signature line is folded only beyond this many columns (or the terminal's
#: width, when wider): shorter, it stays one line to be copied whole (a terminal
#: soft-wraps it)
SIGNATURE_WIDTH = 160


def signature_text(sig: str, width: Optional[int] = None) -> str:
    """``signature: SIG`` for a text output, folded after a ``|`` where it is
    wider than ``width`` (default: the terminal's width, at least
    `SIGNATURE_WIDTH`); the lines after the first are indented under the
    signature, so joining them with their indentation removed gives it back
    whole.  JSON, CSV, Markdown and LaTeX carry it on one line.
    """
    width = max(terminal_width(), SIGNATURE_WIDTH) if width is None else width
    prefix = "signature: "
    pad = " " * len(prefix)
    if cell_width(prefix + sig) <= width:
        return prefix + sig
    lines: List[str] = []
    cur = prefix
    for field in sig.split("|"):
        piece = field if cur in (prefix, pad) else "|" + field
        if cur not in (prefix, pad) and cell_width(cur + piece) > width:
            lines.append(cur + "|")
            cur, piece = pad, field
        cur += piece
    lines.append(cur)
    return "\n".join(lines)


_FIXED = re.compile(r"^[-+−–]?[\d.,eE%+\-−–\s\[\]()±×/:]*$")


def text_columns(header: Sequence[str], rows: Sequence[Sequence[str]]) -> List[int]:
    """The columns holding free text: some cell is not a number, percentage,
    interval or dash (nor ``undefined``, ``yes``, ``no``).
    """
    out = []
    for i in range(len(header)):
        cells = [str(r[i]) for r in rows if i < len(r)]
        if any(not _FIXED.match(c) and c not in ("undefined", "yes", "no") for c in cells):
            out.append(i)
    return out


def _widths(cells: Sequence[str]) -> int:
    return max((cell_width(line) for c in cells for line in str(c).split("\n")), default=0)


def fit_rows(header: Sequence[str], rows: Sequence[Sequence[str]], text: Sequence[int],
             width: int, *, mode: str = "truncate", sep: int = 2
             ) -> Tuple[List[str], List[List[str]]]:
    """Header and rows whose `layout` is at most ``width`` columns wide.

    Nothing changes when the table fits already.  Otherwise, in this order:
    headers wider than their column's cells are wrapped at spaces and after
    the underscores of a key (`wrap_header`; never narrower than their longest
    piece); then the text columns ``text`` share
    what is left, the narrow ones keeping their width and the wide ones cut
    to one equal width (at least `MIN_TEXT` and the header's longest word),
    their cells truncated with
    ``…`` (``mode="truncate"``) or wrapped onto several lines
    (``mode="wrap"``).  Columns that are not text are never cut, so a table
    whose numbers alone are wider than ``width`` stays wider.

    Parameters
    ----------
    header : sequence of str
    rows : sequence of sequence of str
    text : sequence of int
        Indices of the text columns.
    width : int
        Display columns.
    mode : {"truncate", "wrap"}
    sep : int
        Spaces between columns (as in `layout`).

    Returns
    -------
    header : list of str
    rows : list of list of str
        Cells may hold ``\\n`` (wrapped).

    Raises
    ------
    ValueError
        Unknown ``mode``.
    """
    if mode not in ("truncate", "wrap"):
        raise ValueError("mode must be 'truncate' or 'wrap'")
    header = [str(h) for h in header]
    body = [[str(c) for c in r] for r in rows]
    n = len(header)

    def col(i: int) -> List[str]:
        return [r[i] for r in body if i < len(r)]

    def total(ws: Sequence[int]) -> int:
        return sum(ws) + sep * max(0, n - 1)

    widths = [max(_widths([header[i]]), _widths(col(i))) for i in range(n)]
    if total(widths) <= width:
        return header, body
    text = sorted(set(i for i in text if 0 <= i < n))
    # 1. headers wider than their cells: wrapped at spaces, widest surplus first
    for i in sorted(range(n), key=lambda i: _widths(col(i)) - widths[i]):
        if total(widths) <= width:
            break
        need = max(_widths(col(i)), _longest_piece(header[i]), 1,
                   widths[i] - (total(widths) - width))
        if need < widths[i]:
            header[i] = "\n".join(wrap_header(header[i], need))
            widths[i] = max(_widths(col(i)), _widths([header[i]]))
    if total(widths) <= width or not text:
        return header, body
    # 2. text columns share what the other columns leave: the narrow ones keep
    #    their width, the wide ones get one equal width (water filling)
    avail = width - total([0 if i in text else widths[i] for i in range(n)])
    natural = {i: widths[i] for i in text}
    floor = {i: min(natural[i], max([MIN_TEXT] + [cell_width(w) for w in header[i].split()]))
             for i in text}
    give = dict(floor)
    if avail > sum(floor.values()):
        # the largest cap c with sum(clamp(c, floor, natural)) <= avail
        def used(c: int) -> int:
            return sum(min(natural[i], max(floor[i], c)) for i in text)

        lo, hi = 0, max(natural.values())
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if used(mid) <= avail else (lo, mid - 1)
        give = {i: min(natural[i], max(floor[i], lo)) for i in text}
        extra = avail - used(lo)  # one more column to the first cut columns
        for i in text:
            if extra > 0 and give[i] < natural[i] and give[i] == lo:
                give[i] += 1
                extra -= 1
    for i in text:
        w = give[i]
        if w >= natural[i]:
            continue
        header[i] = "\n".join(truncate(line, w) for line in wrap(header[i], w))
        for r in body:
            if i < len(r):
                if mode == "truncate":
                    whole = " ".join(r[i].split("\n"))
                    r[i] = truncate(whole, w)
                    _count_cut(r[i] != whole)
                else:
                    r[i] = "\n".join(wrap(r[i], w))
    return header, body


def layout(header: Sequence[str], rows: Sequence[Sequence[str]], sep: int = 2,
           caption: Optional[str] = None) -> List[str]:
    """The aligned lines of a table (columns left-aligned, ``sep`` spaces apart,
    no trailing spaces); a cell holding ``\\n`` takes several lines.
    """
    n = len(header)
    widths = [_widths([header[i]] + [r[i] for r in rows if i < len(r)]) for i in range(n)]
    gap = " " * sep
    lines = [caption] if caption else []
    for r in [list(header)] + [list(r) for r in rows]:
        parts = [str(c).split("\n") for c in r]
        height = max((len(p) for p in parts), default=1)
        for k in range(height):
            cells = []
            for i, p in enumerate(parts):
                s = p[k] if k < len(p) else ""
                w = widths[i] if i < n else cell_width(s)
                cells.append(s + " " * (w - cell_width(s)))
            lines.append(gap.join(cells).rstrip())
    return lines
