"""``synagree agree``: agreement between annotators (alpha, LAS/UAS/LA, worst sentences,
hierarchical label credit).  The run part: the options are declared by
`synagree.cli.parsers.agree`."""
from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Callable, ContextManager, Optional

from synagree.agreement import breakdown
from synagree.agreement.agree import agree
from synagree.agreement.extra_file import read_with_extra
from synagree.agreement.preannotation import PreannotationOptions
from synagree.base.problems import InputError, print_problems
from synagree.cli import agree_sets, baseline, options
from synagree.cli.options import check_input_choice, input_options, output_format
from synagree.cli.questions import queries
from synagree.cli.tag_options import check_dependency_input
from synagree.distance.dask_exec import dask_executor
from synagree.io.files import emit
from synagree.render.agreement import render
from synagree.stats.alpha import VARIANTS
from synagree.stats.hierarchical import HierarchyOptions
from synagree.stats.hierarchy_input import AGREE_MODE, load_hierarchy

# the bundled sample treebank: two annotators of 40 sentences (package data)
SAMPLE = Path(__file__).resolve().parents[1] / "data" / "en-sample"


def sample_dirs() -> list:
    """The annotator directories of the bundled sample."""
    return sorted(str(p) for p in SAMPLE.iterdir() if p.is_dir())


def validate_args(args: argparse.Namespace) -> None:
    """Cheap checks before the (possibly long) agreement run: usage errors and an
    unreadable hierarchy file raise `InputError`."""
    spec = getattr(args, "hierarchy", None)
    dist = getattr(args, "label_distance", "exact")
    plain = getattr(args, "plain_as_leaf", False)
    if spec is None:
        if (getattr(args, "tag_syntax", "plain") != "plain" or getattr(args, "bdm", False)
                or getattr(args, "wu_palmer", False)):
            raise InputError.single("<command line>", None, "usage",
                                    "--tag-syntax alternatives, --bdm and --wu-palmer need "
                                    "--hierarchy ud|msd|flat|FILE")
        if dist == "hierarchy":
            raise InputError.single("<command line>", None, "usage",
                                    "--label-distance hierarchy needs --hierarchy "
                                    "ud|msd|flat|FILE")
        if plain:
            raise InputError.single("<command line>", None, "usage",
                                    "--plain-as-leaf needs --hierarchy ud")
        return
    check_dependency_input(getattr(args, "files", None) or (), getattr(args, "dirs", None) or (),
                           getattr(args, "fmt", "auto"), getattr(args, "tag_syntax", "plain"))
    load_hierarchy(spec, (), plain_as_leaf=plain)


def hierarchy_options(args: argparse.Namespace) -> Optional[HierarchyOptions]:
    """The parsed ``--hierarchy`` options (None without ``--hierarchy``)."""
    spec = getattr(args, "hierarchy", None)
    if spec is None:
        return None
    return HierarchyOptions(spec, getattr(args, "label_distance", "exact"),
                            getattr(args, "plain_as_leaf", False),
                            getattr(args, "label_credit", AGREE_MODE),
                            getattr(args, "tag_syntax", "plain"), getattr(args, "bdm", False),
                            getattr(args, "wu_palmer", False))


def run(args: argparse.Namespace) -> int:
    """``synagree agree``: `synagree.agree`, rendered."""
    files, dirs = args.files, args.dirs
    if not files and not dirs:
        dirs = sample_dirs()
        if not args.quiet:
            print(f"synagree: no input given; using the bundled sample {SAMPLE}/",
                  file=sys.stderr)
    check_input_choice(files, dirs)
    if agree_sets.wants_sets(args):  # another table: the sets side by side (§34.3)
        return agree_sets.run_sets(args)
    output = output_format(args)
    if args.worst and output == "csv":
        raise InputError.single("<command line>", None, "usage",
                                "--worst with CSV output would put two tables in one file: "
                                "use --output json (which holds both) or table")
    if args.preannotation and args.breakdown and output == "csv":
        raise InputError.single("<command line>", None, "usage",
                                "--preannotation and --breakdown with CSV output would put "
                                "two long tables in one file: use --output json")
    variants = tuple(VARIANTS) if args.metric == "all" else (args.metric,)
    if args.bootstrap and args.sample_pairs:
        raise InputError.single("<command line>", None, "usage",
                                "--bootstrap needs the exact D_e: drop --sample-pairs")
    validate_args(args)  # usage errors / bad hierarchy file before the long run
    validate_breakdown_args(args)
    options.qualifier(args, "worst_by", bool(args.worst), "share",
                      "--worst-by needs --worst K (the sentences it ranks)")
    where = queries(args)  # a bad --where: refused before the long run
    old = baseline.baseline_options(args, "agree")  # --baseline: read before the long run
    pre = None
    if args.preannotation:  # read with the annotators' files, matched as they are (§29)
        pre = PreannotationOptions(read_with_extra(
            files, dirs or (), args.preannotation, role="pre-annotation",
            option="--preannotation", **input_options(args)))
    ctx: ContextManager[Optional[Callable]] = nullcontext(None)  # the executor, if any
    if args.dask:
        ctx = dask_executor(args.dask)
    with ctx as executor:
        res = agree(files, dirs=dirs or (), **input_options(args), variants=variants,
                    hierarchy=hierarchy_options(args), unlabelled=args.unlabelled,
                    direction=args.direction, breakdown=args.breakdown,
                    length_bins=args.length_bins, coefficient=args.coefficient,
                    ac2_weights=args.ac2_weights, bias=args.bias, by=args.by, where=where,
                    worst=args.worst, worst_by=args.worst_by,
                    variant=args.variant, bootstrap=args.bootstrap, seed=args.seed,
                    level=args.ci_level, sample_pairs=args.sample_pairs, exact=args.exact,
                    baseline=old, per_unit=output == "json", preannotation=pre,
                    executor=executor,
                    progress=not args.quiet, max_memory=args.max_memory)
    if res.warnings and not args.quiet:
        print_problems(res.warnings, limit=args.max_warnings)
    emit(render(res, output), args.out)
    return 0


def validate_breakdown_args(args: argparse.Namespace) -> None:
    """``--length-bins`` needs ``--breakdown`` (a usage `InputError`)."""
    options.qualifier(args, "length_bins", getattr(args, "breakdown", False),
                      breakdown.DEFAULT_LENGTH_EDGES, "--length-bins needs --breakdown")
