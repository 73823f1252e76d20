"""EVALB's totals and the formulas of its report's numbers (PARSEVAL, docs/method.md §22).

`Totals` (the running sums of ``individual_result``), `totals_of` (the sums of scored
rows), the percentages as EVALB computes them (`Totals.percent`, `row_percent`), the
message of an error sentence from the compiled kernel's row (`c_message`), the note on
error sentences and the settings of a comparison's signature.  `synagree.evaluation.parseval`
and `synagree.evaluation.parseval_compare` use them, and so does the fast path of
``synagree compare`` on bracketed files (`synagree.cli.parseval_fast`), which must not load
dataclasses nor typing (issue 36: start-up): hence `Totals` is a plain class here (with
the ``__init__``, ``__eq__`` and ``__repr__`` the dataclass it was had), not a dataclass.
"""
from __future__ import annotations

# typing is needed only by the type checker (its import costs start-up: issue 36)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, Iterable, Optional, Sequence, Tuple

__all__ = ["Totals", "SUMMARY_VALUES", "EVALB_VERSION", "totals_of", "row_percent",
           "c_message", "error_note", "parseval_settings", "settings_signature"]

EVALB_VERSION = "EVALB 2006 (Sekine & Collins 1997; Ellis's length fix)"

_FIELDS = ("sentences", "error_sentences", "skip_sentences", "matched", "gold", "test",
           "complete", "words", "crossing", "no_crossing", "two_or_less_crossing",
           "correct_tags")


def row_percent(num: int, den: int) -> float:
    """A sentence's ``recall``, ``precision`` or ``tagging`` as EVALB prints it (0.0 for 0/0)."""
    return 0.0 if den == 0 else 100.0 * num / den


class Totals:
    """EVALB's running totals over some sentences (``TOTAL_*`` or ``TOT40_*``).

    Parameters
    ----------
    sentences, error_sentences, skip_sentences : int
    matched, gold, test, crossing, words, correct_tags : int
        Sums over the valid sentences.
    complete, no_crossing, two_or_less_crossing : int
        Valid sentences with a complete match, with no crossing bracket, with
        at most two.
    """

    __slots__ = _FIELDS

    def __init__(self, sentences: int = 0, error_sentences: int = 0, skip_sentences: int = 0,
                 matched: int = 0, gold: int = 0, test: int = 0, complete: int = 0,
                 words: int = 0, crossing: int = 0, no_crossing: int = 0,
                 two_or_less_crossing: int = 0, correct_tags: int = 0) -> None:
        (self.sentences, self.error_sentences, self.skip_sentences, self.matched, self.gold,
         self.test, self.complete, self.words, self.crossing, self.no_crossing,
         self.two_or_less_crossing, self.correct_tags) = (
            sentences, error_sentences, skip_sentences, matched, gold, test, complete, words,
            crossing, no_crossing, two_or_less_crossing, correct_tags)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in _FIELDS)

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it was

    def __repr__(self) -> str:
        return f"Totals({', '.join(f'{k}={getattr(self, k)!r}' for k in _FIELDS)})"

    def add(self, s: Any) -> None:
        """Add one sentence as EVALB's ``individual_result`` does."""
        self.sentences += 1
        if s.status == 1:
            self.error_sentences += 1
        elif s.status == 2:
            self.skip_sentences += 1
        else:
            self.matched += s.matched
            self.gold += s.gold
            self.test += s.test
            if s.gold == s.test == s.matched:
                self.complete += 1
            self.words += s.words
            self.crossing += s.crossing
            if s.crossing == 0:
                self.no_crossing += 1
            if s.crossing <= 2:
                self.two_or_less_crossing += 1
            self.correct_tags += s.correct_tags

    @property
    def valid(self) -> int:
        """Sentences neither error nor skip."""
        return self.sentences - self.error_sentences - self.skip_sentences

    def percent(self, what: str) -> Optional[float]:
        """A summary line's value computed as EVALB computes it.

        ``recall``, ``precision``, ``f_measure``, ``complete_match``,
        ``average_crossing`` (brackets per valid sentence, not a percentage),
        ``no_crossing``, ``two_or_less_crossing``, ``tagging``.  A ratio over
        nothing is 0.0, as EVALB prints it, except the F-measure
        2PR/(P + R), which EVALB prints as ``nan`` when P + R = 0 (None here).
        """
        n = self.valid
        if what == "recall":
            return 100.0 * self.matched / self.gold if self.gold > 0 else 0.0
        if what == "precision":
            return 100.0 * self.matched / self.test if self.test > 0 else 0.0
        if what == "f_measure":
            r, p = self.percent("recall"), self.percent("precision")
            assert r is not None and p is not None
            return None if p + r == 0 else 2 * p * r / (p + r)
        if what == "complete_match":
            return 100.0 * self.complete / n if n > 0 else 0.0
        if what == "average_crossing":
            return 1.0 * self.crossing / n if n > 0 else 0.0
        if what == "no_crossing":
            return 100.0 * self.no_crossing / n if n > 0 else 0.0
        if what == "two_or_less_crossing":
            return 100.0 * self.two_or_less_crossing / n if n > 0 else 0.0
        if what == "tagging":
            return 100.0 * self.correct_tags / self.words if self.words > 0 else 0.0
        raise ValueError(f"unknown summary value {what!r}")

    def fraction(self, what: str) -> Optional[float]:
        """The same values as fractions (``average_crossing`` stays per sentence).

        The F-measure is ``2·matched / (gold + test)`` (equal to EVALB's
        2PR/(P + R)), None where EVALB's is ``nan`` (no bracket matched).
        """
        if what == "f_measure":
            return (None if self.percent("f_measure") is None
                    else 2 * self.matched / (self.gold + self.test))
        nums = {"recall": (self.matched, self.gold), "precision": (self.matched, self.test),
                "complete_match": (self.complete, self.valid),
                "average_crossing": (self.crossing, self.valid),
                "no_crossing": (self.no_crossing, self.valid),
                "two_or_less_crossing": (self.two_or_less_crossing, self.valid),
                "tagging": (self.correct_tags, self.words)}
        if what not in nums:
            raise ValueError(f"unknown summary value {what!r}")
        num, den = nums[what]
        return num / den if den > 0 else 0.0

    def as_dict(self) -> dict:
        """Every count and every rate (fractions), JSON-ready."""
        d: Dict[str, object] = {
            "sentences": self.sentences, "error_sentences": self.error_sentences,
            "skip_sentences": self.skip_sentences, "valid_sentences": self.valid,
            "matched": self.matched, "gold": self.gold, "test": self.test,
            "crossing": self.crossing, "words": self.words,
            "correct_tags": self.correct_tags, "complete": self.complete,
            "no_crossing_sentences": self.no_crossing,
            "two_or_less_crossing_sentences": self.two_or_less_crossing}
        for k in SUMMARY_VALUES:
            d[k] = self.fraction(k)
        return d


#: the summary lines of EVALB's report, in order (names of `Totals.percent`)
SUMMARY_VALUES = ("recall", "precision", "f_measure", "complete_match", "average_crossing",
                  "no_crossing", "two_or_less_crossing", "tagging")


def totals_of(rows: Iterable[Tuple[int, int, int, int, int, int, int]]) -> Totals:
    """`Totals` of scored rows ``(status, matched, gold, test, crossing, words,
    correct_tags)``: what `Totals.add` sums row by row, in whole-list passes (a method
    call per row and per total was a tenth of the work on 2,400 sentences).

    >>> t = totals_of([(0, 2, 3, 2, 1, 4, 4), (1, 0, 0, 0, 0, 0, 0)])
    >>> t.sentences, t.error_sentences, t.matched, t.complete, round(t.percent("recall"), 2)
    (2, 1, 2, 0, 66.67)
    """
    rows = list(rows)
    valid = [r for r in rows if r[0] != 1 and r[0] != 2]
    crossing = [r[4] for r in valid]
    return Totals(
        sentences=len(rows), error_sentences=sum(1 for r in rows if r[0] == 1),
        skip_sentences=sum(1 for r in rows if r[0] == 2),
        matched=sum(r[1] for r in valid), gold=sum(r[2] for r in valid),
        test=sum(r[3] for r in valid),
        complete=sum(1 for r in valid if r[2] == r[3] == r[1]),
        words=sum(r[5] for r in valid), crossing=sum(crossing),
        no_crossing=crossing.count(0), two_or_less_crossing=sum(1 for c in crossing if c <= 2),
        correct_tags=sum(r[6] for r in valid))


def c_message(r: Sequence[int]) -> str:
    """EVALB's message of an error sentence from the compiled kernel's row (its fields
    8 to 12: the two lengths, the word position or -1, the two words' numbers)."""
    return (f"Length unmatch ({r[8]}|{r[9]})" if r[10] < 0
            else f"Words unmatch ({r[11]}|{r[12]})")


def error_note(errors: Sequence[Tuple[str, int]]) -> Optional[str]:
    """The note of a comparison on its error sentences: ``errors`` holds (system name,
    error sentences); None when no system has any."""
    if not any(n for _, n in errors):
        return None
    return ("error sentences (EVALB status 1: words or lengths differ; scored as nothing): "
            + ", ".join(f"{k} {v}" for k, v in errors if v))


def parseval_settings(params: str, sha256: str, version: str,
                      alpha_d_e: Optional[str] = None) -> Dict[str, str]:
    """How a PARSEVAL comparison's numbers were computed (the signature's keys,
    docs/output.md): the scorer, the parameter file's name and SHA-256, α's D_e when α
    was computed, the version."""
    s = {"scorer": EVALB_VERSION, "params": params, "params_sha256": sha256}
    if alpha_d_e is not None:
        s["alpha"] = f"TED unit costs over EVALB's trees, d_e {alpha_d_e}"
    s["version"] = version
    return s


def settings_signature(settings: Dict[str, str]) -> str:
    """The settings as one line, ``key:value|...`` (a result's signature)."""
    return "|".join(f"{k}:{v}" for k, v in settings.items())
