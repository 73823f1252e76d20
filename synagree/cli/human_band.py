"""``synagree compare GOLD SYS --humans A [B ...]``: is the parser as good as a second human?

The gold file is the reference; the parser's agreement with it is set
beside the other humans' (docs/method.md §28).  All files are read and
matched as ``agree`` reads annotators (`synagree.agreement.extra_file`), not
by the CoNLL 2018 alignment of ``compare``: the question is about
annotations of the same sentences.
"""
from __future__ import annotations

import argparse

from synagree.agreement.extra_file import read_with_extra
from synagree.agreement.human_band import DEFAULT_BAND_REPLICATES, BandOptions, human_band
from synagree.cli.humans_options import check_args
from synagree.cli.options import output_format
from synagree.io.files import emit
from synagree.render.human_band import render_band


def run(args: argparse.Namespace) -> int:
    """``compare GOLD SYS --humans ...``: `synagree.agreement.human_band`, rendered."""
    check_args(args)
    names = extra_name = None
    if args.names:  # GOLD, SYSTEM, humans → GOLD, humans (the annotators); SYSTEM
        names, extra_name = [args.names[0], *args.names[2:]], args.names[1]
    data = read_with_extra([args.gold, *args.humans], (), args.systems[0], role="system",
                           option="SYSTEM", names=names, extra_name=extra_name,
                           match=args.match, allow_missing=args.allow_missing,
                           check_text=not args.no_text_check)
    band = human_band(BandOptions(data, references=[data.corpus.annotators[0]],
                                  replicates=args.bootstrap or DEFAULT_BAND_REPLICATES),
                      seed=args.seed, level=args.ci_level, max_memory=args.max_memory,
                      progress=not args.quiet)
    emit(render_band(band, output_format(args)), args.out)
    return 0
