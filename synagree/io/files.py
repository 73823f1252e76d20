"""Files: reading text (compressed or not) and writing results atomically."""
from __future__ import annotations

import os
import re
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, List, Optional, Union

from synagree.base.escape import encodable
from synagree.base.problems import InputError, ProblemLog
from synagree.io.compression import CorruptCompressedFile, read_bytes

PathLike = Union[str, os.PathLike]


def read_text(path: "PathLike", log: ProblemLog) -> Optional[str]:
    r"""The file's text, or None after logging why not.

    UTF-8, a BOM dropped; ``.gz``/``.xz``/``.bz2`` files are decompressed
    (`synagree.io.compression`).  Lines with undecodable bytes are logged
    (``encoding``, one error per line) and read with replacement characters.

    Parameters
    ----------
    path : str or path-like
    log : ProblemLog
        Receives the reason when the text cannot be had: ``file-not-found``,
        ``not-a-file``, ``unreadable``, ``corrupt-compressed-file``,
        ``empty-file``.

    Returns
    -------
    str or None

    Examples
    --------
    >>> import os, tempfile
    >>> from synagree.base.problems import ProblemLog
    >>> fd, path = tempfile.mkstemp(suffix=".conllu")
    >>> with os.fdopen(fd, "wb") as f:
    ...     _ = f.write("\ufeff# text = café\n".encode("utf-8"))
    >>> log = ProblemLog()
    >>> read_text(path, log)
    '# text = café\n'
    >>> read_text(path + ".missing", log), [p.kind for p in log.errors]
    (None, ['file-not-found'])
    >>> os.remove(path)
    """
    path = Path(path)
    try:
        raw = read_bytes(path)
    except CorruptCompressedFile as exc:
        log.add(str(path), None, "corrupt-compressed-file", str(exc))
        return None
    except FileNotFoundError:
        log.add(str(path), None, "file-not-found", "no such file")
        return None
    except IsADirectoryError:
        log.add(str(path), None, "not-a-file", "is a directory, expected a file")
        return None
    except OSError as exc:
        log.add(str(path), None, "unreadable", f"cannot read file: {exc.strerror}")
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        for no, chunk in enumerate(raw.split(b"\n"), start=1):
            try:
                chunk.decode("utf-8")
            except UnicodeDecodeError as exc:
                log.add(str(path), no, "encoding",
                        f"undecodable bytes (not UTF-8) at column {exc.start + 1}")
        text = raw.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text or text.isspace():  # (text.strip() would copy a large file)
        log.add(str(path), None, "empty-file", "file is empty (no sentences)")
        return None
    return text


@contextmanager
def raise_new_errors(log: ProblemLog) -> Iterator[int]:
    """Read one file into ``log``; afterwards raise `InputError` with the errors it added.

    A context manager: the whole file is read first.  It yields the error
    count before, so the reader can tell whether anything else went wrong.

    Parameters
    ----------
    log : ProblemLog

    Yields
    ------
    int
        ``len(log.errors)`` on entry.

    Raises
    ------
    InputError
        On exit, when errors were added inside the block (with ``log``'s
        warnings).

    Examples
    --------
    >>> from synagree.base.problems import InputError, ProblemLog
    >>> log = ProblemLog()
    >>> try:
    ...     with raise_new_errors(log) as before:
    ...         log.add("a.conllu", 3, "bad-id", "bad ID")
    ... except InputError as exc:
    ...     print(before, len(exc.errors))
    0 1
    """
    n_before = len(log.errors)
    yield n_before
    if len(log.errors) > n_before:
        raise InputError(log.errors[n_before:], log.warnings)


def emit(text: str, out: "Optional[str | os.PathLike]" = None) -> None:
    r"""Write ``text`` to ``out`` atomically, or to standard output when ``out`` is None.

    Parameters
    ----------
    text : str
    out : str or path-like, optional
        The target file (see `write_atomic`); None or ``""``: standard output.

    Examples
    --------
    >>> emit("alpha_plain 0.91\n")
    alpha_plain 0.91
    """
    if out:
        write_atomic(out, text)
    else:
        sys.stdout.write(encodable(text))


def write_atomic(path: "str | os.PathLike", text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file and an atomic rename.

    The temporary file (``.NAME.PID.XXXX.tmp`` beside the target) is fsynced
    before the rename and removed on any error; one left by a killed run (its
    process gone) is removed by the next write to the same target.  Missing
    parent directories are created; the file gets the usual permissions (the
    umask applied to 0o666).

    Parameters
    ----------
    path : str or path-like
    text : str
        Written as UTF-8 (lone surrogates escaped, `encodable`).

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> target = os.path.join(d, "sub", "result.json")
    >>> write_atomic(target, '{"alpha_plain": 0.9}')
    >>> open(target).read(), os.listdir(os.path.dirname(target))
    ('{"alpha_plain": 0.9}', ['result.json'])
    >>> import shutil; shutil.rmtree(d)
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp",
                               dir=path.parent)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # the usual permissions, not mkstemp's 0600
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(encodable(text))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


# mkstemp's names before the PID was added: removed once an hour old
_STALE_AGE = 3600.0


def remove_stale_temporaries(path: Path) -> List[Path]:
    """Remove temporary files of earlier writes to ``path`` whose process is gone.

    Temporaries of live processes are kept; old-style names without a process
    id are removed once an hour old.

    Parameters
    ----------
    path : pathlib.Path
        The target whose temporaries are looked for.

    Returns
    -------
    list of pathlib.Path
        The files removed.

    Examples
    --------
    >>> import os, tempfile
    >>> from pathlib import Path
    >>> d = Path(tempfile.mkdtemp())
    >>> stale = d / ".out.json.999999999.abcd.tmp"  # no such process
    >>> _ = stale.write_text("partial")
    >>> [p.name for p in remove_stale_temporaries(d / "out.json")]
    ['.out.json.999999999.abcd.tmp']
    >>> d.rmdir()
    """
    removed: List[Path] = []
    pattern = re.compile(r"\." + re.escape(path.name) + r"\.(?:(\d+)\.)?[^.]+\.tmp")
    try:
        candidates = list(path.parent.iterdir())
    except OSError:
        return removed
    for p in candidates:
        m = pattern.fullmatch(p.name)
        if not m:
            continue
        try:
            if m.group(1) is not None:
                if _alive(int(m.group(1))):
                    continue
            elif time.time() - p.stat().st_mtime < _STALE_AGE:
                continue
            p.unlink()
            removed.append(p)
        except OSError:
            pass
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True
