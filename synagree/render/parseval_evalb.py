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

from synagree.evaluation.parseval import ParsevalResult, SentenceScore

# the report's lines: a light module shared with the fast path (issue 36: start-up)
from synagree.render.parseval_text import (
    HEADER,
    NAN_TEXT,
    RULE,
    bytes_as_text,
    evalb_message_lines,
    evalb_row_text,
    evalb_tail,
)

__all__ = ["evalb_report", "evalb_messages", "evalb_row", "NAN_TEXT", "HEADER", "RULE"]

def evalb_row(s: SentenceScore) -> str:
    r"""A sentence's row as EVALB's ``individual_result`` prints it (with its ``\n``)."""
    return evalb_row_text(s.id, s.length, s.status, s.matched, s.gold, s.test, s.crossing,
                          s.words, s.correct_tags)


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
        return bytes_as_text("".join(out))
    out += evalb_tail(res.all, res.cutoff, res.params.cutoff_len)
    return bytes_as_text("".join(out))


def evalb_messages(res: ParsevalResult) -> str:
    r"""What EVALB prints on standard error: ``ID : message`` per error sentence."""
    return bytes_as_text(evalb_message_lines(res.errors))
