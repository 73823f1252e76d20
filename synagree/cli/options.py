"""The command-line vocabulary: every option that several commands share, once.

One concept has one name, one default and one validation everywhere:

=====================  ===========================================================
``-o/--out FILE``      write the result here, atomically; the format follows the
                       suffix (``.json .csv .tex .md .html .txt``) unless
                       ``--output`` names one
``--output FORMAT``    ``table json csv latex markdown`` (and ``html`` for
                       ``report``)
``-q/--quiet``         no progress, notes or warnings on stderr
``--bootstrap B``      unit-resampling replicates for percentile intervals
                       (0 to 1,000,000; default 0: no intervals)
``--seed S``           random seed (whole number ≥ 0; default 0)
``--ci-level L``       confidence level of every interval (0 < L < 1; default 0.95)
``--variant V``        which α variant ranks sentences (plain, diff, norm)
``--sample-pairs N``   estimate D_e from N random tree pairs (≥ 100)
``--max-memory SIZE``  refuse work planned to need more memory (default 4G)
``--dask ADDR``        run the long passes on a Dask cluster (``local`` or
                       ``tcp://HOST:PORT``)
=====================  ===========================================================

An option that is a name and argparse settings only is declared once, as data,
in `OPTIONS`, and a command adds it by name (``add_options(p, "--quiet")``); the
option groups (``add_input``, ``add_output``, ``add_bootstrap`` ...) add the rest.
Values are checked by argparse ``type=`` functions, so a bad value ends with
one line naming the option and its allowed range, exit status 2, before any
work starts.  Earlier spellings (``--confidence``, ``-B/--replicates``,
``--worst-variant``) are still accepted, hidden from the help.
"""
from __future__ import annotations

import argparse
import math
import os
from pathlib import Path
from typing import (
    Any,
    Callable,
    Dict,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    TypedDict,
    TypeVar,
)

from synagree.base.addresses import check_address
from synagree.base.memory import parse_size
from synagree.base.option_specs import SPECS, VARIANT_CHOICES, OptionSpec
from synagree.base.problems import InputError
from synagree.io import registry
from synagree.io.files import check_output, output_target
from synagree.stats.replicates import check_replicates

T = TypeVar("T")

SUFFIX_FORMATS: Dict[str, str] = {".json": "json", ".csv": "csv", ".tex": "latex",
                                  ".md": "markdown", ".markdown": "markdown",
                                  ".html": "html", ".htm": "html", ".txt": "table"}


# --------------------------------------------------------------------------
# Validated value types
# --------------------------------------------------------------------------

def whole_number(lo: int, hi: Optional[int] = None) -> Callable[[str], int]:
    """An argparse type: a whole number in ``lo..hi`` (``hi`` None: no upper bound)."""
    span = f"from {lo:,} to {hi:,}" if hi is not None else f"≥ {lo:,}"

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number {span}, got {text!r}")
        if value < lo or (hi is not None and value > hi):
            raise argparse.ArgumentTypeError(f"must be a whole number {span}, got {value:,}")
        return value

    parse.__name__ = "whole number"
    return parse


def _fraction(text: str, inclusive: bool) -> float:
    """``text`` as a number in [0, 1] (``inclusive``) or (0, 1); usage errors that say which."""
    span, ends = (("from 0 to 1", "inclusive") if inclusive
                  else ("between 0 and 1", "exclusive"))
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number {span}, got {text!r}")
    inside = 0.0 <= value <= 1.0 if inclusive else 0.0 < value < 1.0
    if not math.isfinite(value) or not inside:
        raise argparse.ArgumentTypeError(f"must be a number {span} ({ends}), got {text!r}")
    return value


def open_fraction(text: str) -> float:
    """An argparse type: a number strictly between 0 and 1 (a confidence level)."""
    return _fraction(text, inclusive=False)


def unit_interval(text: str) -> float:
    """An argparse type: a number from 0 to 1, both included (a credit or a weight)."""
    return _fraction(text, inclusive=True)


def positive_number(hi: float) -> Callable[[str], float]:
    """An argparse type: a number above 0 and at most ``hi`` (an interval width)."""
    span = f"a number above 0 and at most {hi:,}"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {span}, got {text!r}")
        if not math.isfinite(value) or not 0.0 < value <= hi:
            raise argparse.ArgumentTypeError(f"must be {span}, got {text!r}")
        return value

    parse.__name__ = "positive number"
    return parse


def argparse_type(parse: Callable[[str], T]) -> Callable[[str], T]:
    """``parse`` as an argparse ``type``: its ValueError becomes argparse's usage error
    (the option named, the message kept, exit 2)."""
    def convert(text: str) -> T:
        try:
            return parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc))

    convert.__name__ = parse.__name__
    return convert


#: an argparse type: a size in bytes such as ``4G``, ``500M`` or ``123456``
memory_size = argparse_type(parse_size)


# --------------------------------------------------------------------------
# The shared options, declared once
# --------------------------------------------------------------------------

#: an argparse type: a Dask scheduler address (`synagree.base.addresses.check_address`)
dask_address = argparse_type(check_address)

#: a parser or an argument group: both take options
Options = argparse._ActionsContainer


def flag(help: str) -> Dict[str, Any]:
    """The argparse settings of an on/off switch (off unless given)."""
    return {"action": "store_true", "help": help}


def argparse_settings(spec: OptionSpec, **changes: Any) -> Dict[str, Any]:
    """The argparse settings of an option, from its declaration (`synagree.base.option_specs`).

    The ``type=`` function follows the spec's kind and range, so the command
    line and the Python API allow the same values; the help is the spec's.
    ``changes`` are the command line's own settings on top (``default=None``
    for an option that only qualifies another, so that giving it alone can be
    refused; a command's own default).
    """
    out: Dict[str, Any] = {}
    flag_dest = (spec.flag or "").lstrip("-").replace("-", "_")
    if spec.name != flag_dest:
        out["dest"] = spec.name
    if spec.kind == "bool":
        return {**out, **flag(spec.help), **changes}
    if spec.kind == "choice":
        out.update(default=spec.default, choices=list(spec.choices))
    elif spec.kind == "strs":
        out["nargs"] = "+"
    elif spec.kind == "int":
        out.update(type=whole_number(spec.lo or 0, spec.hi), default=spec.default)
    elif spec.kind == "fraction":
        out.update(type=open_fraction, default=spec.default)
    elif spec.kind == "credit":
        out.update(type=unit_interval, default=spec.default)
    elif spec.kind == "positive":
        out.update(type=positive_number(spec.hi or 0), default=spec.default)
    elif spec.kind == "size":
        out.update(type=memory_size, default=spec.default)
    elif spec.kind == "address":
        out["type"] = dask_address
    elif spec.default is not None:
        out["default"] = spec.default
    if spec.kind == "object" and "default" not in out and spec.name == "hierarchy":
        out["default"] = None
    if spec.metavar:
        out["metavar"] = spec.metavar
    out["help"] = spec.help
    out.update(changes)
    return out


def add_declared(p: Options, name: str, **changes: Any) -> None:
    """Add the option declared as ``SPECS[name]`` under its flag (`argparse_settings`)."""
    spec = SPECS[name]
    assert spec.flag is not None, name
    p.add_argument(spec.flag, **argparse_settings(spec, **changes))


#: the shared options that are a name and argparse settings only, by their long
#: spelling (a short one in `SHORT`); `add_options` adds them by name, so each has
#: one default, one validation and one help text in every command that takes it.
#: Declared once, as data, in `synagree.base.option_specs.SPECS` (which the
#: Python API's options objects validate with too)
OPTIONS: Dict[str, Dict[str, Any]] = {
    spec.flag: argparse_settings(spec) for spec in (SPECS[name] for name in (
        # reading and matching the input
        "fmt", "sets", "ann_type", "phrase_style", "strict", "allow_missing", "names",
        "match", "no_text_check", "preannotation",
        # tag hierarchies: partial credit and closeness (docs/method.md §15, §23)
        "hierarchy", "ac2_weights", "plain_as_leaf", "bdm", "wu_palmer",
        # what is computed
        "metric", "exact", "breakdown", "prf", "per_feature", "bias",
        # how it runs
        "seed", "dask", "max_memory", "quiet"))
    if spec.flag is not None}
# the reader registry (synagree.io.registry) knows the formats: the command line offers
# its names (the API's options objects take any name, which the registry then checks)
OPTIONS["--format"].update(
    choices=registry.format_names(with_aliases=True), metavar="NAME",
    help="input format, one of " + ", ".join(registry.format_names())
         + " (default auto: by the file-name suffix, else by the content; see docs/formats.md)")
#: the short spellings of `OPTIONS`, shown first in the help
SHORT = {"--quiet": "-q"}


#: ``--coefficient`` of the commands whose labels are categorical (categorical, tags);
#: ``spans`` takes its own (the span coefficients), hence a table of its own
GWET_COEFFICIENT: Dict[str, Dict[str, Any]] = {
    "--coefficient": {"choices": ["ac1", "ac2"], "default": None,
                      "help": "also Gwet's AC1 (ac1) or weighted AC2 (ac2), with Gwet's "
                              "standard error and t interval (docs/method.md §34.1)"},
}


def add_options(p: Options, *names: str,
                table: Mapping[str, Mapping[str, Any]] = OPTIONS) -> None:
    """Add the options ``names`` (long spellings, keys of ``table``), in order.

    ``table`` is the shared vocabulary `OPTIONS` unless a command passes its own
    (the options only it takes, declared the same way)."""
    for name in names:
        p.add_argument(*(SHORT[name], name) if name in SHORT else (name,), **table[name])


#: ``--worst`` of agree and report (the one option whose default differs: report
#: always lists the worst sentences, agree on request)
WORST_HELP = SPECS["worst"].help


def layers_help(layers: Sequence[str], default: Sequence[str]) -> str:
    """The help of ``--layers`` (categorical, report), from the layer names."""
    return (f"token layers for categorical agreement, comma-separated, from "
            f"{', '.join(layers)} ('' for none; default {','.join(default)}, leaving out a "
            f"layer whose values look like ids or numbers, with a note; a layer named here "
            f"is always kept)")


# --------------------------------------------------------------------------
# Option groups
# --------------------------------------------------------------------------

def add_input(p: argparse.ArgumentParser) -> None:
    """Annotation files or ``--dirs``, and how they are read and matched."""
    p.add_argument("files", nargs="*", help="one annotation file per annotator")
    p.add_argument("--dirs", nargs="+", metavar="DIR",
                   help="one directory per annotator; files matched by name")
    add_options(p, "--format", "--phrase-style", "--strict", "--allow-missing", "--names",
                "--match", "--no-text-check")


def add_output(p: argparse.ArgumentParser, formats: Sequence[str], default: str) -> None:
    """``--output`` (one of ``formats``) and ``-o/--out`` (format from the suffix)."""
    if formats[0] != default:  # the help says "the first listed"
        raise ValueError(f"list the default output format {default!r} first")
    p.add_argument("--output", choices=list(formats), default=None,
                   help="output format (default: from the -o suffix, else the first listed)")
    p.add_argument("-o", "--out", metavar="FILE",
                   help="write the result here, atomically (default: standard output)")
    p.set_defaults(default_output=default, output_formats=tuple(formats))


def add_out_dir(p: argparse.ArgumentParser, required: bool = True) -> None:
    """``-o/--out DIR`` for commands that write several files."""
    p.add_argument("-o", "--out", required=required, metavar="DIR", help="output directory")
    p.set_defaults(out_is_dir=True)


def add_bootstrap(p: argparse.ArgumentParser) -> None:
    """``--bootstrap``, ``--seed``, ``--ci-level`` (and the hidden old spellings)."""
    p.add_argument("--bootstrap", **argparse_settings(SPECS["bootstrap"]))
    add_options(p, "--seed")
    p.add_argument("--ci-level", **{**argparse_settings(SPECS["level"]), "dest": "ci_level"})
    p.add_argument("--confidence", dest="ci_level", type=open_fraction,
                   help=argparse.SUPPRESS)


def add_sampling(p: argparse.ArgumentParser) -> None:
    """``--sample-pairs`` and ``--exact``: estimated or exact D_e."""
    p.add_argument("--sample-pairs", **argparse_settings(SPECS["sample_pairs"]))
    add_options(p, "--exact")


def add_variant(p: argparse.ArgumentParser) -> None:
    """``--variant`` (and its old spelling ``--worst-variant``): the α variant to rank by."""
    p.add_argument("--variant", **argparse_settings(SPECS["variant"]))
    p.add_argument("--worst-variant", dest="variant", choices=list(VARIANT_CHOICES),
                   help=argparse.SUPPRESS)


# --------------------------------------------------------------------------
# After parsing: output format and paths
# --------------------------------------------------------------------------

def qualifier(args: argparse.Namespace, dest: str, present: bool, default: object,
              why: str) -> None:
    """An option that only qualifies another (its argparse default is None).

    Given without the option it qualifies (``present`` false) it would change
    nothing, so it is a usage `InputError` whose message is ``why``; otherwise
    its default (``default``) is filled in when it was not given.
    """
    if getattr(args, dest) is None:
        setattr(args, dest, default)
    elif not present:
        raise InputError.single("<command line>", None, "usage", why)


def output_format(args: argparse.Namespace) -> str:
    """``--output`` if given, else the format the ``-o`` suffix names, else the
    command's default."""
    if getattr(args, "output", None):
        return args.output
    default = getattr(args, "default_output", "table")
    out = getattr(args, "out", None)
    if out:
        fmt = SUFFIX_FORMATS.get(Path(out).suffix.lower())
        if fmt is not None and fmt in getattr(args, "output_formats", (default,)):
            return fmt
    return default


_INPUT_ATTRS = ("files", "gold", "systems", "system", "source", "results", "noise",
                "compare_to", "hierarchy", "tiers", "lexicon", "humans", "preannotation")


def input_paths(args: argparse.Namespace) -> List[Path]:
    """Every existing input file a command was given (files inside ``--dirs`` too)."""
    out: List[Path] = []
    for attr in _INPUT_ATTRS:
        value = getattr(args, attr, None)
        for v in (value if isinstance(value, list) else [value]):
            if isinstance(v, str) and v and Path(v).exists():
                out.append(Path(v))
    for d in getattr(args, "dirs", None) or ():
        if Path(d).is_dir():
            out.extend(p for p in Path(d).iterdir() if p.is_file())
    return out


def _same(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_replicate_options(args: argparse.Namespace) -> None:
    """Refuse ``--bootstrap`` and ``--test-replicates``/``--replicates`` below the minimum
    for ``--ci-level`` (`synagree.stats.bootstrap.check_replicates`), before any work."""
    level = float(getattr(args, "ci_level", None) or 0.95)
    check_replicates(int(getattr(args, "bootstrap", 0) or 0), level, "--bootstrap")
    tests = getattr(args, "test_replicates", None)
    if tests is not None:
        check_replicates(int(tests), level, "--test-replicates", "a paired test")


def remove_made_folders(args: argparse.Namespace) -> None:
    """Remove the folders `check_output_path` made for ``-o``, when they are still empty
    (the command refused its input or its plan after the check: nothing is left behind)."""
    for folder in getattr(args, "made_folders", ()):  # deepest first
        try:
            folder.rmdir()  # only an empty folder
        except OSError:
            return


def check_output_path(args: argparse.Namespace) -> Optional[str]:
    """Check ``-o`` before any work: not an input, not a directory (for a file),
    its folder existing or creatable, and writable (`synagree.io.files.check_output`;
    a link is followed to its target).  Returns a line to print when a folder was
    created; raises `InputError` (exit 2, nothing written) otherwise."""
    out = getattr(args, "out", None)
    if not out:
        return None
    p = Path(out)
    is_dir = getattr(args, "out_is_dir", False)

    def bad(msg: str) -> InputError:
        return InputError.single("<command line>", None, "bad-output", f"-o {out}: {msg}")

    for src in input_paths(args):
        if _same(p, src):
            raise bad(f"is also an input ({src}); choose another path (nothing was written)")
    if not is_dir:
        if p.is_dir() or str(out).endswith(("/", os.sep)):
            raise bad("is a directory; give a file name")
    elif p.exists() and not p.is_dir():
        raise bad("exists and is not a directory")
    folder = p if is_dir else output_target(p).path.parent
    made = None
    if str(folder) and not folder.exists():
        missing = [folder] + [f for f in folder.parents if not f.exists()]
        try:
            folder.mkdir(parents=True)
            args.made_folders = missing  # removed again if the command then refuses
        except OSError as exc:
            raise bad(f"cannot create the folder {folder}: {exc.strerror}")
        made = f"synagree: created the folder {folder}"
    check_output(p, folder=is_dir)  # writable? (a temporary file is made and removed)
    return made


def check_input_choice(files: Sequence, dirs: Optional[Sequence]) -> None:
    """Command-line inputs: annotation files or ``--dirs``, exactly one of them.

    Parameters
    ----------
    files : sequence
        The positional input files.
    dirs : sequence or None
        The ``--dirs`` directories.

    Raises
    ------
    InputError
        Neither given (``empty-input``) or both (``usage``).
    """
    if not files and not dirs:
        raise InputError.single("<command line>", None, "empty-input",
                                "no input: give annotation files or --dirs DIR DIR ...")
    if files and dirs:
        raise InputError.single("<command line>", None, "usage",
                                "give either files or --dirs, not both")


class InputOptions(TypedDict):
    """The reading and matching keywords of `synagree.agreement.agree.load_corpus`.

    Taken from parsed command-line arguments (the options every input-taking
    command has).

    Parameters
    ----------
    args : argparse.Namespace
        With ``fmt``, ``phrase_style``, ``strict``, ``allow_missing``,
        ``names``, ``no_text_check`` and ``match``.

    Returns
    -------
    dict
    """

    fmt: str
    phrase_style: str
    strict: bool
    allow_missing: bool
    names: Optional[Sequence[str]]
    check_text: bool
    match: str


def input_options(args) -> InputOptions:
    """The reading and matching keywords of `synagree.agreement.agree.load_corpus`.

    Taken from parsed command-line arguments: the options every input-taking
    command has (``synagree.cli.options.add_input``).
    """
    return InputOptions(fmt=args.fmt, phrase_style=args.phrase_style, strict=args.strict,
                        allow_missing=args.allow_missing, names=args.names,
                        check_text=not args.no_text_check,
                        match=getattr(args, "match", "auto"))


def increasing_whole_numbers(text: str) -> Tuple[int, ...]:
    """An argparse type: comma-separated whole numbers ≥ 1, strictly increasing
    (``10,20,30,40``), e.g. the upper ends of bins."""
    try:
        values = tuple(int(x.strip()) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be comma-separated whole numbers such as "
                                         f"10,20,30,40, got {text!r}")
    if any(v < 1 for v in values) or any(b <= a for a, b in zip(values, values[1:])):
        raise argparse.ArgumentTypeError(f"must be whole numbers ≥ 1 in increasing order, "
                                         f"got {text!r}")
    return values
