"""``synagree categorical``: chance-corrected agreement on token layers.  The run part:
the options are declared by `synagree.cli.parsers.categorical`."""
from __future__ import annotations

import argparse
from typing import List, Optional

from synagree.agreement.agree import load_corpus
from synagree.agreement.gwet_layers import GwetOptions
from synagree.agreement.token_layers import check_specific, token_layer_agreement
from synagree.base.problems import InputError, print_problems
from synagree.cli import options
from synagree.cli.gate_options import (
    check_not_gate_options,
    is_brat_input,
    is_gate_input,
    run_brat,
    run_gate_categorical,
)
from synagree.cli.options import check_input_choice, input_options, output_format
from synagree.io.files import emit
from synagree.render.token_layers import render_token_layers
from synagree.stats.categorical import DEFAULT_LAYERS, LAYERS
from synagree.stats.features import feature_of_layer


def run(args: argparse.Namespace) -> int:
    """``synagree categorical``: token-layer agreement of the input; the exit status."""
    if is_gate_input(args):
        return run_gate_categorical(args)
    if is_brat_input(args):
        return run_brat(args, "categorical")
    check_not_gate_options(args)
    check_input_choice(args.files, args.dirs)
    named = args.layers is not None  # layers asked for by name are kept even when id-like
    layers = parse_layers(args.layers if named else ",".join(DEFAULT_LAYERS))
    output = output_format(args)
    feature_layers = [x for x in layers if feature_of_layer(x) is not None]
    options.qualifier(args, "feature_items", bool(feature_layers or args.per_feature), "all",
                      "--feature-items applies to feats:NAME layers and --per-feature; "
                      "neither was asked for")
    options.qualifier(args, "set_distance", args.enhanced, "masi",
                      "--set-distance applies to --enhanced, which was not asked for")
    check_specific(layers, args.specific)  # before any input is read
    gwet = gwet_options(args)
    corpus = load_corpus(args.files, args.dirs or (), **input_options(args))
    rep = token_layer_agreement(corpus, layers, specific=args.specific,
                                per_feature=args.per_feature, feature_items=args.feature_items,
                                enhanced=args.enhanced, set_distance=args.set_distance,
                                strict=args.strict, replicates=args.bootstrap, seed=args.seed,
                                level=args.ci_level, skip_id_like=not named,
                                max_memory=args.max_memory, bias=args.bias, gwet=gwet)
    if rep.warnings and not args.quiet:
        print_problems(rep.warnings, limit=10)
    emit(render_token_layers(rep, output, confusion=args.confusion), args.out)
    return 0


def gwet_options(args: argparse.Namespace) -> Optional[GwetOptions]:
    """``--coefficient ac1|ac2`` with ``--ac2-weights`` / ``--hierarchy`` (checked before any
    input is read); None without ``--coefficient``."""
    if args.coefficient is None:
        if args.ac2_weights is not None or args.hierarchy is not None:
            raise InputError.single("<command line>", None, "usage",
                                    "--ac2-weights and --hierarchy give the weights of "
                                    "--coefficient ac2, which was not asked for")
        return None
    return GwetOptions(args.coefficient, args.ac2_weights, args.hierarchy, args.ci_level)


def parse_layers(spec: Optional[str], allow_empty: bool = False) -> List[str]:
    """Comma-separated layer names (a usage error names the unknown ones)."""
    layers = [x.strip() for x in (spec or "").split(",") if x.strip()]
    bad = [x for x in layers if x not in LAYERS and feature_of_layer(x) is None]
    if bad or not (layers or allow_empty):
        raise InputError.single("<command line>", None, "usage",
                                f"unknown layer(s) {', '.join(bad) or '(none)'}; choose from "
                                f"{', '.join(LAYERS)}, or feats:NAME (one feature)")
    return layers
