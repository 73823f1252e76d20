"""The output of ``synagree bdm``: GATE's BDM score file, JSON or CSV (docs/method.md §23)."""
from __future__ import annotations

import csv
import io
import json
from typing import Optional

from synagree._version import __version__
from synagree.base import escape
from synagree.trees.gate_bdm import GateBDM, java_float_str

__all__ = ["BDM_OUTPUTS", "render_bdm"]

#: The formats of ``synagree bdm``: GATE's own file, JSON, CSV.
BDM_OUTPUTS = ("gate", "json", "csv")

_FIELDS = ("key", "response", "bdm", "msca", "cp", "dpk", "dpr", "n0", "n1", "n2", "bran")


def render_bdm(bdm: GateBDM, name: str, fmt: str = "gate", source: str = "",
               progress: Optional[bool] = False) -> str:
    r"""Every pair's BDM line in a format.

    ``gate``: GATE's file, byte for byte (header line, then ``key=...,
    response=..., bdm=...`` per pair; GATE's IAA plugin reads it as its BDM
    file).  ``json``: the graph's statistics and one object per pair (the
    single-precision values as exact doubles).  ``csv``: one row per pair,
    the numbers written as GATE writes them (the shortest text that reads
    back as the same single-precision value).

    Parameters
    ----------
    bdm : GateBDM
    name : str
        The ontology's name in GATE's header line.
    fmt : {"gate", "json", "csv"}
    source : str
        The hierarchy file, for JSON.
    progress : bool or None
        A bar on stderr while the pairs are computed.
    """
    if fmt == "gate":
        return "".join(line + "\n" for line in bdm.gate_lines(name, progress))
    if fmt == "json":
        graph = bdm.graph
        data = {"synagree_version": __version__, "hierarchy": source, "name": name,
                "concepts": len(graph), "top_classes": graph.tops,
                "leaves": len(graph.leaves), "n0": bdm.n0,
                "mean_branching": bdm.mean_branching,
                "pairs": [s.as_dict() for s in bdm.pairs(progress)]}
        return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(_FIELDS)
        for s in bdm.pairs(progress):
            row = s.as_dict()
            w.writerow(escape.csv_row(
                java_float_str(v) if isinstance(v, float) else ("" if v is None else v)
                for v in (row[f] for f in _FIELDS)))
        return buf.getvalue()
    raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(BDM_OUTPUTS)}")
