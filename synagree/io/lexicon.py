r"""A word-form lexicon of fine tags, for tiered tagging (docs/method.md §16.5).

In tiered tagging (Tufiș 1999; Ceaușu 2006) a tagger assigns coarse tags and
the fine tag of each word is recovered from its coarse tag and a lexicon that
lists the fine tags each word form can take.  A `Lexicon` is that list.

Lexicon file (`read_lexicon`)
    UTF-8 text (compressed files are read as every input is).  One
    ``WORD<TAB>FINE`` per line; a word with several fine tags has several
    lines.  A line that starts with ``#`` followed by a space (or a lone
    ``#``) is a comment and blank lines are ignored; there are no
    end-of-line comments, so a word or tag may begin with ``#``.  Repeating a
    line is harmless.  Word forms are compared as written (case-sensitive).
From a training treebank (`lexicon_from_words`)
    The (form, fine tag) pairs of the words of a CoNLL-U file, with their
    counts.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterable, Optional, Tuple

from synagree.base.problems import ProblemLog
from synagree.io.sources import Source
from synagree.io.tab_pairs import read_tab_pairs

__all__ = ["Lexicon", "read_lexicon", "lexicon_from_words"]


@dataclass
class Lexicon:
    """Word form -> its fine tags (with counts: lines of a file, or words of a treebank).

    Parameters
    ----------
    entries : dict of str to dict of str to int
    source : str
        ``file PATH`` or ``treebank PATH``, for reports.
    """

    entries: Dict[str, Dict[str, int]] = field(default_factory=dict)
    source: str = "custom"

    def tags(self, form: str) -> Optional[Dict[str, int]]:
        """The fine tags of a form (None: the form is not in the lexicon)."""
        return self.entries.get(form)

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def fine_tags(self) -> Dict[str, int]:
        """Every fine tag of the lexicon, with its count (first-seen order)."""
        out: Dict[str, int] = {}
        for tags in self.entries.values():
            for t, n in tags.items():
                out[t] = out.get(t, 0) + n
        return out


def lexicon_from_words(words: Iterable[Tuple[str, str]], source: str = "custom") -> Lexicon:
    """A lexicon of (form, fine tag) pairs, counted."""
    entries: Dict[str, Dict[str, int]] = {}
    for form, tag in words:
        tags = entries.setdefault(form, {})
        tags[tag] = tags.get(tag, 0) + 1
    return Lexicon(entries, source)


def read_lexicon(path: Source) -> Lexicon:
    r"""Read a ``WORD<TAB>FINE`` lexicon file (module docstring).

    Parameters
    ----------
    path : str, path-like or file-like
        A file, or a stream (`synagree.io.sources`; ``<lexicon>`` in
        messages unless it has a real ``.name``).

    Returns
    -------
    Lexicon
        ``source = "file PATH"``; each line counts 1.

    Raises
    ------
    InputError
        Every problem, with file and line: the reading problems of
        `synagree.io.files.read_text`, ``lexicon-fields`` (not two non-empty
        tab-separated fields), ``lexicon-empty`` (no entry).
    """
    log = ProblemLog()
    name, rows = read_tab_pairs(path, "<lexicon>", "WORD<TAB>FINE", "lexicon-fields", log)
    entries: Dict[str, Dict[str, int]] = {}
    for _, form, fine in rows:
        tags = entries.setdefault(form, {})
        tags[fine] = tags.get(fine, 0) + 1
    if not entries and not log.errors:
        log.add(name, None, "lexicon-empty", "lexicon file has no WORD<TAB>FINE line")
    log.raise_if_errors()
    return Lexicon(entries, f"file {name}")
