"""How well do we agree on coordination?  α over a query (``--where``).

docs/method.md §27.  For each query (`synagree.trees.query`), every
annotation of a unit becomes the tree of the arcs the query selects
(`synagree.trees.query.query_tree`: the matching words and the words on
their paths to the root, every other subtree pruned), and α of every variant is computed over these
trees as over whole trees: D_o within units, D_e over all pairs of the
restricted trees, so the chance baseline is that of the same restriction.
A unit takes part when it has two or more annotations and the query matches
a word in at least one of them; an annotation without a match is then the
empty tree (the root alone), a real value ("no such arc here").
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Union, cast

from synagree.agreement.core import Core, DictSection, alpha_counts, alpha_over, dependency_corpus
from synagree.base.problems import SHOWN, InputError
from synagree.io.conllu import DepSentence
from synagree.stats.alpha import AlphaStats
from synagree.trees.flat import FlatTree, Vocabulary
from synagree.trees.query import Query, field_values, parse_query, query_tree

__all__ = ["WhereRow", "Where", "check_queries", "where_section"]


@dataclass
class WhereRow:
    """α over one query.

    Attributes
    ----------
    query : str
        The query's canonical text.
    units : int
        Units taking part (two or more annotations, a match in one of them).
    annotations : int
        Their annotations (the n of α).
    matches : dict of str to int
        Per annotator, the matching words in the units taking part.
    stats : dict of str to AlphaStats
        α per variant over the restricted trees (empty when no unit takes part).
    distinct_trees : int
    notes : list of str
    """

    query: str
    units: int
    annotations: int
    matches: Dict[str, int]
    stats: Dict[str, AlphaStats]
    distinct_trees: int = 0
    notes: List[str] = field(default_factory=list)

    def alpha_value(self, variant: str) -> Optional[float]:
        """α of ``variant`` over the query, None when undefined or not computed."""
        st = self.stats.get(variant)
        return None if st is None else st.alpha

    def to_dict(self) -> dict:
        """JSON-ready: counts, ``alpha_<v>`` and the sums behind each."""
        d: dict = {"query": self.query, "units": self.units, "annotations": self.annotations,
                   "matches": dict(self.matches), "distinct_trees": self.distinct_trees}
        for v, st in self.stats.items():
            d[f"alpha_{v}"] = st.alpha
        d["counts"] = {f"alpha_{v}": alpha_counts(st) for v, st in self.stats.items()}
        d["notes"] = list(self.notes)
        return d


@dataclass
class Where(DictSection):
    """The ``where`` section: α over each query (docs/method.md §27)."""

    rows: List[WhereRow]
    notes: List[str] = field(default_factory=list)

    name = "where"

    @property
    def variants(self) -> List[str]:
        """The α variants of the rows."""
        return next((list(r.stats) for r in self.rows if r.stats), [])

    def to_dict(self) -> dict:
        """JSON-ready: the rows and the notes."""
        return {"restriction": "the matching words and the words on their paths to the "
                               "root, other subtrees pruned (docs/method.md §27)",
                "rows": [r.to_dict() for r in self.rows], "notes": list(self.notes)}


def check_queries(queries: Sequence[Union[str, Query]]) -> List[Query]:
    """The queries parsed (`synagree.trees.query.parse_query`).

    Raises
    ------
    InputError
        ``bad-where``, naming the query and what is wrong with it.
    """
    out = []
    for q in queries:
        if isinstance(q, Query):
            out.append(q)
            continue
        try:
            out.append(parse_query(str(q)))
        except ValueError as exc:
            # the query once: the parser's message may echo it (or the term at fault)
            text, reason = str(q), str(exc)
            echo = "" if repr(text) in reason or len(text) > SHOWN else f" {text!r}"
            raise InputError.single("<command line>", None, "bad-where",
                                    f"--where{echo}: {reason}") from None
    return out


def _unused_columns(sents: Sequence[DepSentence], query: Query) -> List[str]:
    """The columns the query reads that no annotation fills (all ``_``)."""
    out = []
    for name in dict.fromkeys(f.split(".", 1)[-1] for f in query.fields):
        if name == "deprel":
            continue
        if all(v == "_" for s in sents for v in field_values(s, name)):
            out.append(name.upper())
    return out


def where_section(core: Core, queries: Sequence[Union[str, Query]]) -> Where:
    """α over each query of an agreement result (docs/method.md §27).

    Parameters
    ----------
    core : AgreementResult
        A dependency result carrying its corpus.
    queries : sequence of str or Query
        One row each.

    Raises
    ------
    InputError
        ``bad-where`` (a query that does not parse); ``usage`` (phrase-structure
        input, which has no DEPREL/UPOS per word).
    """
    parsed = check_queries(queries)
    corpus = dependency_corpus(core, "--where queries words (DEPREL, UPOS, XPOS)")
    pairable = [(cast(List[DepSentence], u.ordered(corpus.annotators)),
                 [a for a in corpus.annotators if a in u.annotations])
                for u in corpus.units if len(u.annotations) >= 2]
    all_sents = [s for sents, _ in pairable for s in sents]
    rows: List[WhereRow] = []
    notes: List[str] = []
    expanded: List[Query] = []
    for q in parsed:  # FIELD=*: one row per value of the field
        each = q.expand(all_sents)
        if q.each is not None:
            notes.append(f"--where {q.text()}: one row per value of {q.each.field} "
                         f"({len(each)}), most frequent first")
        expanded += each
    for q in expanded:
        vocab = Vocabulary()
        trees: List[List[FlatTree]] = []
        matches = {a: 0 for a in corpus.annotators}
        for sents, names in pairable:
            masks = [q.matches(s) for s in sents]
            if not any(m.any() for m in masks):
                continue
            for a, m in zip(names, masks):
                matches[a] += int(m.sum())
            trees.append([query_tree(s, m, vocab) for s, m in zip(sents, masks)])
        row_notes: List[str] = []
        stats: Dict[str, AlphaStats] = {}
        distinct = 0
        if trees:
            ta = alpha_over(core, trees)
            stats, distinct = dict(ta.stats), ta.n_distinct
            row_notes += [f"--where {q.text()}: {n}" for st in stats.values() for n in st.notes]
        else:
            unused = _unused_columns(all_sents, q)
            row_notes.append(f"--where {q.text()}: the query matches no word of any "
                             f"annotation" + (f" (no annotation fills the column "
                                              f"{', '.join(unused)})" if unused else "")
                             + "; alpha is undefined")
        rows.append(WhereRow(q.text(), len(trees), sum(len(t) for t in trees), matches,
                             stats, distinct, row_notes))
        notes += row_notes
    return Where(rows, notes)
