"""Corpus assembly: units (sentences) × annotators (docs/method.md §1).

Two ways in, one way of matching:

* **files**, one per annotator: the corpus is one document.
* **directories**, one per annotator (named after the directory): the files of
  the directories are matched by name into documents: identical names, or the
  annotator's name (the directory's name) as a suffix ``PREFIX-ANNOTATOR.ext``
  (``-``, ``.`` or ``_``) or a prefix ``ANNOTATOR-REST.ext`` stripped, as in
  the released CDT, NDT and SSD data.  How names were matched is reported.

Within each document, sentences are matched into units as
`synagree.io.matching` describes (``match``: ``auto``, ``sent_id``,
``position``, ``text``).  Where annotators split the text into sentences
differently, a unit **joins** consecutive sentences, each annotator's joined
under one artificial root (`synagree.io.units.join_sentences`).  Annotations
absent for some annotators (a sentence matched by sent_id, or in directory
mode a whole file) are an error unless ``allow_missing`` is set; matched by
text, a sentence only some annotators have is a missing annotation.

Then every unit is **checked for identity**: the annotations of a unit must
be of the same text (the characters of the word forms without whitespace, in
Unicode NFC, multiword tokens by their surface form, as the CoNLL 2018 scorer
compares tokenisations, or else the same syntactic words; Penn-style trees by
their words), or of one text with local edits, which are kept and reported
(**edited** units).  Other differences are errors naming both files, both
lines and where the texts part; ``check_text=False`` turns the check off.
Files whose forms are all ``_`` and delexicalised trees carry no text: the
check cannot be made, and a note says so.  A corpus with no unit of two or
more annotations is an error.

Every problem of the input (missing documents, unreadable lines, bracket
styles, unmatched or differing sentences) is gathered and raised at once.

Units whose annotations number fewer than two take no part in agreement.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from synagree.base.problems import InputError, Problem, ProblemLog
from synagree.io import registry
from synagree.io.brackets import (
    PhraseSentence,
    RawTree,
    StyleDecision,
    decide_phrase_style,
    parse_bracket_file,
    phrase_sentences,
)
from synagree.io.compression import strip_suffix
from synagree.io.formats import Sentence, annotation_stem
from synagree.io.matching import (
    MATCH_AUTO,
    MATCH_MODES,
    MATCH_POSITION,
    MATCH_SENT_ID,
    MATCH_TEXT,
    Document,
    check_identity,
    match_documents,
    position_without_text,
)
from synagree.io.sources import Buffer, Input, Source, as_inputs, input_name
from synagree.io.units import TextEdit, join_sentences

__all__ = ["Unit", "Corpus", "kind_of", "read_files", "from_files", "from_dirs", "Document",
           "MATCH_AUTO", "MATCH_MODES", "MATCH_POSITION", "MATCH_SENT_ID", "MATCH_TEXT"]


@dataclass
class Unit:
    """One sentence and its annotations, keyed by annotator name.

    Parameters
    ----------
    uid : str
        The unit's id: its ``sent_id``, or its 1-based position (``"3"``,
        ``"DOC#3"`` with several documents).
    document : str
        The document the unit belongs to.
    annotations : dict of str to DepSentence or PhraseSentence
        Annotator name to that annotator's annotation; annotators without one
        are absent.  In a joined unit, an annotator's sentences joined under
        one artificial root (`synagree.io.units.join_sentences`).
    parts : dict of str to tuple of Sentence
        Joined units only: annotator name to the sentences joined (empty for a
        unit of one sentence per annotator).
    edits : list of TextEdit
        Edited units only: how annotators' texts differ (docs/method.md §1.8).
    """

    uid: str
    document: str
    annotations: Dict[str, Sentence]
    parts: Dict[str, Tuple[Sentence, ...]] = field(default_factory=dict)
    edits: List[TextEdit] = field(default_factory=list)

    @property
    def joined(self) -> bool:
        """Does the unit join several sentences of some annotator?"""
        return any(len(p) > 1 for p in self.parts.values())

    @property
    def edited(self) -> bool:
        """Do the annotators' texts of the unit differ by local edits?"""
        return bool(self.edits)

    def ordered(self, annotators: Sequence[str]) -> List[Sentence]:
        """The annotations in the order of ``annotators``, absent ones skipped."""
        return [self.annotations[a] for a in annotators if a in self.annotations]

    @property
    def sent_id(self) -> Optional[str]:
        """The first ``sent_id`` among the annotations, or None."""
        return next((s.sent_id for s in self.annotations.values() if s.sent_id), None)

    @property
    def text(self) -> Optional[str]:
        """The first ``# text`` (or Penn words) among the annotations, or None."""
        return next((s.text for s in self.annotations.values() if s.text), None)


@dataclass
class Corpus:
    """Units × annotators, with how they were matched (docs/method.md §1).

    Parameters
    ----------
    annotators : list of str
        Annotator names, in order.
    units : list of Unit
    kind : {"dependency", "phrase"}
    log : ProblemLog
        The problems met while reading (warnings only, once assembled).
    files : dict of str to list of str
        Annotator to the files read for them.
    matching : {"sent_id", "position", "text"}
        How sentences were matched into units.
    phrase_style : StyleDecision, optional
        The bracket style decision (phrase-structure corpora only).
    text_check : {"on", "off", "not possible"}
        Whether the identity of each unit's text was checked ("not possible":
        no word forms).
    notes : list of str
        What a reader of the result must know about the assembly.

    See Also
    --------
    from_files, from_dirs, synagree.agreement.agree.load_corpus
    """

    annotators: List[str]
    units: List[Unit]
    kind: str  # "dependency" or "phrase"
    log: ProblemLog = field(default_factory=ProblemLog)
    files: Dict[str, List[str]] = field(default_factory=dict)  # annotator -> files
    matching: str = MATCH_POSITION
    phrase_style: Optional[StyleDecision] = None
    text_check: str = "on"
    notes: List[str] = field(default_factory=list)

    def annotation_lists(self) -> List[List[Sentence]]:
        """Per unit, its annotations in annotator order (`Unit.ordered`)."""
        return [u.ordered(self.annotators) for u in self.units]

    @property
    def pairable_units(self) -> List[Unit]:
        """The units with two or more annotations (those that take part in α)."""
        return [u for u in self.units if len(u.annotations) >= 2]

    @property
    def joined_units(self) -> int:
        """Units that join several sentences of some annotator (docs/method.md §1.7)."""
        return sum(1 for u in self.units if u.joined)

    @property
    def edited_units(self) -> int:
        """Units whose annotators' texts differ by local edits (docs/method.md §1.8)."""
        return sum(1 for u in self.units if u.edited)

    def unit_changes(self) -> List[Dict[str, Any]]:
        """The joined and the edited units, JSON-ready (docs/method.md §1.7–1.8).

        Returns
        -------
        list of dict
            Per unit: ``unit``, ``document``, ``joined``, ``sentences``
            (annotator to ``[file, line]`` of each sentence of the unit) and
            ``edits`` (`synagree.io.units.TextEdit.as_dict`).
        """
        out = []
        for u in self.units:
            if not (u.joined or u.edited):
                continue
            parts = u.parts or {a: (s,) for a, s in u.annotations.items()}
            out.append({"unit": u.uid, "document": u.document, "joined": u.joined,
                        "sentences": {a: [[s.file, s.line] for s in parts[a]]
                                      for a in self.annotators if a in parts},
                        "edits": [e.as_dict() for e in u.edits]})
        return out

    def unit_counts(self) -> Dict[str, int]:
        """``joined_units`` and ``edited_units``, for every result's output."""
        return {"joined_units": self.joined_units, "edited_units": self.edited_units}

    def settings(self) -> Dict[str, str]:
        """How the input was read and matched (part of every result's signature).

        Returns
        -------
        dict of str to str
            ``matching``, ``text_check`` and, for phrase structure, ``phrase_style``.
        """
        out = {"matching": self.matching, "text_check": self.text_check}
        if self.phrase_style is not None:
            out["phrase_style"] = self.phrase_style.describe()
        return out

    @classmethod
    def from_annotations(
        cls,
        annotations: Mapping[str, Sequence[Optional[Sentence]]],
        kind: str = "dependency",
        document: Union[str, Sequence[str]] = "d",
    ) -> "Corpus":
        """A corpus built by hand: units ``"1"``, ``"2"``, ... by position.

        Parameters
        ----------
        annotations : mapping of str to sequence of DepSentence or PhraseSentence
            Annotator name (in order) to that annotator's sentences, one per
            unit; None where the annotator has no annotation of that unit.
        kind : {"dependency", "phrase"}
        document : str or sequence of str
            The document of every unit, or one document per unit.

        Returns
        -------
        Corpus
            Matched by position, with no files, problems or notes.

        Raises
        ------
        ValueError
            When the annotators' sequences (or the documents) differ in length.
        """
        lengths = {len(sents) for sents in annotations.values()}
        if len(lengths) > 1:
            raise ValueError(f"annotators with different numbers of units: {sorted(lengths)}")
        n = lengths.pop() if lengths else 0
        documents = [document] * n if isinstance(document, str) else list(document)
        if len(documents) != n:
            raise ValueError(f"{len(documents)} documents for {n} units")
        units = []
        for i in range(n):
            present: Dict[str, Sentence] = {}
            for annotator, sents in annotations.items():
                sent = sents[i]
                if sent is not None:
                    present[annotator] = sent
            units.append(Unit(str(i + 1), documents[i], present))
        return cls(list(annotations), units, kind)


def kind_of(sents: Sequence[Sentence]) -> str:
    """``"phrase"`` or ``"dependency"`` for a list of sentences (also for an empty list).

    Parameters
    ----------
    sents : sequence of DepSentence or PhraseSentence
        Judged by the first sentence.

    Returns
    -------
    {"phrase", "dependency"}
    """
    return "phrase" if sents and isinstance(sents[0], PhraseSentence) else "dependency"


def _annotator_names(paths: Sequence[Input]) -> List[str]:
    """File stems, else parent folders' names, else the paths; a stream without a real
    name is ``annK`` (its position), one with a real name is named as its file."""
    named = [Path(p.real_name) if isinstance(p, Buffer) and p.real_name
             else p if isinstance(p, Path) else None for p in paths]
    fixed = [f"ann{i + 1}" for i in range(len(paths))]
    stems = [Path(strip_suffix(p.name)).stem if p is not None else f
             for p, f in zip(named, fixed)]
    if len(set(stems)) == len(stems):
        return stems
    parents = [(p.parent.name or str(p.parent)) if p is not None else f
               for p, f in zip(named, fixed)]
    if len(set(parents)) == len(parents):
        return parents
    return [str(p) if p is not None else f for p, f in zip(named, fixed)]


def _check_kinds(docs: Sequence[Optional[Sequence[Sentence]]], files: Sequence[str],
                 errors: List[Problem]) -> str:
    kinds = {kind_of(d) for d in docs if d}
    if len(kinds) > 1:
        errors.append(Problem(files[0], None, "mixed-formats",
                              "inputs mix dependency and phrase-structure files: "
                              + ", ".join(f"{f} ({kind_of(d)})" for f, d in zip(files, docs)
                                          if d)))
        return "mixed"
    return kinds.pop() if kinds else "dependency"


def _check_distinct(paths: Sequence[Input], what: str) -> None:
    """The same file (or directory) given twice is an error, not two annotators.

    (The same stream given twice is refused by `synagree.io.sources.as_inputs`.)"""
    seen: Dict[str, Path] = {}
    problems = []
    for p in paths:
        if isinstance(p, Buffer):
            continue
        try:
            key = str(p.resolve())
        except OSError:
            key = str(p)
        if key in seen:
            problems.append(Problem(str(p), None, "duplicate-input",
                                    f"the same {what} is given twice ({seen[key]} and {p}); "
                                    f"each annotator needs their own {what}"))
        seen.setdefault(key, p)
    if problems:
        raise InputError(problems)


def read_files(paths: Sequence[Input], fmt: str, phrase_style: str, log: ProblemLog
               ) -> Tuple[List[List[Sentence]], Optional[StyleDecision]]:
    r"""Read every file, gathering every file's errors before raising.

    Bracketed files are parsed first and their style decided once for all of
    them (`synagree.io.brackets.decide_phrase_style`).

    Parameters
    ----------
    paths : sequence of pathlib.Path or Buffer
        Files, or streams already read (`synagree.io.sources.as_inputs`).
    fmt : str
        ``auto`` or a format of the reader registry (`synagree.io.registry`,
        docs/formats.md); ``auto``: each file sniffed.
    phrase_style : {"auto", "delex", "penn"}
    log : ProblemLog
        Receives every problem.

    Returns
    -------
    docs : list of list of DepSentence or PhraseSentence
        The sentences of each file, in the order of ``paths``.
    decision : StyleDecision or None
        The bracket style decision; None when no file is bracketed.

    Raises
    ------
    InputError
        Errors in any file (all files are read first).
    """
    docs, decision, errors = _read_collecting(paths, fmt, phrase_style, log)
    if errors:
        raise InputError(errors, log.warnings)
    return [d or [] for d in docs], decision


def _read_collecting(paths: Sequence[Input], fmt: str, phrase_style: str, log: ProblemLog
                     ) -> Tuple[List[Optional[List[Sentence]]], Optional[StyleDecision],
                                List[Problem]]:
    """Every file read; a file with errors (or unreadable for its bracket style) is None.

    The errors are returned, not raised, so that a caller can report them
    together with every other problem of the input.
    """
    docs: List[Optional[List[Sentence]]] = [None for _ in paths]
    raw: Dict[int, List[Tuple[int, RawTree]]] = {}
    errors: List[Problem] = []
    for i, p in enumerate(paths):
        n_before = len(log.errors)
        try:
            spec = registry.resolve(fmt, p)
        except InputError as exc:  # ambiguous-format
            errors.extend(exc.errors)
            continue
        if spec.kind == "documents":
            errors.append(Problem(input_name(p), None, "usage",
                                  f"--format {spec.name} ({spec.description}) is read by "
                                  f"categorical and spans only"))
            continue
        if spec.multi_annotator:  # from_files splits them first; --dirs cannot
            errors.append(Problem(input_name(p), None, "usage",
                                  f"a {spec.name} file holds several annotators: give it as a "
                                  f"file, not in a --dirs directory (one annotator each)"))
            continue
        if spec.bracketed:
            trees = parse_bracket_file(p, log)
            if trees is not None and len(log.errors) == n_before:
                raw[i] = trees
        else:
            sents: Optional[List[Sentence]]
            try:
                sents = registry.read_with(spec, p, log)
            except InputError as exc:
                sents = None  # its errors are in the log, or in the exception
                logged = set(log.errors[n_before:])  # (a set: a file may hold 10,000)
                errors.extend(e for e in exc.errors if e not in logged)
            if len(log.errors) == n_before and sents is not None:
                docs[i] = sents
        errors.extend(log.errors[n_before:])
    decision = None
    if raw:
        try:
            decision = decide_phrase_style([(input_name(paths[i]), raw[i]) for i in raw],
                                           phrase_style)
        except InputError as exc:
            errors.extend(exc.errors)
            return docs, None, errors
        for i, trees in raw.items():
            n_before = len(log.errors)
            trees_read: List[Sentence] = list(phrase_sentences(input_name(paths[i]), trees,
                                                               decision.style, log))
            if len(log.errors) > n_before:
                errors.extend(log.errors[n_before:])
            else:
                docs[i] = trees_read
    return docs, decision, errors


def from_files(paths: Sequence[Source], names: Optional[Sequence[str]] = None,
               fmt: str = "auto", phrase_style: str = "auto", strict: bool = False,
               allow_missing: bool = False, check_text: bool = True,
               log: Optional[ProblemLog] = None, match: str = MATCH_AUTO) -> Corpus:
    r"""Assemble a corpus from one file per annotator (the corpus is one document).

    Sentences are matched into units as ``match`` says (by default by
    ``# sent_id`` when every sentence carries one, else by position, joining
    sentences split differently); every unit's annotations must be of the same
    text, or of one text with local edits, unless ``check_text`` is false
    (docs/method.md §1.4–1.5, §1.7–1.9).

    Parameters
    ----------
    paths : sequence of str, path-like or file-like
        Two or more files, one per annotator; an open text or binary stream
        (compressed or not) may stand for a file (`synagree.io.sources`): it
        is read once, in order, and named in messages by its ``.name``, else
        ``<ann1>``, ``<ann2>``, ... by its position.
    names : sequence of str, optional
        One annotator name per file; None: the file stems (or, when they
        repeat, the parent directories' names, else the paths); a stream
        without a real name is ``ann1``, ``ann2``, ... by its position.
    fmt : str
        ``auto`` or a format of the reader registry (`synagree.io.registry`,
        docs/formats.md); ``auto``: each file sniffed.
    phrase_style : {"auto", "delex", "penn"}
    strict : bool
        Warnings count as errors.
    allow_missing : bool
        Accept sentences some files lack (needs ``# sent_id`` on every
        sentence).
    check_text : bool
        Check that each unit's annotations are of the same text (False: by
        position, the k-th sentences pair whatever their text).
    log : ProblemLog, optional
        Shared log; None: a new one.
    match : {"auto", "sent_id", "position", "text"}
        How sentences are matched into units (`synagree.io.matching`).

    Raises
    ------
    InputError
        Fewer than two files, a file given twice, names not distinct or not one
        per file; then, all together: mixed dependency and phrase-structure
        files, any reading error, sentences that do not match, text that
        differs beyond local edits, no pairable unit.
    """
    file_paths, user_names = split_annotators(as_inputs(paths), fmt)
    if names is None and user_names is not None:
        names = user_names
    if fmt != registry.AUTO and registry.get_format(fmt).inner:
        fmt = registry.get_format(fmt).inner or fmt  # each part is one annotator's
    if len(file_paths) < 2:
        raise InputError.single(input_name(file_paths[0]) if file_paths else "<none>", None,
                                "too-few-inputs",
                                "agreement needs at least two annotation files "
                                "(or --dirs with two or more directories)")
    if names is not None and len(names) != len(file_paths):
        raise InputError.single("<command line>", None, "usage",
                                f"--names gives {len(names)} name(s) for {len(file_paths)} files: "
                                f"give one name per file")
    _check_distinct(file_paths, "file")
    _check_match(match)
    names = list(names) if names else _annotator_names(file_paths)
    if len(set(names)) != len(names):
        raise InputError.single(input_name(file_paths[0]), None, "duplicate-annotator",
                                f"annotator names are not distinct: {names} (give --names)")
    log = log if log is not None else ProblemLog(strict=strict)
    docs, style, errors = _read_collecting(file_paths, fmt, phrase_style, log)
    files = [input_name(p) for p in file_paths]
    kind = _check_kinds(docs, files, errors)
    document: Document = (Path(files[0]).name,
                          {n: (f, d) for n, f, d in zip(names, files, docs) if d is not None})
    corpus = Corpus(names, [], kind, log, {n: [f] for n, f in zip(names, files)},
                    phrase_style=style)
    _assemble(corpus, [document], allow_missing, check_text, False, match, errors)
    return corpus


def split_annotators(paths: Sequence[Input], fmt: str = "auto"
                     ) -> Tuple[List[Input], Optional[List[str]]]:
    """Files that hold several annotators (``arborator``) cut into one input each.

    Parameters
    ----------
    paths : sequence of pathlib.Path or Buffer
    fmt : str
        ``--format`` (``auto``: each file sniffed, `synagree.io.registry.sniff`).

    Returns
    -------
    inputs : list of pathlib.Path or Buffer
        ``paths`` with every multi-annotator file replaced by its annotators'
        parts (`synagree.io.arborator.split_users`), in order.
    names : list of str or None
        The annotators' names when a file was split (a plain file is named by
        its stem, as `from_files` names it); None when none was.

    Raises
    ------
    InputError
        A file cannot be read or split (every problem), or its format is
        ambiguous.
    """
    specs = [registry.resolve(fmt, p) for p in paths]
    if not any(s.multi_annotator for s in specs):
        return list(paths), None
    log = ProblemLog()
    out: List[Input] = []
    names: List[str] = []
    plain = _annotator_names(paths)
    for p, spec, stem in zip(paths, specs, plain):
        if spec.split is None:
            out.append(p)
            names.append(stem)
            continue
        for user, part in registry.load_reader(spec.split)(p, log):
            out.append(part)
            names.append(user)
    log.raise_if_errors()
    return out, names


def _check_match(match: str) -> None:
    if match not in MATCH_MODES:
        raise InputError.single("<command line>", None, "usage",
                                f"match must be one of {', '.join(MATCH_MODES)}, not {match!r}")


def _doc_key(filename: str, annotator: str) -> str:
    """The document a file of ``annotator`` holds: its name without extension and
    without the annotator's name as a suffix (``-``/``.``/``_``) or prefix."""
    stem = annotation_stem(filename) or filename
    for sep in ("-", ".", "_"):
        suffix = sep + annotator
        if stem.endswith(suffix) and len(stem) > len(suffix):
            return stem[: -len(suffix)]
        prefix = annotator + sep
        if stem.startswith(prefix) and len(stem) > len(prefix):
            return stem[len(prefix):]
    return stem


def from_dirs(dirs: Sequence["str | os.PathLike[str]"], fmt: str = "auto",
              phrase_style: str = "auto", strict: bool = False, allow_missing: bool = False,
              check_text: bool = True, log: Optional[ProblemLog] = None,
              match: str = MATCH_AUTO) -> Corpus:
    r"""Assemble a corpus from one directory per annotator.

    The annotator's name is the directory's name.  Files are matched by name
    into documents: identical names, or the annotator's name as a suffix
    ``PREFIX-ANNOTATOR.ext`` (``-``, ``.`` or ``_``) or prefix
    ``ANNOTATOR-REST.ext`` stripped; within each document sentences are
    matched as in `from_files`.

    Parameters
    ----------
    dirs : sequence of str or path-like
        Two or more directories.
    fmt, phrase_style, strict, allow_missing, check_text, log, match
        As in `from_files`; ``allow_missing`` also accepts documents that some
        annotators lack.

    Returns
    -------
    Corpus
        Unit ids are ``DOC#N`` when matched by position.

    Raises
    ------
    InputError
        Not directories, fewer than two, no annotation files, no document
        shared by two annotators, two files of one annotator mapping to one
        document; then, all together: missing documents (without
        ``allow_missing``) and any error of `from_files`'s kind.
    """
    dir_paths = [Path(d) for d in dirs]
    log = log if log is not None else ProblemLog(strict=strict)
    not_dirs = [Problem(str(d), None, "not-a-directory", "not a directory")
                for d in dir_paths if not d.is_dir()]
    if not_dirs:
        raise InputError(not_dirs)
    if len(dir_paths) < 2:
        raise InputError.single(str(dir_paths[0]) if dir_paths else "<none>", None,
                                "too-few-inputs",
                                "--dirs needs at least two annotator directories")
    _check_distinct(dir_paths, "directory")
    _check_match(match)
    dir_names = [d.resolve().name for d in dir_paths]
    names = dir_names if len(set(dir_names)) == len(dir_names) else [str(d) for d in dir_paths]
    table: Dict[str, Dict[str, Path]] = {}
    listing: Dict[str, List[str]] = {}
    for name, dir_name, d in zip(names, dir_names, dir_paths):
        files = sorted(p for p in d.iterdir() if p.is_file() and annotation_stem(p.name)
                       and not p.name.startswith("."))
        listing[name] = [p.name for p in files]
        for p in files:
            key = _doc_key(p.name, dir_name)
            if name in table.get(key, {}):
                raise InputError.single(str(p), None, "ambiguous-file",
                                        f"two files of annotator {name!r} map to document "
                                        f"{key!r}: {table[key][name].name} and {p.name}")
            table.setdefault(key, {})[name] = p
    if not table:
        raise InputError.single(str(dir_paths[0]), None, "empty-input",
                                "no annotation files (.conllu, .conll, .conllx, .tree, .mrg, "
                                "... optionally compressed) found in the directories")
    errors = _check_documents(table, names, dir_paths, listing, allow_missing)
    entries = [(key, name, p) for key in sorted(table) for name, p in table[key].items()]
    all_docs, style, read_errors = _read_collecting([p for _, _, p in entries], fmt,
                                                    phrase_style, log)
    errors.extend(read_errors)
    kind = _check_kinds(all_docs, [str(p) for _, _, p in entries], errors)
    files_of: Dict[str, List[str]] = {n: [] for n in names}
    per_key: Dict[str, Dict[str, Tuple[str, List[Sentence]]]] = {}
    for (key, name, p), doc in zip(entries, all_docs):
        files_of[name].append(str(p))
        if doc is not None:  # a file with errors: its errors are reported instead
            per_key.setdefault(key, {})[name] = (str(p), doc)
    documents: List[Document] = [(key, {n: per_key[key][n] for n in names
                                        if n in per_key[key]}) for key in sorted(per_key)]
    corpus = Corpus(names, [], kind, log, files_of, phrase_style=style)
    _assemble(corpus, documents, allow_missing, check_text, True, match, errors)
    renamed = sorted({f"{p.name} → {key}" for key, per in table.items()
                      for p in per.values() if annotation_stem(p.name) != key})
    if renamed:
        shown = ", ".join(renamed[:4]) + (f" (and {len(renamed) - 4} more)"
                                          if len(renamed) > 4 else "")
        corpus.notes.append(f"files matched across directories by name with the annotator's "
                            f"name removed: {shown}")
    return corpus


def _check_documents(table: Dict[str, Dict[str, Path]], names: Sequence[str],
                     dirs: Sequence[Path], listing: Dict[str, List[str]],
                     allow_missing: bool) -> List[Problem]:
    """Documents some annotators lack: problems (returned) unless missing annotations are
    allowed; no document shared by two annotators: an error raised at once that says
    what was found."""
    naming = ("files are matched across directories by name: identical names, or the "
              "directory's name as a suffix (doc-NAME.conllu) or prefix (NAME-doc.conllu)")
    if not any(len(per) >= 2 for per in table.values()):
        found = "; ".join(f"{d}: {', '.join(listing[n][:5]) or 'no annotation files'}"
                          + (" ..." if len(listing[n]) > 5 else "")
                          for n, d in zip(names, dirs))
        raise InputError.single(str(dirs[0]), None, "no-pairable-units",
                                f"no document is annotated in two or more directories, so "
                                f"there is nothing to compare ({naming}; found {found}). "
                                f"Give one directory per annotator.")
    problems: List[Problem] = []
    if allow_missing:
        return problems
    for key in sorted(table):
        lacking = [(n, d) for n, d in zip(names, dirs) if n not in table[key]]
        if lacking:
            have = next(iter(table[key].values()))
            problems.append(Problem(
                str(have), None, "missing-annotation",
                f"document {key!r} has no file in {', '.join(str(d) for _, d in lacking)} "
                f"({naming}); give --allow-missing to treat it as missing annotations"))
    return problems




def _assemble(corpus: Corpus, documents: Sequence[Document], allow_missing: bool,
              check_text: bool, multi_document: bool, match: str,
              errors: List[Problem]) -> None:
    """Fill ``corpus.units`` from documents: match, join, check identity; then raise
    every problem of the input at once (``errors`` holds those found before)."""
    names = corpus.annotators
    if corpus.kind == "mixed":
        raise InputError(errors, corpus.log.warnings)
    documents = [(k, per) for k, per in documents if per]
    matching = match_documents(documents, names, match, allow_missing, check_text,
                               multi_document)
    corpus.matching = matching.mode
    errors.extend(matching.problems)
    n_problems = len(matching.problems)
    warnings_before = len(corpus.log.problems)
    if check_text or matching.mode == MATCH_TEXT:  # matched by text: one text per unit
        corpus.text_check = check_identity(matching, names, corpus.kind, corpus.log)
        errors.extend(matching.problems[n_problems:])
        # under --strict a text-edit warning is an error
        errors.extend(p for p in corpus.log.problems[warnings_before:] if p.severity == "error")
        if corpus.text_check == "not possible":
            misaligned = position_without_text(matching)
            if misaligned is not None:
                errors.append(misaligned)
    else:
        corpus.text_check = "off"
    if errors:
        raise InputError(errors, corpus.log.warnings)
    units = [Unit(m.uid, m.document, {n: join_sentences(p) for n, p in m.parts.items()},
                  {n: tuple(p) for n, p in m.parts.items()} if m.joined else {},
                  m.edits) for m in matching.units]
    _unique_ids(units)
    corpus.units = units
    if not any(len(u.annotations) >= 2 for u in units):
        first = next((f for _, per in documents for f, _ in per.values()),
                     next(iter(corpus.files.values()))[0])
        raise InputError.single(
            first, None, "no-pairable-units",
            f"no sentence is annotated by two or more annotators ({len(units)} unit(s), "
            f"matched by {corpus.matching}): there is nothing to compare"
            + (" (matched by text: no sentence has the same words in two files)"
               if corpus.matching == MATCH_TEXT else ""))
    corpus.notes.extend(_unit_notes(corpus, names))
    corpus.notes.extend(matching.notes)
    if corpus.text_check == "off":
        corpus.notes.append("the text check is off: sentences are paired by position "
                            "(or sent_id), and nothing shows that the annotations of a unit "
                            "are of the same sentence")


def _unique_ids(units: List[Unit]) -> None:
    """Unit ids unique: prefixed by the document where ids repeat across documents,
    then numbered where they still repeat (ids repeated across annotators' files)."""
    if len({u.uid for u in units}) < len(units):  # sent_ids repeat across documents
        docs = {u.document for u in units}
        if len(docs) > 1:
            for u in units:
                u.uid = f"{u.document}/{u.uid}"
    seen: Dict[str, int] = {}
    for u in units:
        if u.uid in seen:
            seen[u.uid] += 1
            u.uid = f"{u.uid}~{seen[u.uid]}"
        else:
            seen[u.uid] = 1


def _unit_notes(corpus: Corpus, names: Sequence[str]) -> List[str]:
    notes = []
    units = corpus.units
    missing = sum(len(names) - len(u.annotations) for u in units)
    if missing:
        short = sum(1 for u in units if len(u.annotations) < len(names))
        notes.append(f"{missing} annotation(s) missing ({short} unit(s) lack some "
                     f"annotator); units with one annotation take no part")
    if corpus.matching == MATCH_TEXT:
        alone = sum(1 for u in units if len(u.annotations) == 1)
        if alone:
            notes.append(f"matched by text: {alone} sentence(s) have the same words in no "
                         f"other annotator's file (sentences only one annotator has, or "
                         f"edited); they are missing annotations and add nothing to alpha")
    if corpus.joined_units:
        notes.append(f"{corpus.joined_units} unit(s) join several sentences (the annotators "
                     f"split the text into sentences differently); each annotator's "
                     f"sentences of such a unit are one tree under one artificial root "
                     f"(docs/method.md §1.7)")
    if corpus.edited_units:
        notes.append(f"{corpus.edited_units} unit(s) are edited (the annotators' texts "
                     f"differ by local edits, listed as text-edit warnings): kept in alpha, "
                     f"left out of LAS/UAS/LA and the token layers (docs/method.md §1.8)")
    return notes
