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

Label ids come from one :class:`Vocabulary` per corpus.  Id 0 is always the
empty label ``""`` of the artificial root: under zss it costs 0 to insert or
delete (docs/method.md §3), and the kernels reproduce that through per-label costs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from synagree.io.brackets import PhraseNode, PhraseSentence
from synagree.io.conllu import DepSentence

ROOT_LABEL = ""


class Vocabulary:
    """Label string ↔ dense integer id; id 0 is the root label ``""``."""

    def __init__(self, labels: Iterable[str] = ()):
        self._ids: Dict[str, int] = {ROOT_LABEL: 0}
        self.labels: List[str] = [ROOT_LABEL]
        for lab in labels:
            self.id(lab)

    def id(self, label: str) -> int:
        i = self._ids.get(label)
        if i is None:
            i = len(self.labels)
            self._ids[label] = i
            self.labels.append(label)
        return i

    def get(self, label: str) -> Optional[int]:
        return self._ids.get(label)

    def __len__(self) -> int:
        return len(self.labels)

    def __contains__(self, label: str) -> bool:
        return label in self._ids


@dataclass(frozen=True)
class FlatTree:
    """One ordered labelled tree in postorder arrays, both orientations."""

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
        return int(self.labels.shape[0])

    def key(self) -> bytes:
        """Identity of the labelled shape and |t|: equal keys ⇒ all distances equal."""
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
    """Build a :class:`FlatTree` from child lists (in order) and label ids per node.

    One depth-first walk gives every node's preorder position p, depth d and
    subtree size s; then one pass over the nodes places them in both
    orientations (this runs once per tree read: half the time of two
    postorder walks):

    * postorder position = p − d + s − 1, leftmost leaf = that − s + 1;
    * the mirrored tree's postorder is the reversed preorder: n − 1 − p;
    * keyroots are the root and every node that is not its parent's first
      child (last child, for the mirrored tree): the highest node of each
      leftmost leaf.

    Only nodes reachable from ``root`` are nodes (:func:`_postorder_arrays`
    gives the same arrays by walking the tree twice).
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


def dependency_tree(sent: DepSentence, vocab: Vocabulary) -> FlatTree:
    """ε(root) with each word under its HEAD, siblings by word ID (docs/method.md §2).

    Words not reachable from the root (head cycles) are not nodes; |t| still
    counts every word (+1 for the root), as the reference implementation did.
    """
    n = sent.n_words
    children: List[List[int]] = [[] for _ in range(n + 1)]
    for i, h in enumerate(sent.heads.tolist(), start=1):
        children[h].append(i)
    # children lists of unreachable words are never visited from the root
    node_labels = [0] + [vocab.id(d) for d in sent.deprels]
    return flat_tree(children, node_labels, size=n + 1)


def phrase_tree(sent: PhraseSentence, vocab: Vocabulary) -> FlatTree:
    """The delexicalised bracketing as an ordered labelled tree; |t| = leaves."""
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
    if isinstance(sent, DepSentence):
        return dependency_tree(sent, vocab)
    if isinstance(sent, PhraseSentence):
        return phrase_tree(sent, vocab)
    raise TypeError(f"cannot build a tree from {type(sent).__name__}")


def to_zss(tree: FlatTree, vocab: Vocabulary):
    """The same tree as a ``zss.Node`` graph (for reference checks only)."""
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
