"""Random gold/system pairs of Penn-style trees for the EVALB oracle tests.

Written without synagree.  `random_pair` draws a realistic gold tree (function
tags, ``-NONE-`` traces, punctuation and quotes, ``PRT``, ``TOP``/``( (S
...))``/``S1`` wrappers, sentences of 3 to 60 words) and a system tree that a
parser might have produced from it: phrases relabelled, flattened or added,
brackets moved across a boundary (crossings), unary duplicates (the multiset
counting), POS tags changed, traces and function tags dropped, quotes and
punctuation retagged (the 2006 length fix), now and then a word changed, a
word dropped or added, or an empty line (EVALB's error and skip sentences).
Each tree is printed on one line, as EVALB reads them.
"""
from __future__ import annotations

import random
from typing import List, Optional, Tuple, Union

Node = list  # [label, child, ...]; a preterminal is [tag, word] with word a str

PHRASES = ["NP", "VP", "PP", "ADJP", "ADVP", "SBAR", "S", "QP", "WHNP", "PRN", "UCP",
           "PRT", "NX", "FRAG", "SINV"]
FUNCTIONS = ["SBJ", "TMP", "LOC", "PRD", "CLR", "DIR", "ADV", "1", "2"]
TAGS = ["NN", "NNS", "NNP", "DT", "JJ", "VB", "VBD", "VBZ", "VBN", "IN", "PRP", "RB",
        "CC", "CD", "TO", "MD", "RP", "WDT", "JJR", "POS"]
WORDS = ["the", "cat", "dogs", "sat", "on", "a", "mat", "John", "saw", "her", "quickly",
         "and", "in", "Paris", "three", "million", "shares", "rose", "to", "will", "up",
         "which", "bigger", "é", "naïve", "O'Brien", "it", "'s", "%", "$"]
PUNCT = [(",", ","), (".", "."), (":", ";"), (":", "--"), ("``", "``"), ("''", "''"),
         (".", "?"), (".", "!"), ("-LRB-", "-LRB-"), ("-RRB-", "-RRB-"), ("#", "#")]
QUOTES = [("POS", "'"), ("''", "'"), ("``", "'"), ("''", '"'), ("``", '"'), ("POS", "'"),
          ("CD", "/"), (":", "/"), ("NN", "'"), ("VBZ", "'")]
PUNCT_TAGS = {t for t, _ in PUNCT} | {"-NONE-"}
TRACES = ["*", "*T*-1", "*U*", "0", "*-2", "*?*", "*EXP*-1"]


def _leaf(rng: random.Random) -> Node:
    r = rng.random()
    if r < 0.10:
        return list(rng.choice(PUNCT))
    if r < 0.15:
        return list(rng.choice(QUOTES))
    if r < 0.20:
        return ["-NONE-", rng.choice(TRACES)]
    return [rng.choice(TAGS), rng.choice(WORDS)]


def _label(rng: random.Random) -> str:
    lab = rng.choice(PHRASES)
    if rng.random() < 0.25:
        lab += rng.choice("-=") + rng.choice(FUNCTIONS)
        if rng.random() < 0.2:
            lab += "-" + rng.choice(FUNCTIONS)
    return lab


def _phrase(rng: random.Random, n: int, depth: int) -> Node:
    """A phrase over about ``n`` leaves."""
    node: Node = [_label(rng)]
    if n <= 1 or depth > 7:
        for _ in range(max(1, n)):
            node.append(_leaf(rng))
        return node
    k = rng.randint(1, min(4, n))
    cuts = sorted(rng.sample(range(1, n), k - 1)) if k > 1 else []
    prev = 0
    for c in cuts + [n]:
        size = c - prev
        prev = c
        if size == 1 and rng.random() < 0.6:
            node.append(_leaf(rng))
        else:
            node.append(_phrase(rng, size, depth + 1))
    if rng.random() < 0.05:  # a phrase of traces only (deleted with them)
        node.append(["NP-SBJ", ["-NONE-", "*"]])
    if rng.random() < 0.04:  # a unary duplicate: (NP (NP ...)) counts twice
        node = [node[0], node]
    return node


def random_gold(rng: random.Random) -> Node:
    """A gold tree with its wrapper."""
    n = rng.choice([rng.randint(1, 12), rng.randint(5, 30), rng.randint(35, 60)])
    s = _phrase(rng, n, 0)
    s[0] = rng.choice(["S", "S", "SINV", "FRAG", "S-TPC-1"])
    if rng.random() < 0.7:
        s.append([".", "."])
    r = rng.random()
    if r < 0.45:
        return ["TOP", s]
    if r < 0.8:
        return ["", s]
    if r < 0.9:
        return ["S1", s]
    return s


def show(node: Union[Node, str]) -> str:
    """One line of brackets; ``( (S ...))`` for the empty label."""
    if isinstance(node, str):
        return node
    if len(node) == 2 and isinstance(node[1], str):
        return f"({node[0]} {node[1]})"
    return "(" + node[0] + " " + " ".join(show(c) for c in node[1:]) + ")"


def _phrases(node: Node, out: Optional[List[Tuple[Node, Node, int]]] = None,
             parent: Optional[Node] = None, index: int = 0) -> List[Tuple[Node, Node, int]]:
    """Every (phrase, parent, index in parent) below the root."""
    if out is None:
        out = []
    for i, c in enumerate(node[1:], start=1):
        if isinstance(c, list) and not (len(c) == 2 and isinstance(c[1], str)):
            out.append((c, node, i))
            _phrases(c, out, node, i)
    return out


def _leaves(node: Node, out: Optional[List[Tuple[Node, int]]] = None
            ) -> List[Tuple[Node, int]]:
    """Every (parent, index) of a preterminal."""
    if out is None:
        out = []
    for i, c in enumerate(node[1:], start=1):
        if isinstance(c, list):
            if len(c) == 2 and isinstance(c[1], str):
                out.append((node, i))
            else:
                _leaves(c, out)
    return out


def _copy(node):
    return [node[0]] + [c if isinstance(c, str) else _copy(c) for c in node[1:]]


def perturb(gold: Node, rng: random.Random, errors: float = 0.03) -> Optional[Node]:
    """A system tree from ``gold`` (None: the parser failed, an empty line)."""
    t = _copy(gold)
    if rng.random() < errors / 3:
        return None
    for _ in range(rng.choice([0, 0, 1, 2, 3, 5, 8])):
        ph = _phrases(t)
        r = rng.random()
        if not ph:
            break
        node, parent, i = rng.choice(ph)
        if r < 0.12:  # relabel
            node[0] = rng.choice(PHRASES + ["ADVP", "PRT"])
        elif r < 0.24:  # flatten
            parent[i:i + 1] = node[1:]
        elif r < 0.34:  # add a bracket over some children
            if len(node) > 3:
                a = rng.randint(1, len(node) - 2)
                b = rng.randint(a + 1, len(node) - 1)
                node[a:b + 1] = [[rng.choice(PHRASES)] + node[a:b + 1]]
        elif r < 0.62:  # move a boundary: (A x y) z -> (A x) (B y z), a crossing
            if i + 1 < len(parent) and len(node) > 2:
                last = node.pop()
                nxt = parent[i + 1]
                parent[i + 1] = [rng.choice(PHRASES), last, nxt]
        elif r < 0.67:  # unary duplicate
            parent[i] = [node[0], node]
        elif r < 0.72:  # strip function tags
            for p, _, _ in _phrases(t):
                p[0] = p[0].split("-")[0].split("=")[0] or p[0]
        elif r < 0.78:  # drop traces, as parsers do
            for par, k in reversed(_leaves(t)):
                if par[k][0] == "-NONE-" and len(par) > 2:
                    del par[k]
        else:  # retag
            lv = _leaves(t)
            if lv:
                par, k = rng.choice(lv)
                leaf = par[k]
                if leaf[0] in PUNCT_TAGS and rng.random() < 0.9:
                    continue  # parsers rarely mistag punctuation
                if leaf[1] in ("'", '"', "/"):
                    leaf[0] = rng.choice(["POS", "''", "``", "CD", ":", "NN", "VBZ"])
                elif rng.random() < 0.03:
                    leaf[0] = rng.choice([",", ".", ":", "``", "''"])
                else:
                    leaf[0] = rng.choice(TAGS)
    lv = _leaves(t)
    if lv and rng.random() < errors:  # a word changed: Words unmatch
        par, k = rng.choice(lv)
        par[k][1] = par[k][1] + "x"
    if lv and rng.random() < errors:  # a word dropped or added: Length unmatch
        par, k = rng.choice(lv)
        if rng.random() < 0.5 and len(par) > 2:
            del par[k]
        else:
            par.insert(k, [rng.choice(TAGS), rng.choice(WORDS)])
    return t


def random_pair(rng: random.Random, errors: float = 0.03) -> Tuple[str, str]:
    """One (gold line, system line)."""
    g = random_gold(rng)
    t = perturb(g, rng, errors)
    return show(g), "" if t is None else show(t)


def random_files(seed: int, n: int, errors: float = 0.03) -> Tuple[str, str]:
    """``n`` pairs as the texts of a gold and a system file."""
    rng = random.Random(seed)
    pairs = [random_pair(rng, errors) for _ in range(n)]
    return ("".join(g + "\n" for g, _ in pairs), "".join(t + "\n" for _, t in pairs))
