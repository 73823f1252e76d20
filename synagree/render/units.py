"""The joined and the edited units of a corpus as a table (``agree --worst``, ``report``).

docs/method.md §1.7 (joined units: sentences split differently) and §1.8
(edited units: texts that differ by local edits).  The data is
`synagree.io.corpus.Corpus.unit_changes`.
"""
from typing import List, Sequence, Tuple

from synagree.render.rows import render_rows

HEADER = ["unit", "document", "joined", "sentences", "differing words"]


def _sentences(places: Sequence[Sequence[object]]) -> str:
    """``file:line`` of the first sentence, ``+N`` for the further ones."""
    file, line = places[0][0], places[0][1]
    more = f" +{len(places) - 1}" if len(places) > 1 else ""
    return f"{file}:{line}{more}"


def unit_change_rows(changes: Sequence[dict]) -> Tuple[List[str], List[List[str]]]:
    """Header and rows: per unit its id, document, joined or not, each annotator's
    sentences and the differing words.

    Parameters
    ----------
    changes : sequence of dict
        `synagree.io.corpus.Corpus.unit_changes`.
    """
    rows = []
    for c in changes:
        sents = "; ".join(f"{a}: {_sentences(p)}" for a, p in c["sentences"].items())
        edits = "; ".join(f"{e['annotator']} vs {e['reference']}: "
                          + ", ".join(f"{x!r} → {y!r}" for x, y in e["words"][:5])
                          + (" …" if len(e["words"]) > 5 else "") for e in c["edits"])
        rows.append([c["unit"], c["document"], "yes" if c["joined"] else "no", sents, edits])
    return list(HEADER), rows


def render_unit_changes(changes: Sequence[dict], fmt: str = "table") -> str:
    """The joined and edited units as text, Markdown, CSV or LaTeX (`unit_change_rows`)."""
    header, rows = unit_change_rows(changes)
    return render_rows(header, rows, fmt,
                       caption=f"{len(rows)} joined or edited unit(s) (docs/method.md §1.7–1.8)")
