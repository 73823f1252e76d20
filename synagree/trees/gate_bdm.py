r"""GATE's balanced distance metric (BDM) between the concepts of a hierarchy (docs/method.md §23).

Maynard, Peters & Li (2006) define, for a key concept and a response
concept of an ontology::

    BDM = BR·(CP/n0) / (BR·(CP/n0) + DPK/n1 + DPR/n2)

This module computes it exactly as GATE's BDM plugin does
(``gate.bdmComp.BDMCompMain`` / ``BDMTool.computeBDMStatic`` in GateNLP's
``Ontology_BDM_Computation``), in Java ``float`` arithmetic (IEEE single
precision, the same operations in the same order), and writes GATE's score
file line for line (`BDMScore.gate_line`).

Definitions (GATE's)
====================

Concepts and top classes
    A `ConceptGraph`: concepts with zero or more parents.  A concept
    without a parent is a *top class*; a concept without children a *leaf*.
Chains
    A *chain* runs from a concept up through its parents to a top class; a
    concept with several parents has one chain per path.  Lengths count
    edges (a top class's own chain has length 0).
n0
    The mean length of all leaf chains (every chain of every leaf).
n1, n2
    For the key (n1) and the response (n2): the mean length of the leaf
    chains that pass through that concept.
CP, DPK, DPR and the MSCA
    For one chain of each concept that end in the same top class, the most
    specific common ancestor (MSCA) is the lowest concept the two chains
    share from the top down; CP counts the edges from the top class down to
    it, DPK and DPR the edges from it down to the key and to the response.
    An MSCA that is a top class gives CP = 0, so BDM = 0.
BR (``bran``)
    The mean number of direct subconcepts over the MSCA and the concepts
    strictly between it and each of the two concepts, divided by the mean
    number of direct subconcepts over all non-leaf concepts.
Several chain pairs
    The pair of chains with the highest BDM wins (the first in file order on
    a tie), with its CP, DPK, DPR, BR and MSCA.  Concepts whose chains share
    no top class print ``cp=-1``, BDM 0, ``bran=1.0`` and no MSCA (GATE
    writes `` no MSCA! `` there).
A concept with itself
    BDM 1, MSCA itself, CP the length of its shortest chain, DPK = DPR = 0,
    n1 = n2 = BR = 1.

Where this differs from GATE's code
===================================

Only with several parents, and only where GATE's own result depends on the
iteration order of Java hash sets: GATE keeps the values of the *last* chain
pair without a shared top class even after a better pair (so the result
depends on that order), and prints the MSCA of the last chain pair with a
shared top class rather than of the winning one.  Here the best pair wins,
with its own MSCA; for a tree (one parent each) every value is GATE's.
Concepts are numbered in file order (GATE: hash-set order), and the key of
a pair is the later concept, as in GATE, so the single-precision sums are
taken in GATE's order for that numbering.

Examples
--------
>>> g = ConceptGraph.from_parents({"Object": [], "Service": ["Object"], "Agent": ["Object"],
...                                "Person": ["Agent"], "Robot": ["Agent"]})
>>> bdm = GateBDM(g)
>>> s = bdm.score("Person", "Service")
>>> s.msca, s.cp, s.dpk, s.dpr, round(s.bdm, 4)
('Object', 0, 2, 1, 0.0)
>>> print(bdm.score("Person", "Robot").gate_line())  # doctest: +NORMALIZE_WHITESPACE
key=Robot, response=Person, bdm=0.375, msca=Agent, cp=1, dpk=1, dpr=1, n0=1.6666666,
n1=2.0, n2=2.0, bran=1.0
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from synagree.base.memory import check_memory
from synagree.base.problems import InputError
from synagree.base.progress import Progress, wanted
from synagree.io.sources import Source
from synagree.trees.hierarchy import Hierarchy, hierarchy_lines

__all__ = ["ConceptGraph", "BDMScore", "GateBDM", "java_float_str", "gate_bdm_from_parameters",
           "GATE_HEADER", "BDMWork", "bdm_work", "check_bdm_work", "MAX_BDM_STEPS",
           "MAX_BDM_PAIRS"]

#: The most work `GateBDM` takes on: chain pairs compared, counted with their lengths
#: (`bdm_work`); some seconds in Python (docs/method.md §23).
MAX_BDM_STEPS = 5 * 10**7
#: The most pairs of concepts (lines of the score file) `GateBDM` writes: each takes
#: 0.05-0.2 ms, so 2,000 concepts take one to a few minutes (with a progress bar).
MAX_BDM_PAIRS = 2_000_000

#: The first line of GATE's BDM score file (GATE's IAA plugin skips it when reading).
GATE_HEADER = ("##The following are the BDM scores for each pair of concepts in the "
               "ontology named {name}.")

_f32 = np.float32
Chain = Tuple[int, ...]  # concept indices, from the concept up to a top class


# ---------------------------------------------------------------- Java float text
def java_float_str(value: float) -> str:
    """``Float.toString`` of Java (JDK 19 and later) for a single-precision value.

    The shortest decimal that rounds to the value (when that has one
    significant digit, the closest decimal of one or two digits), written as
    ``ddd.ddd`` for 10⁻³ ≤ |v| < 10⁷ and as ``d.dddE±n`` otherwise, with at
    least one digit after the point.

    Parameters
    ----------
    value : float
        Rounded to single precision first.
    """
    v = _f32(value)
    if np.isnan(v):
        return "NaN"
    if np.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    sign = "-" if np.signbit(v) else ""
    if v == 0:
        return sign + "0.0"
    text = np.format_float_scientific(abs(v), unique=True, trim="-")
    mantissa, exp_text = text.split("e")
    digits = mantissa.replace(".", "")
    exponent = int(exp_text)  # value = d.ddd * 10**exponent
    if len(digits) == 1:  # Java picks the closest decimal of 1 or 2 digits
        two = np.format_float_scientific(abs(v), precision=1, unique=False)
        m2, e2 = two.split("e")
        if _f32(f"{m2}e{e2}") == abs(v):
            cand = m2.replace(".", "")
            exact = abs(float(v))
            if abs(float(f"{m2}e{e2}") - exact) < abs(float(f"{digits}e{exponent}") - exact):
                digits, exponent = cand.rstrip("0") or "0", int(e2)
    if 1e-3 <= abs(float(v)) < 1e7:
        point = exponent + 1  # digits before the decimal point
        if point <= 0:
            whole, frac = "0", "0" * (-point) + digits
        elif point >= len(digits):
            whole, frac = digits + "0" * (point - len(digits)), "0"
        else:
            whole, frac = digits[:point], digits[point:]
        return f"{sign}{whole}.{frac}"
    frac = digits[1:] or "0"
    return f"{sign}{digits[0]}.{frac}E{exponent}"


# ---------------------------------------------------------------- the concepts
class ConceptGraph:
    """Concepts with zero or more parents each (an acyclic IS-A graph).

    Concepts keep the order they were first named in; that order numbers
    them (GATE's concept ids) and orders the chains of a concept with
    several parents.

    Parameters
    ----------
    parents : mapping of str to sequence of str
        Every concept to its parents (empty: a top class).  Parents that are
        not keys are added as top classes.

    Raises
    ------
    ValueError
        An empty name, a concept that is its own parent, or a cycle.
    """

    #: the file the graph was read from, in messages (`from_file`)
    source: str = "<hierarchy>"

    def __init__(self, parents: Mapping[str, Sequence[str]]) -> None:
        """See the class docstring."""
        self._parents: Dict[str, List[str]] = {}
        self._children: Dict[str, List[str]] = {}
        for child, ps in parents.items():
            self._add(child)
            for p in ps:
                self._add(p)
                if p == child:
                    raise ValueError(f"concept {child!r} is its own parent")
                if p not in self._parents[child]:
                    self._parents[child].append(p)
                    self._children[p].append(child)
        cycle = self._find_cycle()
        if cycle:
            raise ValueError("cycle in the concept graph: " + " -> ".join(cycle))

    def _add(self, concept: str) -> None:
        if not concept:
            raise ValueError("the empty string cannot be a concept")
        if concept not in self._parents:
            self._parents[concept] = []
            self._children[concept] = []

    def _find_cycle(self) -> List[str]:
        """One cycle as ``[c1, c2, ..., c1]`` (child to parent), or ``[]`` (iterative DFS)."""
        state: Dict[str, int] = {}  # 1 on the current path, 2 done
        for start in self._parents:
            if start in state:
                continue
            path: List[str] = [start]
            stack: List[Iterator[str]] = [iter(self._parents[start])]
            state[start] = 1
            while stack:
                nxt = next(stack[-1], None)
                if nxt is None:
                    state[path.pop()] = 2
                    stack.pop()
                elif state.get(nxt) == 1:
                    return path[path.index(nxt):] + [nxt]
                elif nxt not in state:
                    state[nxt] = 1
                    path.append(nxt)
                    stack.append(iter(self._parents[nxt]))
        return []

    @classmethod
    def from_parents(cls, parents: Mapping[str, Sequence[str]]) -> "ConceptGraph":
        """From a ``concept -> parents`` mapping (see the class docstring)."""
        return cls(parents)

    @classmethod
    def from_hierarchy(cls, hierarchy: Hierarchy, exclude: Iterable[str] = ()) -> "ConceptGraph":
        """The tags of a `Hierarchy` as concepts (one parent each).

        Parameters
        ----------
        hierarchy : Hierarchy
        exclude : iterable of str
            Tags left out: those a hierarchy added for data it lacked
            (`Hierarchy.added_tags`), which are not concepts of the hierarchy.
        """
        left_out = set(exclude)
        parents: Dict[str, List[str]] = {}
        for tag in hierarchy.tags:
            if tag in left_out:
                continue
            parent = hierarchy._parent[tag]
            parents[tag] = [] if parent is None else [parent]
        return cls(parents)

    @classmethod
    def from_file(cls, path: Source) -> "ConceptGraph":
        r"""Read a hierarchy file in which a concept may have several parents.

        The formats of `Hierarchy.from_file`; every line asserts one parent,
        so a concept given on several lines with different parents has them
        all (in an outline: listed under several tags).  Repeating an
        assertion is harmless.

        Raises
        ------
        InputError
            The problems of `synagree.trees.hierarchy.read_hierarchy_assertions`,
            ``hierarchy-cycle`` (a concept its own parent, or a cycle), and
            ``bdm-concept-name`` (a name containing ``", "``, which GATE's
            score file cannot hold).
        """
        name, log, assertions = hierarchy_lines(path)
        parents: Dict[str, List[str]] = {}
        where: Dict[str, int] = {}
        for number, child, parent in assertions:
            for concept in (child, parent):
                if concept is not None and ", " in concept:
                    log.add(name, number, "bdm-concept-name",
                            f"concept {concept!r} contains ', ', which GATE's BDM score "
                            f"file uses as its separator")
            if child == parent:
                log.add(name, number, "hierarchy-cycle", f"concept {child!r} is its own parent")
                continue
            where.setdefault(child, number)
            own = parents.setdefault(child, [])
            if parent is not None:
                if parent not in own:
                    own.append(parent)
                parents.setdefault(parent, [])
                where.setdefault(parent, number)
        log.raise_if_errors()
        try:
            graph = cls(parents)
            graph.source = name
            return graph
        except ValueError as exc:
            cycle = str(exc).split(": ", 1)[-1].split(" -> ")
            first = min(cycle[:-1], key=lambda c: where.get(c, 0))
            log.add(name, where.get(first), "hierarchy-cycle", str(exc))
            log.raise_if_errors()
            raise  # pragma: no cover - raise_if_errors raised

    @property
    def concepts(self) -> List[str]:
        """Every concept, in the order first named."""
        return list(self._parents)

    def __len__(self) -> int:
        return len(self._parents)

    def __contains__(self, concept: object) -> bool:
        return concept in self._parents

    def parents(self, concept: str) -> Tuple[str, ...]:
        """The direct parents (empty for a top class)."""
        return tuple(self._parents[concept])

    def children(self, concept: str) -> Tuple[str, ...]:
        """The direct subconcepts (empty for a leaf)."""
        return tuple(self._children[concept])

    @property
    def tops(self) -> List[str]:
        """The top classes (no parent)."""
        return [c for c, ps in self._parents.items() if not ps]

    @property
    def leaves(self) -> List[str]:
        """The leaves (no children)."""
        return [c for c, ks in self._children.items() if not ks]

    def __repr__(self) -> str:
        return f"ConceptGraph({len(self)} concepts, {len(self.tops)} top classes)"


# ---------------------------------------------------------------- one pair
@dataclass(frozen=True)
class BDMScore:
    """One line of GATE's BDM score file (docs/method.md §23.1).

    Parameters
    ----------
    key, response : str
    bdm : float
        A single-precision value (as a Python float).
    msca : str or None
        The most specific common ancestor (None: no shared top class).
    cp, dpk, dpr : int
        Edges from the top class to the MSCA, from the MSCA to the key and to
        the response (``cp`` is -1 without a shared top class).
    n0, n1, n2, bran : float
        Single-precision values.
    """

    key: str
    response: str
    bdm: float
    msca: Optional[str]
    cp: int
    dpk: int
    dpr: int
    n0: float
    n1: float
    n2: float
    bran: float

    def gate_line(self) -> str:
        """The line as GATE's ``BDMOne.printResult`` writes it."""
        msca = f"msca={self.msca}, " if self.msca is not None else " no MSCA! "
        j = java_float_str
        return (f"key={self.key}, response={self.response}, bdm={j(self.bdm)}, {msca}"
                f"cp={self.cp}, dpk={self.dpk}, dpr={self.dpr}, n0={j(self.n0)}, "
                f"n1={j(self.n1)}, n2={j(self.n2)}, bran={j(self.bran)}")

    def as_dict(self) -> dict:
        """JSON-ready (the floats are the single-precision values)."""
        return {"key": self.key, "response": self.response, "bdm": self.bdm,
                "msca": self.msca, "cp": self.cp, "dpk": self.dpk, "dpr": self.dpr,
                "n0": self.n0, "n1": self.n1, "n2": self.n2, "bran": self.bran}


def gate_bdm_from_parameters(cp: int, dpk: int, dpr: int, n0: float, n1: float, n2: float,
                             bran: float) -> float:
    """BDM from its parameters, in GATE's single-precision arithmetic.

    ``bdm = bran·cp/n0``, then ``bdm / (bdm + dpk/n1 + dpr/n2)``, each
    operation rounded to single precision, in that order.
    """
    x = _f32(_f32(bran) * _f32(cp)) / _f32(n0)
    return float(x / ((x + _f32(dpk) / _f32(n1)) + _f32(dpr) / _f32(n2)))


# ---------------------------------------------------------------- the work, planned
@dataclass(frozen=True)
class BDMWork:
    """What GATE's BDM of a graph would enumerate (`bdm_work`), counted without enumerating.

    Parameters
    ----------
    concepts : int
    chains : int
        Root-to-concept chains of all concepts (a concept with several parents
        has one chain per path: the counts multiply down a layered graph).
    most_chains : int
        Chains of the concept with the most.
    entries : int
        Concepts summed over all chains (what the chains hold in memory).
    steps : int
        About the steps of comparing every pair of chains of every pair of
        concepts: ``chains × entries``.
    memory : int
        Bytes of the chains (a tuple each: 56 bytes and 8 a concept).
    """

    concepts: int
    chains: int
    most_chains: int
    entries: int
    steps: int
    memory: int


def bdm_work(graph: ConceptGraph) -> BDMWork:
    r"""Count the chains of a graph by dynamic programming over its concepts (no chain made).

    A top class has one chain; any other concept as many as its parents
    together (``chains(c) = Σ_p chains(p)``), each one concept longer
    (``entries(c) = chains(c) + Σ_p entries(p)``); exact integers, however
    large.

    Examples
    --------
    >>> layered = {f"L{k}C{i}": [f"L{k - 1}C{j}" for j in range(12)] if k else []
    ...            for k in range(12) for i in range(12)}
    >>> w = bdm_work(ConceptGraph.from_parents(layered))
    >>> w.concepts, w.most_chains == 12 ** 11
    (144, True)
    """
    names = graph.concepts
    index = {c: i for i, c in enumerate(names)}
    chains: List[int] = [0] * len(names)
    entries: List[int] = [0] * len(names)
    done = [False] * len(names)
    for start in range(len(names)):  # parents before children, iteratively (deep graphs)
        stack = [start]
        while stack:
            c = stack[-1]
            if done[c]:
                stack.pop()
                continue
            ps = [index[p] for p in graph.parents(names[c])]
            todo = [p for p in ps if not done[p]]
            if todo:
                stack.extend(todo)
                continue
            stack.pop()
            chains[c] = sum(chains[p] for p in ps) if ps else 1
            entries[c] = chains[c] + sum(entries[p] for p in ps)
            done[c] = True
    total, held = sum(chains), sum(entries)
    return BDMWork(len(names), total, max(chains, default=0), held, total * held,
                   56 * total + 8 * held)


def check_bdm_work(graph: ConceptGraph, max_steps: int = MAX_BDM_STEPS) -> BDMWork:
    """Refuse, before any chain is made, a graph whose BDM is too much work or memory.

    Raises
    ------
    InputError
        ``bdm-too-large`` (more than ``max_steps``, `bdm_work`) naming the
        hierarchy, its chains and what to change; ``memory-limit`` when the
        chains would not fit in memory (`synagree.base.memory.check_memory`).
    """
    w = bdm_work(graph)
    if w.most_chains > 1:
        hint = ("give concepts fewer parents (each parent adds all its chains to every "
                "concept below it) or a shallower hierarchy, or split it")
    else:
        hint = "split it into smaller hierarchies (the work grows with concepts x depth)"
    pairs = w.concepts * (w.concepts + 1) // 2
    if pairs > MAX_BDM_PAIRS:
        raise InputError.single(
            graph.source, None, "bdm-too-large",
            f"GATE's BDM scores every pair of concepts: this hierarchy's {w.concepts:,} "
            f"concepts make {pairs:,} pairs (lines of the score file), above the limit of "
            f"{MAX_BDM_PAIRS:,} (each takes 0.05-0.2 ms): split it into smaller hierarchies")
    if w.steps > max_steps:
        raise InputError.single(
            graph.source, None, "bdm-too-large",
            f"GATE's BDM compares every root-to-concept chain of every pair of concepts: "
            f"this hierarchy has {w.concepts:,} concepts and {w.chains:,} chains (up to "
            f"{w.most_chains:,} for one concept; {w.entries / max(1, w.chains):,.0f} concepts "
            f"long on average), about {float(w.steps):.1e} steps, above the limit of "
            f"{float(max_steps):.0e}: {hint}")
    check_memory(w.memory, f"the {w.chains:,} root-to-concept chains of the BDM", hint)
    return w


# ---------------------------------------------------------------- all pairs
class GateBDM:
    """GATE's BDM over every pair of concepts of a `ConceptGraph` (module docstring).

    The statistics of the whole graph (chains, n0, the per-concept n, the
    mean branching) are computed once; each pair on demand.

    Parameters
    ----------
    graph : ConceptGraph

    Raises
    ------
    InputError
        The work is planned first (`check_bdm_work`): ``bdm-too-large`` or
        ``memory-limit`` before any chain is made.
    """

    def __init__(self, graph: ConceptGraph) -> None:
        """See the class docstring."""
        check_bdm_work(graph)
        self.graph = graph
        self._names = graph.concepts
        self._index = {c: i for i, c in enumerate(self._names)}
        self._chains = self._all_chains()
        leaves = [self._index[c] for c in graph.leaves]
        # n0 and the per-concept sums, as GATE: integer sums (exact), one float division
        total = chains_n = 0
        through_len = [0] * len(self._names)
        through_n = [0] * len(self._names)
        for leaf in leaves:
            for chain in self._chains[leaf]:
                length = len(chain) - 1
                total += length
                chains_n += 1
                for c in chain:
                    through_len[c] += length
                    through_n[c] += 1
        self._n0 = _f32(total) / _f32(chains_n) if chains_n > 1 else _f32(total)
        self._through = [_f32(s) / _f32(n) if n else _f32(0)
                         for s, n in zip(through_len, through_n)]
        self._branch = [len(graph.children(c)) for c in self._names]
        inner = [b for b in self._branch if b > 0]
        self._mean_branching = (_f32(sum(inner)) / _f32(len(inner)) if len(inner) > 1
                                else _f32(sum(inner)))
        self._cache: Dict[Tuple[int, int], BDMScore] = {}

    def _all_chains(self) -> List[List[Chain]]:
        """Every concept's chains, parents in file order (topological, iterative)."""
        names = self._names
        chains: List[Optional[List[Chain]]] = [None] * len(names)
        for start in range(len(names)):
            stack = [start]
            while stack:
                c = stack[-1]
                if chains[c] is not None:
                    stack.pop()
                    continue
                ps = [self._index[p] for p in self.graph.parents(names[c])]
                todo = [p for p in ps if chains[p] is None]
                if todo:
                    stack.extend(reversed(todo))
                    continue
                stack.pop()
                chains[c] = ([(c,)] if not ps else
                             [(c,) + ch for p in ps for ch in chains[p]])  # type: ignore[union-attr]
        return [ch or [] for ch in chains]

    @property
    def n0(self) -> float:
        """n0: the mean length (edges) of all leaf chains (single precision)."""
        return float(self._n0)

    @property
    def mean_branching(self) -> float:
        """The mean number of direct subconcepts over non-leaf concepts (single precision)."""
        return float(self._mean_branching)

    def through(self, concept: str) -> float:
        """n of a concept: the mean length of the leaf chains through it."""
        return float(self._through[self._index[concept]])

    def __contains__(self, concept: object) -> bool:
        return concept in self._index

    # ------------------------------------------------------------ pairs
    def score(self, a: str, b: str) -> BDMScore:
        """The BDM line of two concepts; the key is the later concept (GATE's order).

        Raises
        ------
        KeyError
            A name that is not a concept.
        """
        i, j = self._index[a], self._index[b]
        if i < j:
            i, j = j, i
        got = self._cache.get((i, j))
        if got is None:
            got = self._cache[(i, j)] = self._pair(i, j)
        return got

    def bdm(self, a: str, b: str) -> float:
        """BDM of two names: `score`'s value; a name that is not a concept
        scores 1 with itself and 0 with anything else."""
        if a not in self._index or b not in self._index:
            return 1.0 if a == b else 0.0
        return self.score(a, b).bdm

    def pairs(self, progress: Optional[bool] = False) -> Iterator[BDMScore]:
        """Every unordered pair, self pairs included: key = concept i, response = concept j ≤ i.

        Parameters
        ----------
        progress : bool or None
            Draw a bar on stderr (None: the process-wide default,
            `synagree.base.progress.wanted`).
        """
        n = len(self._names)
        bar = Progress(n * (n + 1) // 2, "pairs", title="BDM") if wanted(progress) else None
        for i in range(n):
            for j in range(i + 1):
                yield self._cache[(i, j)] if (i, j) in self._cache else self._pair(i, j)
            if bar is not None:
                bar.update(i + 1)
        if bar is not None:
            bar.close()

    def _pair(self, i: int, j: int) -> BDMScore:
        names = self._names
        key, response = names[i], names[j]
        chains_k, chains_r = self._chains[i], self._chains[j]
        n0 = self._n0
        if i == j:
            cp = min(len(ch) for ch in chains_k) - 1
            one = _f32(1)
            return BDMScore(key, response, 1.0, key, cp, 0, 0, float(n0), 1.0, 1.0, float(one))
        m1, m2 = self._through[i], self._through[j]
        best: Optional[BDMScore] = None
        no_top: Optional[BDMScore] = None
        for ck in chains_k:
            for cr in chains_r:
                common = 0
                for a, b in zip(reversed(ck), reversed(cr)):
                    if a != b:
                        break
                    common += 1
                if common == 0:  # no shared top class
                    no_top = BDMScore(key, response, 0.0, None, -1, len(ck) - 1, len(cr) - 1,
                                      float(n0), float(m1), float(m2), 1.0)
                    continue
                msca = ck[len(ck) - common]
                cp = common - 1  # edges, not nodes
                dpk, dpr = len(ck) - 1 - cp, len(cr) - 1 - cp
                bran = _f32(self._branch[msca])
                count = 1
                for c in ck[1:len(ck) - cp - 1]:  # strictly between the key and the MSCA
                    bran = bran + _f32(self._branch[c])
                    count += 1
                for c in cr[1:len(cr) - cp - 1]:
                    bran = bran + _f32(self._branch[c])
                    count += 1
                if count > 1:
                    bran = bran / _f32(count)
                bran = bran / self._mean_branching
                x = _f32(bran * _f32(cp)) / n0
                value = x / ((x + _f32(dpk) / m1) + _f32(dpr) / m2)
                if best is None or value > best.bdm:
                    best = BDMScore(key, response, float(value), names[msca], cp, dpk, dpr,
                                    float(n0), float(m1), float(m2), float(bran))
        if best is not None:
            return best
        assert no_top is not None
        return no_top

    def gate_lines(self, name: str, progress: Optional[bool] = False) -> Iterator[str]:
        """GATE's score file: its header line, then one line per pair (`pairs`)."""
        yield GATE_HEADER.format(name=name)
        for s in self.pairs(progress):
            yield s.gate_line()
