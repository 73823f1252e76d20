"""α between gold and system trees as PARSEVAL compares them (``compare --alpha``).

docs/method.md §22.4.  Per valid sentence (EVALB status 0), the gold and the
system tree are rebuilt from the brackets EVALB compared
(`synagree.evaluation.parseval.SentenceDetail`): the kept brackets (after
``DELETE_LABEL``, empty brackets dropped, labels cut at ``-``/``=``) nest as in
the line, and the kept words' tags are the leaves, so |t| is the number of
words EVALB counts.  With ``LABELED 0`` every bracket carries one and the
same label (`UNLABELLED`: a tab, which no bracket label can hold; not the
empty label, which is the root's and costs nothing to insert or delete); labels
and tags that ``EQ_LABEL`` pairs join (through any chain of pairs) are one
label.  Words outside every kept bracket hang from an unlabelled root.  The
trees then go to `synagree.stats.alpha.tree_alpha` as two annotators per
sentence (docs/method.md §4–5): α_plain, α_diff and α_norm.  Error and skip
sentences take no part, as in PARSEVAL's totals.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from synagree.evaluation.parseval import ParsevalResult, SentenceDetail
from synagree.io.brackets import PhraseNode, PhraseSentence
from synagree.io.evalb_params import EvalbParams
from synagree.trees.flat import FlatTree, Vocabulary, phrase_tree

__all__ = ["UNLABELLED", "label_classes", "detail_trees", "evalb_tree", "alpha_trees"]

#: the label of every bracket under ``LABELED 0``
UNLABELLED = "\t"


def label_classes(params: EvalbParams) -> Dict[str, str]:
    """Each label of an ``EQ_LABEL`` pair mapped to its class's first label (sorted)."""
    parent: Dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for a, b in params.eq_labels:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    return {x: find(x) for x in sorted(parent)}


def evalb_tree(brackets: Sequence[Tuple[int, int, str]], tags: Sequence[str]) -> PhraseNode:
    """The tree of kept brackets (in line order) over leaves labelled with ``tags``.

    Parameters
    ----------
    brackets : sequence of (int, int, str)
        ``(start, end, label)``, none empty, in the order of the line
        (parents before children).
    tags : sequence of str
        One leaf label per word.

    Returns
    -------
    PhraseNode
        The one bracket over all words, or an unlabelled root over what is
        outside every bracket.
    """
    n = len(tags)
    root = PhraseNode("", [])
    stack: List[Tuple[PhraseNode, int, int]] = [(root, 0, n)]
    w = 0

    def words_until(pos: int) -> None:
        nonlocal w
        while w < pos:
            while stack[-1][2] <= w:
                stack.pop()
            stack[-1][0].children.append(PhraseNode(tags[w]))
            w += 1

    for s, e, lab in brackets:
        words_until(s)
        while not (stack[-1][1] <= s and e <= stack[-1][2]):
            stack.pop()
        node = PhraseNode(lab, [])
        stack[-1][0].children.append(node)
        stack.append((node, s, e))
    words_until(n)
    if len(root.children) == 1 and root.children[0].children:
        return root.children[0]
    return root


def detail_trees(d: SentenceDetail, params: EvalbParams,
                 classes: Optional[Dict[str, str]] = None) -> Tuple[PhraseNode, PhraseNode]:
    """The gold and the system tree of one valid sentence (see the module docstring)."""
    if classes is None:
        classes = label_classes(params)

    def lab(x: str) -> str:
        return classes.get(x, x)

    def side(brackets: Sequence[Tuple[int, int, str]], tags: Sequence[str]) -> PhraseNode:
        return evalb_tree([(s, e, lab(x) if params.labeled else UNLABELLED)
                           for s, e, x in brackets],
                          [lab(x) for x in tags])

    return (side(d.gold, [g for g, _ in d.tags]), side(d.test, [t for _, t in d.tags]))


def alpha_trees(res: ParsevalResult, vocab: Vocabulary
                ) -> Tuple[List[int], List[List[FlatTree]]]:
    """The valid sentences' ids and their [gold, system] trees for `tree_alpha`.

    Parameters
    ----------
    res : ParsevalResult
        Computed with ``detail=True``.
    vocab : Vocabulary
        Label ids (shared by every system of a comparison).
    """
    if res.details is None:
        raise ValueError("alpha_trees needs a result computed with detail=True")
    classes = label_classes(res.params)
    ids, units = [], []
    for sid, d in sorted(res.details.items()):
        g, t = detail_trees(d, res.params, classes)
        ids.append(sid)
        units.append([phrase_tree(PhraseSentence(res.gold_file, sid - 1, sid, g), vocab),
                      phrase_tree(PhraseSentence(res.system_file, sid - 1, sid, t), vocab)])
    return ids, units
