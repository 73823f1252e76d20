"""Annotator agreement on enhanced dependencies (the DEPS graph).

docs/method.md §20.3.  Annotations of the same sentences (a `Corpus` of
CoNLL-U files) are compared word by word:

* items are the words of the units whose annotations have the same number of
  words (others are left out and counted, as for ``synagree categorical``);
* an annotator's value for a word is the *set* of its incoming enhanced
  edges, each (head, label) with the head written as the signed offset from
  the word (``+1``, ``-2``) or ``root``, so that a value means the same thing
  in every sentence (only D_e depends on this);
* two levels: ``ELAS`` compares labels in full, ``EULAS`` by their
  universal part (`synagree.trees.enhanced.universal_label`);
* edges from empty nodes are left out, as ELAS leaves them out
  (docs/method.md §20.1), and counted; the empty nodes themselves are not
  words, so their own DEPS is not read;
* Krippendorff's α with a set distance (MASI or Jaccard,
  `synagree.stats.set_alpha`) over the items;
* pairwise F1 between every two annotators over the items both annotated:
  2·matches / (edges of a + edges of b), with the matches of ELAS/EULAS
  (`synagree.trees.enhanced.edge_matches`), symmetric in a and b; with
  identical tokenisation this is the F1 the scorer reports for one of them
  against the other.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Dict, FrozenSet, List, Optional, Tuple

from synagree.base.problems import InputError, Problem
from synagree.io.conllu import DepSentence
from synagree.io.corpus import Corpus
from synagree.io.enhanced_deps import has_deps, parse_deps
from synagree.stats.alpha import AlphaStats
from synagree.stats.attachment import word_aligned
from synagree.stats.set_alpha import SET_DISTANCES, set_alpha
from synagree.trees.enhanced import edge_matches, universal_label

__all__ = ["LEVELS", "PairF1", "LevelAgreement", "EnhancedAgreement", "enhanced_agreement"]

LEVELS = ("ELAS", "EULAS")
"""Label levels: full labels (ELAS) and universal labels (EULAS)."""

Edge = Tuple[str, str]  # (head offset or "root", label)


@dataclass(frozen=True)
class PairF1:
    """Enhanced-edge F1 between two annotators (counts; F1 derived).

    Parameters
    ----------
    a, b : str
        The annotators.
    matches : int
        Matching (edge of a, edge of b) pairs.
    edges_a, edges_b : int
        Edges of each over the items both annotated.
    """

    a: str
    b: str
    matches: int
    edges_a: int
    edges_b: int

    @property
    def f1(self) -> float:
        """2·matches / (edges_a + edges_b); NaN when neither has edges."""
        total = self.edges_a + self.edges_b
        return 2 * self.matches / total if total else float("nan")

    def as_dict(self) -> dict:
        """The counts and F1 as a JSON-ready dict."""
        return {"a": self.a, "b": self.b, "matches": self.matches, "edges_a": self.edges_a,
                "edges_b": self.edges_b, "f1": self.f1}


@dataclass
class LevelAgreement:
    """α and pairwise F1 at one label level.

    Parameters
    ----------
    level : str
        ``ELAS`` or ``EULAS``.
    alpha : AlphaStats
        α with the set distance.
    pairs : list of PairF1
    """

    level: str
    alpha: AlphaStats
    pairs: List[PairF1]

    @property
    def pooled_f1(self) -> float:
        """2·Σ matches / Σ (edges_a + edges_b) over the pairs; NaN without edges."""
        total = sum(p.edges_a + p.edges_b for p in self.pairs)
        return 2 * sum(p.matches for p in self.pairs) / total if total else float("nan")

    def as_dict(self) -> dict:
        """α (with its sums) and the pairwise F1 as a JSON-ready dict."""
        st = self.alpha
        return {"alpha": st.alpha, "d_o": st.d_o, "d_e": st.d_e, "do_sum": st.do_sum,
                "de_sum": st.de_sum, "n": st.n, "items": st.units,
                "pooled_f1": self.pooled_f1, "pairs": [p.as_dict() for p in self.pairs]}


@dataclass
class EnhancedAgreement:
    """Agreement on enhanced edges at every level (docs/method.md §20.3).

    Parameters
    ----------
    annotators : list of str
    distance : str
        ``masi`` or ``jaccard``.
    levels : dict of str to LevelAgreement
    units : int
        Units (sentences) that take part.
    ignored_units : int
        Units left out because their annotations differ in word count.
    edges : dict of str to int
        Per annotator: edges between words (and from the root) over the units
        that take part.
    empty_node_edges : dict of str to int
        Per annotator: edges from empty nodes, left out.
    notes : list of str
    """

    annotators: List[str]
    distance: str
    levels: Dict[str, LevelAgreement]
    units: int
    ignored_units: int
    edges: Dict[str, int]
    empty_node_edges: Dict[str, int] = field(default_factory=dict)
    notes: List[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        """Everything as a JSON-ready dict (counts behind every ratio)."""
        return {"annotators": list(self.annotators), "distance": self.distance,
                "units": self.units, "ignored_units": self.ignored_units,
                "edges": dict(self.edges), "empty_node_edges": dict(self.empty_node_edges),
                "levels": {k: v.as_dict() for k, v in self.levels.items()},
                "notes": list(self.notes)}


def _word_edges(s: DepSentence, problems: List[Problem]) -> Tuple[List[List[Edge]], int]:
    """Per word its incoming edges (head offsets), and the edges from empty nodes."""
    n = s.n_words
    deps = s.deps or ["_"] * n
    out: List[List[Edge]] = []
    from_empty = 0
    for i, value in enumerate(deps, start=1):
        line = s.word_lines[i - 1] if len(s.word_lines) >= i else None
        edges: List[Edge] = []
        try:
            parsed = parse_deps(value)
        except ValueError as e:
            problems.append(Problem(s.file, line, "bad-deps", str(e), sent_id=s.sent_id))
            parsed = []
        for hid, label in parsed:
            if hid.is_empty_node:
                from_empty += 1
            elif hid.first > n:
                problems.append(Problem(s.file, line, "head-out-of-range",
                                        f"DEPS head {hid.first} points outside the sentence "
                                        f"of {n} words", sent_id=s.sent_id))
            else:
                edges.append(("root" if hid.first == 0 else f"{hid.first - i:+d}", label))
        out.append(edges)
    return out, from_empty


def enhanced_agreement(corpus: Corpus, distance: str = "masi") -> EnhancedAgreement:
    r"""Agreement on enhanced edges: α with a set distance and pairwise ELAS/EULAS F1.

    docs/method.md §20.3.

    Parameters
    ----------
    corpus : Corpus
        A dependency corpus read from CoNLL-U files
        (`synagree.agreement.agree.load_corpus`).
    distance : {"masi", "jaccard"}
        The set distance of α.

    Raises
    ------
    InputError
        An annotator whose files have no DEPS edge at all
        (``no-enhanced-graph``), a malformed DEPS item (``bad-deps``), a DEPS
        head beyond the sentence (``head-out-of-range``), a phrase-structure
        corpus (``not-dependency``), or an unknown distance (``usage``).
    """
    if distance not in SET_DISTANCES:
        raise InputError.single("<command line>", None, "usage",
                                f"unknown set distance {distance!r}; choose from "
                                f"{', '.join(SET_DISTANCES)}")
    if corpus.kind != "dependency":
        files = [f for fs in corpus.files.values() for f in fs]
        raise InputError.single(files[0] if files else "<input>", None, "not-dependency",
                                "agreement on enhanced edges needs CoNLL-U input, not "
                                f"{corpus.kind} trees")
    names = list(corpus.annotators)
    problems: List[Problem] = []
    with_deps = {a: False for a in names}
    dep_units = [{a: s for a, s in u.annotations.items() if isinstance(s, DepSentence)}
                 for u in corpus.units]  # (all of them: the corpus is a dependency corpus)
    for anns in dep_units:
        for a, s in anns.items():
            if not with_deps[a] and any(has_deps(v) for v in s.deps):
                with_deps[a] = True
    missing = [a for a in names if not with_deps[a]]
    if missing:
        raise InputError([Problem(", ".join(corpus.files.get(a, [a])), None,
                                  "no-enhanced-graph",
                                  f"annotator {a} has no enhanced graph: the DEPS column is _ "
                                  f"throughout")
                          for a in missing])
    col = {a: k for k, a in enumerate(names)}
    rows: List[List[Optional[List[Edge]]]] = []
    edges = {a: 0 for a in names}
    from_empty = {a: 0 for a in names}
    kept, ignored = word_aligned(dep_units, dict.values)
    units = len(kept)
    for anns in kept:
        n = next(iter(anns.values())).n_words
        block: List[List[Optional[List[Edge]]]] = [[None] * len(names) for _ in range(n)]
        for a, s in anns.items():
            per_word, k = _word_edges(s, problems)
            from_empty[a] += k
            for i, e in enumerate(per_word):
                block[i][col[a]] = e
                edges[a] += len(e)
        rows.extend(block)
    if problems:
        raise InputError(problems)
    levels: Dict[str, LevelAgreement] = {}
    for level in LEVELS:
        universal = level == "EULAS"

        def as_set(e: Optional[List[Edge]]) -> Optional[FrozenSet[Edge]]:
            if e is None:
                return None
            return frozenset((h, universal_label(lab)) if universal else (h, lab)
                             for h, lab in e)

        alpha = set_alpha([[as_set(e) for e in row] for row in rows], distance)
        pairs = []
        for a, b in combinations(names, 2):
            ia, ib = col[a], col[b]
            matches = ea = eb = 0
            for row in rows:
                xa, xb = row[ia], row[ib]
                if xa is None or xb is None:
                    continue
                matches += edge_matches(xa, xb, universal)[0]
                ea += len(xa)
                eb += len(xb)
            pairs.append(PairF1(a, b, matches, ea, eb))
        levels[level] = LevelAgreement(level, alpha, pairs)
    notes: List[str] = []
    if ignored:
        notes.append(f"{ignored} sentence(s) whose annotations differ in word count were "
                     f"left out (words cannot be aligned)")
    if any(from_empty.values()):
        notes.append("edges from empty nodes are left out, as ELAS leaves them out: "
                     + ", ".join(f"{a} {k}" for a, k in from_empty.items()))
    for la in levels.values():
        notes.extend(f"{la.level}: {n}" for n in la.alpha.notes)
    return EnhancedAgreement(names, distance, levels, units, ignored, edges, from_empty, notes)
