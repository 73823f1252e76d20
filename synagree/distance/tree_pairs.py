"""`ted`: the tree edit distance of one pair of trees, or of a batch of pairs, in any form.

The public single-pair entry (``synagree.ted``).  Trees come as

* `FlatTree` (the cheap form: about 2 µs around the kernel per pair with unit
  costs, through the C kernel's single-pair entry; docs/performance.md),
* `DepSentence` or `PhraseSentence` (each pair's trees are built first, with
  a vocabulary of the pair's own labels: tens of µs),
* bracketed strings, ``"(S (NP D N) (VP V))"`` (parsed and built first:
  about a hundred µs),

and two equal-length sequences of them give an array of distances, one per
pair, computed together in the compiled pair loop.  Unit costs by default
(every node but the artificial root costs 1 to insert, delete or relabel;
docs/method.md §3); `Costs` only with `FlatTree`, whose label ids they index.
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple, Union, cast, overload

import numpy as np

from synagree.base.problems import InputError, ProblemLog
from synagree.distance import ted as _ted
from synagree.distance.ted import Costs, TreePack, pair_distances
from synagree.io.brackets import (
    PHRASE_STYLES,
    PhraseSentence,
    decide_phrase_style,
    parse_bracket_file,
    phrase_sentences,
)
from synagree.io.conllu import DepSentence
from synagree.io.sources import Buffer
from synagree.trees.flat import FlatTree, Vocabulary, build_tree

__all__ = ["ted", "TreeLike"]

#: one tree, in any form `ted` takes
TreeLike = Union[FlatTree, DepSentence, PhraseSentence, str]
_SINGLE = (FlatTree, DepSentence, PhraseSentence, str)


@overload
def ted(a: TreeLike, b: TreeLike, costs: Optional[Costs] = None, *,  # type: ignore[overload-overlap]
        phrase_style: str = "auto") -> float: ...  # (a str is one tree, not a sequence)


@overload
def ted(a: Sequence[TreeLike], b: Sequence[TreeLike], costs: Optional[Costs] = None, *,
        phrase_style: str = "auto") -> np.ndarray: ...


def ted(a: Union[TreeLike, Sequence[TreeLike]], b: Union[TreeLike, Sequence[TreeLike]],
        costs: Optional[Costs] = None, *, phrase_style: str = "auto"
        ) -> Union[float, np.ndarray]:
    r"""Tree edit distance (Zhang–Shasha) of two trees, or of each pair of two batches.

    docs/method.md §3: unit costs unless ``costs``; with unit costs the
    distance equals ``zss.simple_distance`` on the same trees (the artificial
    root of a dependency tree, label ``""``, costs nothing).

    Parameters
    ----------
    a, b : FlatTree, DepSentence, PhraseSentence or str; or sequences of them
        Two trees of one kind, or two lists (or tuples) of equal length: the
        distance of ``a[k]`` and ``b[k]`` for every k.  Cheapest are
        `FlatTree` (built with one `synagree.trees.flat.Vocabulary`, whose
        label ids both must share); sentences are built into trees first
        (their labels: DEPREL in full, or the bracket categories), and a
        string is one bracketed tree, parsed first.
    costs : Costs, optional
        Edit costs by label id; only with `FlatTree` input.
    phrase_style : {"auto", "delex", "penn"}
        How bare strings of bracketed strings are read (docs/method.md §1.6):
        decided over the pair (or the batch) together.

    Returns
    -------
    float or numpy.ndarray
        A float for two trees; float64 (n,) for two batches of n.

    Raises
    ------
    TypeError
        Inputs of different kinds (a `FlatTree` with a sentence, dependency
        with phrase structure), or not trees.
    ValueError
        Batches of different lengths, ``costs`` with anything but `FlatTree`,
        a string that is not one bracketed tree, a tree that is not well
        formed.
    InputError
        A string that cannot be read as brackets (with the problem).

    Examples
    --------
    >>> import synagree
    >>> synagree.ted("(S (NP D N) (VP V))", "(S (NP D) (VP V N))")
    2.0
    >>> from synagree.io.conllu import DepSentence
    >>> a = DepSentence.from_heads([2, 0, 2], ["nsubj", "root", "obj"])
    >>> b = DepSentence.from_heads([2, 0, 2], ["nsubj", "root", "iobj"])
    >>> synagree.ted(a, b), synagree.ted([a, a], [b, a]).tolist()
    (1.0, [1.0, 0.0])
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> ta, tb = dependency_tree(a, v), dependency_tree(b, v)  # the fast form
    >>> synagree.ted(ta, tb)
    1.0
    """
    if isinstance(a, _SINGLE) and isinstance(b, _SINGLE):
        if isinstance(a, FlatTree) and isinstance(b, FlatTree):
            return _ted.ted(a, b, costs)
        t1, t2 = _flat([a], [b], costs, phrase_style)
        return _ted.ted(t1[0], t2[0])
    if isinstance(a, _SINGLE) or isinstance(b, _SINGLE):
        raise TypeError(f"ted takes two trees or two sequences of trees, not a "
                        f"{type(a).__name__} and a {type(b).__name__}")
    xs, ys = list(a), list(b)
    if len(xs) != len(ys):
        raise ValueError(f"ted of two batches needs them of equal length, not {len(xs)} "
                         f"and {len(ys)}")
    if not xs:
        return np.zeros(0, dtype=np.float64)
    if all(isinstance(t, FlatTree) for t in xs + ys):
        t1 = cast(List[FlatTree], xs)
        t2 = cast(List[FlatTree], ys)
    else:
        t1, t2 = _flat(xs, ys, costs, phrase_style)
    n = len(xs)
    return pair_distances(TreePack(t1 + t2), np.arange(n), np.arange(n, 2 * n), costs)


def _flat(xs: Sequence[object], ys: Sequence[object], costs: Optional[Costs],
          phrase_style: str) -> Tuple[List[FlatTree], List[FlatTree]]:
    """The trees of sentences or bracketed strings, built with one vocabulary."""
    if costs is not None:
        raise ValueError("costs index label ids: give FlatTree input (built with the "
                         "Vocabulary the costs are for), not sentences or strings")
    items = list(xs) + list(ys)
    if any(isinstance(t, FlatTree) for t in items):
        raise TypeError("a FlatTree cannot be paired with a sentence or a string: its label "
                        "ids are of a vocabulary the other does not share")
    strings = [k for k, t in enumerate(items) if isinstance(t, str)]
    if strings:
        parsed = _parse_brackets([items[k] for k in strings], phrase_style)  # type: ignore[misc]
        for k, s in zip(strings, parsed):
            items[k] = s
    kinds = {type(t) for t in items}
    if not kinds <= {DepSentence, PhraseSentence}:
        bad = next(t for t in items if not isinstance(t, (DepSentence, PhraseSentence)))
        raise TypeError(f"not a tree: {type(bad).__name__} (give FlatTree, DepSentence, "
                        f"PhraseSentence or a bracketed string)")
    if len(kinds) > 1:
        raise TypeError("dependency and phrase-structure trees cannot be compared")
    vocab = Vocabulary()
    trees = [build_tree(t, vocab) for t in items]
    return trees[:len(xs)], trees[len(xs):]


def _parse_brackets(texts: Sequence[str], phrase_style: str) -> List[PhraseSentence]:
    if phrase_style not in PHRASE_STYLES:
        raise ValueError(f"phrase_style must be auto, delex or penn, not {phrase_style!r}")
    log = ProblemLog()
    raws = []
    for k, text in enumerate(texts):
        name = f"<tree {k + 1}>"
        raw = parse_bracket_file(Buffer(name, None, text), log)
        if raw is not None and len(raw) != 1:
            raise ValueError(f"{name}: a string must hold one bracketed tree, not {len(raw)}")
        raws.append((name, raw or []))
    if log.errors:
        raise InputError(log.errors)
    style = decide_phrase_style(raws, phrase_style).style
    out = [s for name, raw in raws for s in phrase_sentences(name, raw, style, log)]
    if log.errors:  # a tree without nodes
        raise InputError(log.errors)
    return out
