"""Escaping for the text output formats, in one place.

Every renderer that writes LaTeX, Markdown or CSV passes the text it takes
from the input (annotator and file names, labels, tags, sentence ids, word
forms, titles) through these functions; numbers it formats itself need not.

* `latex`: the specials ``\\ { } $ & # ^ _ ~ %`` (and ``< > |``, which
  the default font encoding prints as other glyphs) become their text
  commands; line breaks and other control characters become spaces (a blank
  line would end the paragraph inside a table).
* `markdown`: one table cell or heading line: line breaks become
  spaces, ``|`` is escaped, the emphasis, code and link marks
  ``\\ * _ ` [ ] ~`` are backslash-escaped (``_`` inside a word, which marks
  nothing, is kept) and ``<``, ``>`` written as
  entities, so no input text turns into markup or HTML.
* `csv_cell`: a text cell that a spreadsheet would run as a formula
  (starting with ``= + - @``, tab or carriage return) gets a leading ``'``;
  numbers, and text that reads as a plain decimal number (``-0.05``,
  ``1e-3``, ``12.5%``), are left as they are.  `csv_row` maps a row.

``plain`` (for the aligned text tables and terminals) escapes control
characters only, so that a label cannot move the cursor or break a row;
``matplotlib_text`` keeps a name from the input (a series or metric of a
noise table) from being read as mathtext in a figure.
"""
from __future__ import annotations

import re

# typing is needed only by the type checker (its import costs start-up: issue 36)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Iterable, List

__all__ = ["latex", "markdown", "csv_cell", "csv_row", "plain", "encodable", "matplotlib_text",
           "quote", "shorten", "SHOWN"]

_LATEX = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
    "^": r"\textasciicircum{}", "_": r"\_", "~": r"\textasciitilde{}", "%": r"\%",
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
}
_LATEX_RE = re.compile(r"[\\{}$&#^_~%<>|]")
# C0/C1 controls, the Unicode line and paragraph separators, lone surrogates
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_LINEBREAK_RE = re.compile(r"\r\n|[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def latex(s: object) -> str:
    r"""``s`` as LaTeX text (for a table cell, caption or heading).

    Parameters
    ----------
    s : object
        Any value; converted with `str`.

    Returns
    -------
    str
        The text with the LaTeX specials as text commands and line breaks and
        other control characters as spaces.

    See Also
    --------
    markdown, csv_cell, plain
    """
    s = _LINEBREAK_RE.sub(" ", str(s))
    s = _CONTROL_RE.sub(" ", s)
    return _LATEX_RE.sub(lambda m: _LATEX[m.group()], s)


# ``_`` between two letters or digits never marks emphasis (CommonMark, GFM):
# kept as it is, so that ``alpha_plain`` stays readable
_MD_BACKSLASH_RE = re.compile(r"[\\`*\[\]|~]|(?<![^\W_])_|_(?![^\W_])")


def markdown(s: object) -> str:
    r"""``s`` as the text of one Markdown table cell or heading line.

    Parameters
    ----------
    s : object
        Any value; converted with `str`.

    Returns
    -------
    str
        Line breaks as spaces, ``|`` and the emphasis, code and link marks
        backslash-escaped (``_`` inside a word kept), ``<`` and ``>`` as
        entities.
    """
    s = _LINEBREAK_RE.sub(" ", str(s))
    s = _CONTROL_RE.sub(" ", s)
    s = _MD_BACKSLASH_RE.sub(lambda m: "\\" + m.group(), s)
    return s.replace("<", "&lt;").replace(">", "&gt;")


_NUMBER_RE = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?%?")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(v: object) -> object:
    """A CSV cell: numbers as they are, text defused against formula injection.

    Parameters
    ----------
    v : object
        The cell value.

    Returns
    -------
    object
        ``v`` itself for None, bools, numbers (Python or numpy) and text that
        reads as a decimal number; other text starting with ``= + - @``, tab or
        carriage return gets a leading ``'``.
    """
    if v is None or isinstance(v, (bool, int, float)):
        return v
    try:  # numpy scalars and the like
        import numpy as np
        if isinstance(v, np.generic):
            return v
    except ImportError:  # pragma: no cover
        pass
    s = str(v)
    if s.startswith(_FORMULA_START) and not _NUMBER_RE.fullmatch(s):
        return "'" + s
    return s


def csv_row(row: Iterable[object]) -> List[object]:
    """`csv_cell` of every cell of ``row``.

    Parameters
    ----------
    row : iterable
        The cells of one row.
    """
    return [csv_cell(v) for v in row]


def matplotlib_text(s: object) -> str:
    r"""``s`` as literal text for a matplotlib title or label.

    ``$`` would start mathtext (and an unbalanced one fails when the figure is
    drawn), so it is escaped.

    Parameters
    ----------
    s : object
        Any value; converted with `str`.
    """
    return str(s).replace("$", r"\$")


def encodable(text: str) -> str:
    r"""``text`` that can be written as UTF-8 whatever the locale.

    Lone surrogates (from file names that are not UTF-8) are written as
    ``\udcff``-style escapes; other text is returned unchanged.
    """
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def plain(s: object) -> str:
    r"""``s`` for an aligned text table or a terminal: control characters escaped.

    Parameters
    ----------
    s : object
        Any value; converted with `str`.

    Returns
    -------
    str
        The text with C0/C1 controls as ``\xNN`` and other controls (line and
        paragraph separators, lone surrogates) as ``\uNNNN``.
    """
    return _CONTROL_RE.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 256
                           else f"\\u{ord(m.group()):04x}", str(s))


#: characters of input text a message quotes (`quote`; `synagree.base.problems`)
SHOWN = 40


def _cut(text: object, limit: int, show: Callable[[str], str]) -> str:
    """``show`` of ``text`` when at most ``limit`` characters, else of its start, then
    ``…`` and its length."""
    text = str(text)
    if len(text) <= limit:
        return show(text)
    return f"{show(text[:limit])}… ({len(text):,} characters)"


def shorten(text: object, limit: int = SHOWN) -> str:
    """``text`` when at most ``limit`` characters, else its start, ``…`` and its length.

    Parameters
    ----------
    text : object
        Converted with `str`.
    limit : int
        Characters kept (default `SHOWN`, 40).
    """
    return _cut(text, limit, str)


def quote(text: object, limit: int = SHOWN) -> str:
    r"""Input text for a message: quoted as `repr` quotes it, shortened to ``limit``
    characters (default `SHOWN`) as `shorten` does (control characters are escaped by
    the quoting)."""
    return _cut(text, limit, repr)
