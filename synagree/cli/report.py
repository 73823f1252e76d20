"""``synagree report``: the annotation QA report (HTML, or its tables).  The run part:
the options are declared by `synagree.cli.parsers.report`."""
from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext

from synagree.agreement.adjudicate import adjudicate_corpus
from synagree.agreement.agree import load_corpus
from synagree.agreement.extra_file import read_with_extra
from synagree.agreement.human_band import BandOptions
from synagree.agreement.plan import PlanOptions
from synagree.agreement.preannotation import PreannotationOptions
from synagree.agreement.report import qa_report
from synagree.base.problems import InputError, print_problems, tame
from synagree.cli import baseline
from synagree.cli.categorical import parse_layers
from synagree.cli.figures import plot_settings
from synagree.cli.options import check_input_choice, input_options, output_format
from synagree.cli.questions import queries
from synagree.distance.dask_exec import dask_executor
from synagree.io.files import emit
from synagree.noise.results import read_config
from synagree.render.html import build_report, read_noise
from synagree.render.mpl import pyplot
from synagree.render.plots import check_runs, choose_metrics
from synagree.stats.categorical import DEFAULT_LAYERS


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
    old = baseline.baseline_options(args, "agree")  # a stored agree or report result
    metrics, ylim = plot_settings(args)
    if (metrics or ylim) and not args.noise:
        raise InputError.single("<command line>", None, "usage",
                                "--metrics and --ylim shape the noise figures: add --noise")
    if args.noise and output == "html":
        pyplot()  # the noise curves need the optional matplotlib: say so before any work
    noise = read_noise(args.noise) if args.noise else None
    if noise:
        choose_metrics(noise, metrics)  # an unknown metric: a usage error before any work
    if args.reference and not args.system:
        raise InputError.single("<command line>", None, "usage",
                                "--reference names the human the --system file is scored "
                                "against: add --system FILE")
    where = queries(args)  # a bad --where: refused before any work
    corpus = load_corpus(args.files, args.dirs or (), **input_options(args))
    if noise:  # runs made on another corpus are refused before the long work
        check_runs(read_config(args.noise), corpus, args.noise)
    band = pre = None
    if args.system:  # the parser beside a second human (docs/method.md §28)
        band = BandOptions(read_with_extra(args.files, args.dirs or (), args.system,
                                           role="system", option="--system",
                                           **input_options(args)),
                           references=args.reference)
    if args.preannotation:  # kept and changed arcs (docs/method.md §29)
        pre = PreannotationOptions(read_with_extra(args.files, args.dirs or (),
                                                   args.preannotation, role="pre-annotation",
                                                   option="--preannotation",
                                                   **input_options(args)))
    # the report's passes (α, pairwise and leave-one-out α) run on the executor
    with (dask_executor(args.dask) if args.dask else nullcontext(None)) as executor:
        rep = qa_report(corpus, layers=layers, skip_id_like=not named, bootstrap=args.bootstrap,
                        seed=args.seed, level=args.ci_level, worst=args.worst,
                        variant=args.variant, baseline=old, sample_pairs=args.sample_pairs,
                        exact=args.exact, max_memory=args.max_memory, progress=not args.quiet,
                        band=band, preannotation=pre, bias=args.bias, by=args.by, where=where,
                        plan=PlanOptions(args.plan) if args.plan else None,
                        executor=executor)
    if rep.agreement.warnings and not args.quiet:
        print_problems(rep.agreement.warnings, limit=10)
    adjudication = None
    if args.adjudicate and output == "html":  # the consensus and its worklist (§31)
        adjudication = adjudicate_corpus(corpus, progress=False)
    text = build_report(rep, output, noise=args.noise or None,
                        max_sentences=args.max_sentences or None, title=args.title,
                        noise_metrics=metrics, noise_ylim=ylim, adjudication=adjudication)
    emit(text, args.out)
    if args.out and not args.quiet:
        size = len(text.encode("utf-8", "backslashreplace"))  # (as written)
        print(f"synagree: wrote {tame(str(args.out))} ({size / 1e6:.2f} MB)",
              file=sys.stderr)
    return 0
