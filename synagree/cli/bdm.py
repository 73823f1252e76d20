"""``synagree bdm``: GATE's BDM score file of a hierarchy (docs/method.md §23).  The run
part: the options are declared by `synagree.cli.parsers.bdm`."""
from __future__ import annotations

import argparse
from pathlib import Path

from synagree.cli.options import output_format
from synagree.io.files import emit
from synagree.render.bdm import render_bdm
from synagree.trees.gate_bdm import ConceptGraph, GateBDM


def run(args: argparse.Namespace) -> int:
    """``synagree bdm``: every pair's BDM, in GATE's format; the exit status."""
    graph = ConceptGraph.from_file(args.hierarchy)
    name = args.name if args.name is not None else Path(args.hierarchy).stem
    text = render_bdm(GateBDM(graph), name, output_format(args), source=args.hierarchy,
                      progress=not args.quiet)
    emit(text, args.out)
    return 0
