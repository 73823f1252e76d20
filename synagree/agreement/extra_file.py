"""The annotators' files read together with one more: a parser's output, a pre-annotation.

A parser's output compared with the humans (`synagree.agreement.human_band`,
docs/method.md §28) and the pre-annotation the annotators corrected
(`synagree.agreement.preannotation`, §29) are matched to the annotators'
sentences exactly as ``agree`` matches annotators: all files are read
together by `synagree.agreement.agree.load_corpus` (by ``# sent_id``, by
position with differing splits joined, or by text; §1.4–1.9), the extra file
being one more annotator.  The analyses then use the **shared units**: those
that every file annotates (all of them unless ``allow_missing``).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence

from synagree.base.problems import InputError
from synagree.io.compression import strip_suffix
from synagree.io.corpus import Corpus, Unit, from_dirs, from_files

__all__ = ["WithExtra", "read_with_extra", "shared_units"]


def shared_units(corpus: Corpus, annotators: Optional[Sequence[str]] = None) -> List[Unit]:
    """The units that every one of ``annotators`` (default: all) annotates, in order."""
    names = list(annotators) if annotators is not None else list(corpus.annotators)
    return [u for u in corpus.units if all(a in u.annotations for a in names)]


@dataclass(frozen=True)
class WithExtra:
    """Annotators and one extra file (``role``) read together as one corpus.

    Attributes
    ----------
    corpus : Corpus
        The annotators and, as its last annotator, the extra file.
    extra : str
        The extra file's name in ``corpus`` (its file stem or directory name).
    role : str
        What the extra file is, for messages (``"system"``, ``"pre-annotation"``).
    """

    corpus: Corpus
    extra: str
    role: str

    @property
    def annotators(self) -> List[str]:
        """The annotators, the extra file left out, in corpus order."""
        return [a for a in self.corpus.annotators if a != self.extra]

    def shared_units(self) -> List[Unit]:
        """The units every annotator and the extra file annotate."""
        return shared_units(self.corpus)


def _stem(path: Path) -> str:
    return Path(strip_suffix(path.name)).stem


def read_with_extra(paths: Sequence["str | os.PathLike"] = (),
                    dirs: Sequence["str | os.PathLike"] = (),
                    extra: "str | os.PathLike" = "", *, role: str = "system",
                    names: Optional[Sequence[str]] = None, extra_name: Optional[str] = None,
                    option: str = "",
                    fmt: str = "auto", phrase_style: str = "auto", strict: bool = False,
                    allow_missing: bool = False, check_text: bool = True,
                    match: str = "auto") -> WithExtra:
    """Read the annotators' files (or directories) and ``extra`` as one corpus.

    Parameters
    ----------
    paths : sequence of str or path-like
        One file per annotator (ignored when ``dirs`` is given).
    dirs : sequence of str or path-like
        One directory per annotator; ``extra`` is then a directory too.
    extra : str or path-like
        The parser's output, or the pre-annotation.
    role : str
        What ``extra`` is, for messages.
    names : sequence of str, optional
        The annotators' names (files only); None: the file stems.
    extra_name : str, optional
        The extra file's name (files only); None: its file stem (with
        ``dirs``: the directory's name).
    option : str
        The command-line option that gave ``extra`` (``--preannotation``),
        named in messages.
    fmt, phrase_style, strict, allow_missing, check_text, match
        As in `synagree.agreement.agree.load_corpus`.

    Raises
    ------
    InputError
        ``duplicate-annotator`` when the extra file's name is an annotator's;
        ``no-shared-units`` when no unit is annotated in every file; every
        problem of reading and matching (as ``agree``).
    """
    what = f"the {role} {option}".rstrip() if option else f"the {role}"
    extra_path = Path(extra)
    if dirs:
        if names or extra_name:
            raise InputError.single("<command line>", None, "usage",
                                    "--names goes with files; with --dirs the directory "
                                    "names are the annotator names")
        if not extra_path.is_dir():
            raise InputError.single(str(extra_path), None, "not-a-directory",
                                    f"with --dirs, {what} is a directory of files named as "
                                    f"the annotators' are")
        dir_names = [Path(d).resolve().name for d in dirs]
        name = extra_path.resolve().name
        if name in dir_names:
            raise InputError.single(str(extra_path), None, "duplicate-annotator",
                                    f"{what} is named {name!r}, as an annotator's directory; "
                                    f"rename the directory")
        corpus = from_dirs([*dirs, extra_path], fmt=fmt, phrase_style=phrase_style,
                           strict=strict, allow_missing=allow_missing, check_text=check_text,
                           match=match)
        name = corpus.annotators[-1]
    else:
        file_paths = [Path(p) for p in paths]
        if extra_path.is_dir():
            raise InputError.single(str(extra_path), None, "not-a-file",
                                    f"is a directory; {what} is one file (a directory goes "
                                    f"with --dirs)")
        humans = list(names) if names else None
        name = extra_name or _stem(extra_path)
        if humans is None:
            stems = [_stem(p) for p in file_paths]
            if len(set(stems)) == len(stems) and name not in stems:
                humans = stems
        if humans is not None and name in humans:
            raise InputError.single(str(extra_path), None, "duplicate-annotator",
                                    f"{what} is named {name!r}, as an annotator; rename "
                                    f"the file or give other --names")
        if humans is None and extra_name:
            raise InputError.single("<command line>", None, "usage",
                                    "the annotators' file names are not distinct: give "
                                    "--names")
        all_names = None if humans is None else [*humans, name]
        corpus = from_files([*file_paths, extra_path], names=all_names, fmt=fmt,
                            phrase_style=phrase_style, strict=strict,
                            allow_missing=allow_missing, check_text=check_text, match=match)
        name = corpus.annotators[-1]
    out = WithExtra(corpus, name, role)
    if not out.shared_units():
        raise InputError.single(str(extra_path), None, "no-shared-units",
                                f"no sentence is annotated in every file and in {what}: "
                                f"nothing to compare")
    return out
