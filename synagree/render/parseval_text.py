"""The lines of PARSEVAL's text outputs, on plain numbers (docs/method.md §22.3).

EVALB's report (`HEADER`, `evalb_row_text`, `evalb_tail`, `evalb_message_lines`) and
the parts of ``synagree compare``'s text table on bracketed files (`head_lines`,
`scope_heads`, `scope_rows`, `TEXT_UNITS`).  `synagree.render.parseval_evalb` and
`synagree.render.parseval` build their outputs with them, and so does the fast path of
``synagree compare`` (`synagree.cli.parseval_fast`), which must not load the result
classes, dataclasses nor typing (issue 36: start-up): one implementation of each line.
See `synagree.render.parseval_evalb` for EVALB's ``printf`` formats and `NAN_TEXT`.
"""
from __future__ import annotations

import os

from synagree.base.cells import format_value
from synagree.base.escape import plain
from synagree.evaluation.evalb_counts import SUMMARY_VALUES, row_percent

# typing is needed only by the type checker (its import costs start-up: issue 36)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import List, Optional, Sequence, Tuple

    from synagree.base.cells import Cell
    from synagree.evaluation.evalb_counts import Totals

__all__ = ["HEADER", "RULE", "NAN_TEXT", "evalb_row_text", "evalb_tail", "evalb_message_lines",
           "bytes_as_text", "head_lines", "scope_heads", "scope_rows", "TEXT_UNITS"]

HEADER = ("  Sent.                        Matched  Bracket   Cross        Correct Tag\n"
          " ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy\n"
          "============================================================================\n")
RULE = "============================================================================\n"

# platform.machine() is os.uname().machine wherever os.uname exists (POSIX); the
# platform module (2 ms of a PARSEVAL run's start-up, issue 36) only elsewhere
_MACHINE = (os.uname().machine if hasattr(os, "uname")
            else __import__("platform").machine())

#: how C prints EVALB's 0/0 F-measure on this machine (see the module docstring)
NAN_TEXT = "-nan" if _MACHINE.lower() in (
    "x86_64", "amd64", "i386", "i486", "i586", "i686", "x86") else "nan"


#: EVALB's summary lines of values: the text before the value, and the `Totals.percent` key
_SUMMARY_VALUES = (
    ("Bracketing Recall         = ", "recall"),
    ("Bracketing Precision      = ", "precision"),
    ("Bracketing FMeasure       = ", "f_measure"),
    ("Complete match            = ", "complete_match"),
    ("Average crossing          = ", "average_crossing"),
    ("No crossing               = ", "no_crossing"),
    ("2 or less crossing        = ", "two_or_less_crossing"),
    ("Tagging accuracy          = ", "tagging"),
)


def _summary(t: Totals, title: str) -> List[str]:
    p = t.percent
    return [f"\n{title}\n",
            "Number of sentence        = %6d\n" % t.sentences,
            "Number of Error sentence  = %6d\n" % t.error_sentences,
            "Number of Skip  sentence  = %6d\n" % t.skip_sentences,
            "Number of Valid sentence  = %6d\n" % t.valid,
            *("%s%6s\n" % (text, format_value(p(k), digits=2, missing=NAN_TEXT))
              for text, k in _SUMMARY_VALUES)]


def bytes_as_text(s: str) -> str:
    """Latin-1 characters (input bytes) back to the text they encode."""
    try:
        return s.encode("latin-1").decode("utf-8")
    except UnicodeError:  # not UTF-8 (or already text): shown with escapes
        return s.encode("latin-1", "backslashreplace").decode("utf-8", "backslashreplace")


def evalb_row_text(id: int, length: int, status: int, matched: int, gold: int, test: int,
                   crossing: int, words: int, correct_tags: int) -> str:
    r"""A sentence's row as EVALB's ``individual_result`` prints it (with its ``\n``)."""
    return ("%4d  %3d    %d  %6.2f %6.2f   %3d    %3d  %3d    %3d   %4d  %4d   %6.2f\n"
            % (id, length, status, row_percent(matched, gold), row_percent(matched, test),
               matched, gold, test, crossing, words, correct_tags,
               row_percent(correct_tags, words)))


def evalb_tail(t: Totals, cutoff: Totals, cutoff_len: int) -> List[str]:
    """The end of EVALB's report after the rows: the total row and the two summaries
    (all sentences, those of length at most ``cutoff_len``)."""
    out = [RULE]
    if t.gold > 0 and t.test > 0:
        recall, precision = (format_value(t.percent(k), digits=2, missing=NAN_TEXT)
                             for k in ("recall", "precision"))
        out.append("                %6s %6s %6d %5d %5d  %5d"
                   % (recall, precision, t.matched, t.gold, t.test, t.crossing))
    tagging = format_value(t.percent("tagging"), digits=2, missing=NAN_TEXT)
    out.append("  %5d %5d   %6s" % (t.words, t.correct_tags, tagging))
    out.append("\n=== Summary ===\n")
    out += _summary(t, "-- All --")
    out += _summary(cutoff, f"-- len<={cutoff_len} --")
    return out


def evalb_message_lines(errors: Sequence[Tuple[int, Optional[str]]]) -> str:
    r"""What EVALB prints on standard error: ``ID : message\n`` per error sentence."""
    return "".join(f"{i} : {m}\n" for i, m in errors)


def head_lines(gold: str, sentences: int, params: str, sha256: str) -> List[str]:
    """The two lines above the text table: the gold file and its sentences, the
    parameter file and the start of its SHA-256."""
    return [f"gold: {plain(gold)} ({sentences} sentences)",
            f"parameters: {plain(params)} (sha256 {sha256[:16]}...)"]


def scope_heads(cutoff_len: int) -> List[Tuple[str, str]]:
    """The text table's two scopes: (`Totals` of the result, first column's header)."""
    return [("all", "all sentences (%)"), ("cutoff", f"length <= {cutoff_len} (%)")]


_LABELS = {"recall": "bracketing recall", "precision": "bracketing precision",
           "f_measure": "bracketing F-measure", "complete_match": "complete match",
           "average_crossing": "average crossing", "no_crossing": "no crossing",
           "two_or_less_crossing": "2 or less crossing", "tagging": "tagging accuracy"}
_COUNTS = (("sentences", "sentences"), ("error_sentences", "error sentences"),
           ("skip_sentences", "skip sentences"), ("valid", "valid sentences"))
_TOTALS = (("matched", "matched brackets"), ("gold", "gold brackets"),
           ("test", "system brackets"), ("crossing", "crossing brackets"),
           ("words", "words"), ("correct_tags", "correct tags"))


def scope_rows(tots: Sequence[Optional[Totals]]) -> List[List[Cell]]:
    """The rows of one scope's table, one column per system (its `Totals`, None for a
    system that EVALB's MAX_ERROR stopped): the sentence counts, EVALB's percentages,
    the bracket counts (whole numbers as text, as EVALB prints them)."""
    rows: List[List[Cell]] = []

    def counts(pairs: Sequence[Tuple[str, str]]) -> None:
        for attr, name in pairs:
            rows.append([name, *(None if t is None else str(getattr(t, attr)) for t in tots)])

    counts(_COUNTS)
    for k in SUMMARY_VALUES:
        rows.append([_LABELS[k], *(None if t is None else t.percent(k) for t in tots)])
    counts(_TOTALS)
    return rows


#: the ``values:`` line of the text output (with `alpha_*` when α was computed)
TEXT_UNITS = ("percent as EVALB prints them (average crossing: brackets per valid sentence; "
              "– where undefined, or where MAX_ERROR stopped EVALB before its summary); "
              "counts as EVALB sums them over the valid sentences")
