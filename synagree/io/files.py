"""Files: reading text (compressed or not) and writing results (`open_output`).

Every output goes through `open_output` (and `emit` / `write_atomic` on top of
it): regular files are replaced atomically through a temporary file beside
them, symbolic links are written through (the file at the end of the link is
replaced, the link stays), FIFOs, character devices and open descriptors
(``/dev/stdout``) are written in place, and every `OSError` becomes an
`OutputError` (exit status 2) naming the path and the cause, with no
temporary file left (docs/output.md, "Where results go").
"""
from __future__ import annotations

import errno
import importlib
import os
import re
import stat
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable, Iterator, List, Optional, Tuple, TypeVar, Union

from synagree.base.escape import encodable
from synagree.base.problems import InputError, Problem, ProblemLog
from synagree.io.compression import CorruptCompressedFile, decompress, read_bytes
from synagree.io.sources import Buffer, as_input, input_name

#: `tempfile` (and `random`, which it loads) is loaded by its module path when a file is
#: written, not by a command that prints to standard output (issue 36: a PARSEVAL run)
TEMPFILE = "tempfile"


def _mkstemp(**kw: object) -> Tuple[int, str]:
    """`tempfile.mkstemp` (``prefix``, ``suffix``, ``dir``)."""
    fd, path = importlib.import_module(TEMPFILE).mkstemp(**kw)
    return int(fd), str(path)

PathLike = Union[str, os.PathLike]

# the regular files `open_output` has renamed into place since `forget_committed`
# (whole files: a command interrupted after writing some of its outputs names them);
# nothing is kept until a list is started, so a program that only imports the package
# and writes many results keeps no growing list
_COMMITTED: List[List[str]] = []  # [] or [the list]


def committed_outputs() -> List[str]:
    """The files written (renamed into place, whole) since the last `forget_committed`,
    as given, in the order written ([] when no list was started)."""
    return list(_COMMITTED[0]) if _COMMITTED else []


def forget_committed() -> None:
    """Start a new list for `committed_outputs` (the command line does, per run)."""
    _COMMITTED[:] = [[]]


def read_problem(exc: Union[CorruptCompressedFile, OSError]) -> Tuple[str, str]:
    """``(kind, message)`` of a file whose bytes could not be read: ``file-not-found``,
    ``not-a-file``, ``unreadable`` or ``corrupt-compressed-file``."""
    if isinstance(exc, CorruptCompressedFile):
        return "corrupt-compressed-file", str(exc)
    if isinstance(exc, FileNotFoundError):
        return "file-not-found", "no such file"
    if isinstance(exc, IsADirectoryError):
        return "not-a-file", "is a directory, expected a file"
    return "unreadable", f"cannot read file: {exc.strerror or exc}"


def read_text(path: "PathLike | Buffer | IO[str] | IO[bytes]", log: ProblemLog
              ) -> Optional[str]:
    r"""The file's text, or None after logging why not.

    UTF-8, a BOM dropped; ``.gz``/``.xz``/``.bz2`` files are decompressed
    (`synagree.io.compression`).  Lines with undecodable bytes are logged
    (``encoding``, one error per line) and read with replacement characters.
    A stream (or its `synagree.io.sources.Buffer`) is read the same way:
    bytes decompressed when they are compressed data (by their first bytes
    only: ``gzip.open(p)`` gives plain bytes whatever its name), then decoded;
    text taken as it is.

    Parameters
    ----------
    path : str, path-like, file-like or Buffer
    log : ProblemLog
        Receives the reason when the text cannot be had: ``file-not-found``,
        ``not-a-file``, ``unreadable``, ``corrupt-compressed-file``,
        ``empty-file``.
    """
    source = as_input(path)
    if isinstance(source, Buffer):
        return _buffer_text(source, log)
    path = source
    try:
        raw = read_bytes(path)
    except (CorruptCompressedFile, OSError) as exc:
        log.add(str(path), None, *read_problem(exc))
        return None
    except InputError as exc:  # input-too-large
        log.extend(exc.errors)
        return None
    return _decoded(raw, str(path), log)


def _buffer_text(buffer: Buffer, log: ProblemLog) -> Optional[str]:
    name = buffer.name
    if buffer.data is None:
        log.add(name, None, "unreadable", f"cannot read the stream: {buffer.error}")
        return None
    if isinstance(buffer.data, str):
        text = buffer.data[1:] if buffer.data.startswith("\ufeff") else buffer.data
        return _non_empty(text, name, log)
    try:
        # by the first bytes only: a stream's name says nothing of what it gives
        raw = decompress(buffer.data, name=name)
    except CorruptCompressedFile as exc:
        log.add(name, None, *read_problem(exc))
        return None
    except InputError as exc:  # input-too-large
        log.extend(exc.errors)
        return None
    return _decoded(raw, name, log)


def _decoded(raw: bytes, name: str, log: ProblemLog) -> Optional[str]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        for no, chunk in enumerate(raw.split(b"\n"), start=1):
            try:
                chunk.decode("utf-8")
            except UnicodeDecodeError as exc:
                log.add(name, no, "encoding",
                        f"undecodable bytes (not UTF-8) at column {exc.start + 1}")
        text = raw.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    return _non_empty(text, name, log)


def _non_empty(text: str, name: str, log: ProblemLog) -> Optional[str]:
    if not text or text.isspace():  # (text.strip() would copy a large file)
        log.add(name, None, "empty-file", "file is empty (no sentences)")
        return None
    return text


@contextmanager
def raise_new_errors(log: ProblemLog) -> Iterator[int]:
    """Read one file into ``log``; afterwards raise `InputError` with the errors it added.

    A context manager: the whole file is read first.  It yields the error
    count before, so the reader can tell whether anything else went wrong.

    Yields
    ------
    int
        ``len(log.errors)`` on entry.

    Raises
    ------
    InputError
        On exit, when errors were added inside the block (with ``log``'s
        warnings).
    """
    n_before = len(log.errors)
    yield n_before
    if len(log.errors) > n_before:
        raise InputError(log.errors[n_before:], log.warnings)


class OutputError(InputError):
    """An output that could not be written (exit status 2, as bad input).

    Raised for every `OSError` while a result is written (`open_output`,
    `writing`, `make_output_dir`, `check_output`) and for targets that cannot
    take a result (a directory, a block device, a loop of links): kinds
    ``write-failed`` and ``bad-output``.  The message names the path and the
    cause, and says what was kept.
    """


# the errno values an output meets, and what they mean for the user
_CAUSES = {
    errno.EACCES: "no permission to write there",
    errno.EPERM: "not permitted",
    errno.EROFS: "a read-only file system",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EFBIG: "above the file-size limit (ulimit -f) or the file system's largest file",
    errno.ENAMETOOLONG: "the name is too long",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.ELOOP: "too many symbolic links",
    errno.ENXIO: "no process reads that FIFO, or no such device",
    errno.EIO: "an input/output error of the device",
}


def output_error(path: "PathLike", exc: OSError, doing: str = "write",
                 kept: Optional[str] = None) -> OutputError:
    """The `OutputError` (kind ``write-failed``) for ``exc``, raised while writing ``path``.

    Parameters
    ----------
    path : str or path-like
        The output as the user named it.
    exc : OSError
    doing : str
        What failed (``"write"``, ``"create the folder"``, ...).
    kept : str, optional
        What the user still has; default: nothing was written and ``path`` is
        as it was.
    """
    name = errno.errorcode.get(exc.errno or 0, "")
    cause = _CAUSES.get(exc.errno or 0)
    detail = f"{exc.strerror or exc}" + (f" ({name}: {cause})" if name and cause
                                          else f" ({name})" if name else "")
    if kept is None:
        kept = f"nothing was written ({path} is as it was)"
    return OutputError([Problem(str(path), None, "write-failed",
                                f"cannot {doing}: {detail}; {kept}")])


def _bad_output(path: "PathLike", message: str) -> OutputError:
    return OutputError([Problem(str(path), None, "bad-output", message)])


@contextmanager
def writing(path: "PathLike", doing: str = "write", kept: Optional[str] = None
            ) -> Iterator[None]:
    """Turn any `OSError` raised in the block into `output_error` for ``path``.

    For writes that cannot go through `open_output` (appending to a log, a lock
    file).  `BrokenPipeError` passes unchanged (a reader that went away, as
    ``| head``).

    Parameters
    ----------
    path : str or path-like
    doing, kept : str
        As for `output_error`.
    """
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise output_error(path, exc, doing, kept) from None


# paths that name an open file descriptor: written in place, appended to
_DESCRIPTOR = re.compile(r"/(?:proc/(?:self|thread-self|\d+)/fd|dev/fd)/\d+|/dev/std(?:out|err)")
MAX_LINKS = 40  # as the kernel's limit on symbolic links in one lookup


@dataclass(frozen=True)
class OutputTarget:
    """Where a result named ``given`` goes, after following its symbolic links.

    Parameters
    ----------
    given : pathlib.Path
        The path as named (``-o``).
    path : pathlib.Path
        The file written: ``given``, or the end of its chain of links.
    kind : {"file", "stream"}
        ``file``: a regular file (or none yet), replaced atomically through a
        temporary file beside ``path``; ``stream``: a FIFO, a character device
        or an open descriptor (``/dev/stdout``), written in place.
    mode : int or None
        Permission bits of an existing regular file (kept by the write).
    """

    given: Path
    path: Path
    kind: str
    mode: Optional[int] = None


def output_target(path: "PathLike") -> OutputTarget:
    """Resolve an output path: follow its links, and tell a file from a stream.

    Raises
    ------
    OutputError
        ``bad-output``: a directory, a block device, a socket, or a loop of
        links; ``write-failed``: the path cannot be looked up (permission, a
        file where a folder should be).
    """
    given = Path(path)
    p = given
    for _ in range(MAX_LINKS):
        if _DESCRIPTOR.fullmatch(str(p)):
            return OutputTarget(given, p, "stream")
        try:
            link = os.readlink(p)
        except (FileNotFoundError, NotADirectoryError):
            break  # not there yet (a folder on the way may be made)
        except OSError as exc:
            if exc.errno == errno.EINVAL:
                break  # not a link
            raise output_error(given, exc, "look up the output") from None
        # a relative link is relative to its folder; no normalisation: "..", as
        # the kernel reads it, goes up from the folder the link is really in
        p = Path(os.path.join(os.path.dirname(p), link))
    else:
        raise _bad_output(given, f"more than {MAX_LINKS} symbolic links in a chain "
                                 f"(a loop?); nothing was written")
    try:
        st = os.stat(p)
    except (FileNotFoundError, NotADirectoryError):
        return OutputTarget(given, p, "file")
    except OSError as exc:
        raise output_error(given, exc, "look up the output") from None
    if stat.S_ISREG(st.st_mode):
        return OutputTarget(given, p, "file", stat.S_IMODE(st.st_mode))
    if stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode):
        return OutputTarget(given, p, "stream")
    what = ("a directory; give a file name" if stat.S_ISDIR(st.st_mode)
            else "a block device" if stat.S_ISBLK(st.st_mode)
            else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
    if not stat.S_ISDIR(st.st_mode):
        what += "; give a file, a FIFO or a character device"
    via = f" (through the link to {p})" if p != given else ""
    raise _bad_output(given, f"is {what}{via}; nothing was written")


def make_output_dir(path: "PathLike") -> Path:
    """Make the folder ``path`` (and its parents) for outputs, if missing.

    Raises
    ------
    OutputError
        It cannot be made (``write-failed``), or the name is taken by a file
        (``bad-output``).
    """
    p = Path(path)
    if p.is_dir():
        return p
    if p.exists() or p.is_symlink():
        raise _bad_output(p, "exists and is not a folder; nothing was written")
    with writing(p, "create the folder", kept="nothing was written"):
        p.mkdir(parents=True, exist_ok=True)
    return p


def check_output(path: "PathLike", folder: bool = False) -> None:
    """Check, before any work, that a result can be written at ``path``.

    A file target: its folder must let a temporary file be made there (one is
    made and removed), and an existing file must be writable.  A stream (FIFO,
    device, descriptor) must be writable.  A folder (``folder=True``, for
    commands that write several files): a file must be makeable in it.  A
    missing folder is not made here (`make_output_dir`).

    Parameters
    ----------
    path : str or path-like
    folder : bool
        ``path`` is an output folder.

    Raises
    ------
    OutputError
        As `output_error` and `output_target` say.
    """
    if folder:
        d = Path(path)
        if d.is_dir():
            _probe(d, Path(path))
        return
    t = output_target(path)
    if t.kind == "stream":
        if not os.access(t.path, os.W_OK):
            raise output_error(t.given, PermissionError(errno.EACCES, os.strerror(errno.EACCES)))
        return
    if t.mode is not None and not os.access(t.path, os.W_OK):
        raise output_error(t.given, PermissionError(errno.EACCES, "the file is read-only"),
                           kept=f"nothing was written ({t.given} is as it was; make it "
                                f"writable to replace it)")
    if t.path.parent.is_dir():
        _probe(t.path.parent, t.given)


def _probe(folder: Path, given: Path) -> None:
    """Make and remove a temporary file in ``folder``."""
    try:
        fd, tmp = _mkstemp(prefix=".synagree-probe.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise output_error(given, exc, f"write in the folder {folder}",
                           kept="nothing was written") from None
    os.close(fd)
    try:
        os.unlink(tmp)
    except OSError:
        pass


def emit(text: str, out: "Optional[str | os.PathLike]" = None) -> None:
    r"""Write ``text`` to ``out`` (`write_atomic`), or to standard output when ``out`` is None.

    Parameters
    ----------
    text : str
    out : str or path-like, optional
        The target (see `open_output`: a file, a link to one, a FIFO, a
        device, ``/dev/stdout``); None or ``""``: standard output.

    Raises
    ------
    OutputError
        The output could not be written (standard output: named ``<stdout>``).
    """
    if out:
        write_atomic(out, text)
        return
    try:
        sys.stdout.write(encodable(text))
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        _discard_stdout()
        raise output_error("<stdout>", exc, kept="the output is incomplete") from None


def _discard_stdout() -> None:
    """After a failed write to standard output, send what is still buffered nowhere, so
    that the interpreter's last flush does not fail again (and print a traceback)."""
    try:
        fd = sys.stdout.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (OSError, ValueError, AttributeError):  # not a real descriptor (tests)
        pass


def write_atomic(path: "str | os.PathLike", text: str) -> None:
    """Write ``text`` to ``path`` (`open_output`: atomically, for a regular file).

    Parameters
    ----------
    path : str or path-like
    text : str
        Written as UTF-8 (lone surrogates escaped, `encodable`).

    Raises
    ------
    OutputError
        The result could not be written; the file is as it was and no
        temporary file is left.
    """
    with open_output(path) as fh:
        fh.write(encodable(text))


@contextmanager
def open_output(path: "PathLike", mode: str = "w") -> Iterator[IO]:
    """Open an output for writing: the one way synagree writes a result.

    * A **regular file** (or a name not yet taken) is written atomically: a
      temporary file ``.NAME.PID.XXXX.tmp`` beside it, fsynced, then renamed
      over it, so a reader sees the old file or the whole new one.  An existing
      file keeps its permission bits; a new one gets the usual ones (the umask
      applied to 0o666).  Missing folders are made.
    * A **symbolic link** is followed, however many in a chain: the file at its
      end is written (atomically, beside it) and the link stays a link.
    * A **FIFO**, a **character device** (``/dev/null``) or an open
      **descriptor** (``/dev/stdout``, ``/dev/fd/N``) is written in place: no
      temporary file, no rename (a descriptor is appended to, as the command's
      own output would be).
    * A directory, a block device or a socket is refused.

    Every `OSError` (permission, read-only file system, disk full, quota, file
    too large, ...) becomes an `OutputError` naming the path and the cause;
    the temporary file is removed and the old file stays as it was.

    Parameters
    ----------
    path : str or path-like
    mode : {"w", "wb"}
        Text (UTF-8) or bytes.

    Raises
    ------
    OutputError
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"mode must be 'w' or 'wb', got {mode!r}")
    target = output_target(path)
    if target.kind == "stream":
        with _in_place(target, mode) as fh:
            yield fh
    else:
        with _replacing(target, mode) as fh:
            yield fh


def _fdopen(fd: int, mode: str) -> IO:
    return os.fdopen(fd, mode, encoding=None if "b" in mode else "utf-8")


@contextmanager
def _in_place(target: OutputTarget, mode: str) -> Iterator[IO]:
    descriptor = _DESCRIPTOR.fullmatch(str(target.path)) is not None
    if descriptor:
        for stream in (sys.stdout, sys.stderr):  # what the command wrote comes first
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
    kept = "the output may be incomplete"
    with writing(target.given, "open the output", kept="nothing was written"):
        fd = os.open(target.path, os.O_WRONLY | (os.O_APPEND if descriptor else 0))
    try:
        fh = _fdopen(fd, mode)  # owns the descriptor from here on
    except BaseException:
        os.close(fd)
        raise
    with writing(target.given, kept=kept), fh:
        yield fh
        fh.flush()


@contextmanager
def _replacing(target: OutputTarget, mode: str) -> Iterator[IO]:
    final, folder = target.path, target.path.parent
    make_output_dir(folder)
    remove_stale_temporaries(final)
    kept = (f"nothing was written ({target.given} is as it was)" if target.mode is not None
            else "nothing was written")
    with writing(target.given, f"make a temporary file in {folder}", kept=kept):
        fd, tmp = _mkstemp(prefix=f".{final.name}.{os.getpid()}.", suffix=".tmp",
                           dir=folder)
    record = _COMMITTED[0] if _COMMITTED else None
    listed = len(record) if record is not None else 0
    try:
        with writing(target.given, kept=kept):
            if target.mode is not None:
                os.fchmod(fd, target.mode)
            else:
                umask = os.umask(0)
                os.umask(umask)
                os.fchmod(fd, 0o666 & ~umask)  # the usual permissions, not mkstemp's 0600
            try:
                fh = _fdopen(fd, mode)  # owns the descriptor from here on
            except BaseException:
                os.close(fd)
                raise
            with fh:
                yield fh
                fh.flush()
                os.fsync(fh.fileno())
            # listed first: an interrupt between the two leaves the list right below
            if record is not None:
                record.append(str(target.given))
            os.replace(tmp, final)
    except BaseException:
        renamed = False
        try:
            os.unlink(tmp)
        except FileNotFoundError:  # renamed before the exception: written, whole
            renamed = True
        except OSError:
            pass
        if not renamed and record is not None:
            del record[listed:]
        raise
    _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    """fsync the folder, so that the rename survives a crash (best effort)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


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


_T = TypeVar("_T")


def read_parsed(path: "PathLike | Buffer | IO[str] | IO[bytes]", log: Optional[ProblemLog],
                parse: Callable[[str, str, ProblemLog], List[_T]], empty: str) -> List[_T]:
    """One file's text parsed, every problem logged, then `InputError` if any is an error.

    The frame of the readers of the registry's tool formats
    (`synagree.io.registry`): the text read (`read_text`), ``parse(name,
    text, log)`` giving the records, an ``empty-file`` error with the message
    ``empty`` when there are none and nothing else was wrong.

    Parameters
    ----------
    path : str, path-like, file-like or Buffer
    log : ProblemLog or None
        None: a new one.
    parse : callable
        ``(name, text, log) -> list``.
    empty : str
        The ``empty-file`` message.
    """
    source = as_input(path)
    name = input_name(source)
    log = log if log is not None else ProblemLog()
    out: List[_T] = []
    with raise_new_errors(log) as n_before:
        text = read_text(source, log)
        if text is not None:
            out = parse(name, text, log)
            # "no records" only when nothing else was wrong: a file whose every
            # record has errors does hold records, and those errors say why
            if not out and len(log.errors) == n_before:
                log.add(name, None, "empty-file", empty)
    return out
