"""``--format gate``: GATE XML documents in ``categorical`` and ``spans`` (--sets, --type)."""
from __future__ import annotations

import argparse

from synagree.base.problems import InputError
from synagree.cli.options import output_format
from synagree.evaluation.brat_documents import brat_classification, brat_spans
from synagree.evaluation.gate_documents import gate_classification, gate_spans, parse_sets
from synagree.io import registry
from synagree.io.files import emit
from synagree.render.gate import render_gate_classification
from synagree.render.spans import render_spans

#: options of ``categorical``/``spans`` that GATE documents and brat entities do not take,
#: with their defaults (given anyway: a usage error, never silently ignored)
NOT_FOR_DOCUMENTS = {"layers": None, "specific": None, "bootstrap": 0, "per_feature": False,
                     "feature_items": None, "enhanced": False, "set_distance": None,
                     "bias": False, "allow_missing": False, "match": "auto",
                     "no_text_check": False, "dirs": None, "layer": None, "labels": "type",
                     "hierarchy": None, "bdm": False, "coefficient": None, "ac2_weights": None}
GATE_ONLY = {"sets": "--sets", "ann_type": "--type", "gate_feature": "--feature"}


def _refuse(args: argparse.Namespace, what: str, also: tuple = ()) -> None:
    given = [k for k, default in NOT_FOR_DOCUMENTS.items()
             if getattr(args, k, default) != default]
    given += [k for k in also if getattr(args, k, None)]
    if given:
        names = ", ".join(GATE_ONLY.get(k, "--" + k.replace("_", "-")) for k in given)
        raise InputError.single("<command line>", None, "usage",
                                f"{names}: not for {what}")


def check_not_gate_options(args: argparse.Namespace) -> None:
    """``--sets``, ``--type``, ``--feature`` outside ``--format gate``: a usage error."""
    given = [v for k, v in GATE_ONLY.items() if getattr(args, k, None)]
    if given:
        raise InputError.single("<command line>", None, "usage",
                                f"{', '.join(given)}: only for GATE XML documents "
                                f"(--format gate)")


def _all_of(args: argparse.Namespace, name: str) -> bool:
    """``--format NAME``, or ``auto`` with every file of that format (`synagree.io.registry`)."""
    files = list(getattr(args, "files", None) or [])
    if args.fmt == name:
        return True
    if args.fmt != "auto" or not files:
        return False
    specs = [registry.sniff_or_none(f) for f in files]
    return all(s is not None and s.name == name for s in specs)


def is_gate_input(args: argparse.Namespace) -> bool:
    """``--format gate``, or ``auto`` with every file a GATE XML document."""
    return _all_of(args, "gate")


def is_brat_input(args: argparse.Namespace) -> bool:
    """``--format brat``, or ``auto`` with every file a brat ``.ann``."""
    return _all_of(args, "brat")


def run_brat(args: argparse.Namespace, command: str) -> int:
    """``categorical``/``spans`` on brat ``.ann`` files (entities); the exit status."""
    _refuse(args, "brat entities (.ann files)", tuple(GATE_ONLY))
    output = output_format(args)
    names = getattr(args, "names", None)
    if command == "categorical":
        emit(render_gate_classification(brat_classification(args.files, names), output),
             args.out)
    else:
        emit(render_spans(brat_spans(args.files, names), output), args.out)
    return 0


def _type(args: argparse.Namespace) -> str:
    if not args.ann_type:
        raise InputError.single("<command line>", None, "usage",
                                "--format gate needs --type TYPE (the annotation type compared)")
    return str(args.ann_type)


def _no_dirs(args: argparse.Namespace) -> None:
    _refuse(args, "GATE XML documents", ("names",))
    if not args.files:
        raise InputError.single("<command line>", None, "usage",
                                "--format gate reads GATE XML files given one by one (each "
                                "annotation set is an annotator), not --dirs")


def run_gate_categorical(args: argparse.Namespace) -> int:
    """``categorical --format gate --sets A,B --type T --feature F``; the exit status."""
    _no_dirs(args)
    sets = parse_sets(args.sets)
    type_ = _type(args)
    if not args.gate_feature:
        raise InputError.single("<command line>", None, "usage",
                                "categorical --format gate needs --feature NAME (the feature "
                                "whose values are the categories)")
    output = output_format(args)
    res = gate_classification(args.files, sets, type_, args.gate_feature)
    emit(render_gate_classification(res, output), args.out)
    return 0


def run_gate_spans(args: argparse.Namespace) -> int:
    """``spans --format gate --sets KEY,RESPONSE --type T``; the exit status."""
    _no_dirs(args)
    sets = parse_sets(args.sets)
    type_ = _type(args)
    output = output_format(args)
    res = gate_spans(args.files, sets, type_)
    emit(render_spans(res, output), args.out)
    return 0
