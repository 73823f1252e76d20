"""Rendering of tag evaluations (``synagree tags``): table, JSON, CSV."""
import csv
import io
import json
from typing import List

from synagree.base.escape import csv_row, plain
from synagree.evaluation.tags import OUTPUTS, TagsResult, _clean
from synagree.render.tables import fmt_num
from synagree.render.tiers import tiers_csv, tiers_table_lines


# ---------------------------------------------------------------- rendering
def render_tags(res: TagsResult, output: str = "table") -> str:
    r"""A `TagsResult` as ``table`` (summary + per-tag rows), ``json`` or ``csv``.

    CSV has one row per gold tag, after an ``ALL`` row.  With tiers
    (`TagsResult.tiers`) the table and the CSV go on, after a blank line,
    with the tiers table of `synagree.render.tiers`.

    Parameters
    ----------
    res : TagsResult
    output : {"table", "json", "csv"}

    Returns
    -------
    str

    Raises
    ------
    ValueError
        Unknown output format.

    Examples
    --------
    >>> import os, tempfile
    >>> from synagree.evaluation.tags import evaluate_tags
    >>> row = "{}\t{}\t_\t{}\t_\t_\t{}\t{}\t_\t_\n"
    >>> paths = []
    >>> for rel in ("nsubj:pass", "nsubj"):
    ...     fd, path = tempfile.mkstemp(suffix=".conllu")
    ...     with os.fdopen(fd, "w") as f:
    ...         _ = f.write(row.format(1, "She", "PRON", 2, rel)
    ...                     + row.format(2, "left", "VERB", 0, "root") + "\n")
    ...     paths.append(path)
    >>> res = evaluate_tags(*paths)
    >>> print(render_tags(res, "csv"), end="")
    tag,count,exact,accuracy,mean_credit,confusion,confusion_count
    ALL,2,1,0.5,1.0,,
    nsubj:pass,1,0,0.0,1.0,nsubj,1
    root,1,1,1.0,1.0,,0
    >>> for p in paths: os.remove(p)
    """
    if output == "json":
        return json.dumps(res.to_dict(), indent=2, ensure_ascii=False) + "\n"
    if output == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["tag", "count", "exact", "accuracy", "mean_credit", "confusion",
                    "confusion_count"])
        w.writerow(["ALL", res.words, res.exact, repr(_clean(res.accuracy)),
                    repr(_clean(res.mean_credit)), "", ""])
        for r in res.per_tag:
            w.writerow(csv_row([r.tag, r.count, r.exact, repr(_clean(r.accuracy)),
                                repr(_clean(r.mean_credit)), r.confusion or "",
                                r.confusion_count]))
        return buf.getvalue() + _tiers_part(res, "csv")
    if output != "table":
        raise ValueError(f"unknown output format {output!r}; expected one of {OUTPUTS}")
    summary = [("gold", res.gold_file), ("system", res.system_file), ("column", res.column),
               ("hierarchy", res.hierarchy), ("sentences", str(res.sentences)),
               ("words", str(res.words)),
               ("accuracy", fmt_num(res.accuracy, 6)),
               ("hierarchical credit", fmt_num(res.mean_credit, 6)),
               ("Cohen's kappa", fmt_num(res.cohen_kappa, 6)),
               ("Scott's pi", fmt_num(res.scott_pi, 6)),
               ("hierarchical kappa", fmt_num(res.hierarchical_kappa, 6))]
    if res.form_mismatches:
        summary.append(("form mismatches", str(res.form_mismatches)))
    kw = max(len(k) for k, _ in summary)
    lines = [plain(f"{k:<{kw}}  {v}") for k, v in summary]
    if res.added_tags:
        shown = ", ".join(res.added_tags[:20]) + (" ..." if len(res.added_tags) > 20 else "")
        lines.append(plain(f"note: {len(res.added_tags)} tag(s) not in the hierarchy were added "
                           f"as top-level tags (no partial credit): {shown}"))
    head = ["gold tag", "count", "exact", "credit", "most frequent confusion"]
    body = [[plain(r.tag), str(r.count), fmt_num(r.accuracy), fmt_num(r.mean_credit),
             plain(f"{r.confusion} ({r.confusion_count})") if r.confusion else "-"]
            for r in res.per_tag]
    widths = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
    lines.append("")

    def fmt(row: List[str]) -> str:
        return "  ".join(c.ljust(widths[i]) if i in (0, 4) else c.rjust(widths[i])
                         for i, c in enumerate(row)).rstrip()

    lines.append(fmt(head))
    lines.extend(fmt(r) for r in body)
    return "\n".join(lines) + "\n" + _tiers_part(res, "table")


def _tiers_part(res: TagsResult, output: str) -> str:
    """With ``--tiers``: a blank line and the tiers table (docs/method.md §16); else ``""``."""
    if res.tiers is None:
        return ""
    if output == "csv":
        return "\n" + tiers_csv(res.tiers)
    return "\n" + "\n".join(tiers_table_lines(res.tiers)) + "\n"
