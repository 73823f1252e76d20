"""Phrase-structure graphs with discontinuous constituents (TIGER-XML, NEGRA) as trees.

TIGER-XML and NEGRA export give each node its parent; a constituent's
terminals need not be adjacent (German ``Who ... likes``).  The tree edit
distance compares ordered trees, so the children of every node are put in
the order of their **first terminal** (the leftmost word each dominates),
ties impossible since a word has one parent (docs/method.md §1.11).  The
leaves are the part-of-speech tags (the words dropped, as for Penn-style
bracketed trees); the words stay in sentence order (the text check), and
`synagree.io.brackets.PhraseSentence.leaf_order` records where each leaf's
word stands.  Secondary edges are not part of the tree and are left out.
Edge labels (grammatical functions) are not part of the node labels: a
constituent is its category, as in a bracketed tree without function tags.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence

from synagree.base.problems import ProblemLog, quote
from synagree.io.brackets import PhraseNode, PhraseSentence

__all__ = ["Terminal", "NonTerminal", "build_sentence", "VROOT"]

#: the label of the virtual root above a NEGRA sentence's top nodes (parent 0)
VROOT = "VROOT"


@dataclass(frozen=True)
class Terminal:
    """A word: its form, tag, parent node id (None: the root) and file line."""

    word: str
    tag: str
    parent: Optional[str]
    line: int


@dataclass(frozen=True)
class NonTerminal:
    """A constituent: its category, parent node id (None: the root) and file line."""

    label: str
    parent: Optional[str]
    line: int


def build_sentence(fname: str, index: int, line: int, terminals: Sequence[Terminal],
                   nonterminals: Dict[str, NonTerminal], root: Optional[str],
                   log: ProblemLog, sent_id: Optional[str] = None) -> Optional[PhraseSentence]:
    r"""One sentence's nodes as a `PhraseSentence` ordered by first terminals.

    Parameters
    ----------
    fname, index, line : str, int, int
        Where the sentence was read (messages, `PhraseSentence` fields).
    terminals : sequence of Terminal
        In sentence order; a terminal's ``parent`` names a non-terminal.
    nonterminals : dict of str to NonTerminal
        By node id.
    root : str or None
        The root node's id (TIGER's ``graph root``); None: the top nodes
        (parent None) hang from a virtual root labelled `VROOT` (NEGRA's
        node 0, as TIGER's own VROOT).
    log : ProblemLog
        Receives ``bad-parent`` (a parent id that is no non-terminal),
        ``discontinuous-cycle`` (a node above itself), ``unattached-node`` (a
        node the root does not dominate) and ``empty-tree``.
    sent_id : str, optional
        Kept in the metadata.

    Returns
    -------
    PhraseSentence or None
        None when the sentence has errors (in ``log``).
    """
    n_before = len(log.errors)
    if not terminals:
        log.add(fname, line, "empty-tree", "sentence has no words", sent_id=sent_id)
        return None
    kids: Dict[Optional[str], List[str]] = {}
    parent: Dict[str, Optional[str]] = {}
    for i, t in enumerate(terminals):
        parent[f"t{i}"] = t.parent
    for nid, nt in nonterminals.items():
        parent[f"n{nid}"] = nt.parent
    for key, par in parent.items():
        if par is not None and par not in nonterminals:
            where = terminals[int(key[1:])].line if key[0] == "t" else nonterminals[key[1:]].line
            log.add(fname, where, "bad-parent",
                    f"parent {quote(par)} is no constituent of the sentence", sent_id=sent_id)
            continue
        kids.setdefault(None if par is None else f"n{par}", []).append(key)
    if len(log.errors) > n_before:
        return None
    top = f"n{root}" if root is not None else None
    if root is not None and root not in nonterminals:
        log.add(fname, line, "bad-parent", f"root {quote(root)} is no constituent of the "
                f"sentence", sent_id=sent_id)
        return None
    first: Dict[str, int] = {f"t{i}": i for i in range(len(terminals))}
    node: Dict[str, PhraseNode] = {f"t{i}": PhraseNode(t.tag) for i, t in enumerate(terminals)}
    order = _postorder(top, kids, fname, line, log, sent_id)
    if order is None:
        return None
    for key in order:
        if key in node:
            continue
        children = sorted(kids.get(key, []), key=lambda k: first.get(k, len(terminals)))
        children = [c for c in children if c in node]
        if not children:
            continue  # a constituent without words is no node (NEGRA's empty #5xx)
        first[key] = first[children[0]]
        node[key] = PhraseNode(nonterminals[key[1:]].label, [node[c] for c in children])
    reached = set(order)
    missing = [k for k in parent if k not in reached]
    if missing:
        k = missing[0]
        where = terminals[int(k[1:])].line if k[0] == "t" else nonterminals[k[1:]].line
        log.add(fname, where, "unattached-node",
                f"{len(missing)} node(s) not under the root (the first: "
                f"{quote(terminals[int(k[1:])].word if k[0] == 't' else k[1:])})",
                sent_id=sent_id)
        return None
    if top is None:  # NEGRA: the top nodes hang from the virtual root, node 0
        tops = sorted((k for k in kids.get(None, []) if k in node), key=lambda k: first[k])
        root_node = PhraseNode(VROOT, [node[k] for k in tops])
    else:
        root_node = node[top]
    leaf_order = [first[f"t{i}"] for i in _leaf_keys(root_node, node, len(terminals))]
    return PhraseSentence(fname, index, line, root_node, [t.word for t in terminals],
                          {"sent_id": sent_id} if sent_id else {},
                          [] if leaf_order == sorted(leaf_order) else leaf_order)


def _leaf_keys(root: PhraseNode, node: Dict[str, PhraseNode], n: int) -> List[int]:
    """The terminal index of each leaf of ``root``, left to right."""
    index = {id(node[f"t{i}"]): i for i in range(n)}
    return [index[id(leaf)] for leaf in root.postorder() if not leaf.children]


def _postorder(top: Optional[str], kids: Dict[Optional[str], List[str]], fname: str,
               line: int, log: ProblemLog, sent_id: Optional[str]) -> Optional[List[str]]:
    """Node keys below ``top`` (None: the top nodes), children first; None on a cycle."""
    out: List[str] = []
    state: Dict[str, int] = {}  # 1: entered, 2: done
    starts = [top] if top is not None else list(kids.get(None, []))
    for start in starts:
        stack = [(start, False)]
        while stack:
            key, done = stack.pop()
            if done:
                state[key] = 2
                out.append(key)
                continue
            if state.get(key) == 2:
                continue
            if state.get(key) == 1:
                log.add(fname, line, "discontinuous-cycle",
                        f"node {quote(key[1:])} dominates itself", sent_id=sent_id)
                return None
            state[key] = 1
            stack.append((key, True))
            stack.extend((c, False) for c in kids.get(key, []))
    return out
