"""Synthetic noise for syntactic annotations (docs/method.md §8), and random baselines.

Dependency trees
----------------
`perturb` applies the paper's protocol to one `DepSentence`.
Words are visited in **post-order of the original tree** (children before
their head, siblings left to right, i.e. by word ID).  At each word:

1. **relabel**, with probability ``p_relabel``: the DEPREL becomes a label
   drawn uniformly from ``labels`` (the label set of the corpus).  The draw may
   give back the old label (``exclude_current_label=True`` draws from the
   other labels instead);
2. **reattach**, with probability ``p_reattach``: the HEAD becomes a token
   drawn uniformly from the tokens ``0..n`` (0 = the artificial root) that the
   word does **not** dominate in the tree *as it stands at that moment*
   (itself included among the dominated).  The draw may give back the old head
   (``exclude_current_head=True`` draws from the others instead).  Because
   the new head is never under the word, the result is always one tree rooted
   at 0: no cycle, every word reachable.  Several words may end up under the
   root (multi-root trees are ordinary input elsewhere in synagree).

``reattach_draw="reject"`` is the other reading of "a new head drawn at
random": the candidate is drawn uniformly from *all* tokens ``0..n`` (the
word itself included) and, when it is the word or a token it dominates (so
that attaching would make a cycle), the word keeps its head.  It also always
gives a tree, but keeps the old head far more often: on NDT it gives the
published reattach-only LAS at p = 1 (≈ 23%, where the docs/method.md §8 draw, the
default ``"nondominated"``, gives ≈ 10%).  See ``experiments/README.md``.

`relabel` and `reattach` are the two halves alone; they are
*exactly* ``perturb(sent, p, 0, ...)`` and ``perturb(sent, 0, p, ...)``: the
same generator state gives the same output.

Randomness.  Every function takes a `numpy.random.Generator` and
draws from nothing else, so a result is reproducible from (input, seed,
probabilities).  One call draws one block ``rng.random((n, 4))`` up front;
row *k* belongs to the *k*-th word in visiting order: column 0 is the
relabel coin, 1 picks the label, 2 the reattach coin, 3 picks the head
(a choice among *m* candidates is ``floor(u·m)``, uniform up to float
resolution).  A coin "comes up" when ``u < p``, so ``p = 0`` never changes
anything (identity) and ``p = 1`` always draws.  Labels are picked from
``labels`` in the order given (duplicates removed), so pass a stable order
(e.g. sorted) to make runs comparable across machines.

Input with head cycles.  Reattachment needs a tree: "dominates" and
post-order are undefined for words on a cycle.  ``on_cycle="error"`` (the
default) raises `CycleError` naming the words; ``on_cycle="repair"``
first runs `repair_cycles`, which attaches the lowest-numbered word of
each cycle to the root (0), and perturbs the repaired tree.  `relabel`
touches no structure and accepts any input; it visits reachable words in
post-order, then words off the tree by ID.

Phrase structure (the paper's future work)
------------------------------------------
`perturb_phrase` visits every node of the original tree in post-order
(the root's children before the root, and so on).  At each node:

1. **relabel** (non-terminals only, root included), probability ``p_relabel``:
   a label drawn uniformly from ``labels`` (the corpus's non-terminal labels);
   leaves (preterminals / categories) keep their labels;
2. **move**, probability ``p_move``: the constituent (any non-root node,
   leaf or not) is detached from its parent and re-attached at a position
   drawn uniformly from all positions that keep the leaf sequence unchanged,
   other than the one it left.  Such a position is a gap between two
   children of a non-terminal ``Y`` (or before its first / after its last
   child) where the leaves just before and just after the gap are the
   neighbours of the constituent's span: raising the first (last) child of
   ``P`` to just before (after) ``P``, lowering it into the adjacent sibling
   as its last (first) child, and every chain of such steps.  ``Y`` is never
   inside the moved constituent (that would make a cycle) and never a leaf.
   A node that is the only child of its parent is not moved (its parent would
   become a leaf, changing the leaves).

The result is always a well-formed tree over the same leaves in the same
order; non-terminals never become leaves and leaves never gain children.

Random baselines
----------------
`random_heads` draws a dependency tree uniformly from all
``(n+1)**(n-1)`` trees on the words ``1..n`` rooted at the artificial token 0
(any number of words may hang from 0; non-projective trees included).  It
decodes a uniform Prüfer sequence of length ``n-1`` over the ``n+1`` nodes
``{0..n}`` (Cayley's bijection: uniform over labelled trees on n+1 nodes) and
orients every edge away from node 0.  `random_tree` /
`random_sentence` add labels drawn uniformly from a label set.
"""
from __future__ import annotations

import heapq
from dataclasses import replace
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from synagree.io.brackets import PhraseNode, PhraseSentence
from synagree.io.conllu import DepSentence, Heads, head_cycles, unreachable_words
from synagree.io.formats import Sentence

__all__ = [
    "CycleError", "postorder", "repair_cycles", "is_tree",
    "perturb", "relabel", "reattach",
    "perturb_phrase", "relabel_phrase", "move_constituents", "nonterminal_labels",
    "random_heads", "random_tree", "random_sentence", "label_set", "perturb_any",
]


class CycleError(ValueError):
    """A dependency annotation has words not reachable from the root (a head cycle).

    A `ValueError`; raised by reattachment with ``on_cycle="error"``.

    Parameters
    ----------
    sent : DepSentence
    words : sequence of int
        The unreachable words (1-based).

    Attributes
    ----------
    sentence : DepSentence
    words : list of int
    """

    def __init__(self, sent: DepSentence, words: Sequence[int]):
        self.sentence = sent
        self.words = list(words)
        super().__init__(
            f"{sent.label_of()}: words {', '.join(map(str, self.words))} are on or under a "
            f"head cycle (not reachable from the root); reattachment needs a tree. "
            f"Use on_cycle='repair' (attach the lowest-numbered word of each cycle to the "
            f"root) or leave such sentences out")


# --------------------------------------------------------------------------
# Tree helpers
# --------------------------------------------------------------------------

def _children(heads: Sequence[int], n: int) -> List[List[int]]:
    ch: List[List[int]] = [[] for _ in range(n + 1)]
    for i, h in enumerate(heads, start=1):
        if 0 <= h <= n:
            ch[int(h)].append(i)
    return ch


def postorder(heads: Heads) -> Tuple[List[int], List[int]]:
    """The words reachable from the root in post-order, and the others by ID.

    Post-order: children before their head, siblings by word ID; the root 0
    itself is not listed (docs/method.md §8.2).

    Parameters
    ----------
    heads : sequence of int
        ``heads[i]``: the 1-based head of word ``i + 1`` (0 = root).
    """
    heads = [int(h) for h in heads]
    n = len(heads)
    ch = _children(heads, n)
    out: List[int] = []
    seen = [False] * (n + 1)
    seen[0] = True
    stack: List[Tuple[int, int]] = [(0, 0)]
    while stack:
        node, k = stack[-1]
        kids = ch[node]
        if k < len(kids):
            stack[-1] = (node, k + 1)
            c = kids[k]
            if not seen[c]:
                seen[c] = True
                stack.append((c, 0))
        else:
            stack.pop()
            if node:
                out.append(node)
    off = [i for i in range(1, n + 1) if not seen[i]]
    return out, off


def is_tree(heads: Heads) -> bool:
    """True when ``heads`` (1-based, 0 = root) is one tree: heads in range, no cycles."""
    n = len(heads)
    if any(h < 0 or h > n for h in (int(x) for x in heads)):
        return False
    return not unreachable_words(heads)


def repair_cycles(sent: DepSentence) -> Tuple[DepSentence, List[int]]:
    """Make a tree: the lowest-numbered word of every head cycle goes under the root.

    docs/method.md §8.5.

    Returns
    -------
    repaired : DepSentence
        The input itself when it has no cycle.
    moved : list of int
        The words re-attached to the root.
    """
    cycles = head_cycles(sent.heads)
    if not cycles:
        return sent, []
    heads = np.array(sent.heads, dtype=np.int32, copy=True)
    moved = sorted(min(c) for c in cycles)
    for w in moved:
        heads[w - 1] = 0
    return replace(sent, heads=heads), moved


def _as_labels(labels: Sequence[str]) -> List[str]:
    out = list(dict.fromkeys(labels))
    if not out:
        raise ValueError("the label set is empty")
    return out


def label_set(sentences: Sequence[DepSentence]) -> List[str]:
    """Sorted set of the DEPRELs used in ``sentences`` (the corpus label set)."""
    return sorted({d for s in sentences for d in s.deprels})


REATTACH_DRAWS = ("nondominated", "reject")


def _pick(u: float, m: int) -> int:
    k = int(u * m)
    return k if k < m else m - 1


def _draw_label(cur: str, labs: List[str], u: float, exclude_current: bool) -> str:
    """The label ``u`` picks uniformly from ``labs``; with ``exclude_current``, from
    the labels other than ``cur`` (``cur`` is kept when it is the only label)."""
    if exclude_current and cur in labs:
        if len(labs) == 1:
            return cur
        j = _pick(u, len(labs) - 1)
        return labs[j if labs.index(cur) > j else j + 1]
    return labs[_pick(u, len(labs))]


# --------------------------------------------------------------------------
# Dependency perturbation
# --------------------------------------------------------------------------

def perturb(sent: DepSentence, p_relabel: float, p_reattach: float,
            labels: Sequence[str], rng: np.random.Generator, *,
            exclude_current_label: bool = False, exclude_current_head: bool = False,
            on_cycle: str = "error", reattach_draw: str = "nondominated") -> DepSentence:
    """Relabel then reattach each word with the given probabilities (docs/method.md §8.2).

    See the module docstring for the visiting order, the random draws and the
    ``on_cycle`` policy.

    Parameters
    ----------
    sent : DepSentence
    p_relabel : float
        Probability, a fraction in [0, 1], that a word gets a label drawn
        uniformly from ``labels``.
    p_reattach : float
        Probability, in [0, 1], that a word gets a new head.
    labels : sequence of str
        The label set (the corpus's, in a stable order).
    rng : numpy.random.Generator
        The only source of randomness.
    exclude_current_label : bool
        Draw the new label from the other labels.
    exclude_current_head : bool
        Draw the new head from the other candidates.
    on_cycle : {"error", "repair"}
        Input with a head cycle: raise `CycleError`, or `repair_cycles` first.
    reattach_draw : {"nondominated", "reject"}
        ``nondominated`` (docs/method.md §8.2: uniform over the tokens the word
        does not dominate) or ``reject`` (uniform over all tokens, keeping the
        old head when the draw would make a cycle; docs/method.md §8.3).

    Returns
    -------
    DepSentence
        A new sentence, always a tree when reattaching; the input is not
        changed.

    Raises
    ------
    ValueError
        A probability outside [0, 1], an unknown option, or an empty label set
        with ``p_relabel > 0``.
    CycleError
        ``on_cycle="error"`` and the input has a head cycle (when reattaching).
    """
    for name, p in (("p_relabel", p_relabel), ("p_reattach", p_reattach)):
        if not 0.0 <= float(p) <= 1.0:
            raise ValueError(f"{name} must be in [0, 1], not {p!r}")
    if on_cycle not in ("error", "repair"):
        raise ValueError(f"on_cycle must be 'error' or 'repair', not {on_cycle!r}")
    if reattach_draw not in REATTACH_DRAWS:
        raise ValueError(f"reattach_draw must be one of {REATTACH_DRAWS}, not {reattach_draw!r}")
    labs = _as_labels(labels) if p_relabel > 0 else list(labels)
    n = sent.n_words
    order, off = postorder(sent.heads)
    if off:
        if p_reattach > 0:
            if on_cycle == "error":
                raise CycleError(sent, off)
            sent, _ = repair_cycles(sent)
            order, off = postorder(sent.heads)
        else:
            order = order + off  # relabel only: structure is never looked at
    heads = [int(h) for h in sent.heads]
    deprels = list(sent.deprels)
    if n == 0:
        return replace(sent, heads=np.array(heads, dtype=np.int32), deprels=deprels)
    u = rng.random((n, 4))
    if p_reattach > 0:
        ch = [set(c) for c in _children(heads, n)]
    for k, w in enumerate(order):
        row = u[k]
        if p_relabel > 0 and row[0] < p_relabel:
            deprels[w - 1] = _draw_label(deprels[w - 1], labs, row[1], exclude_current_label)
        if p_reattach > 0 and row[2] < p_reattach:
            # tokens dominated by w in the tree as it stands now
            dom = [False] * (n + 1)
            dom[w] = True
            stack = [w]
            while stack:
                for c in ch[stack.pop()]:
                    dom[c] = True
                    stack.append(c)
            old = heads[w - 1]
            if reattach_draw == "reject":
                new = _pick(row[3], n + 1)
                if dom[new] or (exclude_current_head and new == old):
                    continue  # would make a cycle: the word keeps its head
            else:
                cands = [t for t in range(n + 1)
                         if not dom[t] and not (exclude_current_head and t == old)]
                if not cands:
                    continue  # only possible with exclude_current_head and a single word
                new = cands[_pick(row[3], len(cands))]
            if new != old:
                ch[old].discard(w)
                ch[new].add(w)
                heads[w - 1] = new
    return replace(sent, heads=np.array(heads, dtype=np.int32), deprels=deprels)


def relabel(sent: DepSentence, p: float, labels: Sequence[str], rng: np.random.Generator,
            exclude_current: bool = False) -> DepSentence:
    """Each word, with probability ``p``, gets a label drawn uniformly from ``labels``.

    The drawn label may equal the old one unless ``exclude_current``.
    Same draws as ``perturb(sent, p, 0, labels, rng)``; accepts input with
    head cycles.

    Parameters
    ----------
    sent : DepSentence
    p : float
        A fraction in [0, 1].
    labels : sequence of str
    rng : numpy.random.Generator
    exclude_current : bool
    """
    return perturb(sent, p, 0.0, labels, rng, exclude_current_label=exclude_current)


def reattach(sent: DepSentence, p: float, rng: np.random.Generator,
             exclude_current: bool = False, on_cycle: str = "error",
             draw: str = "nondominated") -> DepSentence:
    """Each word, with probability ``p``, gets a head it does not dominate.

    Words are visited in post-order of the original tree; the head is drawn
    uniformly from the tokens (root 0 included) the word does not dominate in
    the tree as it stands, so the result is always a tree.  Same draws as
    ``perturb(sent, 0, p, labels, rng)``.

    Parameters
    ----------
    sent : DepSentence
    p : float
        A fraction in [0, 1].
    rng : numpy.random.Generator
    exclude_current : bool
        Draw from the candidates other than the current head.
    on_cycle : {"error", "repair"}
    draw : {"nondominated", "reject"}
        See `perturb` (``reattach_draw``).

    Raises
    ------
    CycleError
        ``on_cycle="error"`` and the input has a head cycle.
    """
    return perturb(sent, 0.0, p, (), rng, exclude_current_head=exclude_current,
                   on_cycle=on_cycle, reattach_draw=draw)


# --------------------------------------------------------------------------
# Uniform random dependency trees
# --------------------------------------------------------------------------

def _prufer_decode(seq: Sequence[int], n_nodes: int) -> List[Tuple[int, int]]:
    degree = [1] * n_nodes
    for x in seq:
        degree[x] += 1
    leaves = [i for i in range(n_nodes) if degree[i] == 1]
    heapq.heapify(leaves)
    edges = []
    for x in seq:
        leaf = heapq.heappop(leaves)
        edges.append((leaf, x))
        degree[x] -= 1
        if degree[x] == 1:
            heapq.heappush(leaves, x)
    a = heapq.heappop(leaves)
    b = heapq.heappop(leaves)
    edges.append((a, b))
    return edges


def random_heads(n: int, rng: np.random.Generator) -> np.ndarray:
    """HEAD array of a dependency tree drawn uniformly over all rooted trees on n words.

    The root is token 0: a uniform Prüfer sequence over nodes {0..n}, decoded
    and oriented away from 0.  There are (n+1)**(n-1) such trees
    (docs/method.md §8.4).

    Parameters
    ----------
    n : int
        Words.
    rng : numpy.random.Generator

    Returns
    -------
    numpy.ndarray
        int32 (n,), 1-based heads.

    Raises
    ------
    ValueError
        ``n < 0``.
    """
    if n < 0:
        raise ValueError("n must be >= 0")
    if n == 0:
        return np.zeros(0, dtype=np.int32)
    seq = rng.integers(0, n + 1, size=n - 1).tolist() if n > 1 else []
    edges = _prufer_decode(seq, n + 1)
    adj: List[List[int]] = [[] for _ in range(n + 1)]
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    heads = np.zeros(n, dtype=np.int32)
    seen = [False] * (n + 1)
    seen[0] = True
    stack = [0]
    while stack:
        v = stack.pop()
        for c in adj[v]:
            if not seen[c]:
                seen[c] = True
                heads[c - 1] = v
                stack.append(c)
    return heads


def random_tree(n: int, labels: Sequence[str],
                rng: np.random.Generator) -> Tuple[np.ndarray, List[str]]:
    """A uniform random tree (`random_heads`) and n labels drawn uniformly."""
    labs = _as_labels(labels)
    heads = random_heads(n, rng)
    ids = rng.integers(0, len(labs), size=n)
    return heads, [labs[int(i)] for i in ids]


def random_sentence(sent: DepSentence, labels: Sequence[str],
                    rng: np.random.Generator) -> DepSentence:
    """``sent`` with its tree replaced by a uniform random tree with uniform labels.

    Returns
    -------
    DepSentence
        The same words, metadata and columns; new heads and DEPRELs.
    """
    heads, deprels = random_tree(sent.n_words, labels, rng)
    return replace(sent, heads=heads, deprels=deprels)


# --------------------------------------------------------------------------
# Phrase-structure perturbation
# --------------------------------------------------------------------------

class _MTree:
    """Mutable ordered tree: node 0 is the root; ids in preorder of the input."""

    def __init__(self, root: PhraseNode):
        self.labels: List[str] = []
        self.children: List[List[int]] = []
        self.parent: List[int] = []
        stack = [(root, -1)]
        while stack:
            node, par = stack.pop()
            idx = len(self.labels)
            self.labels.append(node.label)
            self.children.append([])
            self.parent.append(par)
            if par >= 0:
                self.children[par].append(idx)
            for c in reversed(node.children):
                stack.append((c, idx))
        # the stack pushes children reversed, so ids are preorder and each
        # parent's children list is already in left-to-right order
        self.is_leaf = [not c for c in self.children]
        self.leaf_index: Dict[int, int] = {}
        for v in self.postorder():
            if self.is_leaf[v]:
                self.leaf_index[v] = len(self.leaf_index)

    def postorder(self) -> List[int]:
        out: List[int] = []
        stack = [(0, 0)]
        while stack:
            v, k = stack[-1]
            if k < len(self.children[v]):
                stack[-1] = (v, k + 1)
                stack.append((self.children[v][k], 0))
            else:
                stack.pop()
                out.append(v)
        return out

    def spans(self) -> Tuple[Dict[int, int], Dict[int, int]]:
        """First and last leaf index of every node reachable from the root."""
        first: Dict[int, int] = {}
        last: Dict[int, int] = {}
        for v in self.postorder():
            if self.is_leaf[v]:
                first[v] = last[v] = self.leaf_index[v]
            else:
                first[v] = first[self.children[v][0]]
                last[v] = last[self.children[v][-1]]
        return first, last

    def to_node(self) -> PhraseNode:
        """The tree (from the root) as PhraseNodes, built without recursion."""
        nodes = {u: PhraseNode(self.labels[u]) for u in self.postorder()}
        for u, node in nodes.items():
            node.children = [nodes[c] for c in self.children[u]]
        return nodes[0]

    def detach(self, x: int) -> Optional[Tuple[int, int, int, int]]:
        """Take x out of its parent; (parent, position, first leaf, last leaf) or None
        when x is the root or an only child (not movable)."""
        par = self.parent[x]
        if par < 0 or len(self.children[par]) < 2:
            return None
        first, last = self.spans()
        pos = self.children[par].index(x)
        del self.children[par][pos]
        return par, pos, first[x], last[x]

    def gaps(self, s: int, e: int) -> List[Tuple[int, int]]:
        """Positions (node, child index) where a detached constituent spanning leaves
        s..e can be inserted with the leaf order unchanged, sorted."""
        first, last = self.spans()
        out: List[Tuple[int, int]] = []
        for y in first:  # every node still in the tree
            if self.is_leaf[y]:
                continue
            ch = self.children[y]
            for k in range(len(ch) + 1):
                if k > 0 and last[ch[k - 1]] != s - 1:
                    continue
                if k < len(ch) and first[ch[k]] != e + 1:
                    continue
                out.append((y, k))
        out.sort()
        return out

    def move_candidates(self, x: int) -> List[Tuple[int, int]]:
        """Every other leaf-order-preserving position of x (the tree is left as it was)."""
        d = self.detach(x)
        if d is None:
            return []
        par, pos, s, e = d
        cands = [g for g in self.gaps(s, e) if g != (par, pos)]
        self.children[par].insert(pos, x)
        return cands

    def move(self, x: int, u: float) -> bool:
        """Move node x to a uniformly drawn other leaf-order-preserving position."""
        cands = self.move_candidates(x)
        if not cands:
            return False
        y, k = cands[_pick(u, len(cands))]  # positions as counted with x detached
        self.children[self.parent[x]].remove(x)
        self.children[y].insert(k, x)
        self.parent[x] = y
        return True


def nonterminal_labels(sentences: Sequence[PhraseSentence]) -> List[str]:
    """Sorted set of the labels of non-terminal (internal) nodes."""
    out = set()
    for s in sentences:
        stack = [s.root]
        while stack:
            node = stack.pop()
            if node.children:
                out.add(node.label)
                stack.extend(node.children)
    return sorted(out)


def perturb_phrase(sent: PhraseSentence, p_relabel: float, p_move: float,
                   labels: Sequence[str], rng: np.random.Generator, *,
                   exclude_current_label: bool = False) -> PhraseSentence:
    """Relabel non-terminals and move constituents (docs/method.md §8.6).

    Nodes are visited in post-order of the original tree; one block
    ``rng.random((nodes, 4))`` is drawn up front (relabel coin, label pick,
    move coin, position pick).  Leaves and their order never change (see the
    module docstring).

    Parameters
    ----------
    sent : PhraseSentence
    p_relabel : float
        Probability, in [0, 1], that a non-terminal gets a label drawn
        uniformly from ``labels``.
    p_move : float
        Probability, in [0, 1], that a constituent moves to another position
        that keeps the leaf order.
    labels : sequence of str
        Non-terminal labels (`nonterminal_labels`).
    rng : numpy.random.Generator
    exclude_current_label : bool

    Raises
    ------
    ValueError
        A probability outside [0, 1], or an empty label set with
        ``p_relabel > 0``.
    """
    for name, p in (("p_relabel", p_relabel), ("p_move", p_move)):
        if not 0.0 <= float(p) <= 1.0:
            raise ValueError(f"{name} must be in [0, 1], not {p!r}")
    labs = _as_labels(labels) if p_relabel > 0 else []
    t = _MTree(sent.root)
    order = t.postorder()
    u = rng.random((len(order), 4))
    for k, v in enumerate(order):
        row = u[k]
        if p_relabel > 0 and not t.is_leaf[v] and row[0] < p_relabel:
            t.labels[v] = _draw_label(t.labels[v], labs, row[1], exclude_current_label)
        if p_move > 0 and row[2] < p_move:
            t.move(v, row[3])
    return replace(sent, root=t.to_node())


def relabel_phrase(sent: PhraseSentence, p: float, labels: Sequence[str],
                   rng: np.random.Generator, exclude_current: bool = False) -> PhraseSentence:
    """Each non-terminal, with probability p, gets a label drawn uniformly from ``labels``."""
    return perturb_phrase(sent, p, 0.0, labels, rng, exclude_current_label=exclude_current)


def move_constituents(sent: PhraseSentence, p: float,
                      rng: np.random.Generator) -> PhraseSentence:
    """Each constituent, with probability p, moves to another leaf-order-preserving position.

    Raising and lowering within its span; an only child is not moved.
    """
    return perturb_phrase(sent, 0.0, p, (), rng)


# --------------------------------------------------------------------------
# Dispatch
# --------------------------------------------------------------------------


def perturb_any(sent: Sentence, p_relabel: float, p_structure: float,
                labels: Sequence[str], rng: np.random.Generator, *,
                exclude_current_label: bool = False, exclude_current_head: bool = False,
                on_cycle: str = "error", reattach_draw: str = "nondominated") -> Sentence:
    """`perturb` for dependency trees, `perturb_phrase` for phrase trees.

    ``p_structure`` is the reattach or the move probability; the head options
    apply to dependency trees only.

    Parameters
    ----------
    sent : DepSentence or PhraseSentence
    p_relabel, p_structure : float
    labels : sequence of str
    rng : numpy.random.Generator
    exclude_current_label, exclude_current_head : bool
    on_cycle : {"error", "repair"}
    reattach_draw : {"nondominated", "reject"}

    Raises
    ------
    TypeError
        Any other sentence type.
    """
    if isinstance(sent, DepSentence):
        return perturb(sent, p_relabel, p_structure, labels, rng,
                       exclude_current_label=exclude_current_label,
                       exclude_current_head=exclude_current_head, on_cycle=on_cycle,
                       reattach_draw=reattach_draw)
    if isinstance(sent, PhraseSentence):
        return perturb_phrase(sent, p_relabel, p_structure, labels, rng,
                              exclude_current_label=exclude_current_label)
    raise TypeError(f"cannot perturb {type(sent).__name__}")
