"""The options objects of the commands, shared by the command line and the Python API.

Each command's options are one frozen dataclass (`AgreeOptions`,
`CompareOptions`, `ParsevalOptions`, `TagsOptions`, `CategoricalOptions`,
`ReportOptions`, `NoiseOptions`; `ReadOptions` for reading annotations), whose
fields are built from the declarations of `synagree.base.option_specs.SPECS`:
the default, the allowed type and range and the help come from there, and every
field is validated when an object is made (`check_value`).  A public function
takes ``(inputs, options=None, **overrides)``: `Options.build` checks the
overrides' names and values and returns the object the function computes with.

Examples
--------
>>> o = AgreeOptions(bootstrap=200, max_memory="500M")
>>> o.bootstrap, o.max_memory, o.level
(200, 524288000, 0.95)
>>> AgreeOptions.build(None, {"bias": "yes"}, "agree()")
Traceback (most recent call last):
...
TypeError: agree(): bias must be True or False, not str 'yes'
>>> o.bootstrap = 1
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'bootstrap'
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Dict, Optional, Tuple, Type

# the base and ParsevalOptions live in their own modules, so that the PARSEVAL path
# (which needs only ParsevalOptions) does not build every options class at import
# (dataclass creation compiles each class's methods: about 6 ms a class; issue 36)
# (CompareOptions likewise: a CoNLL-U comparison builds only its own class)
from synagree.base.compare_options import CompareOptions
from synagree.base.options_base import Options, option
from synagree.base.parseval_options import ParsevalOptions

__all__ = ["Options", "option", "ReadOptions", "AgreeOptions", "CompareOptions",
           "ParsevalOptions", "TagsOptions", "CategoricalOptions", "ReportOptions",
           "NoiseOptions", "OPTIONS_CLASSES"]

@dataclass(frozen=True)
class ReadOptions(Options):
    """How annotations are read and matched (`synagree.agreement.agree.load_corpus`)."""

    command: ClassVar[str] = "load_corpus()"
    names: Optional[Tuple[str, ...]] = option("names")
    fmt: str = option("fmt")
    phrase_style: str = option("phrase_style")
    strict: bool = option("strict")
    allow_missing: bool = option("allow_missing")
    check_text: bool = option("check_text")
    match: str = option("match")

    def read_kwargs(self) -> Dict[str, Any]:
        """The keywords of `load_corpus` (and of every reader of annotator files)."""
        return self.as_kwargs(*(f.name for f in fields(ReadOptions)))


@dataclass(frozen=True)
class AgreeOptions(ReadOptions):
    """``synagree agree``: reading, then what `agree_corpus` computes.

    Examples
    --------
    >>> o = AgreeOptions(bootstrap=1000, variants=["plain"], max_memory="8G")
    >>> o.variants, o.max_memory, o.check_text
    (('plain',), 8589934592, True)
    """

    command: ClassVar[str] = "agree()"
    variants: Tuple[str, ...] = option("variants")
    hierarchy: Any = option("hierarchy")
    unlabelled: bool = option("unlabelled")
    direction: bool = option("direction")
    breakdown: bool = option("breakdown")
    length_bins: Tuple[int, ...] = option("length_bins")
    coefficient: Optional[str] = option("coefficient")
    ac2_weights: Optional[str] = option("ac2_weights")
    bias: bool = option("bias")
    by: Any = option("by")
    where: Any = option("where")
    worst: int = option("worst")
    worst_by: str = option("worst_by")
    variant: str = option("variant")
    bootstrap: int = option("bootstrap")
    seed: int = option("seed")
    level: float = option("level")
    sample_pairs: Optional[int] = option("sample_pairs")
    exact: bool = option("exact")
    baseline: Any = option("baseline")
    per_unit: bool = option("per_unit")
    band: Any = option("band")
    preannotation: Any = option("preannotation")
    plan: Any = option("plan")
    executor: Any = option("executor")
    progress: Optional[bool] = option("progress")
    max_memory: int = option("max_memory")

    def compute_kwargs(self) -> Dict[str, Any]:
        """The keywords of what is computed (not how the input is read)."""
        read = {f.name for f in fields(ReadOptions)}
        return {k: v for k, v in self.as_kwargs().items() if k not in read}


@dataclass(frozen=True)
class TagsOptions(Options):
    """``synagree tags`` (`synagree.evaluation.tags.evaluate_tags`).

    Examples
    --------
    >>> TagsOptions(column="upos", sibling_credit=0.25).sibling_credit
    0.25
    """

    command: ClassVar[str] = "tags()"
    column: str = option("column")
    hierarchy: Any = option("hierarchy")
    plain_as_leaf: bool = option("plain_as_leaf")
    check_text: bool = option("check_text")
    tag_syntax: str = option("tag_syntax")
    bdm: bool = option("bdm")
    prf: bool = option("prf")
    per_feature: bool = option("per_feature")
    tiers: Any = option("tiers")
    wu_palmer: bool = option("wu_palmer")
    sibling_credit: float = option("sibling_credit")
    unmapped: str = option("unmapped")
    majority: bool = option("majority")
    lexicon: Any = option("lexicon")
    bootstrap: int = option("bootstrap")
    seed: int = option("seed")
    level: float = option("level")
    max_memory: int = option("max_memory")
    fmt: str = option("fmt")
    coefficient: Optional[str] = option("coefficient")
    ac2_weights: Optional[str] = option("ac2_weights")


@dataclass(frozen=True)
class CategoricalOptions(ReadOptions):
    """``synagree categorical`` (`synagree.api.categorical`).

    Examples
    --------
    >>> CategoricalOptions(layers=["deprel", "upos"]).layers
    ('deprel', 'upos')
    """

    command: ClassVar[str] = "categorical()"
    layers: Optional[Tuple[str, ...]] = option("layers")
    specific: Optional[str] = option("specific")
    per_feature: bool = option("per_feature")
    feature_items: str = option("feature_items")
    enhanced: bool = option("enhanced")
    set_distance: str = option("set_distance")
    bootstrap: int = option("bootstrap")
    seed: int = option("seed")
    level: float = option("level")
    max_memory: int = option("max_memory")
    coefficient: Optional[str] = option("coefficient")
    ac2_weights: Optional[str] = option("ac2_weights")
    hierarchy: Any = option("hierarchy")


@dataclass(frozen=True)
class ReportOptions(ReadOptions):
    """``synagree report`` (`synagree.api.report`).

    Examples
    --------
    >>> ReportOptions().worst, ReportOptions(title="Batch 3").title
    (20, 'Batch 3')
    """

    command: ClassVar[str] = "report()"
    layers: Optional[Tuple[str, ...]] = option("layers")
    bootstrap: int = option("bootstrap")
    seed: int = option("seed")
    level: float = option("level")
    worst: int = option("worst", default=20)
    variant: str = option("variant")
    baseline: Any = option("baseline")
    sample_pairs: Optional[int] = option("sample_pairs")
    exact: bool = option("exact")
    title: Optional[str] = option("title")
    max_sentences: Optional[int] = option("max_sentences")
    noise: Any = option("noise")
    adjudicate: bool = option("adjudicate")
    max_memory: int = option("max_memory")


@dataclass(frozen=True)
class NoiseOptions(Options):
    """``synagree noise`` (`synagree.api.noise_experiment`).

    Examples
    --------
    >>> NoiseOptions(grid=[0.1, 0.2], runs=3).grid
    (0.1, 0.2)
    """

    command: ClassVar[str] = "noise_experiment()"
    sample: Optional[int] = option("sample")
    seed: int = option("seed")
    series: Tuple[str, ...] = option("series")
    grid: Tuple[float, ...] = option("grid")
    runs: int = option("runs")
    fmt: str = option("fmt")
    phrase_style: str = option("phrase_style")
    cycles: str = option("cycles")
    label_scope: str = option("label_scope")
    exclude_current_label: bool = option("exclude_current_label")
    exclude_current_head: bool = option("exclude_current_head")
    reattach_draw: str = option("reattach_draw")
    hierarchy: Optional[str] = option("hierarchy")
    progress: bool = option("progress", default=False, optional=False)
    overwrite: bool = option("overwrite")
    max_memory: Optional[int] = option("max_memory", default=None, optional=True)


#: every options class, by command
OPTIONS_CLASSES: Dict[str, Type[Options]] = {
    "read": ReadOptions, "agree": AgreeOptions, "compare": CompareOptions,
    "compare_parseval": ParsevalOptions, "tags": TagsOptions,
    "categorical": CategoricalOptions, "report": ReportOptions, "noise": NoiseOptions}
