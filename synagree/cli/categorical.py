"""``synagree categorical``: chance-corrected agreement on token layers."""
from __future__ import annotations

import argparse
import json
from typing import List, Optional

import numpy as np

from synagree.agreement.agree import load_corpus
from synagree.agreement.enhanced import enhanced_agreement
from synagree.base.jsonable import json_ready
from synagree.base.problems import InputError, print_problems
from synagree.cli import options
from synagree.cli.options import check_input_choice, input_options, output_format
from synagree.io.files import emit
from synagree.render.categorical import summary_header, summary_rows
from synagree.render.enhanced import render_enhanced
from synagree.render.features import render_per_feature
from synagree.render.rows import _f, render_rows, sections_csv
from synagree.stats.categorical import (
    DEFAULT_LAYERS,
    LAYERS,
    bootstrap,
    items_from_corpus,
    layer_agreement,
    multinomial_weights,
)
from synagree.stats.features import (
    FEATURE_ITEMS,
    corpus_features,
    feature_of_layer,
    layer_items,
    per_feature_agreement,
)


def run(args: argparse.Namespace) -> int:
    """``synagree categorical``: token-layer agreement of the input; the exit status."""
    check_input_choice(args.files, args.dirs)
    layers = parse_layers(args.layers)
    output = output_format(args)
    feature_layers = [x for x in layers if feature_of_layer(x) is not None]
    options.qualifier(args, "feature_items", bool(feature_layers or args.per_feature), "all",
                      "--feature-items applies to feats:NAME layers and --per-feature; "
                      "neither was asked for")
    options.qualifier(args, "set_distance", args.enhanced, "masi",
                      "--set-distance applies to --enhanced, which was not asked for")
    if args.specific is not None and args.specific not in layers:
        raise InputError.single("<command line>", None, "usage",
                                f"--specific {args.specific}: the layer is not among --layers "
                                f"({', '.join(layers)}); add it there")
    corpus = load_corpus(args.files, args.dirs or (), **input_options(args))
    split = None
    if feature_layers or args.per_feature:  # FEATS split into features: docs/method.md §19
        split = corpus_features(corpus, strict=args.strict)
        if split.warnings and not args.quiet:
            print_problems(split.warnings, limit=10)
        unseen = [x for x in feature_layers if feature_of_layer(x) not in split.frequency]
        if unseen:  # a typo (feats:case) would read as perfect agreement on nothing
            raise InputError.single("<command line>", None, "usage",
                                    f"{', '.join(unseen)}: no annotator gives this feature "
                                    f"anywhere (names are case-sensitive); the input's "
                                    f"features: {', '.join(split.features()) or 'none'}")
    items = {layer: (layer_items(corpus, layer, args.feature_items, split) if split
                     else items_from_corpus(corpus, layer)) for layer in layers}
    results = {layer: layer_agreement(data) for layer, data in items.items()}
    per_feature = (per_feature_agreement(corpus, items=args.feature_items, split=split)
                   if args.per_feature else None)
    enhanced = enhanced_agreement(corpus, args.set_distance) if args.enhanced else None
    if enhanced is not None and args.bootstrap:
        enhanced.notes.append("--bootstrap gives intervals for the token layers only, not "
                              "for the enhanced-edge alpha and F1")
    cis = cis_pf = None
    if args.bootstrap:
        rng = np.random.default_rng(args.seed)
        cis = {layer: bootstrap(data, confidence=args.ci_level,
                                weights=multinomial_weights(rng, len(data.units),
                                                            args.bootstrap))
               for layer, data in items.items()}
        if per_feature is not None:
            cis_pf = {f: bootstrap(data, confidence=args.ci_level,
                                   weights=multinomial_weights(rng, len(data.units),
                                                               args.bootstrap))
                      for f, data in per_feature.data.items()}
    if output == "json":
        d = {"annotators": list(corpus.annotators), **corpus.settings(),
             "layers": {k: v.to_dict(confusion=args.confusion) for k, v in results.items()}}
        if cis:
            d["bootstrap"] = {"replicates": args.bootstrap, "seed": args.seed,
                              "confidence": args.ci_level,
                              "intervals": {layer: {k: {kk: vv for kk, vv in v.items()
                                                        if kk != "replicates"}
                                                    for k, v in ci.items()}
                                            for layer, ci in cis.items()}}
        if split is not None:
            d["feature_items"] = args.feature_items
        if per_feature is not None:
            pf = d["per_feature"] = per_feature.to_dict(confusion=args.confusion)
            if cis_pf:
                pf["intervals"] = {
                    f: {k: {kk: vv for kk, vv in v.items() if kk != "replicates"}
                        for k, v in ci.items()} for f, ci in cis_pf.items()}
        if enhanced is not None:
            d["enhanced"] = enhanced.as_dict()
        text = json.dumps(json_ready(d), indent=2, ensure_ascii=False) + "\n"
    else:
        m = len(corpus.annotators)
        fmt = output
        text = render_rows(summary_header(m), summary_rows(results, cis), fmt,
                           caption="Categorical agreement per layer (pooled; micro over "
                                   "documents)" + (f", {100 * args.ci_level:g}% bootstrap "
                                                   f"CIs" if cis else "")
                           + ("; feats:NAME items: " + ("every word" if args.feature_items
                                                           == "all" else "words where some "
                                                           "annotator gives the feature")
                              if feature_layers else ""))
        sections = [("layers", text)]  # CSV: one table with a section column (docs/output.md)
        notes = []
        if args.specific:
            la = results[args.specific]
            freq = la.category_frequency()
            rows = [[c, str(freq.get(c, 0)), _f(v)] for c, v in
                    sorted(la.specific().items(), key=lambda kv: -freq.get(kv[0], 0))]
            sections.append(("specific", render_rows(
                ["category", "assignments", "specific agreement"], rows, fmt,
                caption=f"Specific agreement ({args.specific})")))
            text += "\n" + sections[-1][1]
        if per_feature is not None:
            sections.append(("per_feature", render_per_feature(per_feature, fmt, cis_pf)))
            text += "\n" + sections[-1][1]
        ignored = next(iter(results.values())).ignored_units if results else 0
        if ignored:
            notes.append(f"{ignored} sentence(s) whose annotations differ in word count "
                         f"were left out (tokens cannot be aligned)")
            if fmt == "table":
                text += f"note: {notes[-1]}\n"
        if enhanced is not None:
            sections.append(("enhanced", render_enhanced(enhanced, fmt)))
            text += "\n" + sections[-1][1]
            notes += enhanced.notes
        if fmt == "csv" and len(sections) > 1:  # one table per CSV file
            text = sections_csv(sections, notes)
    emit(text, args.out)
    return 0


def parse_layers(spec: Optional[str], allow_empty: bool = False) -> List[str]:
    """Comma-separated layer names (a usage error names the unknown ones)."""
    layers = [x.strip() for x in (spec or "").split(",") if x.strip()]
    bad = [x for x in layers if x not in LAYERS and feature_of_layer(x) is None]
    if bad or not (layers or allow_empty):
        raise InputError.single("<command line>", None, "usage",
                                f"unknown layer(s) {', '.join(bad) or '(none)'}; choose from "
                                f"{', '.join(LAYERS)}, or feats:NAME (one feature)")
    return layers


def register(p: argparse.ArgumentParser) -> None:
    """The options of this command."""
    p.description = ("Categorical agreement on token layers (labels, heads, UPOS, XPOS, "
                    "FEATS): observed agreement, Cohen's kappa, Scott's pi, Fleiss' kappa "
                    "and Davies & Fleiss kappa (more than two annotators), Krippendorff's "
                    "alpha (nominal), specific agreement.")
    options.add_input(p)
    p.add_argument("--layers", default=",".join(DEFAULT_LAYERS),
                   help=f"comma-separated layers from {', '.join(LAYERS)} "
                        f"(default: {','.join(DEFAULT_LAYERS)})")
    p.add_argument("--specific", metavar="LAYER", choices=LAYERS,
                   help="also list specific agreement per category of this layer")
    options.add_bootstrap(p, "every coefficient")
    p.add_argument("--confusion", action="store_true",
                   help="JSON: include the contingency tables (sparse [row, col, count])")
    options.add_output(p, ["table", "json", "csv", "markdown", "latex"], "table")
    options.add_quiet(p)
    p.add_argument("--per-feature", action="store_true",
                   help="also a table of agreement per feature of FEATS (every feature seen, "
                        "most frequent first); layers feats:NAME give single features")
    p.add_argument("--feature-items", choices=list(FEATURE_ITEMS), default=None,
                   help="items of a feature: all words, '_' where it is absent (default), "
                        "or only words where some annotator gives it (present)")
    p.add_argument("--enhanced", action="store_true",
                   help="also agreement on enhanced dependencies (DEPS): alpha over the set "
                        "of incoming edges of each word, and pairwise ELAS/EULAS F1")
    p.add_argument("--set-distance", choices=("masi", "jaccard"), default=None,
                   help="set distance of the --enhanced alpha (default masi)")
