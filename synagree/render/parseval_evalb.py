"""EVALB's own report, line for line (``synagree compare --output evalb``).

docs/method.md §22.3.  `evalb_report` prints what the compiled ``evalb``
prints on standard output for the same files and parameter file: the heading,
one row per sentence (``printf("%4d  %3d    %d  ...")``), the total row, and
the two summaries, with EVALB's ``printf`` formats; ``DEBUG`` adds the lines
EVALB prints before and after each row.  Where ``MAX_ERROR`` stopped EVALB,
the report stops there too, without summary.  `evalb_messages` gives what
EVALB prints on standard error (``ID : message``).

C's ``%6.2f`` and Python's ``%6.2f`` both round the exact binary value
correctly, so the digits agree.  One thing depends on the machine: when no
bracket matched, EVALB's F-measure 2PR/(P + R) divides 0 by 0, and C prints
that NaN as ``-nan`` on x86 processors (whose default NaN is negative) and as
``nan`` on others (ARM, for one); `NAN_TEXT` follows the machine this runs on.

Words and labels are strings of Latin-1 characters, one per byte of the
input (`synagree.io.evalb_lines`), so that padding counts bytes as EVALB's
does; `evalb_report` returns them as text (UTF-8 input appears as written).
"""
from __future__ import annotations

import importlib
import os
from typing import List

from synagree.base.table import format_value
from synagree.evaluation.parseval import ParsevalResult, SentenceScore, Totals

__all__ = ["evalb_report", "evalb_messages", "evalb_row", "NAN_TEXT"]

HEADER = ("  Sent.                        Matched  Bracket   Cross        Correct Tag\n"
          " ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy\n"
          "============================================================================\n")
RULE = "============================================================================\n"

# platform.machine() is os.uname().machine wherever os.uname exists (POSIX); the
# platform module (2 ms of a PARSEVAL run's start-up, issue 36) only elsewhere
_MACHINE = (os.uname().machine if hasattr(os, "uname")
            else importlib.import_module("platform").machine())

#: how C prints EVALB's 0/0 F-measure on this machine (see the module docstring)
NAN_TEXT = "-nan" if _MACHINE.lower() in (
    "x86_64", "amd64", "i386", "i486", "i586", "i686", "x86") else "nan"


def evalb_row(s: SentenceScore) -> str:
    r"""A sentence's row as EVALB's ``individual_result`` prints it (with its ``\n``)."""
    return ("%4d  %3d    %d  %6.2f %6.2f   %3d    %3d  %3d    %3d   %4d  %4d   %6.2f\n"
            % (s.id, s.length, s.status, s.percent("recall"), s.percent("precision"),
               s.matched, s.gold, s.test, s.crossing, s.words, s.correct_tags,
               s.percent("tagging")))


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


def _bytes_as_text(s: str) -> str:
    """Latin-1 characters (input bytes) back to the text they encode."""
    try:
        return s.encode("latin-1").decode("utf-8")
    except UnicodeError:  # not UTF-8 (or already text): shown with escapes
        return s.encode("latin-1", "backslashreplace").decode("utf-8", "backslashreplace")


def evalb_report(res: ParsevalResult) -> str:
    r"""EVALB's standard output for the files and parameters of ``res``."""
    out = [HEADER]
    debug = res.params.debug
    for s in res.sentences:
        if debug > 1:
            out.extend(line + "\n" for line in s.trace)
        out.append(evalb_row(s))
        if debug >= 1:
            out.extend(line + "\n" for line in s.dump)
    if res.stopped is not None:
        if debug > 1:
            out.extend(line + "\n" for line in res.stopped.trace)
        return _bytes_as_text("".join(out))
    t = res.all
    out.append(RULE)
    if t.gold > 0 and t.test > 0:
        recall, precision = (format_value(t.percent(k), digits=2, missing=NAN_TEXT)
                             for k in ("recall", "precision"))
        out.append("                %6s %6s %6d %5d %5d  %5d"
                   % (recall, precision, t.matched, t.gold, t.test, t.crossing))
    tagging = format_value(t.percent("tagging"), digits=2, missing=NAN_TEXT)
    out.append("  %5d %5d   %6s" % (t.words, t.correct_tags, tagging))
    out.append("\n=== Summary ===\n")
    out += _summary(t, "-- All --")
    out += _summary(res.cutoff, f"-- len<={res.params.cutoff_len} --")
    return _bytes_as_text("".join(out))


def evalb_messages(res: ParsevalResult) -> str:
    r"""What EVALB prints on standard error: ``ID : message`` per error sentence."""
    return _bytes_as_text("".join(f"{i} : {m}\n" for i, m in res.errors))
