"""Queries over the words of a dependency annotation, and the tree of the arcs they select.

docs/method.md §27 (``agree --where``).  A query is terms joined by commas,
all of which must hold (AND)::

    FIELD=VALUE[|VALUE...]      FIELD!=VALUE[|VALUE...]

with FIELD one of `FIELDS`: the word's own ``deprel``, ``upos``, ``xpos``,
or its head word's (``head.deprel``, ``head.upos``, ``head.xpos``).
``deprel=obl`` also matches the subtypes ``obl:tmod``, ``obl:agent``, ...
(a value without ``:`` is a universal relation); ``deprel=obl:tmod`` matches
that subtype only.  Other fields compare values exactly.  A word attached to
the artificial root has no head word: a ``head.`` term, ``=`` or ``!=``,
does not hold for it.  Each annotation is queried with its own columns, so
the words selected can differ between annotators (that is a disagreement).
One term may be ``FIELD=*``: the query stands for one query per value of
the field in the corpus (`Query.expand`; universal relations for ``deprel``),
most frequent first — α per label.

`query_tree` builds the tree over which α is restricted: the annotation
pruned to the words the query selects (the *matching* words) and the words on
their paths to the root, every other subtree removed; a matching word keeps
its DEPREL, a word kept only on the path of one gets the wildcard label
`HEAD_LABEL`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from synagree.io.conllu import DepSentence
from synagree.trees.flat import FlatTree, Vocabulary, flat_tree

__all__ = ["FIELDS", "HEAD_LABEL", "Term", "Query", "parse_query", "query_tree"]

#: The fields a query can test.
FIELDS = ("deprel", "upos", "xpos", "head.deprel", "head.upos", "head.xpos")

#: The label of a word kept only on the path from the root to a matching word (a tab
#: cannot occur in a CoNLL-U column, so no DEPREL read from a file equals it).
HEAD_LABEL = "\t*"


@dataclass(frozen=True)
class Term:
    """One ``FIELD=VALUES`` (or ``!=``) test."""

    field: str
    values: Tuple[str, ...]
    negated: bool = False

    def text(self) -> str:
        """The term as written in canonical form."""
        return f"{self.field}{'!=' if self.negated else '='}{'|'.join(self.values)}"

    def holds(self, values: Sequence[str], has_head: np.ndarray) -> np.ndarray:
        """Per word: does the term hold, given the field's value of each word."""
        want = set(self.values)
        if self.field.endswith("deprel"):  # a universal relation matches its subtypes
            hit = np.array([v in want or v.split(":", 1)[0] in want for v in values],
                           dtype=bool)
        else:
            hit = np.array([v in want for v in values], dtype=bool)
        out = ~hit if self.negated else hit
        if self.field.startswith("head."):
            out &= has_head
        return out


@dataclass(frozen=True)
class Query:
    """Terms that must all hold for a word to match (docs/method.md §27)."""

    terms: Tuple[Term, ...]

    def text(self) -> str:
        """The canonical text: the terms joined by commas."""
        return ",".join(t.text() for t in self.terms)

    @property
    def fields(self) -> List[str]:
        """The fields the query reads."""
        return [t.field for t in self.terms]

    @property
    def each(self) -> Optional[Term]:
        """The ``FIELD=*`` term, if the query has one."""
        return next((t for t in self.terms if t.values == ("*",)), None)

    def expand(self, sents: Sequence[DepSentence]) -> List["Query"]:
        """One query per value of the ``FIELD=*`` term's field on the words of ``sents``
        where the other terms hold (most frequent first; ``deprel`` fields by universal
        relation); ``[self]`` without such a term.
        """
        star = self.each
        if star is None:
            return [self]
        rest = Query(tuple(t for t in self.terms if t is not star))
        counts: Dict[str, int] = {}
        for sent in sents:
            keep = rest.matches(sent)
            for v, ok in zip(field_values(sent, star.field), keep.tolist()):
                if v == "_" or not ok:
                    continue
                if star.field.endswith("deprel"):
                    v = v.split(":", 1)[0]
                counts[v] = counts.get(v, 0) + 1
        values = sorted(counts, key=lambda v: (-counts[v], v))
        return [Query(tuple(Term(t.field, (v,)) if t is star else t for t in self.terms))
                for v in values]

    def matches(self, sent: DepSentence) -> np.ndarray:
        """Per word of ``sent``: does it match (bool array of ``n_words``)."""
        n = sent.n_words
        heads = np.asarray(sent.heads, dtype=np.int64)
        has_head = (heads > 0) & (heads <= n)
        out = np.ones(n, dtype=bool)
        for t in self.terms:
            out &= t.holds(field_values(sent, t.field), has_head)
        return out


def field_values(sent: DepSentence, name: str) -> List[str]:
    """The value of field ``name`` for each word (``_`` where the column is empty)."""
    own = name.split(".", 1)[-1]
    n = sent.n_words
    col = list(getattr(sent, own + "s") if own == "deprel" else getattr(sent, own))
    if len(col) != n:
        col = ["_"] * n
    if not name.startswith("head."):
        return col
    return [col[h - 1] if 0 < h <= n else "_" for h in sent.heads.tolist()]


def parse_query(text: str) -> Query:
    """A `Query` from its text, e.g. ``deprel=conj``, ``upos=ADP,head.upos=VERB``.

    Raises
    ------
    ValueError
        Empty text or term, a term without ``=``, an unknown field, an empty
        value (the message names the term and the fields).
    """
    terms: List[Term] = []
    if not text.strip():
        raise ValueError("an empty query; write FIELD=VALUE, e.g. deprel=conj")
    for raw in text.split(","):
        part = raw.strip()
        if not part:
            raise ValueError(f"an empty term in {text!r} (two commas, or one at an end)")
        negated = "!=" in part
        if "=" not in part:
            raise ValueError(f"{part!r} is not FIELD=VALUE (e.g. deprel=conj, upos=ADP, "
                             f"head.upos=VERB)")
        name, _, value = part.partition("!=" if negated else "=")
        name = name.strip()
        if name not in FIELDS:
            raise ValueError(f"unknown field {name!r} in {part!r}; fields: "
                             f"{', '.join(FIELDS)}")
        values = tuple(v.strip() for v in value.split("|"))
        if not value.strip() or any(not v or any(c.isspace() for c in v) for v in values):
            raise ValueError(f"{part!r}: values must be non-empty and without spaces "
                             f"(several joined by |)")
        if "*" in values and (values != ("*",) or negated):
            raise ValueError(f"{part!r}: * stands alone after = (one query per value)")
        terms.append(Term(name, values, negated))
    if sum(t.values == ("*",) for t in terms) > 1:
        raise ValueError(f"{text!r}: at most one term may be FIELD=*")
    return Query(tuple(terms))


def query_tree(sent: DepSentence, mask: np.ndarray, vocab: Vocabulary) -> FlatTree:
    """The annotation pruned to the words a query selects (docs/method.md §27.1).

    Keeps every matching word (``mask``) reachable from the root and every
    word on its path to the root (its head, its head's head, ...); every
    other subtree, which holds no matching word, is pruned.  Each kept word
    keeps its own head (kept by construction), children in word order.
    Labels: a matching word's DEPREL; `HEAD_LABEL` for a word kept only on
    the path of one.  ``size`` (|t|) is the kept words + 1.

    Parameters
    ----------
    sent : DepSentence
    mask : numpy.ndarray
        bool per word: the matching words.
    vocab : Vocabulary
    """
    n = sent.n_words
    heads = [int(h) for h in sent.heads.tolist()]
    children: List[List[int]] = [[] for _ in range(n + 1)]
    for i, h in enumerate(heads, start=1):
        if 0 <= h <= n and h != i:
            children[h].append(i)
    reach = np.zeros(n + 1, dtype=bool)
    reach[0] = True
    stack = [0]
    while stack:  # words on a head cycle are not reachable: not in the tree (§2.4)
        v = stack.pop()
        for c in children[v]:
            if not reach[c]:
                reach[c] = True
                stack.append(c)
    match = np.zeros(n + 1, dtype=bool)
    match[1:] = np.asarray(mask, dtype=bool) & reach[1:]
    keep = match.copy()
    for w in np.nonzero(match)[0].tolist():
        up = heads[w - 1]
        while up != 0 and not keep[up]:  # the path to the root (reachable: it ends)
            keep[up] = True
            up = heads[up - 1]
    keep[0] = False
    kept = np.nonzero(keep)[0].tolist()
    node = {w: k + 1 for k, w in enumerate(kept)}  # word -> node id (0: the root)
    kids: List[List[int]] = [[] for _ in range(len(kept) + 1)]
    labels = [0] * (len(kept) + 1)
    for w in kept:  # in word order, so children lists come out in word order
        kids[node.get(heads[w - 1], 0)].append(node[w])
        labels[node[w]] = vocab.id(sent.deprels[w - 1] if match[w] else HEAD_LABEL)
    return flat_tree(kids, labels, size=len(kept) + 1)
