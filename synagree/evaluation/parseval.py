"""PARSEVAL exactly as EVALB computes it (the 2006 version, with parameter files).

docs/method.md §22.  `parseval` scores a system's bracketed file against a
gold file line by line, each line one sentence (`synagree.io.evalb_lines`),
with the settings of an EVALB parameter file (`synagree.io.evalb_params`).
Per sentence (``calc_result`` of evalb.c):

1. *skip* (status 2): the system line has no word left;
2. *length fix*: when the word counts differ, a quote terminal dropped on one
   side only (its tag a ``DELETE_LABEL`` there, not on the other side, at the
   same word position) is put back on its side, with the brackets around and
   after it widened and shifted (David Ellis, 2006);
3. *error* (status 1): the word counts still differ (``Length unmatch``), or
   a pair of words differs (``Words unmatch``; ``EQ_WORD`` pairs are equal);
4. otherwise every bracket is *massaged*: one over no word is dropped, the
   label is cut at its first ``-`` or ``=`` (``NP-SBJ=2`` → ``NP``), and a
   ``DELETE_LABEL`` label (or its ``EQ_LABEL`` partner) drops the bracket;
5. *matching*: each gold bracket, in order, takes the first unmatched system
   bracket with the same span (and an equal label, ``EQ_LABEL`` pairs equal,
   unless ``LABELED 0``): brackets are a multiset, not a set;
6. *crossing*: system brackets that cross at least one gold bracket
   (overlap without either containing the other);
7. *tagging*: word positions whose tags are equal (``EQ_LABEL`` applies);
   every kept word counts, deleted tags excepted.

The totals add the valid sentences (status 0); error and skip sentences only
count as sentences.  The second summary covers the sentences whose length
(`ParsedLine.length`) is at most ``CUTOFF_LEN``.  Errors are counted as EVALB
counts them: the run stops at the error after ``MAX_ERROR + 1`` errors, with
no summary (`ParsevalResult.stopped`).

Every number is exact; the percentages EVALB prints are derived from the
counts by EVALB's own formulas (`Totals.percent`), so that they round alike.
The scoring runs in a compiled kernel when one is built
(``synagree/evaluation/_parsevalc.c``) and in Python otherwise, with the same
counts; the Python path also gives EVALB's ``DEBUG`` output and the
per-bracket detail of the extras (`SentenceDetail`).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import IO, Dict, List, Optional, Sequence, Tuple, Union

from synagree.base.native import built_from
from synagree.base.problems import InputError, Problem, ProblemLog

# the totals and their formulas: a light module shared with the fast path (issue 36)
from synagree.evaluation.evalb_counts import (
    EVALB_VERSION,
    SUMMARY_VALUES,
    Totals,
    c_message,
    row_percent,
    totals_of,
)
from synagree.io.evalb_lines import (
    BracketLines,
    ParsedLine,
    QuoteTerm,
    limit_problems,
    parse_lines,
    read_bracket_lines,
)
from synagree.io.evalb_params import EvalbParams, load_params
from synagree.io.sources import Buffer, as_input
from synagree.io.sources import Source as ParamsSource

try:  # the compiled kernel (optional, like the other C kernels)
    from synagree.evaluation import _parsevalc  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - built with every install that has a compiler
    _parsevalc = None

__all__ = ["SentenceScore", "SentenceDetail", "Totals", "Stop", "ParsevalResult",
           "parseval", "score_sentence", "read_pair", "STATUS", "ENGINES", "EVALB_VERSION",
           "SUMMARY_VALUES"]

STATUS = {0: "ok", 1: "error", 2: "skip"}
ENGINES = ("auto", "c", "python")
ENGINE_ENV = "SYNAGREE_PARSEVAL"  # auto (default), c or python: which scorer runs

# bracket fields during scoring: start, end, label, result (EVALB's codes:
# 0 unmatched, 1 matched, 5 deleted, 9 not yet massaged), buf_start, buf_end
_S, _E, _L, _R, _BS, _BE = range(6)


@dataclass
class SentenceScore:
    """One sentence's row of EVALB's report (the counts behind it).

    Parameters
    ----------
    id : int
        The line number (EVALB's ``ID``).
    length : int
        EVALB's length (``Len.``): gold words other than
        ``DELETE_LABEL_FOR_LENGTH`` ones, deleted words included.
    status : int
        0 valid, 1 error (words or lengths differ), 2 skip (no system words).
    matched, gold, test : int
        Matched brackets, gold and system brackets (0 unless valid).
    crossing : int
        System brackets crossing a gold bracket.
    words, correct_tags : int
        Kept words and the words with the right tag.
    message : str, optional
        EVALB's error message (status 1), as it prints it after ``ID :``.
    trace, dump : list of str
        With ``DEBUG``: EVALB's lines before and after the row.
    """

    id: int
    length: int
    status: int
    matched: int = 0
    gold: int = 0
    test: int = 0
    crossing: int = 0
    words: int = 0
    correct_tags: int = 0
    message: Optional[str] = None
    trace: List[str] = field(default_factory=list)
    dump: List[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """A complete match: as many gold as system brackets, all matched (valid only)."""
        return self.status == 0 and self.gold == self.test == self.matched

    def percent(self, what: str) -> float:
        """``recall``, ``precision`` or ``tagging`` as EVALB prints it (0.0 for 0/0)."""
        return row_percent(*self._ratio(what))

    def fraction(self, what: str) -> float:
        """``recall``, ``precision`` or ``tagging`` as a fraction (0.0 for 0/0, as EVALB)."""
        num, den = self._ratio(what)
        return 0.0 if den == 0 else num / den

    def _ratio(self, what: str) -> Tuple[int, int]:
        if what == "recall":
            return self.matched, self.gold
        if what == "precision":
            return self.matched, self.test
        if what == "tagging":
            return self.correct_tags, self.words
        raise ValueError(f"unknown ratio {what!r}")

    def as_dict(self) -> dict:
        """The row as a JSON-ready dict (rates as fractions)."""
        d = {"id": self.id, "length": self.length, "status": self.status,
             "status_name": STATUS[self.status], "recall": self.fraction("recall"),
             "precision": self.fraction("precision"), "matched": self.matched,
             "gold": self.gold, "test": self.test, "crossing": self.crossing,
             "words": self.words, "correct_tags": self.correct_tags,
             "tagging_accuracy": self.fraction("tagging")}
        if self.message is not None:
            d["message"] = self.message
        return d


@dataclass
class SentenceDetail:
    """The brackets of one valid sentence as EVALB compared them (for the extras).

    Parameters
    ----------
    gold, test : list of (int, int, str)
        The kept brackets ``(start, end, label)`` after massaging (label cut at
        ``-``/``=``), in the order of the line.
    pairs : list of (int, int)
        Matched brackets: (index in ``gold``, index in ``test``).
    tags : list of (str, str)
        Per word, the gold and the system tag.
    """

    gold: List[Tuple[int, int, str]]
    test: List[Tuple[int, int, str]]
    pairs: List[Tuple[int, int]]
    tags: List[Tuple[str, str]]

    def unmatched_gold(self) -> List[int]:
        """Indices of the gold brackets left unmatched."""
        done = {i for i, _ in self.pairs}
        return [i for i in range(len(self.gold)) if i not in done]

    def unmatched_test(self) -> List[int]:
        """Indices of the system brackets left unmatched."""
        done = {j for _, j in self.pairs}
        return [j for j in range(len(self.test)) if j not in done]


@dataclass
class Stop:
    """Where EVALB stops: the error after ``MAX_ERROR + 1`` errors.

    Parameters
    ----------
    id : int
        The line of the error that stopped the run (its row is not printed).
    message : str
        Its message.
    errors : int
        Errors counted, this one included.
    trace : list of str
        EVALB's ``DEBUG`` lines of that sentence, printed before it stopped.
    """

    id: int
    message: str
    errors: int
    trace: List[str] = field(default_factory=list)


@dataclass
class ParsevalResult:
    r"""PARSEVAL of one system file against a gold file, as EVALB reports it.

    Parameters
    ----------
    gold_file, system_file : str
    params : EvalbParams
    sentences : list of SentenceScore
        One per line read before any stop.
    all, cutoff : Totals
        All sentences, and those of length ≤ ``CUTOFF_LEN``.
    stopped : Stop, optional
        Set when ``MAX_ERROR`` stopped the run (EVALB then prints no summary).
    warnings : list of Problem
        Lines beyond EVALB's fixed buffers (``evalb-limit``).
    details : dict of int to SentenceDetail, optional
        With ``detail=True``: per valid sentence (by line), its brackets.
    engine : str
        ``c`` or ``python``: which scorer ran.
    """

    gold_file: str
    system_file: str
    params: EvalbParams
    sentences: List[SentenceScore]
    all: Totals
    cutoff: Totals
    stopped: Optional[Stop] = None
    warnings: List[Problem] = field(default_factory=list)
    details: Optional[Dict[int, SentenceDetail]] = None
    engine: str = "python"

    @property
    def errors(self) -> List[Tuple[int, str]]:
        """EVALB's stderr messages ``(line, message)`` in order, the stopping one included."""
        out = [(s.id, s.message) for s in self.sentences if s.message is not None]
        if self.stopped is not None:
            out.append((self.stopped.id, self.stopped.message))
        return out

    def as_dict(self) -> dict:
        """Every count, rate (fractions) and message, JSON-ready."""
        return {"gold_file": self.gold_file, "system_file": self.system_file,
                "summary": None if self.stopped else {"all": self.all.as_dict(),
                                                      "cutoff": self.cutoff.as_dict()},
                "cutoff_len": self.params.cutoff_len,
                "stopped": None if self.stopped is None else {
                    "id": self.stopped.id, "message": self.stopped.message,
                    "errors": self.stopped.errors},
                "messages": [{"id": i, "message": m} for i, m in self.errors],
                "sentences": [s.as_dict() for s in self.sentences],
                "warnings": [w.as_dict() for w in self.warnings]}


# --------------------------------------------------------------------------- one sentence


def _fix_quote(q1: List[QuoteTerm], q2: List[QuoteTerm], t1: list, t2: list,
               b1: list, b2: list, params: EvalbParams, trace: Optional[List[str]]
               ) -> None:
    """EVALB's ``fix_quote`` (2006): reinsert quote terminals dropped on one side only.

    Mutates the quote terms (their indices), terminals and brackets in place,
    in EVALB's order (for each system quote term, every gold one at its
    position).
    """
    deleted = params.delete_labels
    if trace is not None:
        for i in range(max(len(q1), len(q2), 0)):
            # evalb.c prints the 20 slots; the unused ones have index -1
            if i < len(q1):
                trace.append(f"{q1[i].index}: {q1[i].label} - {q1[i].word}")
            if i < len(q2):
                trace.append(f"{q2[i].index}: {q2[i].label} - {q2[i].word}")
    for i in range(len(q2)):
        ind = q2[i].index
        for j in range(len(q1)):
            if q1[j].index == ind and q1[j].label != q2[i].label:
                if q1[j].label in deleted and q2[i].label not in deleted:
                    _reinsert(q1[j], t1, b1, trace)
                    for k in range(j, len(q1)):
                        q1[k].index += 1
                elif q2[i].label in deleted and q1[j].label not in deleted:
                    _reinsert(q2[i], t2, b2, trace)
                    for k in range(i, len(q2)):
                        q2[k].index += 1


def _reinsert(q: QuoteTerm, terminals: list, brackets: list,
              trace: Optional[List[str]]) -> None:
    """EVALB's ``reinsert_term``: the terminal back at its position, brackets adjusted."""
    terminals.insert(q.index, (q.word, q.label))
    if trace is not None:
        trace.append(f"bra={q.bracket}, ind={q.index}")
    for k, b in enumerate(brackets):
        if trace is not None:
            trace.append(f"bracket[{k}]={{{b[_S]},{b[_E]}}}")
        if k >= q.bracket:
            b[_S] += 1
            b[_E] += 1
    if trace is not None:
        trace.append(f"endslen={len(q.ends)}")
    for k in q.ends:
        brackets[k][_E] += 1


def _trim(label: str) -> str:
    """EVALB's ``modify_label``: the label up to its first ``-`` or ``=``."""
    for k, c in enumerate(label):
        if c == "-" or c == "=":
            return label[:k]
    return label


def _massage(brackets: list, params: EvalbParams) -> int:
    """EVALB's ``massage_data`` on one side; returns the brackets kept."""
    kept = 0
    deleted = params.delete_labels
    eq = params.eq_labels
    for b in brackets:
        b[_R] = 0
        if b[_S] == b[_E]:
            b[_R] = 5
            continue
        lab = b[_L] = _trim(b[_L])
        if lab in deleted or (eq and params.is_deleted(lab)):
            b[_R] = 5
        else:
            kept += 1
    return kept


def _span_text(line: str, b: list) -> str:
    return line[b[_BS]:b[_BE]]


def score_sentence(no: int, gold: ParsedLine, test: ParsedLine, params: EvalbParams,
                   gold_line: str = "", test_line: str = "", debug: int = 0,
                   detail: bool = False) -> Tuple[SentenceScore, Optional[SentenceDetail]]:
    r"""One sentence scored as EVALB's ``calc_result`` scores it.

    Parameters
    ----------
    no : int
        The line number.
    gold, test : ParsedLine
        The two lines read (`synagree.io.evalb_lines.parse_line`).  Not changed.
    params : EvalbParams
    gold_line, test_line : str
        The lines' text (Latin-1), for the ``DEBUG 2`` bracket texts.
    debug : int
        EVALB's ``DEBUG`` level: 1 fills `SentenceScore.dump`, 2 also
        `SentenceScore.trace` (after the lines' own reading traces).
    detail : bool
        Also return the kept brackets and the matches (valid sentences).
    """
    trace: Optional[List[str]] = None
    if debug > 1:
        trace = list(gold.trace) + list(test.trace) + [""]
    t1, t2 = gold.terminals, test.terminals
    # brackets: [start, end, label, result, buf_start, buf_end], 9 = not yet massaged
    b1 = [[s, e, lab, 9, bs, be] for s, e, lab, bs, be in gold.brackets]
    b2 = [[s, e, lab, 9, bs, be] for s, e, lab, bs, be in test.brackets]

    def done(s: SentenceScore, r1=None, r2=None) -> Tuple[SentenceScore, None]:
        s.trace = trace or []
        if debug >= 1:
            s.dump = _dsp_info(t1, t2, b1, b2, r1, r2)
        return s, None

    if not t2:
        return done(SentenceScore(no, gold.length, 2))
    if len(t1) != len(t2):
        t1, t2 = list(t1), list(t2)
        q1 = [QuoteTerm(q.word, q.label, q.index, q.bracket, q.ends) for q in gold.quotes]
        q2 = [QuoteTerm(q.word, q.label, q.index, q.bracket, q.ends) for q in test.quotes]
        _fix_quote(q1, q2, t1, t2, b1, b2, params, trace)
        if len(t1) != len(t2):
            return done(SentenceScore(no, gold.length, 1,
                                      message=f"Length unmatch ({len(t1)}|{len(t2)})"))
    same_word = params.same_word
    for (w1, _), (w2, _) in zip(t1, t2):
        if w1 != w2 and not same_word(w1, w2):
            return done(SentenceScore(no, gold.length, 1,
                                      message=f"Words unmatch ({w1}|{w2})"))

    n1 = _massage(b1, params)
    n2 = _massage(b2, params)

    match, pairs = _match_brackets(b1, b2, params, trace, gold_line, test_line)
    crossing = _crossing(b1, b2, trace, gold_line)
    correct = 0
    results = []
    same = params.same_label
    for (_, l1), (_, l2) in zip(t1, t2):
        ok = l1 == l2 or same(l1, l2)
        correct += ok
        results.append(1 if ok else 0)
    score = SentenceScore(no, gold.length, 0, match, n1, n2, crossing, len(t1), correct)
    det = _detail(t1, t2, b1, b2, pairs) if detail else None
    score.trace = trace or []
    if debug >= 1:
        score.dump = _dsp_info(t1, t2, b1, b2, results, results)
    return score, det


def _match_brackets(b1: list, b2: list, params: EvalbParams, trace: Optional[List[str]],
                    gold_line: str, test_line: str) -> Tuple[int, List[Tuple[int, int]]]:
    """EVALB's matching: gold brackets in order, each takes the first free system
    bracket of its span (and label, when ``LABELED``); the matches and the pairs.
    With a trace (``DEBUG 2``) EVALB's own loop, printing as it goes."""
    labeled = params.labeled
    same = params.same_label
    match = 0
    pairs: List[Tuple[int, int]] = []
    if trace is None:
        by_span: Dict[Tuple[int, int], List[int]] = {}
        for j, b in enumerate(b2):
            if b[_R] == 0:
                by_span.setdefault((b[_S], b[_E]), []).append(j)
        for i, g in enumerate(b1):
            if g[_R] == 5:
                continue
            cands = by_span.get((g[_S], g[_E]))
            if not cands:
                continue
            for k, j in enumerate(cands):
                if not labeled or same(g[_L], b2[j][_L]):
                    g[_R] = b2[j][_R] = 1
                    match += 1
                    pairs.append((i, j))
                    del cands[k]
                    break
        return match, pairs
    match_j = [False] * len(b2)
    for i, g in enumerate(b1):
        found = False
        for j, t in enumerate(b2):
            trace.append(f"1.res={g[_R]}, 2.res={t[_R]}, 1.start={g[_S]}, "
                         f"2.start={t[_S]}, 1.end={g[_E]}, 2.end={t[_E]}")
            if g[_R] != 5 and t[_R] == 0 and g[_S] == t[_S] and g[_E] == t[_E]:
                if not labeled or same(g[_L], t[_L]):
                    g[_R] = t[_R] = 1
                    match += 1
                    pairs.append((i, j))
                    found = True
                    break
                trace.append(f"  LABEL[{g[_S]}-{g[_E] - 1}]: {_span_text(gold_line, g)}")
                found = True
                match_j[j] = True
        if not found and g[_R] != 5:
            trace.append(f"  BRACKET[{g[_S]}-{g[_E] - 1}]: {_span_text(gold_line, g)}")
    for j, t in enumerate(b2):
        if t[_R] == 0 and not match_j[j]:
            trace.append(f"  EXTRA[{t[_S]}-{t[_E] - 1}]: {_span_text(test_line, t)}")
    return match, pairs


def _crossing(b1: list, b2: list, trace: Optional[List[str]], gold_line: str) -> int:
    """System brackets crossing some gold bracket (counted on the system side)."""
    crossing = 0
    last_i = -1
    kept1 = [(i, g[_S], g[_E]) for i, g in enumerate(b1) if g[_R] != 5]
    for t in b2:
        if t[_R] == 5:
            continue
        s2, e2 = t[_S], t[_E]
        for i, s1, e1 in kept1:
            if (s1 < s2 < e1 < e2) or (s2 < s1 < e2 < e1):
                if trace is not None and i != last_i:
                    trace.append(f"  CROSSING[{s1}-{e1 - 1}]: {_span_text(gold_line, b1[i])}")
                last_i = i
                crossing += 1
                break
    return crossing


def _detail(t1: list, t2: list, b1: list, b2: list, pairs: List[Tuple[int, int]]
            ) -> SentenceDetail:
    """The kept brackets of both sides, the matches and the tag pairs."""
    keep1 = [k for k, g in enumerate(b1) if g[_R] != 5]
    keep2 = [k for k, t in enumerate(b2) if t[_R] != 5]
    pos1 = {k: n for n, k in enumerate(keep1)}
    pos2 = {k: n for n, k in enumerate(keep2)}
    return SentenceDetail([(b1[k][_S], b1[k][_E], b1[k][_L]) for k in keep1],
                          [(b2[k][_S], b2[k][_E], b2[k][_L]) for k in keep2],
                          [(pos1[i], pos2[j]) for i, j in pairs],
                          [(l1, l2) for (_, l1), (_, l2) in zip(t1, t2)])


def _dsp_info(t1: list, t2: list, b1: list, b2: list, r1: Optional[list],
              r2: Optional[list]) -> List[str]:
    """EVALB's ``dsp_info`` (``DEBUG`` ≥ 1): the words and brackets of both sides."""
    out = [f"-<1>---(wn1={len(t1):3d}, bn1={len(b1):3d})-           "
           f"-<2>---(wn2={len(t2):3d}, bn2={len(b2):3d})-"]
    for i in range(max(len(t1), len(t2))):
        left = right = ""
        if i < len(t1) and t1[i][0] != "":
            res = r1[i] if r1 is not None and i < len(r1) else 9
            left = f"{i:3d} : {res:d} : {t1[i][1]:<6s}  {t1[i][0]:<16s}      "
        else:
            left = " " * 40
        if i < len(t2) and t2[i][0] != "":
            res = r2[i] if r2 is not None and i < len(r2) else 9
            right = f"{i:3d} : {res:d} : {t2[i][1]:<6s}  {t2[i][0]:<16s}"
        out.append(left + right)
    out.append("")
    for i in range(max(len(b1), len(b2))):
        if i < len(b1):
            b = b1[i]
            left = f"{i:3d} : {b[_R]:d} : {b[_S]:3d}  {b[_E]:3d}  {b[_L]:<6s}      "
        else:
            left = " " * 32
        right = ""
        if i < len(b2):
            b = b2[i]
            right = f"{i:3d} : {b[_R]:d} : {b[_S]:3d}  {b[_E]:3d}  {b[_L]:<6s}"
        out.append(left + right)
    out.append("")
    out.append("========")
    return out


# --------------------------------------------------------------------------- whole files


#: a bracketed file: a path, a text or binary stream (compressed or not), lines already
#: read, or a list of lines
Source = Union[str, "os.PathLike[str]", IO[str], IO[bytes], Buffer, BracketLines,
               Sequence[str]]


def _as_lines(src: Source, default_name: str, log: ProblemLog) -> Optional[BracketLines]:
    if isinstance(src, BracketLines):
        return src
    if isinstance(src, (list, tuple)):
        return BracketLines(default_name, [s.encode("utf-8").decode("latin-1") for s in src])
    return read_bracket_lines(as_input(src, default_name), log)


def read_pair(gold: Source, system: Source) -> Tuple[BracketLines, BracketLines]:
    """The two files' lines, refused together when either cannot be read or their
    line counts differ.

    Parameters
    ----------
    gold, system : str, path-like, file-like, BracketLines or sequence of str
        A path, a text or binary stream (named ``<gold>``/``<system>`` unless
        it has a real ``.name``), lines already read, or a list of lines
        (text).

    Raises
    ------
    InputError
        A file cannot be read or is empty, or the files have different numbers
        of lines (``sentence-count-mismatch``; EVALB reports it and scores the
        lines both files have).
    """
    log = ProblemLog()
    g = _as_lines(gold, "<gold>", log)
    s = _as_lines(system, "<system>", log)
    if g is not None and s is not None and len(g) != len(s):
        longer, shorter = (g, s) if len(g) > len(s) else (s, g)
        log.add(longer.file, len(shorter) + 1, "sentence-count-mismatch",
                f"files have different sentence counts (lines; EVALB reads one sentence a "
                f"line): {g.file}: {len(g)}, {s.file}: {len(s)}; {longer.file} goes on "
                f"after {shorter.file} ends")
    log.raise_if_errors()
    assert g is not None and s is not None
    return g, s


def _engine(engine: str, debug: int, detail: bool) -> str:
    if engine == "auto":
        engine = os.environ.get(ENGINE_ENV, "auto").strip().lower() or "auto"
        if engine not in ENGINES:
            raise InputError.single("<environment>", None, "bad-environment",
                                    f"{ENGINE_ENV}={engine!r}: must be one of auto, c, python")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, not {engine!r}")
    built = _parsevalc is not None and built_from(_parsevalc, ["_parsevalc.c"])
    if engine == "c" and not built:
        raise InputError.single("<environment>", None, "bad-environment",
                                "the compiled PARSEVAL kernel is not built, or was built from "
                                "older sources (rebuild with pip install -e .)")
    if debug or detail:  # the kernel counts only: DEBUG lines and details are Python's
        return "python"
    return "c" if engine == "c" or (engine == "auto" and built) else "python"


def parseval(gold: Source, system: Source, params: Union[ParamsSource, EvalbParams] = "collins",
             *, detail: bool = False, engine: str = "auto") -> ParsevalResult:
    r"""Score a system's bracketed file against gold, as EVALB does.

    Parameters
    ----------
    gold, system : str, path-like, file-like, BracketLines or sequence of str
        Files (``.gz``/``.xz``/``.bz2`` decompressed), text or binary streams
        of them, or lists of lines; one sentence a line.
    params : str, path-like, file-like or EvalbParams
        ``collins`` (default), ``new``, ``nk``, a ``.prm`` file (or a stream
        of one) or settings
        (`synagree.io.evalb_params.load_params`).
    detail : bool
        Keep the brackets of every valid sentence (`ParsevalResult.details`)
        for the extras.
    engine : {"auto", "c", "python"}
        The compiled kernel or the Python scorer (same counts); ``auto``: the
        kernel when built, unless ``DEBUG`` or ``detail`` needs Python (the
        environment variable ``SYNAGREE_PARSEVAL`` may name one).

    Raises
    ------
    InputError
        Unreadable or empty files, different line counts, a line EVALB cannot
        read (unbalanced brackets, stray text), a gold line without words, or
        a bad parameter file: every problem of both files.
    """
    prm = load_params(params)
    g, s = read_pair(gold, system)
    eng = _engine(engine, prm.debug, detail)
    if eng == "c":
        rows = _score_c(g, s, prm)
        if rows is not None:
            return _finish(g, s, prm, rows, None, [], "c")
    debug = prm.debug
    g_lines, g_problems = parse_lines(g, prm, gold=True, debug=debug > 1)
    s_lines, s_problems = parse_lines(s, prm, gold=False, debug=debug > 1)
    if g_problems or s_problems:
        raise InputError(g_problems + s_problems)
    warnings = limit_problems(g, g_lines, debug) + limit_problems(s, s_lines, debug)
    rows_py: List[SentenceScore] = []
    details: Optional[Dict[int, SentenceDetail]] = {} if detail else None
    for k, (gl, sl) in enumerate(zip(g_lines, s_lines)):
        score, det = score_sentence(k + 1, gl, sl, prm, g.lines[k], s.lines[k], debug,
                                    detail)
        rows_py.append(score)
        if det is not None and details is not None:
            details[k + 1] = det
    return _finish(g, s, prm, rows_py, details, warnings, "python")


def _finish(g: BracketLines, s: BracketLines, prm: EvalbParams, rows: List[SentenceScore],
            details: Optional[Dict[int, SentenceDetail]], warnings: List[Problem],
            engine: str) -> ParsevalResult:
    """Totals, cutoff and EVALB's error count (``MAX_ERROR``) over the scored rows."""
    kept = rows
    errors = 0
    stopped = None
    for k, row in enumerate(rows):
        if row.status == 1:
            errors += 1
            if errors - 1 > prm.max_error:  # evalb.c: if (Error_count++ > Max_error) exit
                assert row.message is not None
                stopped = Stop(row.id, row.message, errors, row.trace)
                kept = rows[:k]
                break
    total = _totals(kept)
    cut = _totals([row for row in kept if row.length <= prm.cutoff_len])
    if details is not None and stopped is not None:
        details = {k: v for k, v in details.items() if k < stopped.id}
    return ParsevalResult(g.file, s.file, prm, kept, total, cut, stopped, warnings, details,
                          engine)


def _totals(rows: List[SentenceScore]) -> Totals:
    """`Totals` of ``rows`` (`synagree.evaluation.evalb_counts.totals_of`)."""
    return totals_of([(r.status, r.matched, r.gold, r.test, r.crossing, r.words,
                       r.correct_tags) for r in rows])


def _score_c(g: BracketLines, s: BracketLines, prm: EvalbParams
             ) -> Optional[List[SentenceScore]]:
    """The rows from the compiled kernel; None when a line needs the Python
    reader (an input problem to report, or a line beyond EVALB's buffers)."""
    assert _parsevalc is not None
    out = _parsevalc.score(
        g.lines, s.lines, list(prm.delete_labels), list(prm.delete_labels_for_length),
        list(prm.quote_labels), [list(p) for p in prm.eq_labels],
        [list(p) for p in prm.eq_words], int(prm.labeled))
    if out is None:
        return None
    rows: List[SentenceScore] = []
    for k, r in enumerate(out):
        row = SentenceScore(k + 1, r[1], r[0], r[2], r[3], r[4], r[5], r[6], r[7])
        if r[0] == 1:
            row.message = c_message(r)
        rows.append(row)
    return rows
