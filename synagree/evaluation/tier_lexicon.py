r"""What a coarse tag and a lexicon decide of the fine tag (tiered tagging, docs/method.md §16.5).

In tiered tagging (Tufiș 1999; Ceaușu 2006) the fine tag of a word is
recovered from its coarse tag and a lexicon of the fine tags each word form
can take: the *candidates* of a word under a coarse tag C are the lexicon's
fine tags of its form that the mapping sends to C.  For each gold word, under
its gold coarse tag C(g):

==============  =========================================================
``unknown``     the form is not in the lexicon (counted apart: the
                lexicon says nothing about it)
``decided``     exactly one candidate: the coarse tag and the lexicon
                determine the fine tag (``decided_correct``: it is g)
``ambiguous``   two or more candidates: recovery needs more than the
                lexicon (context rules, a second model)
``gap``         the form is known but has no fine tag of class C(g): the
                lexicon lacks the reading gold uses
==============  =========================================================

``decided_share`` = decided / known words (known = words − unknown).  The
same with the *system's* coarse tag instead of C(g) gives ``recovered``: the
words whose system coarse tag and the lexicon decide exactly the gold fine
tag (a recovery step without context, applied to the tagger's coarse tags).

Lexicon tags that the mapping lacks can be no candidate of any class; they
are left out and listed (`LexiconResult.unmapped_lexicon_tags`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Sequence

from synagree.base.jsonable import finite_or_none
from synagree.base.ratios import Share
from synagree.io.lexicon import Lexicon
from synagree.io.tagmap import TagMap

__all__ = ["LexiconRow", "LexiconResult", "lexicon_recovery"]


@dataclass
class LexiconRow:
    """The counts of one gold coarse class, one word form, or all words.

    Parameters
    ----------
    name : str
        The coarse tag, the form, or ``ALL``.
    words, unknown, decided, decided_correct, ambiguous, gap, recovered : int
        See the module docstring.
    lexicon_tags : int
        For a form: its fine tags in the lexicon (0 otherwise).
    """

    name: str
    words: int = 0
    unknown: int = 0
    decided: int = 0
    decided_correct: int = 0
    ambiguous: int = 0
    gap: int = 0
    recovered: int = 0
    lexicon_tags: int = 0

    @property
    def known(self) -> int:
        """Words whose form is in the lexicon."""
        return self.words - self.unknown

    decided_share = Share("decided", "known")
    unknown_share = Share("unknown", "words")
    recovered_share = Share("recovered", "known")

    def as_dict(self) -> dict:
        """JSON-ready (NaN as None)."""
        d = {"name": self.name, "words": self.words, "known": self.known,
             "unknown": self.unknown, "unknown_share": finite_or_none(self.unknown_share),
             "decided": self.decided, "decided_correct": self.decided_correct,
             "decided_share": finite_or_none(self.decided_share),
             "ambiguous": self.ambiguous, "gap": self.gap, "recovered": self.recovered,
             "recovered_share": finite_or_none(self.recovered_share)}
        if self.lexicon_tags:
            d["lexicon_tags"] = self.lexicon_tags
        return d


@dataclass
class LexiconResult:
    """Coarse tag + lexicon recovery, overall, per gold coarse class and per form.

    Parameters
    ----------
    source : str
        Where the lexicon came from.
    forms : int
        Word forms in the lexicon.
    total : LexiconRow
        All words (``name`` ``ALL``).
    per_class : list of LexiconRow
        Per gold coarse class, most words first.
    per_form : list of LexiconRow
        Per known word form, most undecided (ambiguous + gap) words first.
    unmapped_lexicon_tags : dict of str to int
        Lexicon fine tags the mapping lacks (left out), with their counts.
    """

    source: str
    forms: int
    total: LexiconRow
    per_class: List[LexiconRow] = field(default_factory=list)
    per_form: List[LexiconRow] = field(default_factory=list)
    unmapped_lexicon_tags: Dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict:
        """JSON-ready data with stable keys."""
        return {"source": self.source, "forms": self.forms, "total": self.total.as_dict(),
                "per_class": [r.as_dict() for r in self.per_class],
                "per_form": [r.as_dict() for r in self.per_form],
                "unmapped_lexicon_tags": dict(self.unmapped_lexicon_tags)}


def _candidates(tags: Dict[str, int], coarse: str, tag_map: TagMap) -> List[str]:
    return [t for t in tags if tag_map.fine_to_coarse.get(t) == coarse]


def lexicon_recovery(forms: Sequence[str], gold: Sequence[str], system: Sequence[str],
                     tag_map: TagMap, lexicon: Lexicon) -> LexiconResult:
    """What the coarse tag and the lexicon decide, word by word (module docstring).

    Parameters
    ----------
    forms : sequence of str
        The gold words' forms.
    gold : sequence of str
        Their gold fine tags (fine tags of ``tag_map``).
    system : sequence of str
        The system's tags of the same words (fine or bare coarse tags of
        ``tag_map``).
    tag_map : TagMap
    lexicon : Lexicon

    Raises
    ------
    ValueError
        Sequences of different lengths, or a tag the mapping lacks.
    """
    if not len(forms) == len(gold) == len(system):
        raise ValueError(f"{len(forms)} forms, {len(gold)} gold and {len(system)} system tags")
    total = LexiconRow("ALL")
    per_class: Dict[str, LexiconRow] = {}
    per_form: Dict[str, LexiconRow] = {}
    for form, g, s in zip(forms, gold, system):
        gc = tag_map.fine_to_coarse.get(g)
        resolved = tag_map.resolve(s)
        if gc is None or resolved is None:
            raise ValueError(f"tag {g if gc is None else s!r} is not in the mapping")
        rows = [total, per_class.setdefault(gc, LexiconRow(gc))]
        tags = lexicon.tags(form)
        if tags is None:
            for r in rows:
                r.words += 1
                r.unknown += 1
            continue
        frow = per_form.get(form)
        if frow is None:
            frow = per_form[form] = LexiconRow(form, lexicon_tags=len(tags))
        rows.append(frow)
        cands = _candidates(tags, gc, tag_map)
        sys_cands = _candidates(tags, resolved[0], tag_map)
        for r in rows:
            r.words += 1
            if len(cands) == 1:
                r.decided += 1
                r.decided_correct += cands[0] == g
            elif cands:
                r.ambiguous += 1
            else:
                r.gap += 1
            r.recovered += len(sys_cands) == 1 and sys_cands[0] == g
    unmapped: Dict[str, int] = {t: n for t, n in lexicon.fine_tags.items()
                                if t not in tag_map.fine_to_coarse}
    return LexiconResult(
        source=lexicon.source, forms=len(lexicon), total=total,
        per_class=sorted(per_class.values(), key=lambda r: (-r.words, r.name)),
        per_form=sorted(per_form.values(),
                        key=lambda r: (-(r.ambiguous + r.gap), -r.words, r.name)),
        unmapped_lexicon_tags=unmapped)
