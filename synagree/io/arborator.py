"""Arborator-Grew multi-user CoNLL-U: one file, one annotator per ``# user_id``.

Arborator-Grew keeps every user's tree of a sentence; exported together, the
trees of one sentence follow one another, each with the sentence's
``# sent_id`` and its user's ``# user_id`` comment.  `split_users` cuts such
a file into one CoNLL-U text per user, each line of a user's trees at its
line in the file (the other users' lines left blank), so that every message
of the CoNLL-U reader names the file's own line.  The users' texts are then
read and matched as one file per annotator would be (by ``sent_id``).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from synagree.base.problems import ProblemLog, quote
from synagree.io.conllu import sentence_blocks
from synagree.io.files import read_text
from synagree.io.sources import Buffer, Source, as_input, input_name

__all__ = ["split_users", "user_of"]


def user_of(comment: str) -> Optional[str]:
    """The value of a ``# user_id = NAME`` comment line, else None."""
    key, eq, value = comment.lstrip("#").partition("=")
    return value.strip() or None if eq and key.strip() == "user_id" else None


def split_users(path: Source, log: ProblemLog) -> List[Tuple[str, Buffer]]:
    r"""One CoNLL-U text per ``# user_id`` of an Arborator-Grew file.

    Parameters
    ----------
    path : str, path-like, file-like or Buffer
    log : ProblemLog
        Receives the problems: the file cannot be read; a sentence without a
        ``# user_id`` comment (``arborator-no-user``); a user with two trees
        of one ``sent_id`` (``arborator-duplicate-tree``).

    Returns
    -------
    list of (str, Buffer)
        Per user, in order of first appearance: the user's trees, each line
        at its line of the file (the rest blank), named as the file.
    """
    source = as_input(path)
    name = input_name(source)
    real = source.real_name if isinstance(source, Buffer) else str(source)
    text = read_text(source, log)
    if text is None:
        return []
    n_lines = text.count("\n") + 1
    per_user: Dict[str, List[str]] = {}
    seen: Dict[Tuple[str, str], int] = {}
    for first, lines in sentence_blocks(text):
        comments = [ln for _, ln in lines if ln.startswith("#")]
        user = next((u for u in map(user_of, comments) if u), None)
        if user is None:
            log.add(name, first, "arborator-no-user",
                    "sentence has no '# user_id' comment: in an Arborator file every tree "
                    "names its user (or give --format conllu)")
            continue
        sent = next((c.lstrip("#").partition("=")[2].strip() for c in comments
                     if c.lstrip("#").partition("=")[0].strip() == "sent_id"), None)
        if sent is not None:
            if (sent, user) in seen:
                log.add(name, first, "arborator-duplicate-tree",
                        f"user {quote(user)} has a second tree of sentence {quote(sent)} "
                        f"(the first at line {seen[(sent, user)]})")
                continue
            seen[(sent, user)] = first
        out = per_user.setdefault(user, [""] * n_lines)
        for no, line in lines:
            out[no - 1] = line
    return [(user, Buffer(name, real, "\n".join(lines) + "\n"))
            for user, lines in per_user.items()]
