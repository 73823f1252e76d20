"""``synagree report``: the annotation QA report (HTML, or its tables)."""
from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext

from synagree.agreement.agree import agree_corpus, load_corpus
from synagree.base.problems import InputError, print_problems, tame
from synagree.cli import options
from synagree.cli.categorical import parse_layers
from synagree.cli.options import check_input_choice, input_options, output_format
from synagree.cli.plot_options import add_plot_args, plot_settings
from synagree.distance.dask_exec import dask_executor
from synagree.io.files import emit
from synagree.io.json_input import read_json
from synagree.noise.results import read_config
from synagree.render.html import OUTPUTS, build_report, read_noise
from synagree.render.mpl import pyplot
from synagree.render.plots import check_runs, choose_metrics
from synagree.stats.categorical import DEFAULT_LAYERS
from synagree.stats.stored_results import check_report


def run(args: argparse.Namespace) -> int:
    """``synagree report``: the annotation-QA report (HTML or tables); the exit status."""
    check_input_choice(args.files, args.dirs)
    output = output_format(args)
    if output == "html" and not args.out and sys.stdout.isatty():
        raise InputError.single("<command line>", None, "usage",
                                "the HTML report is a whole page: give -o FILE.html (or pipe "
                                "the output)")
    named = args.layers is not None  # layers asked for by name are kept even when id-like
    layers = parse_layers(args.layers if named else ",".join(DEFAULT_LAYERS),
                          allow_empty=True)
    previous = None
    if args.compare_to:
        if not args.bootstrap:
            raise InputError.single("<command line>", None, "usage",
                                    "--compare-to needs bootstrap replicates (--bootstrap > 0)")
        # untrusted input: read within limits, every field the comparison uses checked
        previous = read_json(args.compare_to, kind="baseline-invalid",
                             what="a stored `synagree report --output json`",
                             max_memory=args.max_memory)
        check_report(previous, args.compare_to)
    metrics, ylim = plot_settings(args)
    if (metrics or ylim) and not args.noise:
        raise InputError.single("<command line>", None, "usage",
                                "--metrics and --ylim shape the noise figures: add --noise")
    if args.noise and output == "html":
        pyplot()  # the noise curves need the optional matplotlib: say so before any work
    noise = read_noise(args.noise) if args.noise else None
    if noise:
        choose_metrics(noise, metrics)  # an unknown metric: a usage error before any work
    corpus = load_corpus(args.files, args.dirs or (), **input_options(args))
    if noise:  # runs made on another corpus are refused before the long work
        check_runs(read_config(args.noise), corpus, args.noise)
    # the report's passes (α, pairwise and leave-one-out α) run on the executor
    with (dask_executor(args.dask) if args.dask else nullcontext(None)) as executor:
        # bootstrap=B implies the exact unit × unit sums (no sampled D_e)
        result = agree_corpus(corpus, bootstrap=args.bootstrap, seed=args.seed,
                              level=args.ci_level, max_memory=args.max_memory,
                              progress=not args.quiet, executor=executor)
        if result.warnings and not args.quiet:
            print_problems(result.warnings, limit=10)
        text = build_report(result, output, noise=args.noise or None,
                            bootstrap=args.bootstrap, seed=args.seed,
                            confidence=args.ci_level, layers=layers, compare_to=previous,
                            variant=args.variant, worst=args.worst,
                            max_sentences=args.max_sentences or None, title=args.title,
                            skip_id_like=not named, noise_metrics=metrics, noise_ylim=ylim)
    emit(text, args.out)
    if args.out and not args.quiet:
        size = len(text.encode("utf-8", "backslashreplace"))  # (as written)
        print(f"synagree: wrote {tame(str(args.out))} ({size / 1e6:.2f} MB)",
              file=sys.stderr)
    return 0


def register(p: argparse.ArgumentParser) -> None:
    """The options of this command."""
    p.description = ("Annotation QA report: alpha and LAS with bootstrap CIs, annotator pair "
                    "matrices, leave-one-out alpha, token-layer kappa/pi/alpha with specific "
                    "agreement and confusion, noise curves, and the worst sentences drawn as "
                    "dependency arcs or phrase-structure trees with the differences highlighted.")
    options.add_input(p)
    options.add_output(p, OUTPUTS, "html")
    p.add_argument("--noise", metavar="RESULTS",
                   help="noise-experiment results (runs.csv / results.json of synagree noise) "
                        "to plot, with this corpus's own alpha and LAS as reference lines; "
                        "runs made on other files are refused")
    add_plot_args(p, corpus=False)
    options.add_bootstrap(p, "alpha, LAS and the layer coefficients")
    p.add_argument("--compare-to", metavar="PREVIOUS.json",
                   help="a previous round's `synagree report --output json`: test whether "
                        "agreement changed significantly (needs --bootstrap)")
    p.add_argument("--layers", default=None,
                   help=f"token layers for categorical agreement (comma-separated; '' for "
                        f"none; default {','.join(DEFAULT_LAYERS)}, leaving out a layer whose "
                        f"values look like ids or numbers, with a note; a layer named here "
                        f"is always kept)")
    options.add_variant(p)
    p.add_argument("--worst", type=options.whole_number(0), default=20, metavar="K",
                   help="sentences in the worst list of the table outputs (default 20)")
    p.add_argument("--max-sentences", type=options.whole_number(0), default=5000, metavar="N",
                   help="HTML: keep at most the N worst sentences (default 5000; 0: all)")
    p.add_argument("--title", help="page title")
    options.add_dask(p, "the tree-edit-distance passes (alpha, pairwise and leave-one-out "
                        "alpha)")
    options.add_memory(p)
    options.add_quiet(p)
