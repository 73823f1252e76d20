"""Where annotators disagree: agreement per label, UPOS, arc and sentence length.

docs/method.md §21 (``synagree agree --breakdown``).  Four views of one
agreement result, all counted between annotators (no one is gold):

``labels``
    Per DEPREL (in full, subtypes included) over the words aligned by
    position: how many words each annotator of a pair gives the label, on
    how many both do, on how many both do *and* agree on the head; specific
    agreement on the label and on label + head; the one-vs-rest
    Krippendorff's α of the label; and the confusions (pairs of different
    labels given to one word, with how many of them share the head).
``upos``
    LAS/UAS/LA counts per UPOS of the word: the UPOS when both annotators of
    the pair agree on it, else the bin ``(differs)``.
``arcs``
    The same counts as for labels, per arc length and direction of the word
    (``root``, ``left 1`` ... ``left 7+`` where the head precedes the word,
    ``right 1`` ... ``right 7+``, and ``self`` for a word that is its own
    head); ``both_head`` counts the words whose head both annotators share.
``lengths``
    Per sentence-length bin (words of the unit's first annotation; default
    ``1-10``, ``11-20``, ``21-30``, ``31-40``, ``41+``): the units, LAS/UAS/LA
    (Jaccard for phrase structure) and α of every variant over the bin's
    units, with the D_e of the bin's own trees (α as if the corpus held only
    these sentences).

``gwet`` (with Gwet's coefficient, ``agree --breakdown --coefficient ac1|ac2``)
    Gwet's AC1 or AC2 of the categorical label layers, DEPREL (in full) and
    UPOS, over all words of the word-aligned units and per sentence-length
    bin: each word an item, each annotation of its unit a rating (any number
    of annotators; a unit's missing annotator a missing rating), with Gwet's
    standard error and t interval (`synagree.agreement.gwet_layers`,
    docs/method.md §34.1); each group computed alone, its q the categories
    used in it.

Pairs: every unordered pair of a unit's annotators, ``first`` the one
listed earlier; each pair weighs 1/(pairs of the unit), so with two
annotators the counts are plain word counts and with more they are
pair-averaged as LAS/UAS/LA are (docs/method.md §6.1).  Units whose
annotations differ in word count cannot be aligned by position: they are
left out of the word-level views (counted in ``ignored``) but are in the
length bins' α.  Phrase-structure corpora get the length bins only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Dict, List, Optional, Sequence, Tuple, cast

import numpy as np

from synagree.agreement.core import Core, DictSection, alpha_over, corpus_of
from synagree.agreement.gwet_layers import GwetLayers, GwetOptions, gwet_of_layers
from synagree.base.metrics import word_scores
from synagree.io.brackets import PhraseSentence
from synagree.io.conllu import DepSentence
from synagree.stats.alpha import AlphaStats
from synagree.stats.attachment import (
    Counts,
    attachment_scores,
    credit,
    jaccard_scores,
    word_aligned,
)
from synagree.stats.categorical import ItemData
from synagree.stats.per_category import BinScores, CategoryTable

__all__ = ["DEFAULT_LENGTH_EDGES", "ARC_BINS", "UPOS_DIFFERS", "GWET_LAYERS",
           "length_bin_names", "length_bin", "arc_bin", "LengthBin", "AgreementBreakdown",
           "breakdown", "gwet_of_groups"]

#: Upper ends of the sentence-length bins (words): 1-10, 11-20, 21-30, 31-40, 41+.
DEFAULT_LENGTH_EDGES: Tuple[int, ...] = (10, 20, 30, 40)

#: Arc bins in report order ("left": the head precedes the word).
ARC_BINS: Tuple[str, ...] = ("root", "left 1", "left 2", "left 3-6", "left 7+",
                             "right 1", "right 2", "right 3-6", "right 7+", "self")

#: The UPOS bin of words whose UPOS the two annotators of a pair do not agree on.
UPOS_DIFFERS = "(differs)"

#: The categorical label layers of the breakdown's Gwet coefficient, and the group of all words.
GWET_LAYERS: Tuple[str, ...] = ("deprel", "upos")
ALL_WORDS = "all"


def length_bin_names(edges: Sequence[int] = DEFAULT_LENGTH_EDGES) -> List[str]:
    """The names of the sentence-length bins cut at ``edges`` (upper ends, increasing).

    Parameters
    ----------
    edges : sequence of int
        Positive, strictly increasing.

    Raises
    ------
    ValueError
        Edges not positive or not increasing.
    """
    e = [int(x) for x in edges]
    if any(x < 1 for x in e) or any(b <= a for a, b in zip(e, e[1:])):
        raise ValueError(f"length bin edges must be positive and increasing, got {e}")
    out, lo = [], 1
    for hi in e:
        out.append(str(hi) if hi == lo else f"{lo}-{hi}")
        lo = hi + 1
    return out + [f"{lo}+"]


def length_bin(n_words: int, edges: Sequence[int] = DEFAULT_LENGTH_EDGES) -> str:
    """The name of the length bin of a sentence of ``n_words`` words."""
    names = length_bin_names(edges)
    for name, hi in zip(names, edges):
        if n_words <= hi:
            return name
    return names[-1]


def arc_bin(word: int, head: int) -> str:
    """The arc bin of word ``word`` (1-based) attached to ``head`` (0: the root).

    ``self`` is a word that is its own head (a head cycle of one word).
    """
    if head == 0:
        return "root"
    if head == word:
        return "self"
    d = abs(word - head)
    side = "left" if head < word else "right"
    return f"{side} {d if d <= 2 else ('3-6' if d <= 6 else '7+')}"


@dataclass
class LengthBin:
    """One sentence-length bin: its units, word scores and α (docs/method.md §21.4).

    Parameters
    ----------
    name : str
        ``"1-10"``, ...
    units : int
        Pairable units in the bin.
    annotations : int
        Their annotations (the n of α).
    scores : Counts
        LAS/UAS/LA (or Jaccard) over the bin's units.
    alpha : dict of str to AlphaStats
        α per variant over the bin's units, D_e from the bin's own trees;
        empty when the bin has no pairable unit.
    """

    name: str
    units: int
    annotations: int
    scores: Counts
    alpha: Dict[str, AlphaStats] = field(default_factory=dict)

    def alpha_value(self, variant: str) -> Optional[float]:
        """α of ``variant`` in the bin, None when undefined or not computed."""
        st = self.alpha.get(variant)
        return None if st is None else st.alpha


def _r(x: Optional[float]) -> Optional[float]:
    return None if x is None else float(x)


@dataclass
class AgreementBreakdown(DictSection):
    """Agreement per label, UPOS, arc and sentence length (docs/method.md §21).

    Returned by `breakdown`.  Counts are pair-weighted words (plain word
    counts with two annotators); ratios are derived and None when undefined.

    Parameters
    ----------
    kind : str
        ``"dependency"`` or ``"phrase"``.
    annotators : list of str
    labels : CategoryTable or None
        Per DEPREL; ``both_also`` = same label and same head.  None for
        phrase structure.
    arcs : CategoryTable or None
        Per arc bin (`ARC_BINS`); ``both_also`` = same head.
    upos : BinScores or None
        LAS/UAS/LA per UPOS bin.
    lengths : list of LengthBin
        Per sentence-length bin, in order.
    edges : tuple of int
        Upper ends of the length bins.
    ignored : int
        Pairable units left out of the word-level views (word counts differ).
    notes : list of str
        What a reader must know (pair weighting, ignored units, thin bins).
    gwet : dict of str to GwetLayers, optional
        Per group (``all``, then each length bin with words), Gwet's AC1/AC2
        of each label layer (`GWET_LAYERS`); None unless asked for.
    """

    kind: str
    annotators: List[str]
    labels: Optional[CategoryTable]
    arcs: Optional[CategoryTable]
    upos: Optional[BinScores]
    lengths: List[LengthBin]
    edges: Tuple[int, ...] = DEFAULT_LENGTH_EDGES
    ignored: int = 0
    notes: List[str] = field(default_factory=list)
    gwet: Optional[Dict[str, GwetLayers]] = None

    name = "breakdown"

    @property
    def variants(self) -> List[str]:
        """The α variants of the length bins (those of the result)."""
        return next((list(b.alpha) for b in self.lengths if b.alpha), [])

    @property
    def score_names(self) -> List[str]:
        """The registry's word scores for any relations (``["LAS_full", "UAS", "LA"]``)
        or ``["jaccard"]``."""
        return ["jaccard"] if self.kind == "phrase" else list(word_scores("agree", ud=False))

    def label_rows(self) -> List[dict]:
        """One dict per label (most frequent first): counts, specific agreement, α."""
        return _category_rows(self.labels, "label") if self.labels is not None else []

    def arc_rows(self) -> List[dict]:
        """One dict per arc bin in `ARC_BINS` order (empty bins left out)."""
        if self.arcs is None:
            return []
        rows = _category_rows(self.arcs, "arc")
        rank = {b: k for k, b in enumerate(ARC_BINS)}
        return sorted((r for r in rows if r["first"] + r["second"] > 0),
                      key=lambda r: rank.get(r["arc"], len(rank)))

    def confusion_rows(self) -> List[dict]:
        """Pairs of different labels given to one word, most frequent first."""
        if self.labels is None:
            return []
        return [{"label_1": a, "label_2": b, "words": x + y, "first_label_1": x,
                 "first_label_2": y, "same_head": h}
                for a, b, x, y, h in self.labels.confusions()]

    def upos_rows(self) -> List[dict]:
        """One dict per UPOS bin (most words first): counts and LAS/UAS/LA."""
        if self.upos is None:
            return []
        up = self.upos
        return [{"upos": k, "words": up.words(k),
                 **{f"{m}_correct": up.correct(k, m) for m in up.scores},
                 **{m: up.ratio(k, m) for m in up.scores}}
                for k in up.order()]

    def length_rows(self) -> List[dict]:
        """One dict per length bin: units, word scores (counts and ratios), α and its sums."""
        out = []
        for b in self.lengths:
            sc = b.scores
            row: dict = {"bin": b.name, "units": b.units, "annotations": b.annotations,
                         "words": sc.total, "ignored": sc.ignored}
            row.update({f"{m}_correct": sc.correct.get(m, 0.0) for m in self.score_names})
            row.update({m: (sc.ratio(m) if sc.total else None) for m in self.score_names})
            for v in self.variants:
                row[f"alpha_{v}"] = b.alpha_value(v)
            row["counts"] = {f"alpha_{v}": {"do_sum": st.do_sum, "de_sum": st.de_sum,
                                            "n": st.n, "d_o": st.d_o, "d_e": st.d_e}
                             for v, st in b.alpha.items()}
            out.append(row)
        return out

    def totals(self) -> dict:
        """The label table summed over labels: words, LA and LAS counts, nominal α."""
        if self.labels is None:
            return {}
        t = self.labels.totals()
        return {"words": self.labels.words, "units": self.labels.units,
                "LA_correct": t["both"], "LAS_full_correct": t["both_also"],
                "values": self.labels.n_values, "alpha_label": _r(self.labels.alpha_all())}

    def gwet_rows(self) -> List[dict]:
        """One dict per label layer and group (``all``, then the length bins): Gwet's
        coefficient, its standard error and interval, p_a, p_e and the items."""
        if not self.gwet:
            return []
        return [{"layer": layer, "group": group, **r.to_dict()}
                for group, g in self.gwet.items() for layer, r in g.results.items()]

    def to_dict(self) -> dict:
        """JSON-ready: every count and ratio, under stable keys (docs/output.md)."""
        d: dict = {"kind": self.kind, "annotators": list(self.annotators),
                   "pairs": _pairs_text(self.annotators),
                   "ignored": self.ignored, "length_edges": list(self.edges)}
        if self.kind == "dependency":
            d["totals"] = self.totals()
            d["labels"] = {"n_values": self.labels.n_values if self.labels else 0.0,
                           "rows": self.label_rows()}
            d["label_confusions"] = self.confusion_rows()
            d["upos"] = self.upos_rows()
            d["arcs"] = {"n_values": self.arcs.n_values if self.arcs else 0.0,
                         "rows": self.arc_rows()}
        d["lengths"] = self.length_rows()
        if self.gwet:
            first = next(iter(self.gwet.values()))
            d["gwet"] = {"settings": first.options.describe(), "rows": self.gwet_rows(),
                         **({"category_order": {g: x.orders for g, x in self.gwet.items()
                                                if x.orders}}
                            if any(x.orders for x in self.gwet.values()) else {})}
        d["notes"] = list(self.notes)
        return d


def _category_rows(t: CategoryTable, key: str) -> List[dict]:
    rows = []
    for c in t.order():
        k = t.counts(c)
        rows.append({key: c, "first": k["first"], "second": k["second"], "both": k["both"],
                     "both_head": k["both_also"], "specific": t.specific(c),
                     "specific_head": t.specific(c, also=True), "alpha": t.alpha(c),
                     "values": k["values"], "disagree": k["disagree"]})
    return rows


def _pairs_text(annotators: Sequence[str]) -> str:
    if len(annotators) == 2:
        return f"one pair: first = {annotators[0]}, second = {annotators[1]}"
    return ("all unordered pairs of each unit's annotators, each weighted 1/(pairs of the "
            "unit); first = the annotator listed earlier")


def _upos(s: DepSentence) -> List[str]:
    return list(s.upos) if s.upos else ["_"] * s.n_words


def _word_views(ann_lists: Sequence[Sequence[DepSentence]]
                ) -> Tuple[CategoryTable, CategoryTable, BinScores, int]:
    labels, arcs, upos = CategoryTable(), CategoryTable(), BinScores()
    for b in ARC_BINS:
        arcs.code(b)
    kept, ignored = word_aligned(ann_lists)
    for anns in kept:
        lab = np.array([[labels.code(r) for r in s.deprels] for s in anns], dtype=np.int64)
        heads = np.stack([np.asarray(s.heads, dtype=np.int64) for s in anns])
        labels.add_unit(lab, heads)
        arc = np.array([[arcs.code(arc_bin(i, h)) for i, h in enumerate(row, start=1)]
                        for row in heads.tolist()], dtype=np.int64)
        arcs.add_unit(arc, heads)
        tags = [_upos(s) for s in anns]
        pairs = list(combinations(range(len(anns)), 2))
        w = 1.0 / len(pairs)
        for i, j in pairs:
            keys = [x if x == y else UPOS_DIFFERS for x, y in zip(tags[i], tags[j])]
            upos.add(keys, {m: credit(anns[i], anns[j], m) for m in upos.scores}, w)
    return labels, arcs, upos, ignored


def _items(layer: str, units: Sequence[Sequence[DepSentence]]) -> Optional[ItemData]:
    """The words of ``units`` as items, each annotation of a unit a rating (`ItemData`);
    None when no annotation gives the layer (UPOS ``_`` throughout).  A UPOS of ``_``
    is a missing rating (a DEPREL ``_`` is the label ``_``, as the reader warns)."""
    def labels(s: DepSentence) -> List[str]:
        return list(s.deprels) if layer == "deprel" else _upos(s)

    if layer == "upos" and not any(s.upos for anns in units for s in anns):
        return None
    index: Dict[str, int] = {}
    width = max((len(anns) for anns in units), default=0)
    blocks, unit_of = [], []
    for u, anns in enumerate(units):
        # an annotation without UPOS ('_') is a missing rating, not a category
        cols = [[-1 if layer == "upos" and x == "_" else index.setdefault(x, len(index))
                 for x in labels(s)] for s in anns]
        block = np.full((len(cols[0]), width), -1, dtype=np.int32)
        for j, col in enumerate(cols):
            block[:, j] = col
        blocks.append(block)
        unit_of += [u] * len(block)
    codes = np.vstack(blocks) if blocks else np.zeros((0, width), dtype=np.int32)
    return ItemData(layer, [str(j + 1) for j in range(width)], list(index), codes,
                    np.asarray(unit_of, dtype=np.int64), [str(u) for u in range(len(units))],
                    [""] * len(units))


def gwet_of_groups(units: Sequence[Sequence[DepSentence]], options: GwetOptions,
                   edges: Sequence[int] = DEFAULT_LENGTH_EDGES) -> Dict[str, GwetLayers]:
    """Gwet's AC1/AC2 of DEPREL and UPOS over all words and per sentence-length bin.

    docs/method.md §21.6.  Each group is computed on its own words
    (`synagree.agreement.gwet_layers.gwet_of_layers`): a unit's words are
    items, each of its annotations a rating (irrCAC gives 0.7015 on the
    example's five words).

    Parameters
    ----------
    units : sequence of sequence of DepSentence
        Word-aligned units (`synagree.stats.attachment.word_aligned`).
    options : GwetOptions
    edges : sequence of int
        The length bins' upper ends; a unit's length is its first annotation's words.

    Examples
    --------
    >>> s = DepSentence.from_heads
    >>> units = [[s([0, 1], "root obj"), s([0, 1], "root nsubj")],
    ...          [s([2, 0, 2], "nsubj root obj"), s([2, 0, 2], "nsubj root obj")]]
    >>> g = gwet_of_groups(units, GwetOptions("ac1"), edges=(2,))
    >>> list(g), round(g["all"].results["deprel"].value, 4), g["all"].results["deprel"].items
    (['all', '1-2', '3+'], 0.7015, 5)
    """
    groups: Dict[str, List[Sequence[DepSentence]]] = {ALL_WORDS: list(units)}
    for name in length_bin_names(edges):
        groups[name] = []
    for anns in units:
        groups[length_bin(anns[0].n_words, edges)].append(anns)
    out: Dict[str, GwetLayers] = {}
    for name, members in groups.items():
        if not members:
            continue
        items = {layer: data for layer in GWET_LAYERS
                 if (data := _items(layer, members)) is not None}
        out[name] = gwet_of_layers(items, options)
    return out


def breakdown(result: Core, edges: Sequence[int] = DEFAULT_LENGTH_EDGES,
              gwet: Optional[GwetOptions] = None) -> AgreementBreakdown:
    """Agreement per label, UPOS, arc and sentence length for an agreement result.

    docs/method.md §21.  The length bins' α takes one more all-pairs TED
    pass per bin, over the bin's trees only (D_e exact, or sampled with as
    many pairs when the result's D_e was sampled).

    Parameters
    ----------
    result : AgreementResult
        From `synagree.agreement.agree.agree_corpus` (it carries the corpus
        and the trees).
    edges : sequence of int
        Upper ends of the sentence-length bins (positive, increasing).
    gwet : GwetOptions, optional
        Also Gwet's AC1/AC2 of the label layers per group (`gwet_of_groups`;
        dependency input).

    Raises
    ------
    ValueError
        Bad ``edges``, or a result without its corpus.
    """
    corpus = corpus_of(result)
    names = length_bin_names(edges)
    edges = tuple(int(x) for x in edges)
    ann_lists = corpus.annotation_lists()
    notes = [f"breakdown pairs: {_pairs_text(result.annotators)}"]
    labels = arcs = None
    upos = None
    ignored = 0
    if result.kind == "dependency":
        labels, arcs, upos, ignored = _word_views(cast(List[List[DepSentence]], ann_lists))
        if ignored:
            notes.append(f"breakdown: {ignored} unit(s) whose annotations differ in word "
                         f"count are left out of the label, UPOS and arc views (they are "
                         f"in the length bins' alpha)")
        if len({len(a) for a in ann_lists if len(a) >= 2}) > 1:
            notes.append("breakdown: units have different numbers of annotations; each "
                         "unit's pairs share its word count (as in LAS/UAS/LA), so specific "
                         "agreement weighs pairs unlike the pooled pair tables of "
                         "`categorical`")
        if upos.words(UPOS_DIFFERS):
            notes.append(f"breakdown: words whose UPOS differs between the two annotators "
                         f"of a pair are binned as {UPOS_DIFFERS}")
    else:
        notes.append("breakdown: labels, UPOS and arcs need dependency input; phrase "
                     "structure gets the sentence-length bins only")
    members: Dict[str, List[int]] = {n: [] for n in names}
    for k, anns in enumerate(ann_lists):
        if len(anns) >= 2:
            first = anns[0]
            size = first.size if isinstance(first, PhraseSentence) else first.n_words
            members[length_bin(size, edges)].append(k)
    lengths: List[LengthBin] = []
    sampled = False
    for n in names:
        idx = members[n]
        units = [ann_lists[k] for k in idx]
        if result.kind == "phrase":
            scores = jaccard_scores(cast(List[List[PhraseSentence]], units))
        else:
            scores = attachment_scores(cast(List[List[DepSentence]], units),
                                       list(result.scores.correct))
        stats: Dict[str, AlphaStats] = {}
        if idx:
            ta = alpha_over(result, [result.trees[k] for k in idx])
            stats = dict(ta.stats)
            sampled = sampled or ta.sampled is not None
        n_ann = sum(len(u) for u in units)
        lengths.append(LengthBin(n, len(idx), n_ann, scores, stats))
        if idx and all(st.alpha is None for st in stats.values()):
            notes.append(f"breakdown: length bin {n}: D_e = 0 (all its trees are "
                         f"identical), so its alpha is undefined")
        elif len(idx) == 1:
            notes.append(f"breakdown: length bin {n} holds one unit, so its alpha is 0 by "
                         f"construction")
    if sampled:
        notes.append("breakdown: the length bins' D_e is estimated from sampled pairs, as "
                     "the corpus D_e is")
    gwet_groups = None
    if gwet is not None and result.kind == "dependency":
        kept, _ = word_aligned(cast(List[List[DepSentence]], ann_lists))
        gwet_groups = gwet_of_groups(kept, gwet, edges)
        notes.extend(dict.fromkeys(f"gwet: {n}" for g in gwet_groups.values() for n in g.notes))
        notes.append("gwet: each group (all words, each length bin) is computed on its own "
                     "words: a word is an item, each annotation of its unit a rating")
    elif gwet is not None:
        notes.append("gwet: Gwet's coefficient reads the words' labels (DEPREL, UPOS); "
                     "phrase-structure trees get none")
    return AgreementBreakdown(result.kind, list(result.annotators), labels, arcs, upos,
                              lengths, edges, ignored, notes, gwet_groups)
