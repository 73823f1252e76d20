"""What every optional part of an agreement result builds on.

`synagree.agreement.agree.agree_corpus` first computes the core (α per
variant, the word scores, the trees behind them), then each option adds its
**section** (hierarchical credit, unlabelled α, head direction, breakdowns,
the worst sentences, a baseline comparison, ...).  A section module needs the
core only, described here as the `Core` protocol, so the feature modules do
not import the result class that holds their sections.

A `Section` gives the numbers it adds at the top level of the JSON output
(`Section.metrics`, names from `synagree.base.metrics`) and its details (under
``details[Section.name]``).  `AlphaSet` is the section part shared by every
option that recomputes α over other trees (``alpha_<v><suffix>``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Protocol, Sequence, Union

from synagree.base.problems import InputError
from synagree.distance.dask_exec import Executor
from synagree.io.corpus import Corpus
from synagree.stats.alpha import VARIANTS, AlphaStats, TreeAlpha, tree_alpha
from synagree.stats.attachment import Counts
from synagree.trees.flat import FlatTree, Vocabulary

#: a value at the top level of the JSON output: a fraction, a count or undefined
Value = Union[float, int, None]


class Core(Protocol):
    """The core of an agreement result, as the sections read it (read-only: a result
    is frozen; ``executor`` is where the TED passes run, None: here)."""

    @property
    def kind(self) -> str: ...

    @property
    def annotators(self) -> List[str]: ...

    @property
    def alpha(self) -> Dict[str, AlphaStats]: ...

    @property
    def scores(self) -> Counts: ...

    @property
    def corpus(self) -> Optional[Corpus]: ...

    @property
    def tree_alpha(self) -> Optional[TreeAlpha]: ...

    @property
    def trees(self) -> List[List[FlatTree]]: ...

    @property
    def vocab(self) -> Optional[Vocabulary]: ...

    @property
    def notes(self) -> List[str]: ...

    @property
    def executor(self) -> Optional[Executor]: ...


class Section(Protocol):
    """One optional part of a result: its top-level numbers and its details."""

    name: str

    def metrics(self) -> Dict[str, Value]:
        """Top-level JSON values (registered metric keys)."""
        ...

    def details(self) -> object:
        """JSON-ready details, written under ``details[name]``."""
        ...


def corpus_of(core: Core) -> Corpus:
    """The corpus behind ``core`` (ValueError when the result does not carry it)."""
    if core.corpus is None:
        raise ValueError("the agreement result does not carry its corpus (compute it with "
                         "synagree.agree / agree_corpus)")
    return core.corpus


def dependency_corpus(core: Core, need: str) -> Corpus:
    """The corpus behind ``core``, which must be dependency trees for the option that
    ``need`` describes (``--bias tests the labels of words (DEPREL)``).

    Raises
    ------
    InputError
        ``usage``: a phrase-structure corpus.
    """
    corpus = corpus_of(core)
    if corpus.kind != "dependency":
        raise InputError.single("<command line>", None, "usage",
                                f"{need}: it needs dependency input, not phrase-structure "
                                f"trees")
    return corpus


def variants_of(core: Core, variants: Optional[Sequence[str]] = None) -> List[str]:
    """The requested α variants that ``core`` has (all of its variants by default)."""
    return [v for v in (variants or VARIANTS) if v in core.alpha] or list(VARIANTS)


def sampled_pairs(core: Core) -> Optional[int]:
    """The number of pairs behind ``core``'s sampled D_e, or None when it is exact."""
    return next((st.sampled_pairs for st in core.alpha.values() if st.sampled_pairs), None)


def alpha_over(core: Core, units: Sequence[Sequence[FlatTree]],
               variants: Optional[Sequence[str]] = None) -> TreeAlpha:
    """α over other trees of the same units as ``core`` (relabelled, say).

    D_e is exact unless ``core``'s was estimated from sampled pairs; then as
    many pairs are drawn for these trees.  Only pairable units take part.  The
    pass runs where ``core``'s ran (its ``executor``, e.g. a Dask cluster).
    """
    return tree_alpha(units, variants_of(core, variants), sample_pairs=sampled_pairs(core),
                      executor=core.executor)


@dataclass(frozen=True)
class AlphaSet:
    """α recomputed over other trees, reported as ``alpha_<v><suffix>``.

    Attributes
    ----------
    suffix : str
        ``"_unlabelled"``, ``"_direction"``, ``"_hier"``, ...
    stats : dict of str to AlphaStats
        Per variant, the sums behind α.
    distinct_trees : int
    """

    suffix: str
    stats: Dict[str, AlphaStats]
    distinct_trees: int = 0

    @classmethod
    def of(cls, ta: TreeAlpha, suffix: str) -> "AlphaSet":
        """The α of a `TreeAlpha` under ``suffix``."""
        return cls(suffix, dict(ta.stats), ta.n_distinct)

    def metrics(self) -> Dict[str, Value]:
        """``alpha_<v><suffix>`` and, when D_e was sampled, ``alpha_<v><suffix>_se``."""
        out: Dict[str, Value] = {}
        for v, st in self.stats.items():
            out[f"alpha_{v}{self.suffix}"] = st.alpha
            if st.alpha_se is not None:
                out[f"alpha_{v}{self.suffix}_se"] = st.alpha_se
        return out

    def counts(self) -> Dict[str, dict]:
        """The sums behind each α, by its key."""
        return {f"alpha_{v}{self.suffix}": alpha_counts(st) for v, st in self.stats.items()}

    def notes(self) -> List[str]:
        """The α notes, naming the suffixed key."""
        return [n.replace(f"alpha_{v}:", f"alpha_{v}{self.suffix}:", 1)
                for v, st in self.stats.items() for n in st.notes]


def alpha_counts(st: AlphaStats) -> dict:
    """The sums behind one α (``do_sum``, ``de_sum``, ``n``, ``d_o``, ``d_e``)."""
    return {"do_sum": st.do_sum, "de_sum": st.de_sum, "n": st.n, "d_o": st.d_o, "d_e": st.d_e}


class DictSection:
    """A section whose details are its ``to_dict()``, with no top-level numbers unless
    it overrides `metrics` (the tables of breakdowns, bias, drift, queries, bands)."""

    def metrics(self) -> Dict[str, Value]:
        """None at the top level."""
        return {}

    def details(self) -> dict:
        """`to_dict`."""
        return self.to_dict()

    def to_dict(self) -> dict:
        """JSON-ready details."""
        raise NotImplementedError


@dataclass(frozen=True)
class Details:
    """A section of details only: no top-level numbers (the joined and edited units)."""

    name: str
    payload: object

    def metrics(self) -> Dict[str, Value]:
        """None at the top level."""
        return {}

    def details(self) -> object:
        """The payload, JSON-ready."""
        return self.payload
