"""Every option of the commands and of the Python API, declared once, as data.

An `OptionSpec` holds an option's Python name, its kind (the type and range or
choices it allows), its default, its help text and, when the command line has
it, its spelling there.  From these declarations:

- the command line builds its argparse options (`synagree.cli.options`: the
  ``type=`` function, ``choices``, ``default`` and ``help`` come from the spec);
- the options objects of `synagree.base.command_options` (``AgreeOptions``,
  ``CompareOptions``, ...) take their defaults, and validate every field with
  `check_value`;
- the public functions validate their keywords through those objects, so a
  wrong type is a ``TypeError`` and a wrong value a ``ValueError``, each a
  sentence naming the argument, the value given and what is allowed.

No argparse here (the layer contract forbids it below the CLI): the specs are
plain data.
"""
from __future__ import annotations

import dataclasses
import math
import numbers
import os
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Mapping, Optional, Tuple, cast

from synagree.base.addresses import check_address
from synagree.base.memory import DEFAULT_MAX_MEMORY, parse_size

__all__ = ["OptionSpec", "SPECS", "check_value", "check_args", "check_as", "check_fields",
           "shown", "too_many",
           "VARIANT_CHOICES", "MAX_GRID_POINTS", "TOKEN_LAYERS", "DEFAULT_TOKEN_LAYERS",
           "OUTPUT_FORMATS", "FIGURE_FORMATS", "SPAN_COEFFICIENTS"]

VARIANT_CHOICES = ("plain", "diff", "norm")
#: the token layers of categorical agreement (`synagree.stats.categorical.LAYERS`), and
#: those taken when none are named (a ``feats:NAME`` layer is one feature besides)
TOKEN_LAYERS = ("deprel", "head", "upos", "xpos", "feats", "head+deprel")
DEFAULT_TOKEN_LAYERS = ("deprel", "head", "upos", "xpos", "feats")
#: each command's ``--output`` formats, the default first (the renderers' own tuples:
#: tests/test_option_declarations.py checks they agree), so that a command's parser
#: needs no renderer (issue 36: ``synagree CMD --help`` imports nothing that computes)
OUTPUT_FORMATS: Dict[str, Tuple[str, ...]] = {
    "agree": ("table", "json", "csv", "markdown", "latex"),
    "report": ("html", "table", "json", "csv", "markdown", "latex"),
    "adjudicate": ("table", "markdown", "csv", "latex", "json"),
    "categorical": ("table", "json", "csv", "markdown", "latex"),
    "tags": ("table", "json", "csv", "markdown", "latex"),
    "spans": ("table", "json", "csv", "markdown", "latex"),
    "bdm": ("gate", "json", "csv"),
    "plan": ("table", "json", "csv", "latex", "markdown"),
    "alt-test": ("table", "json", "csv", "markdown", "latex"),
}
#: the figure files ``plan --figure`` writes (`synagree.render.plan.FIGURE_FORMATS`)
FIGURE_FORMATS = ("svg", "png", "pdf")
#: ``spans --coefficient`` (`synagree.evaluation.span_alpha.SPAN_COEFFICIENTS`)
SPAN_COEFFICIENTS = ("alpha-u", "gamma")
#: the most probabilities a noise experiment's grid may have (bounded work, issue 35)
MAX_GRID_POINTS = 1000

#: the kinds of value an option takes (`check_value` knows each)
KINDS = ("bool", "int", "fraction", "credit", "positive", "choice", "size", "str", "strs",
         "ints", "fractions", "address", "object")


@dataclass(frozen=True)
class OptionSpec:
    """One option: what it is called, what it takes, its default and its help.

    Parameters
    ----------
    name : str
        The Python keyword (the argparse ``dest``).
    kind : str
        One of `KINDS`: ``bool``; ``int`` (a whole number in ``lo..hi``);
        ``fraction`` (strictly between 0 and 1: a level); ``credit`` (0 to 1,
        both included); ``positive`` (a number above 0 and at most ``hi``);
        ``choice`` (one of ``choices``); ``size`` (bytes, a
        whole number or a size such as ``"4G"``); ``str``; ``strs`` (a
        sequence of strings, never one string); ``ints`` (a sequence of whole
        numbers ≥ ``lo``); ``fractions`` (a sequence of numbers from 0 to 1);
        ``address`` (a Dask scheduler address); ``object`` (any of
        ``accepts``).
    default : object
        The default (the command line's and the API's).
    help : str
        The command line's help text (and the API's description).
    flag : str, optional
        The command-line spelling (``--max-memory``); None: API only.
    lo, hi : int, optional
        The range of an ``int`` (``hi`` None: no upper bound); for a
        ``fractions`` sequence, ``hi`` is the most numbers it may hold.
    choices : tuple of str
        The values of a ``choice`` (or of each item of ``strs``, when given).
    optional : bool
        None is allowed (it means "not asked for" or "decide by cost").
    accepts : tuple of str
        For ``object``: what is accepted, by name: ``str``, ``path``
        (``os.PathLike``), ``stream`` (an object with ``read()``), ``callable``,
        ``dict``, ``sequence``, or a class name (the value's class or a base of
        it), e.g. ``Grouping``.
    metavar : str, optional
        The command line's placeholder.
    prefix : str, optional
        For ``strs`` with ``choices``: an item may also be this prefix and a name
        after it (``feats:`` for a layer ``feats:NAME``).
    """

    name: str
    kind: str
    default: Any
    help: str
    flag: Optional[str] = None
    lo: Optional[int] = None
    hi: Optional[int] = None
    choices: Tuple[str, ...] = ()
    optional: bool = False
    accepts: Tuple[str, ...] = ()
    metavar: Optional[str] = None
    prefix: Optional[str] = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"option {self.name}: unknown kind {self.kind!r}")
        if self.kind == "positive" and self.hi is None:
            raise ValueError(f"option {self.name}: a positive number needs its bound hi")

    def allowed(self) -> str:
        """What the option allows, in words (the end of every message)."""
        base = self._allowed()
        return base + (" or None" if self.optional else "")

    def _allowed(self) -> str:
        k = self.kind
        if k == "int":
            lo = self.lo if self.lo is not None else 0
            return (f"a whole number from {lo:,} to {self.hi:,}" if self.hi is not None
                    else f"a whole number ≥ {lo:,}")
        if k == "positive":
            return f"a number above 0 and at most {self.hi:,}"
        if k == "choice":
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if k == "strs" and self.choices:
            return ("a sequence of strings from " + ", ".join(repr(c) for c in self.choices)
                    + (f", '{self.prefix}NAME' (one feature)" if self.prefix else ""))
        if k == "ints":
            return f"a sequence of whole numbers ≥ {self.lo or 0:,}"
        if k == "fractions" and self.hi is not None:
            return f"a sequence of at most {self.hi:,} numbers from 0 to 1"
        if k == "object":
            return "a " + " or a ".join(_ACCEPT_WORDS.get(a, a) for a in self.accepts)
        return _KIND_WORDS[k]


_KIND_WORDS = {
    "bool": "True or False",
    "fraction": "a number strictly between 0 and 1",
    "credit": "a number from 0 to 1 (both included)",
    "size": "a positive whole number of bytes or a size such as '500M' or '4G'",
    "str": "a string",
    "strs": "a sequence of strings (a list, not one string)",
    "ints": "a sequence of whole numbers",
    "fractions": "a sequence of numbers from 0 to 1",
    "address": "a Dask scheduler address ('local' or tcp://HOST:PORT)",
}
_ACCEPT_WORDS = {"str": "str", "path": "pathlib.Path", "stream": "file-like object with read()",
                 "callable": "callable", "dict": "dict", "sequence": "sequence"}


def shown(value: object) -> str:
    """``value``'s repr for messages, cut to 60 characters."""
    r = repr(value)
    return r if len(r) <= 60 else r[:57] + "..."


def _bad_type(spec: OptionSpec, value: object, where: str) -> TypeError:
    return TypeError(f"{where}{spec.name} must be {spec.allowed()}, not "
                     f"{type(value).__name__} {shown(value)}")


def _bad_value(spec: OptionSpec, value: object, where: str) -> ValueError:
    return ValueError(f"{where}{spec.name} must be {spec.allowed()}, got {shown(value)}")


def _is_whole(v: object) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _is_real(v: object) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _is_sequence(v: object) -> bool:
    return (hasattr(v, "__iter__") and hasattr(v, "__len__")
            and not isinstance(v, (str, bytes, bytearray, dict)) and not hasattr(v, "read"))


def _accepted(token: str, value: object) -> bool:
    if token == "str":
        return isinstance(value, str)
    if token == "path":
        return isinstance(value, os.PathLike)
    if token == "stream":
        return hasattr(value, "read") and not isinstance(value, (str, bytes))
    if token == "callable":
        return callable(value)
    if token == "dict":
        return isinstance(value, Mapping)
    if token == "sequence":
        return _is_sequence(value)
    return any(c.__name__ == token for c in type(value).__mro__)


def check_value(spec: OptionSpec, value: object, where: str = "") -> Any:
    """``value`` checked against ``spec``, normalised (a size in bytes, a sequence a tuple).

    Parameters
    ----------
    spec : OptionSpec
    value : object
    where : str
        Prefixed to the message (``"agree(): "``).

    Raises
    ------
    TypeError
        The value is of a type the option does not take.
    ValueError
        Of the right type, outside the allowed range or choices.

    Examples
    --------
    >>> check_value(SPECS["max_memory"], "4G")
    4294967296
    >>> check_value(SPECS["bootstrap"], -1)
    Traceback (most recent call last):
    ...
    ValueError: bootstrap must be a whole number from 0 to 1,000,000, got -1
    """
    if value is None and spec.optional:
        return None
    k = spec.kind
    if k == "bool":
        if isinstance(value, bool) or type(value).__name__ == "bool_":  # numpy's too
            return bool(value)
        raise _bad_type(spec, value, where)
    if k == "int":
        if not _is_whole(value):
            raise _bad_type(spec, value, where)
        v = int(cast(numbers.Integral, value))
        if v < (spec.lo or 0) or (spec.hi is not None and v > spec.hi):
            raise _bad_value(spec, value, where)
        return v
    if k in ("fraction", "credit", "positive"):
        return _check_number(spec, value, where)
    if k == "choice":
        if not isinstance(value, str):
            raise _bad_type(spec, value, where)
        if value not in spec.choices:
            raise _bad_value(spec, value, where)
        return value
    if k == "size":
        return _check_size(spec, value, where)
    if k == "str":
        if not isinstance(value, str):
            raise _bad_type(spec, value, where)
        return value
    if k == "address":
        if not isinstance(value, str):
            raise _bad_type(spec, value, where)
        try:
            return check_address(value)
        except ValueError as exc:
            raise ValueError(f"{where}{spec.name}: {exc}") from None
    if k == "object":
        if not any(_accepted(a, value) for a in spec.accepts):
            raise _bad_type(spec, value, where)
        return value
    return _check_sequence(spec, value, where)


def check_as(keyword: str, name: str, value: object, where: str = "",
             optional: Optional[bool] = None) -> Any:
    """``value`` checked against ``SPECS[name]``, the message naming ``keyword`` (a
    function's or an options object's own name for the option, e.g. ``metric`` for
    alt-test's ``--score``); ``optional`` False refuses None where the command line's
    None only means "not given".

    Examples
    --------
    >>> check_as("metric", "score", "LAS")
    'LAS'
    >>> check_as("metric", "score", "BLEU", "alt_test(): ")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: alt_test(): metric must be one of 'LAS', ..., 'jaccard' or None, got 'BLEU'
    """
    spec = SPECS[name]
    if keyword != spec.name or (optional is not None and optional != spec.optional):
        spec = dataclasses.replace(spec, name=keyword,
                                   optional=spec.optional if optional is None else optional)
    return check_value(spec, value, where)


def check_fields(obj: object, where: str, fields: Mapping[str, str]) -> None:
    """Each field of the frozen dataclass ``obj`` checked against its declaration
    (``fields``: field name -> name in `SPECS`) and replaced by the normalised value
    (`check_as`), so that an options object of a section validates as the command
    line does."""
    for field_name, name in fields.items():
        value = check_as(field_name, name, getattr(obj, field_name), where)
        object.__setattr__(obj, field_name, value)


def check_args(where: str, **values: Any) -> Dict[str, Any]:
    """Each keyword checked against its declaration in `SPECS` (a function's boundary).

    Returns the normalised values; raises as `check_value`, the message
    starting with ``where`` (``"read(): "``).
    """
    return {k: check_value(SPECS[k], v, where) for k, v in values.items()}


def _check_number(spec: OptionSpec, value: object, where: str) -> float:
    """``fraction`` (0 < v < 1), ``credit`` (0 ≤ v ≤ 1) and ``positive`` (0 < v ≤ hi)."""
    if not _is_real(value):
        raise _bad_type(spec, value, where)
    f = float(cast(numbers.Real, value))
    if spec.kind == "fraction":
        inside = 0.0 < f < 1.0
    elif spec.kind == "credit":
        inside = 0.0 <= f <= 1.0
    else:
        inside = 0.0 < f <= (spec.hi or 0)
    if not (math.isfinite(f) and inside):
        raise _bad_value(spec, value, where)
    return f


def _check_size(spec: OptionSpec, value: object, where: str) -> int:
    if isinstance(value, str):
        try:
            return parse_size(value)
        except ValueError:
            raise _bad_value(spec, value, where) from None
    if not _is_whole(value):
        raise _bad_type(spec, value, where)
    size = int(cast(numbers.Integral, value))
    if size < 1:
        raise _bad_value(spec, value, where)
    return size


def _check_sequence(spec: OptionSpec, value: object, where: str) -> Tuple[Any, ...]:
    """``strs``, ``ints`` and ``fractions``: every item checked, the whole a tuple."""
    if not _is_sequence(value):
        raise _bad_type(spec, value, where)
    items: Tuple[Any, ...] = tuple(cast(Iterable[Any], value))
    if spec.kind == "fractions" and spec.hi is not None and len(items) > spec.hi:
        raise ValueError(too_many(spec, len(items), f"{where}{spec.name}"))
    for x in items:
        if spec.kind == "strs":
            ok_type = isinstance(x, str)
            ok_value = (not spec.choices or x in spec.choices
                        or (ok_type and spec.prefix is not None and x.startswith(spec.prefix)
                            and len(x) > len(spec.prefix)))
        elif spec.kind == "ints":
            ok_type = _is_whole(x)
            ok_value = ok_type and x >= (spec.lo or 0)
        else:
            ok_type = _is_real(x)
            ok_value = ok_type and math.isfinite(x) and 0.0 <= x <= 1.0
        if not ok_type:
            raise TypeError(f"{where}{spec.name} must be {spec.allowed()}, but it holds "
                            f"{type(x).__name__} {shown(x)}")
        if not ok_value:
            raise _bad_value(spec, value, where)
    return items


def too_many(spec: OptionSpec, count: int, name: str) -> str:
    """The message for a sequence longer than ``spec`` allows (``spec.hi`` items), the
    option named ``name`` (the API's keyword or the command line's flag): one sentence
    for both.

    Examples
    --------
    >>> too_many(SPECS["grid"], 1001, "grid")
    'grid must be a sequence of at most 1,000 numbers from 0 to 1, got 1,001 numbers'
    """
    return f"{name} must be {spec.allowed()}, got {count:,} numbers"


def _spec(name: str, kind: str, default: Any, help: str, **kw: Any) -> Tuple[str, OptionSpec]:
    return name, OptionSpec(name, kind, default, help, **kw)


_HIER_ACCEPTS = ("str", "path", "stream", "Hierarchy", "HierarchyOptions")
_SOURCE = ("str", "path", "stream", "Buffer")

#: every option, by its Python name; the per-command options objects pick
#: theirs (`synagree.base.command_options`), the command line its spelled ones
SPECS: Dict[str, OptionSpec] = dict([
    # reading and matching the input (every command that reads annotations)
    _spec("fmt", "str", "auto",
          "input format (default auto: by the file-name suffix, else by the content; see "
          "docs/formats.md); the names are those of the reader registry "
          "(synagree.io.registry), which checks them", flag="--format", metavar="NAME"),
    _spec("sets", "str", None, "GATE documents: the annotation sets compared, each an "
          "annotator (spans: the first of each pair is the key)", flag="--sets",
          optional=True, metavar="SET1,SET2"),
    _spec("ann_type", "str", None, "GATE documents: the annotation type compared",
          flag="--type", optional=True, metavar="TYPE"),
    _spec("phrase_style", "choice", "auto",
          "bracketed trees: leaves are categories (delex) or words (penn); auto decides "
          "once for all files and says how", flag="--phrase-style",
          choices=("auto", "delex", "penn")),
    _spec("strict", "bool", False, "treat warnings (head cycles, missing labels) as errors",
          flag="--strict"),
    _spec("allow_missing", "bool", False,
          "sentences (matched by # sent_id) or, with --dirs, files absent for some "
          "annotators are missing annotations instead of an error", flag="--allow-missing"),
    _spec("names", "strs", None, "one name per compared file, in order (compare: per system "
          "file; default: the file names)", flag="--names", optional=True, metavar="NAME"),
    _spec("match", "choice", "auto",
          "match sentences by # sent_id, by position (the texts aligned: sentences split "
          "differently are joined into one unit), or by text (the same words, whatever the "
          "order or ids; sentences only some annotators have are missing annotations); auto "
          "(default): sent_id when every sentence has one, else position", flag="--match",
          choices=("auto", "sent_id", "position", "text")),
    _spec("check_text", "bool", True,
          "check that paired sentences are the same text (the command line's "
          "--no-text-check turns it off)"),
    _spec("no_text_check", "bool", False,
          "do not check that paired sentences are the same text: pair them (by # sent_id, "
          "else by position) whatever their words; without it, texts are compared without "
          "whitespace, local edits are accepted and reported, and other differences are "
          "errors (docs/method.md §1.5)", flag="--no-text-check"),
    _spec("preannotation", "object", None,
          "the parser output the annotators corrected (a directory with --dirs): per "
          "annotator the share of arcs kept and changed, agreement on each, and alpha and "
          "LAS with and without the arcs every annotator kept (docs/method.md §29)",
          flag="--preannotation", optional=True, metavar="FILE",
          accepts=("str", "path", "PreannotationOptions")),
    # tag hierarchies: partial credit and closeness (docs/method.md §15, §23)
    _spec("hierarchy", "object", None,
          "tag hierarchy: ud (a:b IS-A a), msd (positional tags), flat, or a hierarchy file "
          "(docs/hierarchy.md); it gives the partial label credit of the *_hier scores, the "
          "closeness of --bdm and --wu-palmer and the weights of categorical's --coefficient "
          "ac2 (default: none; tags: ud for deprel, flat otherwise)", flag="--hierarchy",
          optional=True, metavar="ud|msd|flat|FILE", accepts=_HIER_ACCEPTS),
    # the alternative annotator test (alt-test): docs/method.md §34.2
    _spec("epsilon", "credit", 0.2,
          "the cost-benefit allowance epsilon, from 0 to 1 (default 0.2: expert annotators; "
          "0.15 skilled, 0.1 crowd)", flag="--epsilon", metavar="E"),
    _spec("fdr", "fraction", 0.05, "the Benjamini-Yekutieli false discovery rate (default "
          "0.05)", flag="--fdr", metavar="Q"),
    _spec("min_units", "int", 30, "leave out a human with fewer scored sentences (with "
          "--label-data: instances) (default 30, as the paper)", flag="--min-units", lo=2,
          metavar="N"),
    _spec("scoring", "choice", "accuracy",
          "--label-data: how a label aligns with the other humans' labels of the instance: "
          "accuracy (the share equal to it; default) or neg_rmse (minus the root mean squared "
          "difference, numeric labels), as the paper's reference implementation",
          flag="--scoring", choices=("accuracy", "neg_rmse")),
    # Gwet's AC1/AC2 (categorical, tags): docs/method.md §34.1
    _spec("coefficient", "choice", None,
          "also Gwet's AC1 (ac1) or weighted AC2 (ac2), with Gwet's standard error and t "
          "interval (docs/method.md §34.1)", flag="--coefficient", optional=True,
          choices=("ac1", "ac2")),
    _spec("ac2_weights", "choice", None,
          "weights of --coefficient ac2: ordinal or quadratic over the categories in order "
          "(numeric, else alphabetical); without it AC2 takes the --hierarchy's mutual credit",
          flag="--ac2-weights", optional=True, choices=("identity", "ordinal", "quadratic")),
    _spec("label_distance", "choice", "exact",
          "hierarchy: also report alpha with hierarchy-aware TED rename costs "
          "(alpha_*_hier); needs --hierarchy (default: exact)", flag="--label-distance",
          choices=("exact", "hierarchy")),
    _spec("label_credit", "choice", "mutual",
          "credit for two annotators' labels: mutual (mean of both directions, default), "
          "agreement (sum_l P(l|a)P(l|b)), credit (first annotator as gold)",
          flag="--label-credit", choices=("mutual", "agreement", "credit")),
    _spec("plain_as_leaf", "bool", False,
          "with --hierarchy ud: a plain relation (nsubj) is its own leaf beside its subtypes "
          "instead of an under-specified parent", flag="--plain-as-leaf"),
    _spec("bdm", "bool", False,
          "also report GATE's balanced distance metric (BDM) between the tags, computed as "
          "GATE's BDM plugin does with the hierarchy's top-level tags as top classes "
          "(docs/method.md §23); tags whose common ancestor is a top-level tag get 0 (spans: "
          "GATE's BDM-based P/R/F1)", flag="--bdm"),
    _spec("wu_palmer", "bool", False,
          "also report the Wu-Palmer closeness 2 depth(common ancestor) / (depth(a) + "
          "depth(b)), depth counted in tags (what --bdm computed before it followed GATE)",
          flag="--wu-palmer"),
    # what is computed
    _spec("metric", "choice", "all", "which alpha variant(s) to compute (default: all)",
          flag="--metric", choices=("all", *VARIANT_CHOICES)),
    _spec("variants", "strs", VARIANT_CHOICES, "the alpha variants computed",
          choices=VARIANT_CHOICES),
    _spec("exact", "bool", False, "always compute D_e exactly, however large the corpus",
          flag="--exact"),
    _spec("breakdown", "bool", False,
          "also break the scores down per relation, per UPOS, per dependency length and "
          "direction and per sentence length, with the relation confusions (docs/method.md "
          "§11.4, §21)", flag="--breakdown"),
    _spec("prf", "bool", False,
          "add micro and macro P/R/F1 over labels, strict (labels as written) and lenient "
          "(top-level ancestors in the hierarchy); compare adds head-based variants "
          "(docs/method.md §17)", flag="--prf"),
    _spec("per_feature", "bool", False,
          "also score each feature of FEATS on its own, every feature seen, most frequent "
          "first (tags: with --column feats; categorical: layers feats:NAME give single "
          "features)", flag="--per-feature"),
    _spec("bias", "bool", False,
          "also test each annotator pair for a systematic preference on the labels (agree, "
          "report: DEPREL; categorical: every layer it computes): Stuart-Maxwell marginal "
          "homogeneity, and per label McNemar's exact test (Holm-adjusted) with who uses the "
          "label more", flag="--bias"),
    _spec("unlabelled", "bool", False,
          "also report alpha over unlabelled trees (structure only: alpha_*_unlabelled, one "
          "more TED pass) and label agreement on the words whose heads agree (la_given_head)",
          flag="--unlabelled"),
    _spec("direction", "bool", False,
          "also report alpha over trees whose labels carry the head direction (< head to the "
          "left, > to the right): alpha_*_direction, which tells apart analyses that plain "
          "trees without words confuse (dependency only)", flag="--label-direction"),
    _spec("length_bins", "ints", (10, 20, 30, 40),
          "with --breakdown: upper ends of the sentence-length bins (default 10,20,30,40: "
          "1-10, 11-20, 21-30, 31-40, 41+)", flag="--length-bins", lo=1, metavar="N,N,..."),
    _spec("by", "object", None,
          "also alpha per batch in order with a bootstrap control band: batches from "
          "'# batch = ...' comments, per document, or N consecutive sentences (order:N); the "
          "band takes --bootstrap replicates (1000 when not given)", flag="--by",
          optional=True, accepts=("str", "Grouping"), metavar="batch|document|order:N"),
    _spec("where", "object", (),
          "also alpha over the arcs a query selects, e.g. deprel=conj, upos=ADP, "
          "head.upos=VERB, deprel=obl|nmod, upos=ADP,head.upos=NOUN (commas: AND; !=: not); "
          "repeat for several rows", flag="--where", accepts=("sequence",), metavar="QUERY"),
    _spec("worst", "int", 0,
          "list the K sentences contributing most to disagreement (share of D_o, TED, "
          "annotators, differing words) and every joined or edited unit (default: agree 0, "
          "report 20)", flag="--worst", lo=0, metavar="K"),
    _spec("worst_by", "choice", "share",
          "rank --worst by share of D_o (default) or by influence: how much alpha rises when "
          "the sentence is left out", flag="--worst-by", choices=("share", "influence")),
    _spec("variant", "choice", "plain", "rank sentences by this alpha variant's D_o "
          "(default plain)", flag="--variant", choices=VARIANT_CHOICES),
    _spec("per_unit", "bool", False, "keep the per-unit data (a later baseline)"),
    _spec("baseline", "object", None,
          "compare with a result stored earlier with -o OLD.json (agree and report read each "
          "other's): per metric old, new, change and paired tests over the matched "
          "sentences, and the sentences that got worse or better", flag="--baseline",
          optional=True, accepts=("str", "path", "BaselineOptions"), metavar="OLD.json"),
    _spec("band", "object", None, "a parser's agreement with the humans (BandOptions)",
          optional=True, accepts=("BandOptions",)),
    _spec("plan", "object", None,
          "also the sentences needed for an interval of alpha no wider than WIDTH at "
          "--ci-level, from this round as the pilot", flag="--plan", optional=True,
          accepts=("PlanOptions",), metavar="WIDTH"),  # the command line: the width, as --width
    _spec("executor", "object", None, "runs the all-pairs tiles elsewhere (Dask)",
          optional=True, accepts=("callable",)),
    _spec("progress", "bool", None, "progress bar on stderr (a terminal only)",
          optional=True),
    # resampling
    _spec("bootstrap", "int", 0, "B unit-resampling replicates for percentile intervals of "
          "the scores (default 0: none; docs/method.md §5.4)", flag="--bootstrap", lo=0,
          hi=1_000_000, metavar="B"),
    _spec("seed", "int", 0, "random seed (default 0)", flag="--seed", lo=0, hi=2**32 - 1,
          metavar="S"),
    _spec("level", "fraction", 0.95, "confidence level of every interval (default 0.95)",
          flag="--ci-level", metavar="L"),
    _spec("sample_pairs", "int", None,
          "estimate D_e from N random tree pairs (D_o stays exact); by default D_e is exact "
          "when that fits about a second of work, else sampled until the SE of every alpha "
          "is at most 1e-4 (docs/method.md §5.3)", flag="--sample-pairs", lo=100, hi=10**9,
          optional=True, metavar="N"),
    _spec("significance", "bool", False,
          "paired bootstrap and approximate randomisation between every two systems (LAS, "
          "UAS, CLAS, alpha_plain; --test-replicates rounds)", flag="--significance"),
    _spec("test_replicates", "int", 1000, "bootstrap replicates and randomisation rounds of "
          "the paired tests of --baseline and --significance (default 1,000)",
          flag="--test-replicates", lo=1, hi=1_000_000, metavar="R"),
    _spec("R", "int", None, "randomisation rounds (default: test_replicates)", lo=1,
          hi=1_000_000, optional=True),
    # how it runs
    _spec("dask", "address", None,
          "run the long passes on Dask (the tree-edit-distance passes of alpha and of every "
          "option; noise: the runs, one task each): 'local' (a cluster on this machine) or "
          "tcp://scheduler:8786 (also tls://, ws://, wss://, ucx://); the numbers are those "
          "of a local run (pip install 'synagree[dask]')", flag="--dask", optional=True,
          metavar="ADDR"),
    _spec("max_memory", "size", DEFAULT_MAX_MEMORY,
          "refuse work planned to need more memory than this, before it starts (default 4G; "
          "e.g. 500M, 16G)", flag="--max-memory", metavar="SIZE"),
    _spec("quiet", "bool", False, "no progress, notes or warnings on stderr", flag="--quiet"),
    # compare
    _spec("alpha", "bool", True,
          "bracketed input: add alpha between gold and each system (over the trees PARSEVAL "
          "compares)", flag="--alpha"),  # dependency input: on unless --no-alpha
    _spec("no_alpha", "bool", False,
          "skip alpha (the all-pairs tree edit distances are the slow part)",
          flag="--no-alpha"),
    _spec("full_labels", "bool", False,
          "breakdown and confusions by full DEPREL (with subtypes)", flag="--full-labels"),
    _spec("tag_syntax", "choice", "plain",
          "alternatives: read tags (tags: the --column; agree, compare: DEPREL) such as NN|NNS "
          "(any of them; for a system or annotator, uniform mass) and NN=0.7|NNS=0.3 "
          "(probabilities) as alternatives, with \\| \\= \\\\ as escapes (default: plain, "
          "every value one tag)", flag="--tag-syntax", choices=("plain", "alternatives")),
    _spec("params", "object", "collins", "bracketed input: EVALB's parameter file, or a "
          "bundled one (default collins = COLLINS.prm; new = new.prm; nk = nk.prm)",
          flag="--params", metavar="FILE|collins|new|nk",
          accepts=("str", "path", "stream", "EvalbParams")),
    _spec("engine", "choice", "auto", "the PARSEVAL engine", choices=("auto", "c", "python")),
    # tags
    _spec("column", "choice", "deprel", "column to evaluate (default: deprel)",
          flag="--column", choices=("upos", "xpos", "feats", "deprel")),
    _spec("tiers", "object", None,
          "tiered tags: a FINE<TAB>COARSE mapping file (or another gold column, e.g. upos, to "
          "take the mapping from): adds coarse accuracy, fine accuracy, tier credit and "
          "recoverability", flag="--tiers", optional=True, metavar="MAPPING|COLUMN",
          accepts=("str", "path", "stream", "TagMap")),
    _spec("sibling_credit", "credit", 0.5,
          "with --tiers: credit of another fine tag of the gold tag's coarse class (0 to 1; "
          "default 0.5)", flag="--sibling-credit", metavar="W"),
    _spec("unmapped", "choice", "error",
          "with --tiers: a tag the mapping lacks is an error (default) or its own coarse class",
          flag="--tiers-unmapped", choices=("error", "own-class")),
    _spec("majority", "bool", False,
          "with --tiers COLUMN: map each fine tag to its most frequent coarse tag in gold when "
          "the column is not a function of the fine one, and report the ambiguous fine tags",
          flag="--majority"),
    _spec("lexicon", "object", None,
          "with --tiers: a lexicon (WORD<TAB>FINE lines, or a training .conllu file whose "
          "--column gives it): report how often the coarse tag and the lexicon decide the fine "
          "tag, per coarse tag and per word form, unknown words apart", flag="--lexicon",
          optional=True, metavar="FILE", accepts=("str", "path", "stream", "Lexicon")),
    # categorical and report
    _spec("layers", "strs", None,
          f"token layers for categorical agreement, comma-separated, from "
          f"{', '.join(TOKEN_LAYERS)} ('' for none; default {','.join(DEFAULT_TOKEN_LAYERS)}, "
          f"leaving out a layer whose values look like ids or numbers, with a note; a layer "
          f"named here is always kept)", flag="--layers", optional=True, choices=TOKEN_LAYERS,
          prefix="feats:"),  # a layer feats:NAME is one feature (synagree.stats.features)
    _spec("specific", "choice", None, "also list specific agreement per category of this "
          "layer", flag="--specific", choices=TOKEN_LAYERS, metavar="LAYER",
          optional=True),
    _spec("feature_items", "choice", "all",
          "items of a feature: all words, '_' where it is absent (default), or only words "
          "where some annotator gives it (present)", flag="--feature-items",
          choices=("all", "present")),
    _spec("enhanced", "bool", False,
          "also agreement on enhanced dependencies (DEPS): alpha over the set of incoming "
          "edges of each word, and pairwise ELAS/EULAS F1", flag="--enhanced"),
    _spec("set_distance", "choice", "masi", "set distance of the --enhanced alpha (default "
          "masi)", flag="--set-distance", choices=("masi", "jaccard")),
    _spec("title", "str", None, "page title", flag="--title", optional=True),
    _spec("max_sentences", "int", 5000,
          "HTML: keep at most the N worst sentences (default 5000; 0: all)",
          flag="--max-sentences", lo=0, optional=True, metavar="N"),
    _spec("noise", "object", None,
          "noise-experiment results (runs.csv / results.json of synagree noise) to plot, with "
          "this corpus's own alpha and LAS as reference lines; runs made on other files are "
          "refused", flag="--noise", optional=True,
          accepts=("str", "path", "sequence"), metavar="RESULTS"),
    _spec("adjudicate", "bool", False,
          "HTML: add the consensus's worklist with a choice between the annotators per word "
          "(per unit for bracketed input), and buttons that download the adjudicated CoNLL-U "
          "(trees) and the decisions file (docs/adjudication.md)", flag="--adjudicate"),
    _spec("reference", "strs", None,
          "with --system: the human(s) to score against (default: each in turn)",
          flag="--reference", optional=True, metavar="NAME"),
    # adjudicate (docs/method.md §31)
    _spec("weights", "choice", "equal",
          "vote weights: equal (default) or competence (each annotator's accuracy estimated by "
          "one-coin Dawid-Skene over the head choices, or the span choices of bracketed input; "
          "docs/method.md §31.3, §31.6)", flag="--weights", choices=("equal", "competence")),
    _spec("decisions", "object", None,
          "a worklist (.csv or .json) with choose_annotator or choose_head/choose_deprel "
          "filled: applied on top of the consensus", flag="--decisions", optional=True,
          metavar="FILE", accepts=("str", "path")),
    # plan (docs/method.md §30)
    _spec("width", "positive", None,
          "target width (high - low) of the interval of alpha, e.g. 0.1", flag="--width",
          hi=4, metavar="W"),
    _spec("max_units", "int", 1_000_000,
          "the largest sample size tried (default 1,000,000)", flag="--max-units", lo=10,
          hi=10**9, metavar="N"),
    # spans (docs/method.md §24, §34.4, §34.5)
    _spec("layer", "choice", None,
          "what to compare: constituents (default) or preterminals of trees; a CoNLL-U "
          "column labelling each word (default upos)", flag="--layer", optional=True,
          choices=("constituents", "preterminals",  # trees; then the CoNLL-U columns
                   "upos", "xpos", "deprel", "feats", "lemma", "form")),
    _spec("labels", "choice", "type",
          "each label its own annotation type (default, GATE's IAA per label summed), the "
          "label as a feature of one type, or spans only", flag="--labels",
          choices=("type", "feature", "none")),
    _spec("gamma_samples", "int", None,
          "gamma: random continua for the expected disorder (default 30)",
          flag="--gamma-samples", lo=2, hi=1_000_000, optional=True, metavar="N"),
    _spec("gamma_seed", "int", None, "gamma: the sampler's seed (default 0)",
          flag="--gamma-seed", lo=0, hi=2**32 - 1, optional=True, metavar="S"),
    _spec("gamma_precision", "str", None,
          "gamma: pygamma's precision level, high (0.01), medium (0.02), low (0.1) or a "
          "number in (0, 1): more samples while they vary too much (default: none, the "
          "samples asked for)", flag="--gamma-precision", optional=True, metavar="P"),
    _spec("gamma_budget", "int", None,
          "gamma: the exact best alignment's budget, the cells of one assignment (two files; "
          "default 25000000) or the candidate unitary alignments and search states (more "
          "files; default 1000000); above it, an error", flag="--gamma-budget", lo=1,
          optional=True, metavar="N"),
    # alt-test (docs/method.md §34.2)
    _spec("score", "choice", None,
          "the per-sentence score: LAS (default), LAS_full, UAS, LA or ted (minus the tree "
          "edit distance) for dependencies; jaccard (default) or ted for bracketed trees",
          flag="--score", optional=True,
          choices=("LAS", "LAS_full", "UAS", "LA", "ted", "jaccard")),
    # GATE documents as categories (categorical --format gate)
    _spec("gate_feature", "str", None,
          "--format gate: the feature whose values are the categories", flag="--feature",
          optional=True, metavar="NAME"),
    # noise
    _spec("sample", "int", 100,
          "sentences drawn from the source (default 100; 0: all; the API also takes None)",
          flag="--sample", lo=0, optional=True, metavar="N"),
    _spec("series", "strs", ("both", "relabel", "reattach"),
          "the noise series, from both, relabel, reattach, random (default both, relabel, "
          "reattach; on the command line comma-separated)", flag="--series",
          choices=("both", "relabel", "reattach", "random"), metavar="S,S,..."),
    _spec("grid", "fractions", tuple(round(0.1 * k, 10) for k in range(1, 11)),
          f"the noise probabilities (default 0.1, 0.2, ..., 1.0; on the command line "
          f"'p1,p2,...' or 'start:stop:num', both ends included; at most "
          f"{MAX_GRID_POINTS:,} points)", flag="--grid", metavar="GRID", hi=MAX_GRID_POINTS),
    _spec("runs", "int", 10, "runs per point (default 10)", flag="--runs", lo=1, hi=10_000,
          metavar="R"),
    _spec("cycles", "choice", "skip", "source sentences with head cycles: leave out "
          "(skip, default), repair (lowest word of the cycle to the root) or refuse (error)",
          flag="--cycles", choices=("skip", "repair", "error")),
    _spec("label_scope", "choice", "source", "relabelling draws from the labels of all "
          "source files (source, default) or of the sample only (sample)", flag="--label-set",
          choices=("source", "sample")),
    _spec("exclude_current_label", "bool", False, "relabelling never draws the old label",
          flag="--exclude-current-label"),
    _spec("exclude_current_head", "bool", False, "reattachment never draws the old head",
          flag="--exclude-current-head"),
    _spec("reattach_draw", "choice", "nondominated",
          "nondominated (docs/method.md §8, default): the new head is uniform over the "
          "tokens the word does not dominate; reject: uniform over all tokens, keeping the "
          "old head when that would make a cycle (matches the published reattach-only LAS)",
          flag="--reattach-draw", choices=("nondominated", "reject")),
    _spec("overwrite", "bool", False, "discard results already in OUT instead of resuming",
          flag="--overwrite"),
    # plot (the keyword is plot_results' band, a name `band` above has for BandOptions)
    _spec("plot_band", "choice", "minmax",
          "shaded band: min–max over runs (default) or mean ± 1 sd", flag="--band",
          choices=("minmax", "sd")),
])
