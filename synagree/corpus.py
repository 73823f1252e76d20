"""Corpus assembly: units (sentences) × annotators (SPEC §1).

Two ways in:

* **files**, one per annotator: the files hold the same sentences in the same
  order.  When every sentence of every file carries ``# sent_id``, units are
  matched by sent_id instead of position (order may then differ).  A
  different sentence count is an error naming the first sentence where the
  files part ways.  ``allow_missing=True`` (sent_id matching only) accepts
  sentences absent from some files as missing annotations.
* **directories**, one per annotator (named after the directory): files are
  matched across directories by name, either identical names or
  ``PREFIX-ANNOTATOR.ext`` / ``PREFIX.ANNOTATOR.ext`` (the annotator part
  stripped, as in the released CDT and SSD data).  An annotator may lack some
  files (missing annotations); files present for several annotators must hold
  the same number of sentences.

Units whose annotations number fewer than two take no part in agreement.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from .problems import InputError, Problem, ProblemLog
from .readers import DepSentence, PhraseSentence, Sentence, read_any

@dataclass
class Unit:
    """One sentence and its annotations, keyed by annotator name."""

    uid: str
    document: str
    annotations: Dict[str, Sentence]

    def ordered(self, annotators: Sequence[str]) -> List[Sentence]:
        return [self.annotations[a] for a in annotators if a in self.annotations]

    @property
    def sent_id(self) -> Optional[str]:
        for s in self.annotations.values():
            if s.sent_id:
                return s.sent_id
        return None

    @property
    def text(self) -> Optional[str]:
        for s in self.annotations.values():
            if s.text:
                return s.text
        return None


@dataclass
class Corpus:
    annotators: List[str]
    units: List[Unit]
    kind: str  # "dependency" or "phrase"
    log: ProblemLog = field(default_factory=ProblemLog)
    files: Dict[str, List[str]] = field(default_factory=dict)  # annotator -> files

    def annotation_lists(self) -> List[List[Sentence]]:
        return [u.ordered(self.annotators) for u in self.units]

    @property
    def pairable_units(self) -> List[Unit]:
        return [u for u in self.units if len(u.annotations) >= 2]


def check_input_choice(files: Sequence, dirs: Optional[Sequence]) -> None:
    """Command-line inputs: annotation files or ``--dirs``, exactly one of them."""
    if not files and not dirs:
        raise InputError.single("<command line>", None, "empty-input",
                                "no input: give annotation files or --dirs DIR DIR ...")
    if files and dirs:
        raise InputError.single("<command line>", None, "usage",
                                "give either files or --dirs, not both")


def kind_of(sents: Sequence[Sentence]) -> str:
    """``"phrase"`` or ``"dependency"`` (also for an empty list)."""
    return "phrase" if sents and isinstance(sents[0], PhraseSentence) else "dependency"


def _describe(s: Sentence) -> str:
    bits = [f"sentence {s.index + 1} (line {s.line})"]
    if s.sent_id:
        bits.append(f"sent_id {s.sent_id}")
    if isinstance(s, DepSentence):
        bits.append(f"{s.n_words} words")
        if s.text:
            t = s.text if len(s.text) <= 60 else s.text[:57] + "..."
            bits.append(f"text {t!r}")
    return ", ".join(bits)


def _same_sentence(a: Sentence, b: Sentence) -> bool:
    if a.sent_id and b.sent_id:
        return a.sent_id == b.sent_id
    if a.text and b.text:
        return a.text == b.text
    if isinstance(a, DepSentence) and isinstance(b, DepSentence):
        return a.n_words == b.n_words
    return True


def _parting_message(names: Sequence[str], files: Sequence[str],
                     docs: Sequence[Sequence[Sentence]]) -> Tuple[str, Optional[int]]:
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


def _annotator_names(paths: Sequence[Path]) -> List[str]:
    stems = [p.stem for p in paths]
    if len(set(stems)) == len(stems):
        return stems
    parents = [p.parent.name or str(p.parent) for p in paths]
    if len(set(parents)) == len(parents):
        return parents
    return [str(p) for p in paths]


def _check_kinds(docs: Sequence[Sequence[Sentence]], files: Sequence[str]) -> str:
    kinds = {kind_of(d) for d in docs if d}
    if len(kinds) > 1:
        raise InputError.single(files[0], None, "mixed-formats",
                                "inputs mix dependency and phrase-structure files: "
                                + ", ".join(f"{f} ({kind_of(d)})" for f, d in zip(files, docs)))
    return kinds.pop() if kinds else "dependency"


def read_files(paths: Sequence[Path], fmt: str, phrase_style: str,
               log: ProblemLog) -> List[List[Sentence]]:
    """Read every file, gathering every file's errors before raising."""
    docs: List[List[Sentence]] = []
    errors = []
    for p in paths:
        try:
            docs.append(read_any(p, fmt=fmt, phrase_style=phrase_style, log=log))
        except InputError as exc:
            errors.extend(exc.errors)
            docs.append([])
    if errors:
        raise InputError(errors, log.warnings)
    return docs


def from_files(paths: Sequence["str | os.PathLike"], names: Optional[Sequence[str]] = None,
               fmt: str = "auto", phrase_style: str = "auto", strict: bool = False,
               allow_missing: bool = False, log: Optional[ProblemLog] = None) -> Corpus:
    """One file per annotator (two or more)."""
    paths = [Path(p) for p in paths]
    if len(paths) < 2:
        raise InputError.single(str(paths[0]) if paths else "<none>", None, "too-few-inputs",
                                "agreement needs at least two annotation files "
                                "(or --dirs with two or more directories)")
    log = log if log is not None else ProblemLog(strict=strict)
    docs = read_files(paths, fmt, phrase_style, log)
    names = list(names) if names else _annotator_names(paths)
    if len(set(names)) != len(names):
        raise InputError.single(str(paths[0]), None, "duplicate-annotator",
                                f"annotator names are not distinct: {names} (the same file "
                                f"twice? give --names)")
    files = [str(p) for p in paths]
    kind = _check_kinds(docs, files)
    by_id = all(s.sent_id for d in docs for s in d)
    units: List[Unit] = []
    if by_id:
        units = _match_by_sent_id(names, files, docs, allow_missing)
    else:
        if len({len(d) for d in docs}) > 1:
            msg, line = _parting_message(names, files, docs)
            raise InputError.single(files[0], line, "sentence-count-mismatch", msg)
        for i in range(len(docs[0])):
            anns = {n: d[i] for n, d in zip(names, docs)}
            first = docs[0][i]
            units.append(Unit(first.sent_id or f"{i + 1}", Path(files[0]).name, anns))
    return Corpus(names, units, kind, log, {n: [f] for n, f in zip(names, files)})


def _match_by_sent_id(names, files, docs, allow_missing: bool) -> List[Unit]:
    order: List[str] = []
    table: Dict[str, Dict[str, Sentence]] = {}
    for name, f, d in zip(names, files, docs):
        seen: Dict[str, Sentence] = {}
        for s in d:
            sid = s.sent_id
            if sid in seen:
                raise InputError.single(f, s.line, "duplicate-sent-id",
                                        f"sent_id {sid!r} occurs twice (first at line "
                                        f"{seen[sid].line})", sent_id=sid)
            seen[sid] = s
            if sid not in table:
                table[sid] = {}
                order.append(sid)
            table[sid][name] = s
    if not allow_missing:
        for sid in order:
            if len(table[sid]) != len(names):
                have = next(iter(table[sid].values()))
                lacking = [f for n, f in zip(names, files) if n not in table[sid]]
                raise InputError.single(
                    have.file, have.line, "sentence-mismatch",
                    f"sent_id {sid!r} is missing from {', '.join(lacking)} (files must hold the "
                    f"same sentences; pass allow_missing / --allow-missing to treat absent "
                    f"sentences as missing annotations)", sent_id=sid)
    return [Unit(sid, Path(files[0]).name, table[sid]) for sid in order]


_EXT = re.compile(r"\.(conllu|conll|conllx|tree|trees|mrg|ptb|brackets)$", re.I)


def _doc_key(filename: str, annotator: str) -> str:
    """Strip the annotator part of ``PREFIX-ANNOTATOR.ext`` (or ``.``/``_``)."""
    stem = _EXT.sub("", filename)
    for sep in ("-", ".", "_"):
        suffix = sep + annotator
        if stem.endswith(suffix) and len(stem) > len(suffix):
            return stem[: -len(suffix)]
    return stem


def from_dirs(dirs: Sequence["str | os.PathLike"], fmt: str = "auto",
              phrase_style: str = "auto", strict: bool = False,
              log: Optional[ProblemLog] = None) -> Corpus:
    """One directory per annotator; files matched by name; missing files allowed."""
    dirs = [Path(d) for d in dirs]
    log = log if log is not None else ProblemLog(strict=strict)
    not_dirs = [Problem(str(d), None, "not-a-directory", "not a directory")
                for d in dirs if not d.is_dir()]
    if not_dirs:
        raise InputError(not_dirs)
    if len(dirs) < 2:
        raise InputError.single(str(dirs[0]) if dirs else "<none>", None, "too-few-inputs",
                                "--dirs needs at least two annotator directories")
    dir_names = [d.resolve().name for d in dirs]
    names = dir_names if len(set(dir_names)) == len(dir_names) else [str(d) for d in dirs]
    table: Dict[str, Dict[str, Path]] = {}
    for name, dir_name, d in zip(names, dir_names, dirs):
        files = sorted(p for p in d.iterdir() if p.is_file() and _EXT.search(p.name)
                       and not p.name.startswith("."))
        for p in files:
            key = _doc_key(p.name, dir_name)
            if name in table.get(key, {}):
                raise InputError.single(str(p), None, "ambiguous-file",
                                        f"two files of annotator {name!r} map to document "
                                        f"{key!r}: {table[key][name].name} and {p.name}")
            table.setdefault(key, {})[name] = p
    if not table:
        raise InputError.single(str(dirs[0]), None, "empty-input",
                                "no annotation files found in the directories")
    entries = [(key, name, p) for key in sorted(table) for name, p in table[key].items()]
    all_docs = read_files([p for _, _, p in entries], fmt, phrase_style, log)
    per_key: Dict[str, Dict[str, List[Sentence]]] = {}
    for (key, name, _), doc in zip(entries, all_docs):
        per_key.setdefault(key, {})[name] = doc
    kind = _check_kinds(all_docs, [str(p) for _, _, p in entries])
    units: List[Unit] = []
    files_of: Dict[str, List[str]] = {n: [] for n in names}
    for key in sorted(table):
        docs = per_key[key]
        anns = [n for n in names if n in docs]
        for n in anns:
            files_of[n].append(str(table[key][n]))
        lengths = {n: len(docs[n]) for n in anns}
        if len(set(lengths.values())) > 1:
            msg, line = _parting_message(anns, [str(table[key][n]) for n in anns],
                                         [docs[n] for n in anns])
            raise InputError.single(str(table[key][anns[0]]), line, "sentence-count-mismatch",
                                    f"document {key!r}: {msg}")
        for i in range(next(iter(lengths.values()))):
            a = {n: docs[n][i] for n in anns}
            sid = next((s.sent_id for s in a.values() if s.sent_id), None)
            units.append(Unit(sid or f"{key}#{i + 1}", key, a))
    return Corpus(names, units, kind, log, files_of)
