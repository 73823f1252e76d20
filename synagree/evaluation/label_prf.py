"""Strict and lenient P/R/F1 over labels for ``compare`` and ``tags`` (``--prf``).

docs/method.md §17.  This module counts, per label, the correct, gold and
system items of each *variant*; `synagree.stats.prf` turns the counts into
micro and macro precision, recall and F1.

``compare`` (any tokenisation; items are words, correct items are aligned
word pairs):

==================== ======================================== ===================
variant              a pair is correct when …                 labels
==================== ======================================== ===================
``strict``           head and full DEPREL agree (LAS_full)    full DEPREL
``lenient``          head and universal relation agree (LAS)  universal relation
``unlabelled``       head agrees (UAS)                        one class
``strict_label_only``  full DEPREL agrees, head ignored       full DEPREL
``lenient_label_only`` universal relation agrees              universal relation
==================== ======================================== ===================

Micro P/R/F1 of ``strict``, ``lenient`` and ``unlabelled`` are exactly the
scorer's LAS_full, LAS and UAS.  ``unlabelled`` has one class, so its macro
values equal its micro values.

``tags`` (equal tokenisation; items are words): ``strict`` compares the
tags as written, ``lenient`` their top-level ancestors in the hierarchy
(`top_level_tag`: ``ud`` the universal part, ``msd`` the first character,
a file its top-level tag).  Under ``flat`` every tag is top-level, so
lenient = strict, and the result says so in a note.
"""
from __future__ import annotations

from collections import Counter
from typing import Dict, Sequence, Tuple

from synagree.evaluation.conll18 import Alignment
from synagree.stats.hierarchy_input import HierarchySpec, describe_hierarchy, load_hierarchy
from synagree.stats.prf import PRF, prf_from_counts, prf_from_pairs
from synagree.trees.hierarchy import Hierarchy

__all__ = ["COMPARE_VARIANTS", "TAG_VARIANTS", "UNLABELLED_CLASS", "relation_prf",
           "top_level_tag", "tag_prf", "note_written_alternatives"]

COMPARE_VARIANTS = ("strict", "lenient", "unlabelled", "strict_label_only",
                    "lenient_label_only")
TAG_VARIANTS = ("strict", "lenient")
#: The one class of the ``unlabelled`` variant.
UNLABELLED_CLASS = "(attached)"

_COMPARE_MATCH = {
    "strict": "aligned word with the gold head and the full DEPREL (micro = LAS_full); "
              "labels: full DEPREL",
    "lenient": "aligned word with the gold head and the universal relation (micro = LAS); "
               "labels: universal relations",
    "unlabelled": "aligned word with the gold head (micro = UAS); one class, so macro = micro",
    "strict_label_only": "aligned word with the full DEPREL, head ignored; labels: full DEPREL",
    "lenient_label_only": "aligned word with the universal relation, head ignored; "
                          "labels: universal relations",
}


def relation_prf(alignment: Alignment) -> Dict[str, PRF]:
    r"""The five P/R/F1 variants of ``compare --prf`` for one system.

    Gold counts are over all gold words, system counts over all system
    words, correct counts over the aligned pairs (docs/method.md §17.2).

    Parameters
    ----------
    alignment : Alignment
        From `synagree.evaluation.conll18.align`.

    Returns
    -------
    dict of str to PRF
        Keyed by `COMPARE_VARIANTS`, in that order.
    """
    gold_full = Counter(w.deprel for w in alignment.gold.words)
    gold_univ = Counter(w.udeprel for w in alignment.gold.words)
    sys_full = Counter(w.deprel for w in alignment.system.words)
    sys_univ = Counter(w.udeprel for w in alignment.system.words)
    strict: Counter = Counter()
    lenient: Counter = Counter()
    strict_label: Counter = Counter()
    lenient_label: Counter = Counter()
    attached = 0
    for p in alignment:
        head = p.system_head is p.gold_head
        g, s = p.gold, p.system
        if g.deprel == s.deprel:
            strict_label[g.deprel] += 1
            if head:
                strict[g.deprel] += 1
        if g.udeprel == s.udeprel:
            lenient_label[g.udeprel] += 1
            if head:
                lenient[g.udeprel] += 1
        attached += head
    one = UNLABELLED_CLASS
    counts = {
        "strict": (strict, gold_full, sys_full),
        "lenient": (lenient, gold_univ, sys_univ),
        "unlabelled": ({one: attached}, {one: len(alignment.gold.words)},
                       {one: len(alignment.system.words)}),
        "strict_label_only": (strict_label, gold_full, sys_full),
        "lenient_label_only": (lenient_label, gold_univ, sys_univ),
    }
    return {k: prf_from_counts(c, g, s, k, _COMPARE_MATCH[k])
            for k, (c, g, s) in counts.items()}


def top_level_tag(hierarchy: Hierarchy, tag: str) -> str:
    """The top-level ancestor of a tag (the tag itself when it is top-level).

    Under ``ud`` the universal part (``nsubj:pass`` → ``nsubj``; with
    ``plain_as_leaf`` plain ``nsubj`` too), under ``msd`` the first
    character (``Ncmsn`` → ``N``), under ``flat`` the tag; the tag is
    resolved first (MSD trailing ``-`` stripped, unknown tags added as
    top-level).
    """
    ancestors = hierarchy.ancestors(tag)
    return ancestors[-1] if ancestors else hierarchy.resolve(tag)


def tag_prf(pairs: Sequence[Tuple[str, str]], hierarchy: HierarchySpec = "flat",
            plain_as_leaf: bool = False) -> Dict[str, PRF]:
    """Strict and lenient P/R/F1 of ``tags --prf`` from (gold, system) tag pairs.

    ``strict``: tags as written; ``lenient``: their `top_level_tag` in the
    hierarchy (docs/method.md §17.3).  When no tag has an ancestor, lenient
    equals strict and carries a note saying so.

    Parameters
    ----------
    pairs : sequence of (str, str)
        (gold tag, system tag) per word.
    hierarchy : str, path-like, Buffer or Hierarchy
        ``ud``, ``msd``, ``flat``, a file, or a `Hierarchy` (as for
        `synagree.evaluation.tags.evaluate_tag_pairs`).
    plain_as_leaf : bool

    Returns
    -------
    dict of str to PRF
        Keyed by `TAG_VARIANTS`.
    """
    pairs = list(pairs)
    tags = [t for pair in pairs for t in pair]
    h = load_hierarchy(hierarchy, tags, plain_as_leaf=plain_as_leaf)
    desc = describe_hierarchy(hierarchy, plain_as_leaf)
    top = {t: top_level_tag(h, t) for t in set(tags)}
    strict = prf_from_pairs(pairs, "strict", "system tag equal to the gold tag as written")
    lenient = prf_from_pairs([(top[g], top[s]) for g, s in pairs], "lenient",
                             f"top-level ancestors in the {desc} hierarchy equal")
    if all(top[t] == t for t in top):
        lenient.notes.append(f"lenient = strict: no tag has an ancestor in the {desc} hierarchy")
    return {"strict": strict, "lenient": lenient}


def note_written_alternatives(results: Dict[str, PRF], tag_syntax: str) -> Dict[str, PRF]:
    """Say so when ``--prf`` meets ``--tag-syntax alternatives`` and a label has alternatives.

    P/R/F1 count the labels as written (docs/method.md §17): a value such as
    ``advmod|obl:tmod`` is one label there, and its lenient form is cut at
    the first ``:`` of the whole string.  The alternatives of §15 give
    ``LAS_hier``/credit, not these counts; the first variant gets a note
    saying so.  Returns ``results``.

    Parameters
    ----------
    results : dict of str to PRF
        As from `tag_prf` or `relation_prf`.
    tag_syntax : {"plain", "alternatives"}
    """
    if tag_syntax == "plain" or not results:
        return results
    written = [c.label for r in results.values() for c in r.per_label
               if "|" in c.label or "=" in c.label]  # the first variant's first
    if written:
        first = next(iter(results.values()))
        first.notes.append(f"P/R/F1 count the values as written: a value with alternatives "
                           f"(e.g. {written[0]}) is one label here, not read as alternatives "
                           f"(--tag-syntax applies to the credit scores; docs/method.md §15)")
    return results
