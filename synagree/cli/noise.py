"""``synagree noise``: the noise-sensitivity experiment.  The run part: the options are
declared by `synagree.cli.parsers.noise`."""
from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext

from synagree.base.option_specs import SPECS
from synagree.base.problems import InputError
from synagree.cli.figures import corpus_option_reference, plot_settings
from synagree.distance.dask_exec import dask_executor
from synagree.noise.experiments import parse_grid, parse_series, run_noise_experiment
from synagree.render.mpl import pyplot
from synagree.render.noise import means_table
from synagree.render.plots import plot_results


def run(args: argparse.Namespace) -> int:
    """``synagree noise``: run or resume a noise experiment; the exit status."""
    series = parse_series(args.series) if args.series is not None else SPECS["series"].default
    grid = parse_grid(args.grid) if args.grid is not None else SPECS["grid"].default
    metrics, ylim = plot_settings(args)
    if (metrics or ylim or args.corpus) and not args.plot:
        raise InputError.single("<command line>", None, "usage",
                                "--metrics, --ylim and --corpus shape the figures: add --plot")
    if args.plot:
        pyplot()  # the optional dependency, before any run (missing-extra otherwise)
    with (dask_executor(args.dask) if args.dask else nullcontext(None)) as executor:
        res = run_noise_experiment(
            args.source, args.out, sample=args.sample,
            seed=args.seed, series=series, grid=grid, runs=args.runs, fmt=args.fmt,
            phrase_style=args.phrase_style, cycles=args.cycles, label_scope=args.label_scope,
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
