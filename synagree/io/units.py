"""Units across differing sentence splits, and text that differs by local edits.

docs/method.md §1.7–1.8 (annotators) and §11.3 (gold and a system): one
convention, written once here and used by both.

Joined units
    Two annotations of one text may split it into sentences differently.
    The annotators' texts are read as character streams, whitespace removed
    (`synagree.io.text.comparable`).  A **unit** is the smallest group of
    consecutive sentences of every annotator such that every annotator's
    sentence boundaries coincide at its two ends (`coinciding_groups`).
    Each annotator's sentences of a unit are joined into one tree under one
    artificial root, every sentence root a child of it (`join_sentences`):
    a dependency tree with several words of HEAD 0, or a bracketed tree
    under an unlabelled bracket.

Streams that differ
    When an annotator's text differs from the first annotator's (a token
    fixed, inserted or deleted), the two streams are aligned
    (`align_text`): word by word with `difflib.SequenceMatcher`, then
    character by character inside a stretch of differing words whose
    characters are at least `EDIT_SHARE` similar.  A sentence boundary
    coincides with a boundary of the other stream when no aligned character
    crosses it (`group_sentences`).  A sentence none of whose characters is
    aligned has no counterpart in the other stream.

Edits
    A unit whose annotators' texts differ is **edited** when, for every
    annotator, the share of aligned characters with the first annotator's
    text, 2·M / (|a| + |b|), is at least `EDIT_SHARE` (0.6; `text_share`).
    Below it, the texts are different sentences: alignment is lost.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from itertools import accumulate
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from synagree.io.brackets import PhraseNode, PhraseSentence
from synagree.io.conllu import DepSentence
from synagree.io.text import comparable

__all__ = ["EDIT_SHARE", "Block", "TextEdit", "Grouping", "join_sentences", "join_dependency",
           "join_phrase", "coinciding_groups", "sentence_tokens", "align_text", "text_share",
           "differing_words", "group_sentences"]

#: Lowest share of aligned characters, 2·M / (|a| + |b|), at which two texts
#: are one text with local edits (docs/method.md §1.8).  Between neighbouring
#: different sentences of the reference treebanks (../shared/data/iaa) the
#: share is 0.04 in the median and below 0.3 in 99 % of pairs; one token
#: deleted from a sentence of four or more words leaves 0.7 or more.
EDIT_SHARE = 0.6

#: Longest stretch of differing text (characters, both sides together)
#: aligned character by character; longer stretches stay unaligned.
REFINE_LIMIT = 4000

#: An aligned stretch: (start in the first text, start in the second, length),
#: in characters.
Block = Tuple[int, int, int]

Joinable = Union[DepSentence, PhraseSentence]


# --------------------------------------------------------------------------- joining


_DEPS_HEAD = re.compile(r"^(\d+)((?:\.\d+)?):")


def offset_deps(value: str, offset: int) -> str:
    """A DEPS value with every head id (word or empty node) moved by ``offset``.

    Examples
    --------
    >>> offset_deps("0:root|2:nsubj|3.1:obj", 4)
    '0:root|6:nsubj|7.1:obj'
    """
    if not offset or value in ("_", ""):
        return value
    out = []
    for item in value.split("|"):
        m = _DEPS_HEAD.match(item)
        if m and m.group(1) != "0":
            item = f"{int(m.group(1)) + offset}{m.group(2)}:{item[m.end():]}"
        out.append(item)
    return "|".join(out)


def _joined_metadata(sents: Sequence[Joinable]) -> Dict[str, Optional[str]]:
    ids = [s.sent_id for s in sents]
    meta: Dict[str, Optional[str]] = {}
    if all(ids):
        meta["sent_id"] = "+".join(i for i in ids if i)
    texts = [s.metadata.get("text") for s in sents]
    if all(texts):
        meta["text"] = " ".join(t for t in texts if t)
    return meta


def join_dependency(sents: Sequence[DepSentence]) -> DepSentence:
    r"""Dependency sentences as one tree under one artificial root.

    Words are concatenated, heads (and DEPS heads, multiword-token ranges)
    offset, and every sentence root stays a child of the artificial root
    (HEAD 0): the result is one sentence with a root word per joined sentence
    (docs/method.md §1.7, §11.3).  One sentence is returned as it is.

    Parameters
    ----------
    sents : sequence of DepSentence
        Consecutive sentences of one file, in order.

    Returns
    -------
    DepSentence
        File, index and line of the first sentence; ``sent_id`` the ids joined
        by ``+`` when every sentence has one, ``text`` the texts joined by a
        space when every sentence has one.
    """
    if len(sents) == 1:
        return sents[0]
    first = sents[0]
    heads = []
    multiword: List[Tuple[int, int, str]] = []
    deps: List[str] = []
    offset = 0
    for s in sents:
        h = np.asarray(s.heads, dtype=np.int32)
        heads.append(np.where(h == 0, 0, h + offset).astype(np.int32))
        multiword.extend((a + offset, b + offset, f) for a, b, f in s.multiword)
        offset += s.n_words
    has = {name: all(len(getattr(s, name)) == s.n_words for s in sents)
           for name in ("upos", "xpos", "feats", "lemmas", "deps", "misc")}

    def column(name: str) -> List[str]:
        return [v for s in sents for v in getattr(s, name)] if has[name] else []

    if has["deps"]:
        offset = 0
        for s in sents:
            deps.extend(offset_deps(v, offset) for v in s.deps)
            offset += s.n_words
    lines = [ln for s in sents for ln in s.word_lines]
    return DepSentence(
        file=first.file, index=first.index, line=first.line,
        forms=[f for s in sents for f in s.forms], heads=np.concatenate(heads),
        deprels=[d for s in sents for d in s.deprels], upos=column("upos"),
        xpos=column("xpos"), feats=column("feats"), lemmas=column("lemmas"),
        word_lines=lines if len(lines) == offset else [],
        metadata=_joined_metadata(sents), multiword=multiword, deps=deps,
        misc=column("misc"))


def join_phrase(sents: Sequence[PhraseSentence]) -> PhraseSentence:
    r"""Bracketed trees as one tree under one unlabelled bracket.

    The artificial root has the empty label (the label of every artificial
    root, free under the TED costs, docs/method.md §3) and the trees as its
    children: what ``( (S ...) (S ...) )`` reads as.  One tree is returned as
    it is.
    """
    if len(sents) == 1:
        return sents[0]
    first = sents[0]
    return PhraseSentence(first.file, first.index, first.line,
                          PhraseNode("", [s.root for s in sents]),
                          words=[w for s in sents for w in s.words],
                          metadata=_joined_metadata(sents))


def join_sentences(sents: Sequence[Joinable]) -> Joinable:
    """`join_dependency` or `join_phrase`, by the kind of the sentences."""
    if isinstance(sents[0], PhraseSentence):
        return join_phrase([s for s in sents if isinstance(s, PhraseSentence)])
    return join_dependency([s for s in sents if isinstance(s, DepSentence)])


# --------------------------------------------------------------------------- grouping


def coinciding_groups(ends: Sequence[Sequence[float]]) -> List[Tuple[range, ...]]:
    """The smallest groups of consecutive sentences whose ends coincide on every side.

    Parameters
    ----------
    ends : sequence of sequence of float
        Per side (annotator, gold, system), the end of each of its sentences
        in one coordinate shared by all sides (characters of one text),
        non-decreasing.

    Returns
    -------
    list of tuple of range
        Per unit, per side, the indices of its sentences.  A unit ends where
        every side has a sentence ending at the same place; sentences after
        the last such place form one last unit.
    """
    if not ends:
        return []
    common = set(ends[0])
    for e in ends[1:]:
        common &= set(e)
    bounds = sorted(common)
    ptr = [0] * len(ends)
    units: List[Tuple[range, ...]] = []
    for b in bounds:
        unit = []
        for k, e in enumerate(ends):
            start = ptr[k]
            while ptr[k] < len(e) and e[ptr[k]] <= b:
                ptr[k] += 1
            unit.append(range(start, ptr[k]))
        units.append(tuple(unit))
    if any(ptr[k] < len(e) for k, e in enumerate(ends)):
        units.append(tuple(range(ptr[k], len(e)) for k, e in enumerate(ends)))
    return units


def sentence_tokens(s: Joinable) -> Optional[List[str]]:
    """The tokens of a sentence as compared: surface tokens, `comparable`.

    Multiword tokens count by their surface form; tokens that are empty once
    compared (``_``) are dropped.

    Returns
    -------
    list of str or None
        None when the sentence has no text (every form ``_``, or a
        delexicalised tree).
    """
    if isinstance(s, PhraseSentence):
        raw = list(s.words)
    else:
        if all(f in ("_", "") for f in s.forms):
            return None
        raw = s.surface_forms()
    if not raw:
        return None
    # most tokens are plain letters or digits: nothing to normalise or remove
    toks = [t if t.isalnum() and t.isascii() else comparable(t) for t in raw]
    return [t for t in toks if t]


def _offsets(tokens: Sequence[str]) -> List[int]:
    return [0, *accumulate(len(t) for t in tokens)]


def align_text(a: Sequence[str], b: Sequence[str]) -> List[Block]:
    r"""Aligned stretches of two token sequences, in characters.

    Tokens are aligned by `difflib.SequenceMatcher` (after their common start
    and end are set aside); a stretch of differing tokens is aligned
    character by character when it spells the same characters (another
    tokenisation) or when its characters are at least `EDIT_SHARE` similar
    and it is at most `REFINE_LIMIT` characters long.

    Parameters
    ----------
    a, b : sequence of str
        Tokens (already `comparable`).

    Returns
    -------
    list of (int, int, int)
        ``(start in a, start in b, length)`` in characters of ``"".join(a)``
        and ``"".join(b)``, ascending, not overlapping.
    """
    oa, ob = _offsets(a), _offsets(b)
    n = min(len(a), len(b))
    p = 0
    while p < n and a[p] == b[p]:
        p += 1
    s = 0
    while s < n - p and a[len(a) - 1 - s] == b[len(b) - 1 - s]:
        s += 1
    blocks: List[Block] = []

    def add(x: int, y: int, size: int) -> None:
        if size <= 0:
            return
        if blocks and blocks[-1][0] + blocks[-1][2] == x and blocks[-1][1] + blocks[-1][2] == y:
            px, py, ps = blocks.pop()
            blocks.append((px, py, ps + size))
        else:
            blocks.append((x, y, size))

    add(0, 0, oa[p])
    ma, mb = a[p:len(a) - s], b[p:len(b) - s]
    sm = SequenceMatcher(None, ma, mb)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        x, y = oa[p + i1], ob[p + j1]
        if tag == "equal":
            add(x, y, oa[p + i2] - x)
        elif tag == "replace":
            ra, rb = "".join(ma[i1:i2]), "".join(mb[j1:j2])
            if ra == rb:
                add(x, y, len(ra))
            elif len(ra) + len(rb) <= REFINE_LIMIT:
                sub = SequenceMatcher(None, ra, rb, autojunk=False)
                if sub.ratio() >= EDIT_SHARE:
                    for u, v, size in sub.get_matching_blocks():
                        add(x + u, y + v, size)
    if s:
        add(oa[len(a) - s], ob[len(b) - s], oa[len(a)] - oa[len(a) - s])
    return blocks


def text_share(a: Sequence[str], b: Sequence[str]) -> float:
    """Share of aligned characters of two token sequences: 2·M / (|a| + |b|).

    M is the number of characters in the stretches `align_text` aligns;
    |a|, |b| are the characters of each side.  1 for two empty sequences.
    """
    total = sum(map(len, a)) + sum(map(len, b))
    if not total:
        return 1.0
    return 2 * sum(n for _, _, n in align_text(a, b)) / total


def differing_words(a: Sequence[str], b: Sequence[str]) -> List[Tuple[str, str]]:
    """The stretches of words where two token sequences differ.

    Returns
    -------
    list of (str, str)
        Per differing stretch, the words of ``a`` and of ``b`` (joined by a
        space; empty where one side has none).
    """
    sm = SequenceMatcher(None, list(a), list(b), autojunk=False)
    return [(" ".join(a[i1:i2]), " ".join(b[j1:j2]))
            for tag, i1, i2, j1, j2 in sm.get_opcodes() if tag != "equal"]


@dataclass(frozen=True)
class TextEdit:
    """How one annotator's text of a unit differs from the reference annotator's.

    Parameters
    ----------
    reference, annotator : str
        The annotator compared with (the first of the unit) and the one
        whose text differs.
    share : float
        `text_share` of the two texts (at least `EDIT_SHARE`).
    pieces : tuple of (str, str)
        `differing_words`: the reference's words and the annotator's.
    """

    reference: str
    annotator: str
    share: float
    pieces: Tuple[Tuple[str, str], ...]

    def describe(self, limit: int = 5) -> str:
        """One line: the differing words (the first ``limit`` stretches)."""
        shown = "; ".join(f"{a!r} → {b!r}" for a, b in self.pieces[:limit])
        more = f"; and {len(self.pieces) - limit} more" if len(self.pieces) > limit else ""
        return (f"{self.annotator} differs from {self.reference}: {shown}{more} "
                f"(aligned share {self.share:.3f})")

    def as_dict(self) -> dict:
        """JSON-ready."""
        return {"reference": self.reference, "annotator": self.annotator,
                "share": self.share, "words": [list(p) for p in self.pieces]}


@dataclass
class Grouping:
    """Sentences of several annotators of one text, grouped into units.

    Parameters
    ----------
    units : list of tuple of range
        Per unit, per annotator (in the order given), its sentences.
    unaligned : list of (int, int, int, int)
        ``(annotator, sentence, other annotator, other sentence)``: a sentence
        none of whose characters is aligned with the other annotator's text,
        and the other annotator's sentence at its place.
    """

    units: List[Tuple[range, ...]]
    unaligned: List[Tuple[int, int, int, int]] = field(default_factory=list)


def _covered(ends: Sequence[int], blocks: Sequence[Block], side: int) -> List[int]:
    """Aligned characters in each sentence (ends in one side's characters)."""
    out = []
    start = 0
    k = 0
    for e in ends:
        got = 0
        while k < len(blocks) and blocks[k][side] + blocks[k][2] <= start:
            k += 1
        j = k
        while j < len(blocks) and blocks[j][side] < e:
            lo = max(start, blocks[j][side])
            hi = min(e, blocks[j][side] + blocks[j][2])
            got += max(0, hi - lo)
            j += 1
        out.append(got)
        start = e
    return out


def _place(p: int, blocks: Sequence[Block], side: int) -> int:
    """Position p of one side in the other side's characters: after the last
    character aligned before it."""
    out = 0
    for blk in blocks:
        if blk[side] >= p:
            break
        out = blk[1 - side] + min(blk[2], p - blk[side])
    return out


def _snap(ends_b: Sequence[int], ends_a: Sequence[int], blocks: Sequence[Block],
          len_a: int) -> List[float]:
    """The ends of b's sentences in a's characters.

    An end p of b coincides with a's end q when no aligned character crosses
    the pair: q lies between the a-position after the last aligned character
    before p and the a-position of the first aligned character from p on.
    Without such q, the end gets a coordinate that is no end of a (x.5).
    """
    bstart = [blk[1] for blk in blocks]
    out: List[float] = []
    len_b = ends_b[-1] if ends_b else 0
    for p in ends_b:
        if p >= len_b:
            out.append(float(len_a))
            continue
        k = bisect.bisect_left(bstart, p)  # blocks[k:] start at or after p
        lo = 0  # a-position after the last aligned character before p
        if k > 0:
            x, y, n = blocks[k - 1]
            lo = x + min(n, p - y)
        if k > 0 and blocks[k - 1][1] + blocks[k - 1][2] > p:
            hi = lo  # p inside an aligned stretch
        elif k < len(blocks):
            hi = blocks[k][0]
        else:
            hi = len_a
        i = bisect.bisect_left(ends_a, lo)
        if i < len(ends_a) and ends_a[i] <= hi:
            out.append(float(ends_a[i]))
        else:
            out.append(lo + 0.5)
    return out


def group_sentences(tokens: Sequence[Sequence[Sequence[str]]]) -> Grouping:
    r"""Group several annotators' sentences of one text into units.

    Each annotator's text is aligned with the first annotator's
    (`align_text`), each sentence end is placed in the first annotator's
    characters (`_snap`) and the units are the `coinciding_groups`
    (docs/method.md §1.7).

    Parameters
    ----------
    tokens : sequence of sequence of sequence of str
        ``tokens[a][i]``: the tokens (`sentence_tokens`) of sentence i of
        annotator a.
    """
    texts = [["".join(t) for t in sents] for sents in tokens]
    ends = [list(accumulate(len(t) for t in ts)) for ts in texts]
    full = ["".join(ts) for ts in texts]
    coords: List[List[float]] = [[float(e) for e in ends[0]]]
    unaligned: List[Tuple[int, int, int, int]] = []
    for k in range(1, len(tokens)):
        if full[k] == full[0]:
            coords.append([float(e) for e in ends[k]])
            continue
        blocks = align_text([t for s in tokens[0] for t in s], [t for s in tokens[k] for t in s])
        coords.append(_snap(ends[k], ends[0], blocks, len(full[0])))
        for i, got in enumerate(_covered(ends[0], blocks, 0)):
            if not got and texts[0][i]:
                at = _place(ends[0][i] - len(texts[0][i]), blocks, 0)
                unaligned.append((0, i, k, min(bisect.bisect_right(ends[k], at),
                                               len(ends[k]) - 1)))
        for i, got in enumerate(_covered(ends[k], blocks, 1)):
            if not got and texts[k][i]:
                at = _place(ends[k][i] - len(texts[k][i]), blocks, 1)
                unaligned.append((k, i, 0, min(bisect.bisect_right(ends[0], at),
                                               len(ends[0]) - 1)))
    return Grouping(coinciding_groups(coords), unaligned)
