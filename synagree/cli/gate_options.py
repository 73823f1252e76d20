"""``--format gate``: GATE XML documents in ``categorical`` and ``spans`` (--sets, --type)."""
from __future__ import annotations

import argparse

from synagree.base.problems import InputError
from synagree.cli.options import output_format
from synagree.evaluation.brat_documents import brat_classification, brat_spans
from synagree.evaluation.gate_documents import gate_classification, gate_spans, parse_sets
from synagree.io.brat import sniff_brat
from synagree.io.files import emit
from synagree.io.gate_xml import sniff_gate_xml
from synagree.render.gate import render_gate_classification
from synagree.render.spans import render_spans


def is_gate_input(args: argparse.Namespace) -> bool:
    """``--format gate``, or ``auto`` with every file a GATE XML document."""
    files = list(getattr(args, "files", None) or [])
    if args.fmt == "gate":
        return True
    return args.fmt == "auto" and bool(files) and all(sniff_gate_xml(f) for f in files)


def is_brat_input(args: argparse.Namespace) -> bool:
    """``--format brat``, or ``auto`` with every file a ``.ann``."""
    files = list(getattr(args, "files", None) or [])
    if args.fmt == "brat":
        return True
    return args.fmt == "auto" and bool(files) and all(sniff_brat(f) for f in files)


def run_brat(args: argparse.Namespace, command: str) -> int:
    """``categorical``/``spans`` on brat ``.ann`` files (entities); the exit status."""
    if getattr(args, "dirs", None):
        raise InputError.single("<command line>", None, "usage",
                                "brat files are given one by one (one .ann per annotator), "
                                "not --dirs")
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
    if getattr(args, "dirs", None) or not args.files:
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
