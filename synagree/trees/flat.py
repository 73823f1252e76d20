"""Trees as flat arrays for the tree-edit-distance kernels (docs/method.md §2–3).

A tree is built once per annotation into postorder arrays:

* ``labels[k]``  label id of the k-th node in postorder (0-based);
* ``lml[k]``     postorder index of the leftmost leaf descendant of node k;
* ``keyroots``   Zhang–Shasha keyroots, ascending (the nodes that have a left
  sibling, plus the root);
* ``size``       |t| as docs/method.md §2 defines it (words + 1 for dependency trees,
  leaves for phrase structure), which is *not* always the node count: words on
  a head cycle are not nodes but still count in |t|.

The mirrored tree (children in reverse order) is kept too: Zhang–Shasha on
two mirrored trees is the right-path decomposition, and gives the same
distance.  ``cost`` is the classic Zhang–Shasha work estimate
Σ_{k ∈ keyroots} |subtree(k)| per orientation; a pair's work is the product.

Label ids come from one `Vocabulary` per corpus.  Id 0 is always the
empty label ``""`` of the artificial root: under zss it costs 0 to insert or
delete (docs/method.md §3), and the kernels reproduce that through per-label costs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Protocol, Sequence, Tuple

import numpy as np

from synagree.base import jit, native
from synagree.io.brackets import PhraseNode, PhraseSentence
from synagree.io.conllu import DepSentence

try:
    from synagree.trees import _flatc
except ImportError:  # the optional C extension was not built: numba runs the kernel
    _flatc = None  # type: ignore[assignment]
C_SOURCES = ("_flatc.c",)  # what _flatc is built from (pyproject.toml)

ROOT_LABEL = ""


class Vocabulary:
    """Label string ↔ dense integer id; id 0 is the root label ``""``.

    One vocabulary serves a whole corpus, so that equal labels get equal ids in
    every tree (docs/method.md §3).

    Parameters
    ----------
    labels : iterable of str
        Labels to number first, in order.

    Attributes
    ----------
    labels : list of str
        The label of each id.
    """

    def __init__(self, labels: Iterable[str] = ()):
        self._ids: Dict[str, int] = {ROOT_LABEL: 0}
        self.labels: List[str] = [ROOT_LABEL]
        for lab in labels:
            self.id(lab)

    def id(self, label: str) -> int:
        """The id of ``label``, numbering it if new."""
        i = self._ids.get(label)
        if i is None:
            i = len(self.labels)
            self._ids[label] = i
            self.labels.append(label)
        return i

    def get(self, label: str) -> Optional[int]:
        """The id of ``label``, or None if it is not numbered (never adds)."""
        return self._ids.get(label)

    def __len__(self) -> int:
        return len(self.labels)

    def __contains__(self, label: str) -> bool:
        return label in self._ids


@dataclass(frozen=True)
class FlatTree:
    """One ordered labelled tree in postorder arrays, both orientations.

    Built by `dependency_tree`, `phrase_tree` or `flat_tree`; read by the
    Zhang–Shasha kernels of `synagree.distance.ted` (docs/method.md §2–3).

    Parameters
    ----------
    labels : numpy.ndarray
        int32 (n,): label id of the k-th node in postorder (0-based).
    lml : numpy.ndarray
        int32 (n,): postorder index of the leftmost leaf descendant of node k.
    keyroots : numpy.ndarray
        int32: Zhang–Shasha keyroots, ascending.
    r_labels, r_lml, r_keyroots : numpy.ndarray
        The same for the mirrored tree (children in reverse order).
    size : int
        |t| as docs/method.md §2.3 defines it (words + 1, or leaves), not
        always the node count: words on a head cycle are not nodes but count.
    cost_left, cost_right : int
        Zhang–Shasha work estimate per orientation.
    """

    labels: np.ndarray  # int32 (n,)
    lml: np.ndarray  # int32 (n,)
    keyroots: np.ndarray  # int32 (k,)
    r_labels: np.ndarray  # mirrored tree
    r_lml: np.ndarray
    r_keyroots: np.ndarray
    size: int  # |t| per docs/method.md §2
    cost_left: int
    cost_right: int

    @property
    def n_nodes(self) -> int:
        """Number of nodes (the artificial root included; words on a head cycle not)."""
        return int(self.labels.shape[0])

    def key(self) -> bytes:
        """Identity of the labelled shape and |t|: equal keys ⇒ all distances equal.

        Used to compute each distinct tree's distances once
        (`synagree.distance.ted.dedupe`).
        """
        return (self.size.to_bytes(4, "little") + self.labels.tobytes()
                + b"|" + self.lml.tobytes())


def _postorder_arrays(children: Sequence[Sequence[int]], node_labels: Sequence[int],
                      root: int, reverse: bool):
    """Postorder (labels, lml, keyroots, cost) of the tree under ``root``, by a
    plain postorder walk (the definition that :func:`flat_tree`'s arithmetic
    reproduces; kept for checking it)."""
    labels: List[int] = []
    lml: List[int] = []
    # iterative postorder: (node, child cursor, leftmost leaf of node)
    stack = [[root, 0, -1]]
    while stack:
        top = stack[-1]
        node, cur = top[0], top[1]
        kids = children[node]
        if cur < len(kids):
            top[1] += 1
            child = kids[len(kids) - 1 - cur] if reverse else kids[cur]
            stack.append([child, 0, -1])
        else:
            stack.pop()
            idx = len(labels)
            leftmost = top[2] if top[2] >= 0 else idx
            labels.append(node_labels[node])
            lml.append(leftmost)
            if stack and stack[-1][2] < 0:
                stack[-1][2] = leftmost
    lml_a = np.asarray(lml, dtype=np.int32)
    n = len(labels)
    # keyroots: highest node for each distinct leftmost leaf
    last: Dict[int, int] = {}
    for k in range(n):
        last[int(lml_a[k])] = k
    kr = np.array(sorted(last.values()), dtype=np.int32)
    cost = int(sum(int(k) - int(lml_a[k]) + 1 for k in kr))
    return np.asarray(labels, dtype=np.int32), lml_a, kr, cost


def flat_tree(children: Sequence[Sequence[int]], node_labels: Sequence[int],
              size: int, root: int = 0) -> FlatTree:
    """Build a `FlatTree` from child lists (in order) and label ids per node.

    Parameters
    ----------
    children : sequence of sequence of int
        ``children[v]``: the children of node v, left to right.
    node_labels : sequence of int
        Label id per node (`Vocabulary` ids).
    size : int
        |t| to record (docs/method.md §2.3).
    root : int
        The root node.
    """
    pre: List[int] = []  # nodes in preorder
    depth: List[int] = []
    parent: List[int] = []  # preorder position of the parent (-1 for the root)
    edge: List[int] = []  # 1: first child, 2: last child, 3: only child, 0: neither
    stack = [(root, 0, -1, 3)]
    while stack:
        v, d, par, e = stack.pop()
        pos = len(pre)
        pre.append(v)
        depth.append(d)
        parent.append(par)
        edge.append(e)
        kids = children[v]
        k = len(kids)
        if k:
            # pushed right to left so that the leftmost child comes out first
            stack.append((kids[k - 1], d + 1, pos, 2 if k > 1 else 3))
            for c in range(k - 2, 0, -1):
                stack.append((kids[c], d + 1, pos, 0))
            if k > 1:
                stack.append((kids[0], d + 1, pos, 1))
    n = len(pre)
    sz = [1] * n
    for q in range(n - 1, 0, -1):
        sz[parent[q]] += sz[q]
    lab = [0] * n
    lml = [0] * n
    rlab = [0] * n
    rlml = [0] * n
    kr: List[int] = []
    rkr: List[int] = []
    cost_l = cost_r = 0
    for q in range(n):
        s = sz[q]
        k = q - depth[q] + s - 1  # postorder position
        r = n - 1 - q  # mirrored postorder position
        lb = node_labels[pre[q]]
        lab[k] = lb
        lml[k] = k - s + 1
        rlab[r] = lb
        rlml[r] = r - s + 1
        e = edge[q] if q else 0  # the root is a keyroot in both orientations
        if not e & 1:  # not a first child
            kr.append(k)
            cost_l += s
        if not e & 2:  # not a last child
            rkr.append(r)
            cost_r += s
    kr.sort()
    rkr.reverse()  # r descends with q
    i32 = np.int32
    return FlatTree(np.array(lab, i32), np.array(lml, i32), np.array(kr, i32),
                    np.array(rlab, i32), np.array(rlml, i32), np.array(rkr, i32),
                    int(size), cost_l, cost_r)


class DependencyColumns(Protocol):
    """What a dependency tree is built from: HEAD and DEPREL per word.

    `synagree.io.conllu.DepSentence` is one; a reader that already holds the
    two columns may pass a lighter object (``heads``: int32, 1-based, 0 the
    artificial root).
    """

    heads: np.ndarray
    deprels: List[str]

    @property
    def n_words(self) -> int:
        """Words (the length of both columns)."""
        ...


def dependency_tree(sent: DependencyColumns, vocab: Vocabulary) -> FlatTree:
    """ε(root) with each word under its HEAD, siblings by word ID (docs/method.md §2.1).

    Nodes are labelled with the DEPREL; the artificial root has the empty label
    (id 0).  Words not reachable from the root (head cycles) are not nodes;
    |t| still counts every word (+1 for the root), as the reference
    implementation did (docs/method.md §2.4).

    Parameters
    ----------
    sent : DepSentence or DependencyColumns
    vocab : Vocabulary
        Label ids; new labels are added.
    """
    n = sent.n_words
    children: List[List[int]] = [[] for _ in range(n + 1)]
    for i, h in enumerate(sent.heads.tolist(), start=1):
        children[h].append(i)
    # children lists of unreachable words are never visited from the root
    node_labels = [0] + [vocab.id(d) for d in sent.deprels]
    return flat_tree(children, node_labels, size=n + 1)


BATCH_MIN = 2000  # from this many dependency trees on, build them in one compiled call


def dependency_trees(sents: Sequence[DependencyColumns], vocab: Vocabulary) -> List[FlatTree]:
    """:func:`dependency_tree` of every sentence (label ids assigned in the same
    order), in one compiled pass when there are :data:`BATCH_MIN` or more
    (about 20 µs of Python per tree otherwise); the trees' arrays are then
    views of a few shared arrays.
    """
    if len(sents) < BATCH_MIN:
        return [dependency_tree(s, vocab) for s in sents]
    known = vocab._ids.get  # a dict look-up per label; vocab.id only for new labels
    labs: List[int] = []
    for s in sents:
        labs.append(0)
        found = list(map(known, s.deprels))
        row = ([vocab.id(d) for d in s.deprels] if None in found
               else [int(x) for x in found if x is not None])
        labs.extend(row)
    lens = np.fromiter((s.n_words for s in sents), np.int64, len(sents))
    hoff = np.zeros(len(sents) + 1, np.int64)
    np.cumsum(lens, out=hoff[1:])
    heads = (np.concatenate([s.heads for s in sents]).astype(np.int64)
             if int(hoff[-1]) else np.zeros(0, np.int64))
    total = int(hoff[-1]) + len(sents)
    lab, lml, rlab, rlml, kr, rkr = (np.zeros(total, np.int32) for _ in range(6))
    info = np.zeros((len(sents), 5), np.int64)
    args = (heads, hoff, np.asarray(labs, np.int32), lab, lml, rlab, rlml, kr, rkr, info)
    if native.use_c(_flatc, C_SOURCES):
        _flatc.dependency_arrays(*args)
    else:
        # imported lazily, so that numba is imported only when its kernel runs
        from synagree.trees import flat_numba

        jit.before_call(flat_numba._dependency_arrays, args)
        flat_numba._dependency_arrays(*args)
    out: List[FlatTree] = []
    starts = (hoff[:-1] + np.arange(len(sents))).tolist()
    for o, (m, nk, nr, cl, cr), n in zip(starts, info.tolist(), lens.tolist()):
        out.append(FlatTree(lab[o:o + m], lml[o:o + m], kr[o:o + nk], rlab[o:o + m],
                            rlml[o:o + m], rkr[o:o + nr], n + 1, cl, cr))
    return out


def build_trees(groups: Sequence[Sequence[object]], vocab: Vocabulary) -> List[List[FlatTree]]:
    """:func:`build_tree` of every item of every group, groups kept (dependency
    sentences go through :func:`dependency_trees`, so a large corpus is built
    in one compiled pass; label ids are assigned in item order either way).
    """
    items = [x for g in groups for x in g]
    if len(items) >= BATCH_MIN and all(isinstance(x, DepSentence) for x in items):
        flat = dependency_trees(items, vocab)  # type: ignore[arg-type]
    else:
        flat = [build_tree(x, vocab) for x in items]
    out: List[List[FlatTree]] = []
    k = 0
    for g in groups:
        out.append(flat[k:k + len(g)])
        k += len(g)
    return out


def phrase_tree(sent: PhraseSentence, vocab: Vocabulary) -> FlatTree:
    """The delexicalised bracketing as an ordered labelled tree; |t| = leaves.

    docs/method.md §2.2–2.3.

    Parameters
    ----------
    sent : PhraseSentence
    vocab : Vocabulary
        Label ids; new categories are added.
    """
    children: List[List[int]] = []
    node_labels: List[int] = []
    # preorder numbering with an explicit stack (brackets nest arbitrarily deep)
    stack: List[Tuple[PhraseNode, int]] = [(sent.root, -1)]
    while stack:
        node, parent = stack.pop()
        idx = len(children)
        children.append([])
        node_labels.append(vocab.id(node.label))
        if parent >= 0:
            children[parent].append(idx)
        stack.extend((c, idx) for c in reversed(node.children))
    leaves = sum(1 for c in children if not c)
    return flat_tree(children, node_labels, size=leaves)


def build_tree(sent, vocab: Vocabulary) -> FlatTree:
    """The `FlatTree` of a dependency or phrase-structure sentence.

    Parameters
    ----------
    sent : DepSentence or PhraseSentence
    vocab : Vocabulary

    Raises
    ------
    TypeError
        Any other type.
    """
    if isinstance(sent, DepSentence):
        return dependency_tree(sent, vocab)
    if isinstance(sent, PhraseSentence):
        return phrase_tree(sent, vocab)
    raise TypeError(f"cannot build a tree from {type(sent).__name__}")


def to_zss(tree: FlatTree, vocab: Vocabulary):
    """The same tree as a ``zss.Node`` graph (for reference checks only).

    Parameters
    ----------
    tree : FlatTree
    vocab : Vocabulary
        The vocabulary the tree's label ids come from.

    Returns
    -------
    zss.Node
    """
    from zss import Node

    stack: List[List] = []  # open subtrees as (lml, node)
    for k in range(tree.n_nodes):
        node = Node(vocab.labels[int(tree.labels[k])])
        # children are the finished subtrees on the stack whose lml >= lml[k]
        kids = []
        while stack and stack[-1][0] >= int(tree.lml[k]):
            kids.append(stack.pop()[1])
        for kid in reversed(kids):
            node.addkid(kid)
        stack.append([int(tree.lml[k]), node])
    assert len(stack) == 1
    return stack[0][1]
