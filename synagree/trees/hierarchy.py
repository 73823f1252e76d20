"""Hierarchical label credit (Melamed & Resnik) over an IS-A tree of tags.

Definitions
===========

Tag hierarchy
    A forest of tags under an implicit, unnamed *top*.  Every tag has at most
    one parent; a tag without a parent is *top-level*.  A tag without children
    is a *leaf*.  The top itself is never a tag: two tags with no common tag
    ancestor share nothing.

Leaf distribution P(l | t)
    A leaf ``t`` is fully specified: ``P(t | t) = 1``.  A non-leaf tag is
    under-specified: it spreads its mass **uniformly over its children**, and
    each child passes its share on the same way, down to the leaves::

        P(l | t) = [l == t]                                  if t is a leaf
        P(l | t) = (1 / |children(t)|) * sum_c P(l | c)      otherwise

    (Not uniform over the leaves: with ``A -> {A.1 -> {A.1a, A.1b}, A.2}``,
    ``P(A.2 | A) = 1/2`` and ``P(A.1a | A) = 1/4``.)  The *leaf set*
    ``L(t) = {l : P(l | t) > 0}`` is the set of leaves at or below ``t``.
    Consequently ``P(ancestor | descendant) = 1``: all the mass of a
    descendant lies in the leaf set of each of its ancestors.

Annotation
    What one annotator assigned to one item: a single tag; a collection of
    tags without probabilities (uniform mass ``1/k`` over the ``k`` *distinct*
    tags); or a mapping ``tag -> probability`` (non-negative, summing to 1
    within 1e-9, else `ValueError`).  Its leaf distribution is the
    mixture ``P(l | O) = sum_t w_t * P(l | t)``.

Credit of an output O against gold G (`credit`)
    Gold tags are read disjunctively: the credit is the probability that the
    output puts on the union of the gold tags' leaf sets::

        credit(G, O) = sum_{l in L(G)} P(l | O),   L(G) = union_{g in G} L(g)

    (The union, not a sum over gold tags: overlapping gold tags such as
    ``{A, A.1}`` are not counted twice.)  Range [0, 1].  Not symmetric:
    ``credit(A.1, A) = 1/2`` but ``credit(A, A.1) = 1``.

Pairwise agreement on an item (`pair_agreement`)
    ``agr(a, b) = sum_l P(l | a) * P(l | b)``, the probability that one leaf
    drawn from each annotation is the same leaf.  1 for two identical leaf
    tags; below 1 whenever either side is under-specified (``agr(A, A) =
    3/8`` in the inventory above).

Chance agreement and hierarchical κ
    Computed from these pair agreements and the pooled leaf mass
    (`pooled_leaf_mass`) by `synagree.stats.hierarchical_kappa`, on the one
    κ/π engine of `synagree.stats.contingency` (docs/method.md §9.4).

Label distance (`label_distance`)
    Total-variation distance between leaf distributions,
    ``d(a, b) = 1/2 * sum_l |P(l | a) - P(l | b)|`` in [0, 1]: 0 for tags
    with the same leaf distribution, 1 for tags with disjoint leaf sets.  It
    is half the L1 norm of the difference of the two distribution vectors, so
    it is symmetric and satisfies the triangle inequality; on tags it is a
    pseudometric (a tag with a single child has the same distribution as that
    child, so their distance is 0).  The empty string ``""`` (the artificial
    root / missing label of the TED trees) is not a tag: its distance is 0 to
    itself and 1 to every non-empty label.

Wu–Palmer closeness (`wu_palmer_credit`)
    A separate, symmetric, structural closeness, *not* IS-A credit: Wu &
    Palmer's (1994) similarity.  With ``depth`` counted in tags from the
    top (top-level tags have depth 1) and ``m`` the most specific common
    ancestor of ``a`` and ``b`` (inclusive of ``a``/``b``; depth 0 if there
    is none)::

        wup(a, b) = 2 * depth(m) / (depth(a) + depth(b))

    i.e. ``CP / (CP + (DPK + DPR) / 2)`` with ``CP = depth(m)`` and
    ``DPK``/``DPR`` the path lengths from ``m`` down to ``a``/``b``.  1 iff
    ``a == b``; 0 iff they share no tag ancestor; siblings at depth 2 get 1/2.
    (Earlier versions of synagree called this BDM; GATE's balanced distance
    metric proper is `synagree.trees.gate_bdm`.)

Conventions
===========

* Unknown tags (not in the hierarchy) are never an error: on first use they
  are added as a new top-level leaf (so they share nothing with any other
  tag) and recorded in `Hierarchy.added_tags` so a caller can report
  them.  Adding a top-level leaf never changes the distribution of an
  existing tag, but it does append a column to `Hierarchy.leaves`.
* The empty string is reserved (root / missing label) and is never a tag:
  `Hierarchy.from_ud`, `Hierarchy.from_msd` and
  `Hierarchy.flat` skip it; asking for its distribution raises
  `ValueError`.
* Tags are compared as given (case-sensitive) after the hierarchy's own
  normalisation (MSD hierarchies strip trailing ``-``; see
  `Hierarchy.from_msd`).
* All probabilities are float64; the worked examples of docs/method.md §9 come
  out exact to ~1e-16.
"""
from __future__ import annotations

import math
from typing import Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple, Union

import numpy as np

from synagree.base.problems import InputError, ProblemLog
from synagree.io.compression import read_bytes
from synagree.io.sources import Buffer, Source, as_input, input_name

__all__ = [
    "Hierarchy", "PLAIN_LEAF_SUFFIX", "Annotation",
    "credit", "pair_agreement", "pooled_leaf_mass",
    "label_distance", "label_distance_matrix", "wu_palmer_credit",
]

#: Suffix of the hidden leaf that stands for the *plain* use of a UD relation
#: that also has subtypes, in ``Hierarchy.from_ud(..., plain_as_leaf=True)``:
#: plain ``nsubj`` becomes the leaf ``"nsubj:<plain>"``, a sibling of
#: ``nsubj:pass`` under the (now never directly used) parent ``nsubj``.
PLAIN_LEAF_SUFFIX = ":<plain>"

#: A tag, a collection of tags (uniform mass), or an explicit distribution.
Annotation = Union[str, Iterable[str], Mapping[str, float]]

_SUM_TOLERANCE = 1e-9


def _identity(tag: str) -> str:
    return tag


def _msd_normalise(tag: str) -> str:
    stripped = tag.rstrip("-")
    return stripped if stripped else tag


class Hierarchy:
    """An IS-A forest over tags (implicit top); see the module docstring.

    Build it with `from_edges`, `flat`, `from_ud`, `from_msd` or `from_file`.
    Every query resolves its tag first (normalisation, the ``plain_as_leaf``
    alias, unknown tags added as top-level leaves and recorded in
    ``added_tags``).  Conventions in docs/method.md §9.

    Parameters
    ----------
    parents : mapping of str to str or None
        Every tag to its parent (None: top-level).  Parents that are not keys
        are added as top-level tags.
    normalise : callable, optional
        Applied to every tag before lookup (MSD hierarchies strip trailing
        ``-``).
    aliases : mapping of str to str, optional
        Tag to the node it stands for (``plain_as_leaf`` of `from_ud`).

    Raises
    ------
    ValueError
        An empty tag, a tag with two parents, or a cycle.
    """

    def __init__(self, parents: Mapping[str, Optional[str]],
                 normalise: Callable[[str], str] = _identity,
                 aliases: Optional[Mapping[str, str]] = None) -> None:
        """``parents`` maps every tag to its parent (``None``: top-level).

        Parents that are not keys are added as top-level tags.  Raises
        `ValueError` on an empty tag or a cycle.
        """
        self._normalise = normalise
        self._parent: Dict[str, Optional[str]] = {}
        self._children: Dict[str, List[str]] = {}
        for child, parent in parents.items():
            self._add(child, parent)
        cycle = _find_cycle(self._parent)
        if cycle:
            raise ValueError("cycle in tag hierarchy: " + " -> ".join(cycle))
        self._alias: Dict[str, str] = dict(aliases or {})
        self._dist: Dict[str, Dict[str, float]] = {}
        self._leaves: Optional[List[str]] = None
        self._leaf_index: Optional[Dict[str, int]] = None
        #: Unknown tags added as top-level leaves when first queried.
        self.added_tags: List[str] = []

    # ------------------------------------------------------------ building
    def _add(self, child: str, parent: Optional[str]) -> None:
        if not child or parent == "":
            raise ValueError("the empty string is reserved and cannot be a tag")
        for tag in (child, parent):
            if tag is not None and tag not in self._parent:
                self._parent[tag] = None
                self._children[tag] = []
        old = self._parent[child]
        if old == parent:
            return
        if old is not None:
            raise ValueError(f"tag {child!r} has two parents: {old!r} and {parent!r}")
        if parent is not None:
            self._parent[child] = parent
            self._children[parent].append(child)

    @classmethod
    def from_edges(cls, parents: Mapping[str, Optional[str]]) -> "Hierarchy":
        """From a ``child -> parent`` mapping (``None`` = top-level)."""
        return cls(parents)

    @classmethod
    def flat(cls, tags: Iterable[str]) -> "Hierarchy":
        """No structure: every tag a top-level leaf (``""`` skipped).

        With a flat hierarchy hierarchical κ is Scott's π and credit is 0/1.
        """
        return cls({t: None for t in tags if t})

    @classmethod
    def from_ud(cls, labels: Iterable[str], plain_as_leaf: bool = False) -> "Hierarchy":
        """UD relations: ``a:b`` IS-A ``a`` (``a:b:c`` IS-A ``a:b``).

        Missing parents are created (``nsubj:pass`` alone creates
        ``nsubj``).  A relation used plain that also has subtypes:

        * ``plain_as_leaf=False`` (default): plain ``nsubj`` *is* the
          under-specified parent; it spreads uniformly over its children, so
          ``credit(nsubj:pass, nsubj) = 1/|children(nsubj)|`` and
          ``credit(nsubj, nsubj:pass) = 1``.
        * ``plain_as_leaf=True``: plain use means "no subtype".  Every
          relation that has subtypes gets a hidden first child leaf
          ``rel + PLAIN_LEAF_SUFFIX`` (whether or not the plain use occurs in
          ``labels``), and the tag ``rel`` resolves to that leaf in every
          query.  Plain ``nsubj`` vs ``nsubj:pass`` then gets 0 credit both
          ways (they stay siblings for `wu_palmer_credit`).  Structural
          answers still name the parent node ``nsubj`` (``parent("nsubj:pass")
          == "nsubj"``), but a tag *query* ``"nsubj"`` always means the plain
          leaf; the under-specified parent cannot be queried in this mode.

        The empty string (root label) is skipped.

        Parameters
        ----------
        labels : iterable of str
            The relations (DEPREL values) to place.
        plain_as_leaf : bool
            See above.
        """
        parents: Dict[str, Optional[str]] = {}
        for label in labels:
            tag: Optional[str] = label
            while tag and tag not in parents:
                head, sep, _ = tag.rpartition(":")
                parent = head if sep and head else None
                parents[tag] = parent
                tag = parent
        aliases: Dict[str, str] = {}
        if plain_as_leaf:
            for tag in parents.values():
                if tag:
                    aliases[tag] = tag + PLAIN_LEAF_SUFFIX
            with_plain: Dict[str, Optional[str]] = {}
            for tag, parent in parents.items():
                with_plain[tag] = parent
                if tag in aliases:
                    with_plain[aliases[tag]] = tag
            parents = with_plain
        return cls(parents, aliases=aliases)

    @classmethod
    def from_msd(cls, tags: Iterable[str]) -> "Hierarchy":
        """Positional morphosyntactic tags (MULTEXT-East MSDs).

        Each position refines the prefix before it.  Trailing ``-`` means
        unspecified and is stripped (here and in every query), so ``Ncms-``
        is the same tag as ``Ncms``, an ancestor of ``Ncmsr`` and ``Ncmsry``.
        The parent of a tag is the tag with its last position removed (and
        then trailing ``-`` stripped again); every prefix is created
        (``Ncmsry`` creates ``Ncmsr``, ``Ncms``, ``Ncm``, ``Nc``, ``N``).  A
        tag with an internal ``-`` (``Nc-s``) is its own node under its
        prefix (``Nc``), a sibling of ``Ncm``/``Ncf``: it is *not* expanded
        to the full tags that match it.  A tag made of ``-`` only is kept
        verbatim as a top-level tag.
        """
        parents: Dict[str, Optional[str]] = {}
        for raw in tags:
            if not raw:
                continue
            tag: Optional[str] = _msd_normalise(raw)
            while tag and tag not in parents:
                parent = tag[:-1].rstrip("-") if len(tag) > 1 and tag.strip("-") else ""
                parents[tag] = parent or None
                tag = parent or None
        return cls(parents, normalise=_msd_normalise)

    @classmethod
    def from_file(cls, path: Source) -> "Hierarchy":
        r"""Read a hierarchy file (UTF-8).  Two formats, detected per file.

        ``#`` starts a comment running to the end of the line; blank lines
        are ignored.  If any content line has a TAB *after* its first
        non-blank character, the file is in **edge format**: one
        ``child<TAB>parent`` per line (leading/trailing blanks ignored); a
        line with a single tag declares a top-level tag.  Otherwise it is an
        **outline**: one tag per line, indentation (spaces or tabs, not both
        in one file) = depth; a line indented deeper than the line before is
        a child of it, a dedent must return to an indentation used by an
        enclosing line, and the first line must not be indented.

        Every line asserts the parent of its tag (the top for a top-level
        tag); repeating an assertion is fine (an outline may reopen a tag to
        add children).  A reduced tag set mapped onto a fine one (tiered
        tagging's Ctag -> MSD) is written by listing the coarse tag as the
        parent of its fine tags.

        Parameters
        ----------
        path : str, path-like, file-like or Buffer
            A file or a stream (`read_hierarchy_assertions`).

        Raises
        ------
        InputError
            All problems gathered, naming file and line: ``hierarchy-fields``
            (not 1-2 fields, empty field), ``hierarchy-indentation``,
            ``hierarchy-two-parents``, ``hierarchy-cycle``, ``hierarchy-empty``,
            ``hierarchy-unreadable``.
        """
        name, log, assertions = hierarchy_lines(path)
        parents: Dict[str, Optional[str]] = {}
        where: Dict[str, int] = {}
        for number, child, parent in assertions:
            if child == parent:
                log.add(name, number, "hierarchy-cycle", f"tag {child!r} is its own parent")
            elif child in parents and parents[child] != parent:
                log.add(name, number, "hierarchy-two-parents",
                        f"tag {child!r} given parent {_show(parent)} here but "
                        f"{_show(parents[child])} on line {where[child]}")
            elif child not in parents:
                parents[child] = parent
                where[child] = number
        log.raise_if_errors()  # InputError lists the errors in line order
        for parent in list(parents.values()):
            if parent is not None and parent not in parents:
                parents[parent] = None
        cycle = _find_cycle(parents)
        if cycle:
            first = min(cycle[:-1], key=lambda t: where.get(t, 0))
            log.add(name, where.get(first), "hierarchy-cycle",
                    "cycle in tag hierarchy: " + " -> ".join(cycle))
            log.raise_if_errors()
        return cls(parents)

    # ------------------------------------------------------------ queries
    def resolve(self, tag: str) -> str:
        """The node a tag stands for (normalised, aliased, added if unknown).

        Raises
        ------
        TypeError
            ``tag`` is not a string.
        ValueError
            ``tag`` is ``""`` (the root / missing label is not a tag).
        """
        if not isinstance(tag, str):
            raise TypeError(f"a tag must be a string, not {type(tag).__name__}")
        if not tag:
            raise ValueError("the empty string (root / missing label) is not a tag")
        node = self._normalise(tag)
        node = self._alias.get(node, node)
        if node not in self._parent:
            self._parent[node] = None
            self._children[node] = []
            self.added_tags.append(node)
            if self._leaves is not None:
                self._leaves.append(node)
                assert self._leaf_index is not None
                self._leaf_index[node] = len(self._leaf_index)
        return node

    def __contains__(self, tag: object) -> bool:
        if not isinstance(tag, str) or not tag:
            return False
        node = self._normalise(tag)
        return self._alias.get(node, node) in self._parent

    def __len__(self) -> int:
        return len(self._parent)

    @property
    def tags(self) -> List[str]:
        """All tags (hidden plain leaves and added unknown tags included)."""
        return list(self._parent)

    @property
    def leaves(self) -> List[str]:
        """Leaves in depth-first order (then added unknown tags): the columns
        of `distribution_matrix`."""
        if self._leaves is None:
            out: List[str] = []
            stack = [t for t in reversed(list(self._parent)) if self._parent[t] is None]
            while stack:
                tag = stack.pop()
                kids = self._children[tag]
                if kids:
                    stack.extend(reversed(kids))
                else:
                    out.append(tag)
            self._leaves = out
            self._leaf_index = {leaf: i for i, leaf in enumerate(out)}
        return list(self._leaves)

    @property
    def leaf_index(self) -> Dict[str, int]:
        """Leaf -> column of `distribution_matrix`."""
        self.leaves
        assert self._leaf_index is not None
        return dict(self._leaf_index)

    def parent(self, tag: str) -> Optional[str]:
        """Parent tag, ``None`` for a top-level tag."""
        return self._parent[self.resolve(tag)]

    def children(self, tag: str) -> Tuple[str, ...]:
        """The child tags of ``tag``, in order (empty for a leaf)."""
        return tuple(self._children[self.resolve(tag)])

    def is_leaf(self, tag: str) -> bool:
        """True when ``tag`` has no children."""
        return not self._children[self.resolve(tag)]

    def _ancestors(self, node: str) -> List[str]:
        out: List[str] = []
        parent = self._parent[node]
        while parent is not None:
            out.append(parent)
            parent = self._parent[parent]
        return out

    def ancestors(self, tag: str) -> List[str]:
        """Proper ancestors, nearest first (the implicit top not included)."""
        return self._ancestors(self.resolve(tag))

    def depth(self, tag: str) -> int:
        """Number of tags from the top down to ``tag``: top-level tags have 1."""
        return 1 + len(self._ancestors(self.resolve(tag)))

    def is_a(self, a: str, b: str) -> bool:
        """``a`` IS-A ``b``: ``b`` is ``a`` or one of its ancestors (reflexive)."""
        node_a, node_b = self.resolve(a), self.resolve(b)
        return node_a == node_b or node_b in self._ancestors(node_a)

    def leaf_set(self, tag: str) -> frozenset:
        """Leaves at or below ``tag`` (where its distribution is positive)."""
        return frozenset(self._leaf_dist(self.resolve(tag)))

    def _leaf_dist(self, node: str) -> Dict[str, float]:
        """Cached P(. | node) for a resolved node (iterative post-order)."""
        cached = self._dist.get(node)
        if cached is not None:
            return cached
        stack: List[Tuple[str, bool]] = [(node, False)]
        while stack:
            tag, expanded = stack.pop()
            if tag in self._dist:
                continue
            kids = self._children[tag]
            if not kids:
                self._dist[tag] = {tag: 1.0}
            elif expanded:
                share = 1.0 / len(kids)
                acc: Dict[str, float] = {}
                for kid in kids:
                    for leaf, p in self._dist[kid].items():
                        acc[leaf] = acc.get(leaf, 0.0) + share * p
                self._dist[tag] = acc
            else:
                stack.append((tag, True))
                stack.extend((k, False) for k in kids if k not in self._dist)
        return self._dist[node]

    def leaf_distribution(self, tag: str) -> Dict[str, float]:
        """P(leaf | tag) as ``{leaf: probability}`` (positive entries only)."""
        return dict(self._leaf_dist(self.resolve(tag)))

    def distribution(self, annotation: Annotation) -> Dict[str, float]:
        """Leaf distribution of an annotation (tag, tag collection, or
        ``{tag: probability}``; see the module docstring)."""
        weights = _annotation_weights(annotation)
        if len(weights) == 1:
            (tag, _), = weights.items()
            return dict(self._leaf_dist(self.resolve(tag)))
        out: Dict[str, float] = {}
        for tag, w in weights.items():
            if w == 0.0:
                continue
            for leaf, p in self._leaf_dist(self.resolve(tag)).items():
                out[leaf] = out.get(leaf, 0.0) + w * p
        return out

    def distribution_matrix(self, annotations: Sequence[Annotation]) -> np.ndarray:
        """``len(annotations) x len(leaves)`` float64 matrix of leaf
        distributions (columns as in `leaves`, after any unknown tag
        in ``annotations`` has been added)."""
        dists = [self.distribution(a) for a in annotations]
        index = self.leaf_index
        out = np.zeros((len(dists), len(index)), dtype=np.float64)
        for row, dist in enumerate(dists):
            for leaf, p in dist.items():
                out[row, index[leaf]] = p
        return out

    # ------------------------------------------------------------ credit
    def credit(self, gold: Union[str, Iterable[str]], output: Annotation) -> float:
        """See `credit`."""
        gold_tags = [gold] if isinstance(gold, str) else _gold_list(gold)
        gold_leaves: Set[str] = set()
        for tag in gold_tags:
            gold_leaves.update(self._leaf_dist(self.resolve(tag)))
        dist = self.distribution(output)
        return math.fsum(p for leaf, p in dist.items() if leaf in gold_leaves)

    def pair_agreement(self, a: Annotation, b: Annotation) -> float:
        """See `pair_agreement`."""
        da, db = self.distribution(a), self.distribution(b)
        if len(db) < len(da):
            da, db = db, da
        return math.fsum(p * db[leaf] for leaf, p in da.items() if leaf in db)

    def label_distance(self, a: str, b: str) -> float:
        """See `label_distance`."""
        if a == "" or b == "":
            return 0.0 if a == b else 1.0
        da, db = self._leaf_dist(self.resolve(a)), self._leaf_dist(self.resolve(b))
        if da is db:
            return 0.0
        total = math.fsum(abs(p - db.get(leaf, 0.0)) for leaf, p in da.items())
        total += math.fsum(p for leaf, p in db.items() if leaf not in da)
        return min(1.0, max(0.0, 0.5 * total))

    def __repr__(self) -> str:
        return f"Hierarchy({len(self._parent)} tags, {len(self.leaves)} leaves)"


# ---------------------------------------------------------------- helpers
def _find_cycle(parents: Mapping[str, Optional[str]]) -> List[str]:
    """One cycle of the parent relation as ``[t1, t2, ..., t1]``, or ``[]``."""
    state: Dict[str, int] = {}  # 1 = on the current path, 2 = done
    for start in parents:
        path: List[str] = []
        tag: Optional[str] = start
        while tag is not None and tag not in state:
            state[tag] = 1
            path.append(tag)
            tag = parents.get(tag)
        if tag is not None and state.get(tag) == 1:
            return path[path.index(tag):] + [tag]
        for t in path:
            state[t] = 2
    return []


def _show(parent: Optional[str]) -> str:
    return "the top (no parent)" if parent is None else repr(parent)


def hierarchy_lines(path: Source) -> Tuple[str, ProblemLog, List[Tuple[int, str, Optional[str]]]]:
    """A hierarchy file's name for messages, a log holding its line problems
    (for the caller to add its own and raise), and its assertions
    (`read_hierarchy_assertions`)."""
    source = as_input(path, "<hierarchy>")
    log = ProblemLog()
    return input_name(source), log, read_hierarchy_assertions(source, log)


def read_hierarchy_assertions(path: Source, log: Optional[ProblemLog] = None
                              ) -> List[Tuple[int, str, Optional[str]]]:
    r"""The ``(line, child, parent)`` assertions of a hierarchy file, in file order.

    The two formats of `Hierarchy.from_file` (edge format and outline),
    without its checks across lines: a tag may be given several parents here
    (`synagree.trees.gate_bdm.ConceptGraph` allows that; `Hierarchy` does
    not).  ``parent`` is None for a top-level tag.

    Parameters
    ----------
    path : str, path-like, file-like or Buffer
        A file, or a stream (`synagree.io.sources`; named ``<hierarchy>``
        in messages unless it has a real ``.name``).
    log : ProblemLog, optional
        Receives the line problems (the caller raises, after adding its own);
        without it they are raised here.

    Returns
    -------
    list of (int, str, str or None)
        The lines that could be read.

    Raises
    ------
    InputError
        ``hierarchy-unreadable`` and ``hierarchy-empty`` always;
        ``hierarchy-fields`` and ``hierarchy-indentation`` (every problem, with
        its line) when no ``log`` is given.
    """
    source = as_input(path, "<hierarchy>")
    name = input_name(source)
    try:
        if isinstance(source, Buffer):
            if source.data is None:
                raise OSError(source.error)
            text = (source.data if isinstance(source.data, str)
                    else source.data.decode("utf-8-sig"))
            text = text[1:] if text.startswith("\ufeff") else text
        else:
            text = read_bytes(source, name, plain=True).decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError.single(name, None, "hierarchy-unreadable",
                                f"cannot read hierarchy file: {exc}") from None
    lines: List[Tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        content = raw.split("#", 1)[0].rstrip()
        if content.strip():
            lines.append((number, content))
    if not lines:
        raise InputError.single(name, None, "hierarchy-empty", "hierarchy file has no tags")
    own = log is None
    log = ProblemLog() if log is None else log
    edge_format = any("\t" in content.lstrip() for _, content in lines)
    assertions = (_parse_edges(name, lines, log) if edge_format
                  else _parse_outline(name, lines, log))
    if own:
        log.raise_if_errors()
    return assertions


def _parse_edges(name: str, lines: List[Tuple[int, str]],
                 log: ProblemLog) -> List[Tuple[int, str, Optional[str]]]:
    out: List[Tuple[int, str, Optional[str]]] = []
    first_edge = next(n for n, content in lines if "\t" in content.lstrip())
    for number, content in lines:
        if "\t" not in content.lstrip() and content[:1].isspace():
            # an indented tag among child<TAB>parent lines: an outline line would be read
            # as a new top tag, silently; the file must keep to one format
            log.add(name, number, "hierarchy-fields",
                    f"an indented tag ({content.strip()!r}, outline format) in a file of "
                    f"'child<TAB>parent' lines (line {first_edge} is one): use one format "
                    f"for the whole file")
            continue
        fields = [f.strip() for f in content.strip().split("\t")]
        if len(fields) > 2 or any(not f for f in fields):
            log.add(name, number, "hierarchy-fields",
                    f"expected 'child<TAB>parent' or a single tag, got {content.strip()!r}")
            continue
        out.append((number, fields[0], fields[1] if len(fields) == 2 else None))
    return out


def _parse_outline(name: str, lines: List[Tuple[int, str]],
                   log: ProblemLog) -> List[Tuple[int, str, Optional[str]]]:
    out: List[Tuple[int, str, Optional[str]]] = []
    indent_chars: set = set()
    stack: List[Tuple[int, str]] = []  # (indentation width, tag); top = line before
    for number, content in lines:
        tag = content.strip()
        lead = content[:len(content) - len(content.lstrip())]
        indent_chars.update(lead)
        if len(indent_chars) > 1:
            log.add(name, number, "hierarchy-indentation",
                    "indentation mixes tabs and spaces in one file")
            return out
        if any(ch.isspace() for ch in tag):
            log.add(name, number, "hierarchy-fields",
                    f"an outline line holds one tag, got {tag!r}")
            return out
        width = len(lead)
        if not stack:
            if width:
                log.add(name, number, "hierarchy-indentation",
                        "the first tag of an outline must not be indented")
                return out
        elif width <= stack[-1][0]:
            while stack and stack[-1][0] > width:
                stack.pop()
            if not stack or stack[-1][0] != width:
                log.add(name, number, "hierarchy-indentation",
                        "dedent to an indentation used by no enclosing line")
                return out
            stack.pop()  # a sibling of the line at this indentation
        parent = stack[-1][1] if stack else None
        out.append((number, tag, parent))
        stack.append((width, tag))
    return out


def _gold_list(gold: Iterable[str]) -> List[str]:
    if isinstance(gold, Mapping):
        raise TypeError("gold is a tag or a collection of tags, not a distribution")
    tags = list(dict.fromkeys(gold))
    if not tags:
        raise ValueError("gold annotation has no tags")
    return tags


def _annotation_weights(annotation: Annotation) -> Dict[str, float]:
    """Tag -> weight of an annotation (see the module docstring)."""
    if isinstance(annotation, str):
        return {annotation: 1.0}
    if isinstance(annotation, Mapping):
        weights: Dict[str, float] = {}
        for tag, p in annotation.items():
            p = float(p)
            if not math.isfinite(p) or p < 0.0:
                raise ValueError(f"probability of {tag!r} must be a finite number >= 0, got {p}")
            weights[tag] = weights.get(tag, 0.0) + p
        total = math.fsum(weights.values())
        if abs(total - 1.0) > _SUM_TOLERANCE:
            raise ValueError(f"output probabilities sum to {total!r}, not 1")
        return weights
    tags = list(dict.fromkeys(annotation))
    if not tags:
        raise ValueError("annotation has no tags")
    return {tag: 1.0 / len(tags) for tag in tags}


# ---------------------------------------------------------------- credit & agreement
def credit(hierarchy: Hierarchy, gold: Union[str, Iterable[str]], output: Annotation) -> float:
    """Credit of ``output`` against ``gold``: ``sum_{l in L(G)} P(l | output)``.

    docs/method.md §9.3.  Not symmetric: an under-specified output gets the
    share of its mass that falls on the gold leaves, a more specific output
    than gold gets full credit.

    Parameters
    ----------
    hierarchy : Hierarchy
    gold : str or collection of str
        A tag or several tags, read disjunctively (the union ``L(G)`` of their
        leaf sets).
    output : str, collection of str or mapping of str to float
        A tag, a collection of tags (uniform mass over the distinct tags) or
        ``{tag: probability}`` (must sum to 1 within 1e-9).

    Returns
    -------
    float
        In [0, 1].

    Raises
    ------
    ValueError
        Probabilities that are negative or do not sum to 1; an empty
        annotation.

    See Also
    --------
    pair_agreement, wu_palmer_credit
    """
    return hierarchy.credit(gold, output)


def pair_agreement(hierarchy: Hierarchy, a: Annotation, b: Annotation) -> float:
    """Agreement of two annotations of one item: ``sum_l P(l|a) * P(l|b)``.

    The probability that one leaf drawn from each annotation is the same leaf
    (docs/method.md §9.4): 1 for two identical leaf tags, below 1 whenever
    either side is under-specified.

    Parameters
    ----------
    hierarchy : Hierarchy
    a, b : str, collection of str or mapping of str to float
        Annotations (see `credit`).

    Returns
    -------
    float
        In [0, 1]; symmetric.
    """
    return hierarchy.pair_agreement(a, b)


def pooled_leaf_mass(hierarchy: Hierarchy,
                     tag_counts: Iterable[Tuple[str, float]]) -> Dict[str, float]:
    """``sum_t count_t * P(l | t)`` per leaf over ``(tag, count)`` pairs.

    The leaf mass (`synagree.stats.hierarchical_kappa.HierarchicalKappa.leaf_mass`)
    of annotations given as tag counts.
    """
    mass: Dict[str, float] = {}
    for tag, count in tag_counts:
        for leaf, p in hierarchy._leaf_dist(hierarchy.resolve(tag)).items():
            mass[leaf] = mass.get(leaf, 0.0) + count * p
    return mass


# ---------------------------------------------------------------- distances
def label_distance(hierarchy: Hierarchy, a: str, b: str) -> float:
    """Total-variation distance ``1/2 sum_l |P(l|a) - P(l|b)|`` in [0, 1].

    Symmetric, 0 for identical leaf distributions, triangle inequality (half
    the L1 metric on distribution vectors); ``""`` is at distance 1 from any
    non-empty label and 0 from itself.  Usable as a TED rename cost
    (docs/method.md §9, `synagree.distance.ted.Costs.with_renames`).

    Parameters
    ----------
    hierarchy : Hierarchy
    a, b : str
        Labels (``""``: the root / missing label).
    """
    return hierarchy.label_distance(a, b)


def label_distance_matrix(hierarchy: Hierarchy, labels: Sequence[str],
                          reader: Optional[Callable[[str], Annotation]] = None) -> np.ndarray:
    """``k x k`` float64 matrix of `label_distance` over ``labels``.

    ``""`` is allowed (the root / missing label).  Exactly symmetric with a
    zero diagonal.  ``reader`` turns a value into its annotation first (a
    value with alternatives or probabilities, docs/method.md §15.4: the
    distance is then the total variation between leaf distributions).
    """
    k = len(labels)
    out = np.zeros((k, k), dtype=np.float64)
    real = [i for i, label in enumerate(labels) if label != ""]
    empty = [i for i, label in enumerate(labels) if label == ""]
    if empty:
        out[np.ix_(empty, real)] = 1.0
        out[np.ix_(real, empty)] = 1.0
    if real:
        dist = hierarchy.distribution_matrix(
            [reader(labels[i]) if reader is not None else labels[i] for i in real])
        sub = np.empty((len(real), len(real)), dtype=np.float64)
        for row in range(len(real)):
            sub[row] = 0.5 * np.abs(dist[row] - dist).sum(axis=1)
        sub = np.clip(np.minimum(sub, sub.T), 0.0, 1.0)
        np.fill_diagonal(sub, 0.0)
        out[np.ix_(real, real)] = sub
    return out


def wu_palmer_credit(hierarchy: Hierarchy, a: str, b: str) -> float:
    """Wu–Palmer closeness ``2 * depth(m) / (depth(a) + depth(b))``.

    ``m`` = most specific common ancestor of ``a`` and ``b`` (each counts as
    its own ancestor; depth 0 when they share no tag).  Symmetric, in [0, 1],
    1 iff ``a`` and ``b`` resolve to the same tag.  Structural closeness, not
    IS-A credit: ``wup(A.1, A.2) = 1/2`` although neither IS-A the other.
    Not GATE's BDM (`synagree.trees.gate_bdm`), which gives 0 to every pair
    whose common ancestor is a top-level tag.
    """
    node_a, node_b = hierarchy.resolve(a), hierarchy.resolve(b)
    if node_a == node_b:
        return 1.0
    line_a = [node_a] + hierarchy._ancestors(node_a)
    line_b = [node_b] + hierarchy._ancestors(node_b)
    on_b = set(line_b)
    for i, tag in enumerate(line_a):
        if tag in on_b:
            common_depth = len(line_a) - i  # tags from the top down to `tag`
            return 2.0 * common_depth / (len(line_a) + len(line_b))
    return 0.0
