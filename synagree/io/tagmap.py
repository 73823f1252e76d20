r"""Tag mappings between a fine and a coarse tag set (tiered tag sets, docs/method.md §16).

A *tag mapping* sends every fine tag to exactly one coarse tag, as in tiered
tagging (a reduced tag set, with the full morphosyntactic tag recovered
from the coarse one).  The fine and the coarse tags are two separate name
spaces: ``PUNCT<TAB>PUNCT`` is a valid line.

Mapping file (`read_tag_map`)
    UTF-8 text (compressed files are read as every input is).  A line that
    starts with ``#`` followed by a space (or a lone ``#``) is a comment, and
    blank lines are ignored; there are no end-of-line comments, so a tag may
    contain or begin with ``#`` (``#<TAB>.`` maps the Penn tag ``#``).  Every
    other line is ``FINE<TAB>COARSE`` (blanks around a field are dropped).
    A fine tag listed twice with the same coarse tag is fine; with two
    different coarse tags it is an error naming both lines.

Mapping taken from gold data (`derive_tag_map`)
    The fine tag of each gold word paired with another column of the same
    word (``--tiers upos`` with ``--column xpos``).  This is a mapping only
    if it is a function: a fine tag seen under two coarse tags is an error,
    listing every such tag where it first goes with a second coarse tag.
Majority mapping (`derive_majority_tag_map`)
    For a column that is not a function of the fine one (``--majority``):
    each fine tag goes to its most frequent coarse tag among the gold words
    (ties: the alphabetically first), and every fine tag seen with several
    coarse tags is reported (`FineAmbiguity`) with its counts.

Resolving a tag (`TagMap.resolve`)
    A fine tag of the mapping resolves to ``(coarse, fine)``; a name that is
    not a fine tag but is a coarse tag resolves to ``(coarse, None)``: a
    *bare coarse tag* (under-specified answer).  A name that is both is read
    as the fine tag.  Anything else is unmapped (None).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Tuple

from synagree.base.problems import ProblemLog, quote
from synagree.io.sources import Source
from synagree.io.tab_pairs import read_tab_pairs

__all__ = ["TagMap", "read_tag_map", "derive_tag_map", "FineAmbiguity",
           "derive_majority_tag_map"]


@dataclass
class TagMap:
    """A fine -> coarse tag mapping (docs/method.md §16.1).

    Parameters
    ----------
    fine_to_coarse : dict of str to str
        Every fine tag to its coarse tag, in the order first listed.
    source : str
        How the mapping was obtained, for reports: ``file PATH``,
        ``gold COLUMN`` or ``custom``.
    own_class : list of str
        Tags added by `with_own_classes` (each its own coarse class).
    """

    fine_to_coarse: Dict[str, str]
    source: str = "custom"
    own_class: List[str] = field(default_factory=list)

    @property
    def classes(self) -> Dict[str, List[str]]:
        """Coarse tag -> its fine tags (mapping order)."""
        out: Dict[str, List[str]] = {}
        for fine, coarse in self.fine_to_coarse.items():
            out.setdefault(coarse, []).append(fine)
        return out

    def resolve(self, tag: str) -> Optional[Tuple[str, Optional[str]]]:
        """``(coarse, fine)`` of a fine tag, ``(coarse, None)`` of a bare coarse tag, else None."""
        coarse = self.fine_to_coarse.get(tag)
        if coarse is not None:
            return coarse, tag
        if tag in self._coarse_names():
            return tag, None
        return None

    def _coarse_names(self) -> set:
        return set(self.fine_to_coarse.values())

    def with_own_classes(self, tags: Iterable[str]) -> "TagMap":
        """A copy in which each given tag is a fine tag of its own coarse class (same name).

        Tags already fine tags are left alone.  Used for ``--tiers-unmapped
        own-class``; the added tags are listed in ``own_class``.
        """
        mapping = dict(self.fine_to_coarse)
        added = list(self.own_class)
        for tag in tags:
            if tag not in mapping:
                mapping[tag] = tag
                added.append(tag)
        return TagMap(mapping, self.source, added)


def read_tag_map(path: Source) -> TagMap:
    r"""Read a ``FINE<TAB>COARSE`` mapping file (module docstring; docs/method.md §16.1).

    Parameters
    ----------
    path : str, path-like or file-like
        A file, or a stream (`synagree.io.sources`; ``<tiers>`` in messages
        unless it has a real ``.name``).

    Returns
    -------
    TagMap
        With ``source = "file PATH"``.

    Raises
    ------
    InputError
        Every problem, naming file and line: the file reading problems of
        `synagree.io.files.read_text` (``file-not-found``, ``encoding``, ...),
        ``tag-map-fields`` (not two non-empty tab-separated fields),
        ``tag-map-two-coarse`` (a fine tag under two coarse tags),
        ``tag-map-empty`` (no mapping line).
    """
    log = ProblemLog()
    name, rows = read_tab_pairs(path, "<tiers>", "FINE<TAB>COARSE", "tag-map-fields", log)
    mapping: Dict[str, str] = {}
    where: Dict[str, int] = {}
    for number, fine, coarse in rows:
        if fine in mapping and mapping[fine] != coarse:
            log.add(name, number, "tag-map-two-coarse",
                    f"fine tag {quote(fine)} mapped to {quote(coarse)} here but to "
                    f"{quote(mapping[fine])} on line {where[fine]}; each fine tag needs "
                    f"exactly one coarse tag")
            continue
        if fine not in mapping:
            mapping[fine], where[fine] = coarse, number
    if not mapping and not log.errors:
        log.add(name, None, "tag-map-empty", "tag mapping file has no FINE<TAB>COARSE line")
    log.raise_if_errors()
    return TagMap(mapping, f"file {name}")


def derive_tag_map(words: Iterable[Tuple[str, int, str, str]], fine_name: str = "fine",
                   coarse_name: str = "coarse") -> TagMap:
    """The mapping fine -> coarse shown by gold words, if it is a function.

    Parameters
    ----------
    words : iterable of (str, int, str, str)
        Per gold word: (file, line, fine tag, coarse tag).
    fine_name, coarse_name : str
        The two columns, for messages and ``source`` (``gold COARSE``).

    Raises
    ------
    InputError
        ``tag-map-not-a-function``: one error per fine tag seen with two or
        more coarse tags, at the first word that gives it a second one, with
        the word counts of each coarse tag.
    """
    mapping: Dict[str, str] = {}
    first_line: Dict[str, int] = {}
    counts: Dict[str, Counter] = {}
    conflict: Dict[str, Tuple[str, int, str]] = {}
    for file, line, fine, coarse in words:
        counts.setdefault(fine, Counter())[coarse] += 1
        if fine not in mapping:
            mapping[fine], first_line[fine] = coarse, line
        elif mapping[fine] != coarse and fine not in conflict:
            conflict[fine] = (file, line, coarse)
    if conflict:
        log = ProblemLog()
        for fine, (file, line, other) in conflict.items():
            shown = ", ".join(f"{quote(c)} ({n})" for c, n in
                              sorted(counts[fine].items(), key=lambda kv: (-kv[1], kv[0])))
            log.add(file, line, "tag-map-not-a-function",
                    f"gold {fine_name} {quote(fine)} goes with {coarse_name} "
                    f"{quote(other)} here but with "
                    f"{quote(mapping[fine])} on line {first_line[fine]} (words: {shown}): "
                    f"{coarse_name} is not a function of {fine_name}, so it gives no tag "
                    f"mapping; write a mapping file (FINE<TAB>COARSE) instead, or give "
                    f"--majority to map each {fine_name} tag to its most frequent "
                    f"{coarse_name}")
        log.raise_if_errors()
    return TagMap(mapping, f"gold {coarse_name}")



@dataclass
class FineAmbiguity:
    """A fine tag that gold shows with several coarse tags (``--majority``, method §16.4).

    Parameters
    ----------
    fine : str
    coarse_counts : dict of str to int
        Gold words per coarse tag, most frequent first (ties alphabetical).
    majority : str
        The coarse tag the majority mapping gives it (the first of
        ``coarse_counts``).
    """

    fine: str
    coarse_counts: Dict[str, int]
    majority: str

    @property
    def words(self) -> int:
        """Gold words with this fine tag."""
        return sum(self.coarse_counts.values())

    @property
    def minority(self) -> int:
        """Of them, words whose gold coarse tag is not the majority one."""
        return self.words - self.coarse_counts[self.majority]

    @property
    def minority_share(self) -> float:
        """minority / words."""
        return self.minority / self.words if self.words else 0.0

    def as_dict(self) -> dict:
        """JSON-ready."""
        return {"fine": self.fine, "words": self.words, "majority": self.majority,
                "minority": self.minority, "coarse_counts": dict(self.coarse_counts)}


def derive_majority_tag_map(words: Iterable[Tuple[str, int, str, str]],
                            fine_name: str = "fine", coarse_name: str = "coarse"
                            ) -> Tuple[TagMap, List[FineAmbiguity]]:
    """Each fine tag to its most frequent coarse tag in gold, with the ambiguous ones.

    Parameters
    ----------
    words : iterable of (str, int, str, str)
        Per gold word: (file, line, fine tag, coarse tag).
    fine_name, coarse_name : str
        The two columns (``source`` is ``gold COARSE (majority)``).

    Returns
    -------
    tag_map : TagMap
        Fine tags in first-seen order.
    ambiguous : list of FineAmbiguity
        The fine tags seen with more than one coarse tag, most minority
        words first (then by name).
    """
    counts: Dict[str, Counter] = {}
    for _file, _line, fine, coarse in words:
        counts.setdefault(fine, Counter())[coarse] += 1
    mapping: Dict[str, str] = {}
    ambiguous: List[FineAmbiguity] = []
    for fine, cnt in counts.items():
        ordered = dict(sorted(cnt.items(), key=lambda kv: (-kv[1], kv[0])))
        majority = next(iter(ordered))
        mapping[fine] = majority
        if len(ordered) > 1:
            ambiguous.append(FineAmbiguity(fine, ordered, majority))
    ambiguous.sort(key=lambda a: (-a.minority, a.fine))
    return TagMap(mapping, f"gold {coarse_name} (majority)"), ambiguous
