"""A tag hierarchy from what the user gives: loaded, named, and the credit of two labels.

The part of `synagree.stats.hierarchical` that the commands scoring against gold need
(``compare --hierarchy``, ``tags``, ``spans``): the hierarchy keywords, `load_hierarchy`,
`describe_hierarchy`, `label_credit_fn` (the label-credit modes are described in
`synagree.stats.hierarchical`'s docstring, which re-exports every name here).  A
module of its own so that those commands do not load the corpus-level scores
(`synagree.stats.hierarchical.hierarchical_metrics`: corpora, kappa, contingency
tables) at start-up (issue 36).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Callable, Dict, Iterable, List, Tuple, Union

from synagree.base.option_specs import SPECS
from synagree.base.problems import InputError
from synagree.io.sources import Buffer, as_input, is_stream
from synagree.trees.hierarchy import Hierarchy

__all__ = [
    "MODES", "AGREE_MODE", "LABEL_DISTANCES", "HIERARCHY_KEYWORDS", "HierarchySpec",
    "hierarchy_input", "load_hierarchy", "load_hierarchy_noting_added", "describe_hierarchy",
    "label_credit_fn",
]

#: Label-credit modes for a pair of annotations (`synagree.stats.hierarchical`'s docstring).
MODES: Tuple[str, ...] = SPECS["label_credit"].choices  # declared with the options
#: The mode ``synagree agree`` uses.
AGREE_MODE: str = SPECS["label_credit"].default
LABEL_DISTANCES: Tuple[str, ...] = SPECS["label_distance"].choices
HIERARCHY_KEYWORDS = ("ud", "msd", "flat")

#: a hierarchy: a keyword, a file (path or stream; a stream is read once into a `Buffer`
#: by `hierarchy_input`) or a `Hierarchy`
HierarchySpec = Union[str, "os.PathLike[str]", Hierarchy, Buffer, IO[str], IO[bytes]]


def hierarchy_input(spec: HierarchySpec) -> HierarchySpec:
    r"""``spec`` with a stream read into a `synagree.io.sources.Buffer` (once, so that the
    hierarchy can be loaded again); anything else as it is.
    """
    return as_input(spec, "<hierarchy>") if is_stream(spec) else spec


# ---------------------------------------------------------------- hierarchy
def load_hierarchy(spec: HierarchySpec, labels: Iterable[str] = (),
                   plain_as_leaf: bool = False) -> Hierarchy:
    """The hierarchy named by ``spec`` (``Hierarchies`` in the docstring of
    `synagree.stats.hierarchical`).

    Parameters
    ----------
    spec : str, path-like, file-like, Buffer or Hierarchy
        ``"ud"``, ``"msd"``, ``"flat"``, the path of a hierarchy file
        (`Hierarchy.from_file`), a stream of one (pass it through
        `hierarchy_input` to load it more than once), or a `Hierarchy`
        object.
    labels : iterable of str
        The labels to build ``ud`` / ``msd`` / ``flat`` from; for a file or a
        `Hierarchy` they are resolved, so that labels the hierarchy lacks are
        added as top-level leaves (and listed in ``added_tags``).  ``""`` is
        skipped.
    plain_as_leaf : bool
        ``ud`` only: plain use of a relation with subtypes is its own leaf
        (`Hierarchy.from_ud`).

    Raises
    ------
    InputError
        ``plain_as_leaf`` with another hierarchy, an empty spec, a missing file
        (``hierarchy-not-found``) or a bad file.
    """
    labels = [lab for lab in dict.fromkeys(labels) if lab]
    if isinstance(spec, Hierarchy):
        h = spec
    elif isinstance(spec, Buffer) or is_stream(spec):
        h = Hierarchy.from_file(as_input(spec, "<hierarchy>"))
    else:
        name = str(spec)
        if plain_as_leaf and name != "ud":
            raise InputError.single("<command line>", None, "usage",
                                    "--plain-as-leaf applies to --hierarchy ud only")
        if name == "ud":
            return Hierarchy.from_ud(labels, plain_as_leaf=plain_as_leaf)
        if name == "msd":
            return Hierarchy.from_msd(labels)
        if name == "flat":
            return Hierarchy.flat(labels)
        if not name:
            raise InputError.single("<command line>", None, "usage",
                                    "empty hierarchy: give ud, msd, flat or a file")
        path = Path(name)
        if not path.is_file():
            raise InputError.single(name, None, "hierarchy-not-found",
                                    "no such hierarchy file (the built-in hierarchies are "
                                    + ", ".join(HIERARCHY_KEYWORDS) + ")")
        h = Hierarchy.from_file(path)
    for lab in labels:
        h.resolve(lab)
    return h


def load_hierarchy_noting_added(spec: HierarchySpec, labels: Iterable[str] = (),
                                plain_as_leaf: bool = False) -> Tuple[Hierarchy, List[str]]:
    """`load_hierarchy`, and the labels this call added as top-level leaves.

    Always none for ``ud`` / ``msd`` / ``flat``, which are built from
    ``labels``.

    Parameters
    ----------
    spec, labels, plain_as_leaf
        As for `load_hierarchy`.
    """
    before = len(spec.added_tags) if isinstance(spec, Hierarchy) else 0
    h = load_hierarchy(spec, labels, plain_as_leaf=plain_as_leaf)
    return h, list(h.added_tags[before:])


def describe_hierarchy(spec: HierarchySpec, plain_as_leaf: bool = False) -> str:
    """How a hierarchy spec is named in reports.

    Returns
    -------
    str
        ``"ud"``, ``"ud (plain as leaf)"``, ``"msd"``, ``"flat"``,
        ``"file PATH"`` or ``"custom"`` (a `Hierarchy` object).
    """
    if isinstance(spec, Hierarchy):
        return "custom"
    if isinstance(spec, Buffer):
        return f"file {spec.name}"
    name = str(spec)
    if name == "ud" and plain_as_leaf:
        return "ud (plain as leaf)"
    return name if name in HIERARCHY_KEYWORDS else f"file {name}"


# ---------------------------------------------------------------- credit
def label_credit_fn(h: Hierarchy, mode: str = AGREE_MODE) -> Callable[[str, str], float]:
    """``f(a, b)``: the credit of labels ``a`` (first annotator) and ``b``, cached per pair.

    Parameters
    ----------
    h : Hierarchy
    mode : {"mutual", "agreement", "credit"}
        ``mutual``: (credit(a, b) + credit(b, a)) / 2; ``agreement``: the pair
        agreement Σ_l P(l|a) P(l|b); ``credit``: credit with ``a`` as gold (see
        `synagree.stats.hierarchical`'s docstring and docs/method.md §9.6).

    Raises
    ------
    ValueError
        Unknown mode.
    """
    if mode not in MODES:
        raise ValueError(f"unknown label-credit mode {mode!r}; expected one of {MODES}")
    cache: Dict[Tuple[str, str], float] = {}

    def f(a: str, b: str) -> float:
        key = (a, b)
        v = cache.get(key)
        if v is None:
            if mode == "agreement":
                v = h.pair_agreement(a, b)
            elif a == b:
                v = 1.0
            elif mode == "credit":
                v = h.credit(a, b)
            else:
                v = 0.5 * (h.credit(a, b) + h.credit(b, a))
            cache[key] = v
        return v

    return f
