"""``synagree noise``: the noise-sensitivity experiment."""
from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext

from synagree.base.problems import InputError
from synagree.cli import options
from synagree.cli.plot_options import add_plot_args, corpus_option_reference, plot_settings
from synagree.distance.dask_exec import dask_executor
from synagree.noise.experiments import (
    MAX_GRID_POINTS,
    PAPER_SERIES,
    parse_grid,
    parse_series,
    run_noise_experiment,
)
from synagree.render.mpl import pyplot
from synagree.render.noise import means_table
from synagree.render.plots import plot_results


def run(args: argparse.Namespace) -> int:
    """``synagree noise``: run or resume a noise experiment; the exit status."""
    series = parse_series(args.series)
    grid = parse_grid(args.grid)
    metrics, ylim = plot_settings(args)
    if (metrics or ylim or args.corpus) and not args.plot:
        raise InputError.single("<command line>", None, "usage",
                                "--metrics, --ylim and --corpus shape the figures: add --plot")
    if args.plot:
        pyplot()  # the optional dependency, before any run (missing-extra otherwise)
    with (dask_executor(args.dask) if args.dask else nullcontext(None)) as executor:
        res = run_noise_experiment(
            args.source, args.out, sample=None if args.sample == 0 else args.sample,
            seed=args.seed, series=series, grid=grid, runs=args.runs, fmt=args.fmt,
            phrase_style=args.phrase_style, cycles=args.cycles, label_scope=args.label_set,
            exclude_current_label=args.exclude_current_label,
            exclude_current_head=args.exclude_current_head,
            progress=not args.quiet, overwrite=args.overwrite,
            hierarchy=args.hierarchy, reattach_draw=args.reattach_draw,
            max_memory=args.max_memory, executor=executor)
    if not args.quiet:
        for w in res.warnings:
            print(f"synagree noise: note: {w}", file=sys.stderr)
        msg = (f"synagree noise: {res.computed} run(s) computed"
               + (f", {res.resumed} resumed from {res.files['log']}" if res.resumed else "")
               + f" in {res.seconds:.1f} s; results in {res.out_dir}/")
        print(msg, file=sys.stderr)
    if args.plot:
        reference = corpus_option_reference(args, res.config, str(res.files["config"]))
        for path in plot_results(res.rows, res.out_dir, metrics=metrics, ylim=ylim,
                                 reference=reference).values():
            if not args.quiet:
                print(f"synagree noise: wrote {path}", file=sys.stderr)
    sys.stdout.write(means_table(res.summary, res.metrics))
    return 0


def register(p: argparse.ArgumentParser) -> None:
    """The options of this command."""
    p.add_argument("source", nargs="+", help="treebank file(s), CoNLL-U/CoNLL-X or bracketed; "
                                             "several files are pooled")
    options.add_out_dir(p)
    p.add_argument("--sample", type=options.whole_number(0), default=100, metavar="N",
                   help="sentences drawn from the source (default 100; 0 = all)")
    p.add_argument("--series", default=",".join(PAPER_SERIES),
                   help="comma-separated: both, relabel, reattach, random "
                        "(default both,relabel,reattach)")
    p.add_argument("--grid", default="0.1:1.0:10",
                   help="noise probabilities: 'p1,p2,...' or 'start:stop:num' "
                        f"(default 0.1:1.0:10 = 0.1, 0.2, ..., 1.0; at most {MAX_GRID_POINTS} "
                        f"points)")
    p.add_argument("--runs", type=options.whole_number(1, 10_000), default=10, metavar="R",
                   help="runs per point (default 10)")
    options.add_options(p, "--seed", "--format", "--phrase-style")
    p.add_argument("--cycles", default="skip", choices=["skip", "repair", "error"],
                   help="source sentences with head cycles: leave out (default), repair "
                        "(lowest word of the cycle to the root) or refuse")
    p.add_argument("--label-set", default="source", choices=["source", "sample"],
                   help="relabelling draws from the labels of all source files (default) or "
                        "of the sample only")
    p.add_argument("--exclude-current-label", action="store_true",
                   help="relabelling never draws the old label")
    p.add_argument("--exclude-current-head", action="store_true",
                   help="reattachment never draws the old head")
    p.add_argument("--reattach-draw", default="nondominated", choices=["nondominated", "reject"],
                   help="nondominated (docs/method.md §8, default): the new head is uniform "
                        "over the tokens the word does not dominate; reject: uniform over all "
                        "tokens, keeping the old head when that would make a cycle (matches "
                        "the published reattach-only LAS)")
    options.add_options(p, "--hierarchy")
    p.add_argument("--plot", action="store_true", help="also write the figures (PNG, SVG, PDF)")
    add_plot_args(p)
    p.add_argument("--overwrite", action="store_true",
                   help="discard results already in OUT instead of resuming")
    options.add_options(p, "--dask", "--max-memory", "--quiet")
