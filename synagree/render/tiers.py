r"""Rendering of tiered tag scores (``synagree tags --tiers``): table lines and a CSV table.

`synagree.render.tags.render_tags` calls these when the result carries a
`synagree.evaluation.tiers.TiersResult`; JSON is `TiersResult.to_dict`
under the key ``tiers``.
"""
from typing import List, Sequence, Tuple

from synagree.base.table import Cell, Column, Table, format_value, key_value
from synagree.evaluation.tiers import TiersResult
from synagree.render import writers

__all__ = ["tiers_table_lines", "tiers_tables", "majority_table", "lexicon_tables", "tiers_csv",
           "majority_csv", "lexicon_csv", "FORMS_SHOWN"]

#: Word forms the text table lists (most undecided words first); JSON and CSV hold all.
FORMS_SHOWN = 20

#: Columns of the tiers CSV table (one ``ALL`` row, then one row per gold coarse class).
CSV_COLUMNS = ("coarse", "fine_types", "gold_fine_types", "words", "coarse_correct",
               "coarse_accuracy", "fine_exact", "fine_accuracy", "credit", "tier_credit",
               "bare_coarse", "ambiguous_words", "majority_fine", "majority_count",
               "recovery_ceiling", "recovered", "recovered_accuracy", "coarse_cohen_kappa",
               "coarse_scott_pi", "fine_cohen_kappa", "fine_scott_pi", "coarse_types",
               "ambiguous_coarse_types", "ambiguous_fine_types", "sibling_credit", "mapping")


def _sum(x: float) -> str:
    """A count or a sum of credits: an integer as such, else up to 6 decimals."""
    return str(int(x)) if float(x).is_integer() else f"{x:.6f}".rstrip("0")


def _summary(res: TiersResult) -> List[Tuple[str, str]]:
    """The tiers summary: (name, value with the counts behind it)."""
    n = res.words

    def of(count: float, ratio: float) -> str:
        return format_value(ratio, digits=6, missing="undefined") + f"  ({_sum(count)}/{n})"

    summary = [
        ("coarse accuracy", of(res.coarse_correct, res.coarse_accuracy)),
        ("coarse Cohen's kappa",
         format_value(res.coarse_cohen_kappa, digits=6, missing="undefined")),
        ("coarse Scott's pi",
         format_value(res.coarse_scott_pi, digits=6, missing="undefined")),
        ("fine accuracy", of(res.fine_exact, res.fine_accuracy)),
        ("fine Cohen's kappa",
         format_value(res.fine_cohen_kappa, digits=6, missing="undefined")),
        ("fine Scott's pi",
         format_value(res.fine_scott_pi, digits=6, missing="undefined")),
        ("tier credit", of(res.credit, res.mean_credit)),
        ("bare coarse tags", str(res.bare_coarse)),
        ("fine types", f"{res.fine_types} in {res.coarse_types} coarse classes"),
        ("ambiguous fine types", f"{res.ambiguous_fine_types} in "
                                 f"{res.ambiguous_coarse_types} classes with >1 fine tag"),
        ("ambiguous words", of(res.ambiguous_words, res.ambiguous_share)),
        ("recovery ceiling", of(res.majority_count, res.recovery_ceiling)),
        ("recovered accuracy", of(res.recovered, res.recovered_accuracy)),
    ]
    return summary


def _settings(res: TiersResult) -> str:
    return (f"tiers: mapping {res.mapping}; sibling credit {res.sibling_credit:g}; "
            f"unmapped tags: {res.unmapped}")


def _class_table(res: TiersResult) -> Table:
    """One row per gold coarse class, under registered keys."""
    t = Table("tiers", [Column("coarse"), Column("fine_types", "count"),
                        Column("gold_fine_types", "count"), Column("words", "count"),
                        Column("coarse_accuracy", "number"), Column("fine_accuracy", "number"),
                        Column("tier_credit", "number"), Column("majority fine (words)"),
                        Column("recovery_ceiling", "number"),
                        Column("recovered_accuracy", "number")],
              title="Per gold coarse class")
    for r in res.per_class:
        t.add(r.coarse, r.fine_types, r.gold_fine_types, r.words, r.coarse_accuracy,
              r.fine_accuracy, r.mean_credit, f"{r.majority_fine} ({r.majority_count})",
              r.recovery_ceiling, r.recovered_accuracy)
    return t


def tiers_tables(res: TiersResult) -> List[Table]:
    """The tiers tables of the table model, as every text format writes them
    (docs/method.md §16): the summary (with the settings as its caption), the
    per-class table, and with ``--majority`` and ``--lexicon`` their tables
    (`majority_table`, `lexicon_tables`; an empty majority table is left out, its
    sentence kept as the per-class table's note)."""
    summary = key_value("tiers_summary", [(k, v, "text") for k, v in _summary(res)],
                        title=_settings(res))
    if res.own_class:
        shown = ", ".join(res.own_class[:20]) + (" ..." if len(res.own_class) > 20 else "")
        summary.notes.append(f"{len(res.own_class)} tag(s) not in the mapping were made "
                             f"their own coarse class: {shown}")
    out = [summary, _class_table(res)]
    if res.ambiguity is not None:  # --majority (docs/method.md §16.4)
        maj = majority_table(res)
        if maj.rows:
            out.append(maj)
        else:
            out[-1].notes.append(maj.title)
    if res.lexicon is not None:  # --lexicon (docs/method.md §16.5)
        out += lexicon_tables(res)
    return out


def tiers_table_lines(res: TiersResult) -> List[str]:
    r"""The tiers part of the ``tags`` text table: `tiers_tables` written by
    `synagree.render.writers` (fitted to the terminal), a blank line between tables."""
    return "\n".join(writers.text(t) for t in tiers_tables(res)).rstrip("\n").split("\n")


def _share(count: float, whole: float) -> str:
    return format_value(count / whole if whole else None, digits=6, missing="undefined")


def majority_table(res: TiersResult) -> Table:
    """With ``--majority``: one row per fine tag of gold that goes with several coarse tags
    (its words, its majority coarse tag, the words of the others), under a caption that
    gives the totals."""
    amb = res.ambiguity or []
    n = res.words
    t = Table("majority", [Column("fine"), Column("words", "count"), Column("majority"),
                           Column("minority_words", "count"), Column("coarse tags (words)")],
              title=f"majority mapping: {len(amb)} fine tag(s) of gold go with more than one "
                    f"coarse tag; {res.majority_minority}/{n} gold words "
                    f"({_share(res.majority_minority, n)}) have a coarse tag other than "
                    f"their fine tag's majority")
    for a in amb:
        t.add(a.fine, a.words, a.majority, a.minority,
              ", ".join(f"{c} {k}" for c, k in a.coarse_counts.items()))
    return t


def lexicon_tables(res: TiersResult) -> List[Table]:
    """With ``--lexicon``: the totals (shares with the counts behind them), one row per
    gold coarse class, and the `FORMS_SHOWN` word forms with the most undecided words
    (JSON and CSV hold every form)."""
    lex = res.lexicon
    assert lex is not None
    t = lex.total

    def of(count: int, whole: int) -> str:
        return f"{_share(count, whole)}  ({count}/{whole})"

    rows = [("unknown words", of(t.unknown, t.words)),
            ("known words", of(t.known, t.words)),
            ("decided by coarse tag + lexicon", of(t.decided, t.known)),
            ("  of them the gold fine tag", of(t.decided_correct, t.decided)),
            ("ambiguous (several candidates)", of(t.ambiguous, t.known)),
            ("lexicon gap (no candidate)", of(t.gap, t.known)),
            ("recovered from system coarse tags", of(t.recovered, t.known))]
    total = key_value("lexicon_total", [(k, v, "text") for k, v in rows],
                      title=f"lexicon: {lex.source}; {lex.forms} word forms; shares of known "
                            f"words unless said")
    if lex.unmapped_lexicon_tags:
        tags = list(lex.unmapped_lexicon_tags.items())
        shown = ", ".join(f"{k} ({v})" for k, v in tags[:20]) + (" ..." if len(tags) > 20 else "")
        total.notes.append(f"{len(tags)} lexicon tag(s) are not in the mapping and are no "
                           f"candidate of any class: {shown}")
    counts = ("words", "unknown", "known", "decided", "ambiguous", "gap")
    classes = Table("lexicon_classes", [Column("coarse"), *(Column(k, "count") for k in counts),
                                        Column("decided_share", "number"),
                                        Column("recovered", "count")])
    for r in lex.per_class:
        classes.add(r.name, *(getattr(r, k) for k in counts), r.decided_share, r.recovered)
    out = [total, classes]
    forms = lex.per_form[:FORMS_SHOWN]
    if forms:
        more = len(lex.per_form) - len(forms)
        cols = ("words", "lexicon_tags", "decided", "ambiguous", "gap", "recovered")
        out.append(Table("lexicon_forms", [Column("form"), *(Column(k, "count") for k in cols)],
                         [[r.name, *(getattr(r, k) for k in cols)] for r in forms],
                         title=f"word forms with the most undecided words ({len(forms)} of "
                               f"{len(lex.per_form)} known forms"
                               + (f"; all {len(lex.per_form)} in JSON and CSV)" if more else ")")))
    return out


def _csv(name: str, header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> str:
    """A CSV table of the table model (`synagree.render.writers.csv_table`: exact values)."""
    return writers.csv_table(Table(name, [Column(h) for h in header], [list(r) for r in rows]))


def tiers_csv(res: TiersResult) -> str:
    r"""The tiers CSV table: an ``ALL`` row (with the settings and κ), then one row per class.

    Every count behind a ratio is a column (`CSV_COLUMNS`).
    """
    rows: List[Sequence[Cell]] = [[
        "ALL", res.fine_types, sum(r.gold_fine_types for r in res.per_class), res.words,
        res.coarse_correct, res.coarse_accuracy, res.fine_exact, res.fine_accuracy,
        res.credit, res.mean_credit, res.bare_coarse, res.ambiguous_words, "",
        res.majority_count, res.recovery_ceiling, res.recovered,
        res.recovered_accuracy, res.coarse_cohen_kappa, res.coarse_scott_pi,
        res.fine_cohen_kappa, res.fine_scott_pi, res.coarse_types,
        res.ambiguous_coarse_types, res.ambiguous_fine_types, res.sibling_credit,
        res.mapping]]
    rows += [[r.coarse, r.fine_types, r.gold_fine_types, r.words, r.coarse_correct,
              r.coarse_accuracy, r.fine_exact, r.fine_accuracy, r.credit,
              r.mean_credit, r.bare_coarse, r.words if r.fine_types > 1 else 0,
              r.majority_fine or "", r.majority_count, r.recovery_ceiling, r.recovered,
              r.recovered_accuracy, "", "", "", "", "", "", "", "", ""] for r in res.per_class]
    return _csv("tiers", CSV_COLUMNS, rows)


def majority_csv(res: TiersResult) -> str:
    """With ``--majority``: one row per ambiguous fine tag and coarse tag, with its words.

    Columns ``fine``, ``words``, ``majority``, ``minority``, ``coarse``,
    ``coarse_words``.
    """
    return _csv("majority", ["fine", "words", "majority", "minority", "coarse", "coarse_words"],
                [[a.fine, a.words, a.majority, a.minority, coarse, k]
                 for a in res.ambiguity or [] for coarse, k in a.coarse_counts.items()])


def lexicon_csv(res: TiersResult) -> str:
    """With ``--lexicon``: ``ALL``, then a row per gold coarse class, then per known word form.

    Column ``kind`` (``all``, ``coarse``, ``form``) then ``name`` and the
    counts and shares of `synagree.evaluation.tier_lexicon.LexiconRow`.
    """
    lex = res.lexicon
    rows = [] if lex is None else [("all", lex.total)] + [
        ("coarse", r) for r in lex.per_class] + [("form", r) for r in lex.per_form]
    return _csv("lexicon", ["kind", "name", "words", "unknown", "known", "decided",
                            "decided_correct", "ambiguous", "gap", "recovered", "decided_share",
                            "unknown_share", "recovered_share", "lexicon_tags"],
                [[kind, r.name, r.words, r.unknown, r.known, r.decided, r.decided_correct,
                  r.ambiguous, r.gap, r.recovered, r.decided_share, r.unknown_share,
                  r.recovered_share, r.lexicon_tags if kind == "form" else ""]
                 for kind, r in rows])
