"""Matching annotators' sentences into units, and checking that each unit is one text.

docs/method.md §1.4–1.5 and §1.7–1.9.  Four ways to match (``match``):

``sent_id``
    Sentences with the same ``# sent_id`` form a unit (order may differ).
``position``
    The annotators' texts are read as character streams (whitespace
    ignored) and each unit is the smallest group of consecutive sentences
    whose ends coincide for every annotator (`synagree.io.units`): equal
    splits give one sentence per unit, as pairing the k-th sentences would;
    differing splits give **joined units**.  A sentence none of whose text is
    found at its place in another annotator's text is an error.  Files
    without word forms are paired by position and must hold equal numbers of
    sentences.
``text``
    Sentences with the same text (NFC, whitespace ignored) form a unit,
    whatever their order, ids or comments; a sentence only some annotators
    have is a missing annotation.
``auto``
    ``sent_id`` when every sentence of every file carries one, else
    ``position``.

Then every unit is checked (`check_identity`): the annotations must be of
one text, or of one text with **local edits** (aligned share of characters
at least `synagree.io.units.EDIT_SHARE`): such a unit is kept, with its
edits recorded and reported.  Lower, or when the text matches a neighbouring
unit better than its own (a **shift**), the unit is an error.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple, cast

from synagree.base.problems import WARNING, Problem, ProblemLog, quote
from synagree.io.conllu import DepSentence
from synagree.io.formats import Sentence
from synagree.io.text import only_difference
from synagree.io.units import (
    EDIT_SHARE,
    TextEdit,
    differing_words,
    group_sentences,
    sentence_tokens,
    text_share,
)

MATCH_AUTO = "auto"
MATCH_SENT_ID = "sent_id"
MATCH_POSITION = "position"
MATCH_TEXT = "text"
#: the values of ``--match``
MATCH_MODES = (MATCH_AUTO, MATCH_SENT_ID, MATCH_POSITION, MATCH_TEXT)

# One document of the corpus: its key and, per annotator present, (file, sentences).
Document = Tuple[str, Dict[str, Tuple[str, List[Sentence]]]]

_TEXT_HINT = "--match text matches sentences by their words, whatever their order or ids"


@dataclass
class Matched:
    """One unit as matched: per annotator, its consecutive sentences.

    Parameters
    ----------
    uid : str
        The unit's id.
    document : str
    parts : dict of str to list of Sentence
        Annotator to its sentences of the unit (one, unless the unit is joined).
    edits : list of TextEdit
        How annotators' texts differ from the first annotator's (edited units).
    checked : bool
        Whether the texts of two or more annotations were compared.
    """

    uid: str
    document: str
    parts: Dict[str, List[Sentence]]
    edits: List[TextEdit] = field(default_factory=list)
    checked: bool = False

    @property
    def joined(self) -> bool:
        """Does some annotator's part hold more than one sentence?"""
        return any(len(p) > 1 for p in self.parts.values())


@dataclass
class Matching:
    """The units of a corpus and what matching them found.

    Parameters
    ----------
    mode : str
        The rule used: ``sent_id``, ``position`` or ``text``.
    units : list of Matched
    problems : list of Problem
        Errors (the unit or sentence cannot be matched).
    notes : list of str
    """

    mode: str
    units: List[Matched]
    problems: List[Problem] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    texts: "_Texts" = field(default_factory=lambda: _Texts(), repr=False)


class _Texts:
    """Tokens of sentences (and of a unit's parts), computed once."""

    def __init__(self) -> None:
        self._tok: Dict[int, Optional[List[str]]] = {}

    def of(self, s: Sentence) -> Optional[List[str]]:
        k = id(s)
        if k not in self._tok:
            self._tok[k] = sentence_tokens(s)
        return self._tok[k]

    def joined(self, sents: Sequence[Sentence]) -> Optional[List[str]]:
        out: List[str] = []
        for s in sents:
            t = self.of(s)
            if t is None:
                return None
            out.extend(t)
        return out


def _label(s: Sentence, key: str, multi_document: bool) -> str:
    return s.sent_id or (f"{key}#{s.index + 1}" if multi_document else f"{s.index + 1}")


def _describe(s: Sentence, line: bool = True) -> str:
    """``sentence N (line L), sent_id …, W words, text '…'`` (without the line
    where the problem's own ``file:line`` already gives it)."""
    bits = [f"sentence {s.index + 1} (line {s.line})" if line else f"sentence {s.index + 1}"]
    if s.sent_id:
        bits.append(f"sent_id {s.sent_id}")
    if isinstance(s, DepSentence):
        bits.append(f"{s.n_words} words")
        if s.text:
            bits.append(f"text {quote(s.text, 60)}")
    return ", ".join(bits)


# --------------------------------------------------------------------------- modes


def resolve_mode(match: str, documents: Sequence[Document]) -> Tuple[str, List[Problem]]:
    """The matching rule for ``match`` and the documents, and problems with it.

    ``auto`` is ``sent_id`` when every sentence carries one, else
    ``position``; ``sent_id`` given explicitly needs a sent_id on every
    sentence (one problem per file lacking some).

    Parameters
    ----------
    match : {"auto", "sent_id", "position", "text"}
    documents : sequence of Document

    Raises
    ------
    ValueError
        An unknown ``match``.
    """
    if match not in MATCH_MODES:
        raise ValueError(f"match must be one of {', '.join(MATCH_MODES)}, not {match!r}")
    if match == MATCH_AUTO:
        by_id = all(s.sent_id for _, per in documents for _, sents in per.values() for s in sents)
        return (MATCH_SENT_ID if by_id else MATCH_POSITION), []
    problems = []
    if match == MATCH_SENT_ID:
        for _, per in documents:
            for f, sents in per.values():
                lacking = [s for s in sents if not s.sent_id]
                if lacking:
                    problems.append(Problem(
                        f, lacking[0].line, "missing-sent-id",
                        f"--match sent_id: {len(lacking)} sentence(s) of this file have no "
                        f"# sent_id (the first at line {lacking[0].line}); give --match "
                        f"position or --match text"))
    return match, problems


def match_documents(documents: Sequence[Document], names: Sequence[str], match: str = "auto",
                    allow_missing: bool = False, check_text: bool = True,
                    multi_document: bool = False) -> Matching:
    r"""Match the sentences of every document into units (docs/method.md §1.4, §1.7, §1.9).

    Parameters
    ----------
    documents : sequence of Document
        ``(key, {annotator: (file, sentences)})``.
    names : sequence of str
        Every annotator, in order.
    match : {"auto", "sent_id", "position", "text"}
    allow_missing : bool
        Sentences some annotators lack (matched by sent_id) are missing
        annotations instead of an error.
    check_text : bool
        False: ``position`` pairs the k-th sentences, whatever their text.
    multi_document : bool
        Unit ids by position are ``DOC#N`` (else ``N``).

    Returns
    -------
    Matching
        Units not yet checked for identity (`check_identity`).
    """
    mode, problems = resolve_mode(match, documents)
    result = Matching(mode, [], problems)
    texts = result.texts  # tokens computed once, for matching and the identity check
    for key, per in documents:
        if mode == MATCH_SENT_ID:
            result.units.extend(_by_sent_id(key, per, names, allow_missing, result.problems))
        elif mode == MATCH_TEXT:
            result.units.extend(_by_text(key, per, names, multi_document, result, texts))
        elif check_text and _has_text(per, texts):
            result.units.extend(_by_stream(key, per, names, multi_document, result.problems,
                                           texts))
        else:
            result.units.extend(_by_position(key, per, names, allow_missing, result.problems,
                                             multi_document))
    return result


def _has_text(per: Dict[str, Tuple[str, List[Sentence]]], texts: _Texts) -> bool:
    """Can the document's texts be aligned: does every file have word forms?"""
    return all(any(texts.of(s) for s in sents) for _, sents in per.values())


#: The stream token of a sentence without text (a line of underscores, say): it
#: aligns with the same token of the other annotators, so such a sentence keeps
#: its place between its neighbours; its own text cannot be checked.
_NO_TEXT = "\x00"


def _by_sent_id(key: str, per: Dict[str, Tuple[str, List[Sentence]]], names: Sequence[str],
                allow_missing: bool, errors: List[Problem]) -> List[Matched]:
    order: List[str] = []
    table: Dict[str, Dict[str, Sentence]] = {}
    for name, (f, d) in per.items():
        seen: Dict[str, Sentence] = {}
        for s in d:
            sid = s.sent_id
            if sid is None:  # resolve_mode reported it
                continue
            if sid in seen:
                errors.append(Problem(f, s.line, "duplicate-sent-id",
                                      f"sent_id {sid!r} occurs twice (first at line "
                                      f"{seen[sid].line})", sent_id=sid))
                continue
            seen[sid] = s
            if sid not in table:
                table[sid] = {}
                order.append(sid)
            table[sid][name] = s
    if not allow_missing:
        for sid in order:
            if len(table[sid]) != len(per):
                have = next(iter(table[sid].values()))
                lacking = [f for n, (f, _) in per.items() if n not in table[sid]]
                errors.append(Problem(
                    have.file, have.line, "sentence-mismatch",
                    f"sent_id {sid!r} is missing from {', '.join(lacking)}", sent_id=sid,
                    hint=f"files must hold the same sentences; give --allow-missing to treat "
                    f"absent sentences as missing annotations; if an annotator split "
                    f"sentences differently, --match position joins them; {_TEXT_HINT}"))
    return [Matched(sid, key, {n: [table[sid][n]] for n in names if n in table[sid]})
            for sid in order]


def _parting_message(files: Sequence[str], docs: Sequence[Sequence[Sentence]]
                     ) -> Tuple[str, Optional[int]]:
    """Message naming the first sentence where the files part ways."""
    counts = ", ".join(f"{f}: {len(d)}" for f, d in zip(files, docs))
    shortest = min(len(d) for d in docs)
    for i in range(shortest):
        first = docs[0][i]
        for f, d in zip(files[1:], docs[1:]):
            if not _same_sentence(first, d[i]):
                return (f"files have different sentence counts ({counts}); they part ways at "
                        f"sentence {i + 1}: {files[0]} has {_describe(first)}, {f} has "
                        f"{_describe(d[i])}", first.line)
    longest = max(range(len(docs)), key=lambda k: len(docs[k]))
    extra = docs[longest][shortest]
    return (f"files have different sentence counts ({counts}); {files[longest]} goes on "
            f"after the others end, from {_describe(extra)}", extra.line)


def _same_sentence(a: Sentence, b: Sentence) -> bool:
    if a.sent_id and b.sent_id:
        return a.sent_id == b.sent_id
    ta, tb = a.surface_text(), b.surface_text()
    if ta is not None and tb is not None:
        return ta == tb
    if isinstance(a, DepSentence) and isinstance(b, DepSentence):
        return a.n_words == b.n_words
    return True


def _by_position(key: str, per: Dict[str, Tuple[str, List[Sentence]]], names: Sequence[str],
                 allow_missing: bool, errors: List[Problem],
                 multi_document: bool) -> List[Matched]:
    """The k-th sentences of the files form unit k (no text to align, or the check off)."""
    anns = [n for n in names if n in per]
    files = [per[n][0] for n in anns]
    docs = [per[n][1] for n in anns]
    if len({len(d) for d in docs}) > 1:
        msg, line = _parting_message(files, docs)
        if allow_missing:
            msg += ("; --allow-missing needs a # sent_id on every sentence to tell which "
                    "sentences are missing")
        prefix = f"document {key!r}: " if multi_document else ""
        errors.append(Problem(files[0], line, "sentence-count-mismatch", prefix + msg))
        return []
    units = []
    for i in range(len(docs[0])):
        parts: Dict[str, List[Sentence]] = {n: [d[i]] for n, d in zip(anns, docs)}
        sid = next((d[i].sent_id for d in docs if d[i].sent_id), None)
        uid = sid or (f"{key}#{i + 1}" if multi_document else f"{i + 1}")
        units.append(Matched(uid, key, parts))
    return units


def _by_stream(key: str, per: Dict[str, Tuple[str, List[Sentence]]], names: Sequence[str],
               multi_document: bool, errors: List[Problem], texts: _Texts) -> List[Matched]:
    """Units whose sentence ends coincide in the aligned texts (docs/method.md §1.7)."""
    anns = [n for n in names if n in per]
    docs = [per[n][1] for n in anns]
    toks = [[texts.of(s) or [_NO_TEXT] for s in d] for d in docs]
    keys = [["".join(t) for t in tt] for tt in toks]
    if len(anns) == 1 or (len({len(d) for d in docs}) == 1 and all(k == keys[0] for k in keys)):
        # the common case: the same sentences, split the same way
        return _by_position(key, per, names, False, errors, multi_document)
    grouping = group_sentences(toks)
    bad = set()
    for a, i, b, j in grouping.unaligned:
        bad.add((a, i))
        errors.append(_unaligned(docs[a][i], per[anns[a]][0], per[anns[b]][0], docs[b],
                                 keys[a][i], keys[b], j))
    units = []
    for group in grouping.units:
        if any((k, i) in bad for k, r in enumerate(group) for i in r):
            continue
        parts = {anns[k]: list(docs[k][r.start:r.stop]) for k, r in enumerate(group) if len(r)}
        first = next(iter(parts.values()))
        if len(parts) == len(anns) and all(len(p) == 1 for p in parts.values()):
            sid = next((p[0].sent_id for p in parts.values() if p[0].sent_id), None)
            uid = sid or _label(first[0], key, multi_document)
        else:
            uid = "+".join(_label(s, key, multi_document) for s in first)
        units.append(Matched(uid, key, parts))
    return units


def _unaligned(s: Sentence, file: str, other_file: str, other: Sequence[Sentence],
               text: str, other_keys: Sequence[str], place: int) -> Problem:
    where = next((o for o, k in zip(other, other_keys) if k == text), None)
    if where is not None:
        found = (f"; its text is {_describe(where)} there: the files hold the sentences "
                 f"in another order")
        hint = _TEXT_HINT
    else:
        found = ""
        hint = ("an annotator added or removed a sentence, or the files are not of the same "
                "text; --match text matches sentences by their words, whatever their order, "
                "and treats a sentence only some annotators have as a missing annotation")
    near = other[place]
    return Problem(file, s.line, "unaligned-sentence",
                   f"{_describe(s, line=False)} has no counterpart in {other_file}: none "
                   f"of its text is found at its place there (near its line {near.line}: "
                   f"{_describe(near, line=False)}){found}", sent_id=s.sent_id,
                   hint=f"{hint}; --no-text-check pairs sentences by position")


def _by_text(key: str, per: Dict[str, Tuple[str, List[Sentence]]], names: Sequence[str],
             multi_document: bool, result: Matching, texts: _Texts) -> List[Matched]:
    """Sentences of the same text form a unit, whatever their order (docs/method.md §1.9)."""
    anns = [n for n in names if n in per]
    occurrences: Dict[str, Dict[str, List[Sentence]]] = {}
    order: List[str] = []
    for n in anns:
        f, sents = per[n]
        lacking = [s for s in sents if not texts.of(s)]
        if lacking:
            result.problems.append(Problem(
                f, lacking[0].line, "no-text",
                f"--match text needs word forms: {len(lacking)} sentence(s) of this file have "
                f"none (forms '_' or trees without words; the first at line "
                f"{lacking[0].line})"))
        for s in sents:
            t = texts.of(s)
            if not t:
                continue
            k = "".join(t)
            if k not in occurrences:
                occurrences[k] = {}
                order.append(k)
            occurrences[k].setdefault(n, []).append(s)
    units = []
    for k in order:
        occ = occurrences[k]
        counts = {n: len(v) for n, v in occ.items()}
        if len(occ) >= 2 and len(set(counts.values())) > 1:
            n = max(counts, key=lambda x: counts[x])
            a, b = occ[n][0], occ[n][1]
            others = ", ".join(f"{per[m][0]}: {c}" for m, c in counts.items() if m != n)
            result.problems.append(Problem(
                per[n][0], b.line, "duplicate-text",
                f"the text of {_describe(b)} occurs {counts[n]} times in this file (also "
                f"{_describe(a)}) but not as often in the other files ({others}): which "
                f"annotations belong together is ambiguous; remove the duplicate or give "
                f"--match sent_id", sent_id=b.sent_id))
            continue
        for j in range(max(counts.values())):
            parts = {n: [occ[n][j]] for n in anns if n in occ}
            first = next(iter(parts.values()))[0]
            uid = first.sent_id or (f"{next(iter(parts))}:{_label(first, key, multi_document)}"
                                    if next(iter(parts)) != anns[0]
                                    else _label(first, key, multi_document))
            units.append(Matched(uid, key, parts, checked=len(parts) >= 2))
    return units


# --------------------------------------------------------------------------- identity


def check_identity(matching: Matching, names: Sequence[str], kind: str, log: ProblemLog
                   ) -> str:
    """Check that every unit's annotations are of one text (docs/method.md §1.5, §1.8).

    Equal texts pass, and so do annotations whose syntactic words agree
    (one writes a multiword-token line the other lacks).  Texts that differ
    by local edits (`synagree.io.units.text_share` at least
    `synagree.io.units.EDIT_SHARE`) pass as an **edited** unit: the edits are
    recorded on the unit and a ``text-edit`` warning goes to ``log``.  A text
    that matches a neighbouring unit better than its own is a ``text-shift``
    error; any other difference a ``text-mismatch`` error (in
    ``matching.problems``).

    Parameters
    ----------
    matching : Matching
        From `match_documents`.
    names : sequence of str
        Annotators, in order (the first with text is the reference).
    kind : {"dependency", "phrase"}
    log : ProblemLog
        Receives the ``text-edit`` warnings.

    Returns
    -------
    {"on", "not possible"}
        ``not possible`` when no unit had two annotations with text.
    """
    texts = matching.texts
    checked = 0
    unchecked = 0
    by_doc: Dict[str, List[int]] = {}
    for i, u in enumerate(matching.units):
        by_doc.setdefault(u.document, []).append(i)
    for idx in by_doc.values():
        for pos, i in enumerate(idx):
            u = matching.units[i]
            if len(u.parts) < 2:
                continue
            if u.checked:  # matched by their text
                checked += 1
                continue
            if _same_surface([u.parts[n] for n in names if n in u.parts]):
                checked += 1  # the same words: their tokens would be equal (the usual case)
                u.checked = True
                continue
            known = [(n, texts.joined(u.parts[n])) for n in names if n in u.parts]
            with_text = [(n, t) for n, t in known if t is not None]
            if len(with_text) < len(known):
                unchecked += 1
            if len(with_text) < 2:
                continue
            checked += 1
            u.checked = True
            neighbours = [matching.units[idx[p]] for p in (pos - 1, pos + 1)
                          if 0 <= p < len(idx)]
            _check_unit(u, with_text, neighbours, texts, matching, log)
    if matching.mode == MATCH_TEXT:
        return "on"
    if not checked:
        why = ("delexicalised trees carry no words" if kind == "phrase"
               else "the word forms are all '_'")
        matching.notes.append(f"{why}: nothing shows that the annotations of a unit are of "
                              f"the same sentence (matched by {matching.mode})")
        return "not possible"
    if unchecked:
        matching.notes.append(f"{unchecked} unit(s) have an annotation without word forms: "
                              f"their text could not be checked")
    return "on"


def _same_surface(parts: Sequence[Sequence[Sentence]]) -> bool:
    """One dependency sentence a part, all with the same forms and multiword tokens,
    and some form given: their `sentence_tokens` are equal and not None, so the
    unit passes the text check without tokenising it."""
    if any(len(p) != 1 or not isinstance(p[0], DepSentence) for p in parts):
        return False
    first = cast(DepSentence, parts[0][0])
    rest = [cast(DepSentence, p[0]) for p in parts[1:]]
    if any(s.forms != first.forms or s.multiword != first.multiword for s in rest):
        return False
    return not all(f in ("_", "") for f in first.forms)


def _word_text(sents: Sequence[Sentence]) -> Optional[str]:
    parts = [s.word_text() for s in sents]
    return None if any(p is None for p in parts) else "".join(p for p in parts if p)


def _check_unit(u: Matched, with_text: List[Tuple[str, List[str]]], neighbours: List[Matched],
                texts: _Texts, matching: Matching, log: ProblemLog) -> None:
    ref, t0 = with_text[0]
    k0 = "".join(t0)
    notes: List[str] = []
    for n, t in with_text[1:]:
        k = "".join(t)
        if k == k0 or _word_text(u.parts[n]) == _word_text(u.parts[ref]):
            continue
        share = text_share(t0, t)
        best: Optional[Tuple[float, Matched]] = None
        for v in neighbours:
            if ref in v.parts:
                tv = texts.joined(v.parts[ref])
                if tv is not None:
                    sv = text_share(tv, t)
                    if sv > share and sv >= EDIT_SHARE and (best is None or sv > best[0]):
                        best = (sv, v)
        if best is not None:
            matching.problems.append(_shift(u, ref, n, best[1], share, best[0]))
        elif share >= EDIT_SHARE:
            u.edits.append(TextEdit(ref, n, share, tuple(differing_words(t0, t))))
            norm = only_difference(k0, k)
            if norm:
                notes.append(f"{n}'s text differs only in Unicode compatibility characters: "
                             f"equal under {norm}, which the check does not apply (it "
                             f"compares text in NFC)")
        else:
            matching.problems.append(_mismatch(u, ref, k0, n, k, share))
    if u.edits:  # one warning per unit, naming every annotator whose text differs
        s = u.parts[u.edits[0].annotator][0]
        log.add(s.file, s.line, "text-edit",
                f"unit {u.uid!r}: the annotations differ by local edits: "
                + "; ".join(e.describe() for e in u.edits)
                + "".join(f"; {x}" for x in notes)
                + "; kept in alpha, left out of the word-by-word scores (LAS/UAS/LA, token "
                  "layers)", severity=WARNING, sent_id=s.sent_id)


def _where(sents: Sequence[Sentence]) -> str:
    s = sents[0]
    more = f" (and {len(sents) - 1} more sentence(s))" if len(sents) > 1 else ""
    return f"{s.file}:{s.line}{more}"


def _shift(u: Matched, ref: str, n: str, v: Matched, share: float, better: float) -> Problem:
    a, b = u.parts[ref][0], u.parts[n][0]
    return Problem(
        a.file, a.line, "text-shift",
        f"unit {u.uid!r}: the annotation in {_where(u.parts[n])} is of the text of the "
        f"neighbouring unit {v.uid!r} of {_where(v.parts[ref])} (aligned share {better:.2f}, "
        f"with its own unit's text in {_where(u.parts[ref])} {share:.2f}): the files are "
        f"shifted against each other", sent_id=b.sent_id or a.sent_id,
        hint=f"{_TEXT_HINT} (--no-text-check pairs them as they are)")


def _mismatch(u: Matched, ref: str, ta: str, n: str, tb: str, share: float) -> Problem:
    a, b = u.parts[ref][0], u.parts[n][0]
    k = next((i for i, (x, y) in enumerate(zip(ta, tb)) if x != y), min(len(ta), len(tb)))

    def around(t: str) -> str:
        lo = max(0, k - 15)
        piece = t[lo:k + 15]
        return ("…" if lo else "") + piece + ("…" if k + 15 < len(t) else "")

    norm = only_difference(ta, tb)
    why = (f"they differ only in Unicode compatibility characters (equal under {norm}, "
           f"which the check does not apply; the check compares text in NFC)"
           if norm else f"aligned share of characters {share:.2f}, below {EDIT_SHARE} for "
           f"one text with local edits")
    return Problem(
        a.file, a.line, "text-mismatch",
        f"unit {u.uid!r}: the annotations are not of the same text: {_where(u.parts[ref])} "
        f"reads {around(ta)!r} where {_where(u.parts[n])} reads {around(tb)!r} (they part "
        f"at character {k + 1}, whitespace ignored; {why})", sent_id=b.sent_id or a.sent_id,
        hint=f"are the files aligned? {_TEXT_HINT}; --no-text-check turns this check off")


def position_without_text(matching: Matching) -> Optional[Problem]:
    """Files without text paired by position: refuse when most units differ in word count.

    docs/method.md §1.5.  Among the pairable units whose text could not be
    compared, the share whose annotations differ in word count: more than
    half is an error (the files are not aligned); otherwise a note counts them.
    """
    if matching.mode != MATCH_POSITION:
        return None
    pool = [u for u in matching.units if len(u.parts) >= 2 and not u.checked]
    differ = [u for u in pool
              if len({sum(getattr(s, "n_words", 0) for s in p) for p in u.parts.values()}) > 1]
    if not differ:
        return None
    if 2 * len(differ) > len(pool):
        s = differ[0].parts[next(iter(differ[0].parts))][0]
        return Problem(
            s.file, s.line, "position-mismatch",
            f"{len(differ)} of {len(pool)} units paired by position differ in word count "
            f"between annotators (the first: unit {differ[0].uid!r}), and the files have no "
            f"word forms to show which sentences belong together: they are probably not "
            f"aligned (a sentence added, removed or moved). Give every sentence a # sent_id, "
            f"or --no-text-check to pair them by position anyway")
    matching.notes.append(f"{len(differ)} of {len(pool)} unit(s) paired by position without "
                          f"word forms differ in word count between annotators")
    return None
