"""``synagree compare GOLD TEST --params PRM`` on bracketed files, without the CLI machinery.

Issue 36: PARSEVAL within 2x (4x on small files) the compiled EVALB, whose whole run is
13-70 ms, when the interpreter alone takes about 20.  The full path (argparse, the
shared options and run machinery, the result dataclasses, the reader registry) costs
more than the goal on its own.  `run` is taken first by `synagree.cli.main.main`: when
the command line is a PARSEVAL comparison it understands *exactly*, it reads both
files, scores them with the compiled kernel (`synagree.evaluation._parsevalc`) and
writes the output that the full path writes, byte for byte (stdout, stderr, exit
status).  It computes nothing of its own: every number and line comes from the
functions the full path calls (`synagree.io.evalb_text`,
`synagree.evaluation.evalb_counts`, `synagree.render.parseval_text`,
`synagree.render.text_table`), kept in light modules for this.

Anything it does not know for certain, it leaves to the full path (`run` returns None
before writing anything), so that every message and error stays the full path's:

* the command line: ``compare GOLD TEST`` then only ``--params PRM``, ``--output
  table|evalb`` (``=``-forms too) and ``-q``/``--quiet``, each at most once;
* the environment: any ``SYNAGREE_*`` variable (the engine, debugging, budgets);
  text output to a terminal (fitted to its width); standard output not UTF-8;
* the files: each a regular file within the full path's reading budget, named in normal form
  (as `pathlib` prints it), with a suffix of the bracketed formats (`SUFFIXES`:
  the reader registry then settles the format by the suffix alone) and a first byte
  ``(`` (neither empty nor compressed); the same number of lines; the compiled kernel
  built from its sources and accepting every line (it declines a line the Python
  reader must report, or a tree that runs over lines);
* the parameter file: unreadable, with a problem, or with ``DEBUG``; more error
  sentences than ``MAX_ERROR`` (EVALB would stop).

Imported by every command, it loads nothing itself (``os``, ``stat`` and ``sys`` are
loaded at start-up); when it runs, no argparse, dataclasses, typing, pathlib nor numpy
(tests/test_parseval_fast.py checks it).
"""
from __future__ import annotations

import os
import stat
import sys

# typing is needed only by the type checker (its import costs start-up: issue 36)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Sequence, Tuple

__all__ = ["run", "SUFFIXES"]

#: the file-name suffixes the reader registry gives to bracketed trees (``ptb`` and
#: ``phrase``, synagree.io.registry; tests/test_parseval_fast.py checks them against it)
SUFFIXES = (".mrg", ".ptb", ".tree", ".trees", ".brackets")
_FORMATS = ("table", "evalb")
_SINGLE = {"--params": "params", "--output": "output"}
_FLAGS = {"-q": "quiet", "--quiet": "quiet"}


def _options(argv: Sequence[str]) -> Optional[Dict[str, Any]]:
    """The options of ``compare GOLD TEST [--params PRM] [--output F] [-q]``, or None."""
    if len(argv) < 3 or argv[0] != "compare":
        return None
    opts: Dict[str, Any] = {"gold": argv[1], "test": argv[2]}
    rest = list(argv[3:])
    while rest:
        tok = rest.pop(0)
        flag, eq, value = tok.partition("=")
        key: str
        given: Any = value
        if tok in _FLAGS:
            key = _FLAGS[tok]
            given = True
        elif flag in _SINGLE:
            key = _SINGLE[flag]
            if not eq:
                if not rest:
                    return None
                given = rest.pop(0)
            if not given or given.startswith("-"):
                return None
        else:
            return None
        if key in opts:
            return None
        opts[key] = given
    if opts.get("output", "table") not in _FORMATS:
        return None
    if not all(_usable_name(opts[k]) for k in ("gold", "test")):
        return None
    return opts


def _usable_name(path: str) -> bool:
    """A path as given that `pathlib` prints unchanged and that is not text (a line
    break makes a string text for `synagree.io.sources.as_input`)."""
    return (bool(path) and path.isprintable() and not path.startswith(("-", "./"))
            and "//" not in path and "/./" not in path and not path.endswith(("/", "/."))
            and path != ".")


def _budget() -> int:
    """The reading budget of the full path (`synagree.base.memory.read_budget` under the
    default ``--max-memory``)."""
    from synagree.base.room import DEFAULT_MAX_MEMORY, available_memory, read_cap

    avail = available_memory()
    return read_cap(DEFAULT_MAX_MEMORY if avail is None else min(avail[0], DEFAULT_MAX_MEMORY))


def _bracketed_name(path: str) -> bool:
    """Has ``path`` a suffix of the bracketed formats (`SUFFIXES`)?"""
    return os.path.splitext(os.path.basename(path))[1].lower() in SUFFIXES


def _read(path: str, bracketed: bool) -> Optional[bytes]:
    """The bytes of a regular file within the reading budget (a bracketed file: with a
    bracketed suffix, starting with ``(``), or None."""
    if bracketed and not _bracketed_name(path):
        return None
    from synagree.base.room import READ_FLOOR

    try:
        with open(path, "rb") as fh:
            st = os.fstat(fh.fileno())
            if not stat.S_ISREG(st.st_mode) or (st.st_size > READ_FLOOR
                                                and st.st_size > _budget()):
                return None
            data = fh.read()
    except (OSError, ValueError):
        return None
    if bracketed and data[:1] != b"(":
        return None
    return data


def _params(spec: Optional[str]) -> Optional[Tuple[str, Dict[str, Any]]]:
    """The parameter file's name and settings (`synagree.io.evalb_text.read_settings`),
    or None (a problem, ``DEBUG``)."""
    from synagree.io.evalb_text import BUNDLED, DEFAULT_PARAMS, read_settings

    spec = DEFAULT_PARAMS if spec is None else spec
    if spec in BUNDLED:
        name = BUNDLED[spec]
        package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        data = _read(os.path.join(package, "data", "evalb", name), False)
    else:
        if not _usable_name(spec):
            return None
        name = os.path.basename(spec)
        data = _read(spec, False)
    if data is None:
        return None
    problems: List[Tuple[int, str]] = []
    settings = read_settings(data, lambda no, msg: problems.append((no, msg)))
    if problems or settings["debug"]:
        return None
    return name, settings


def _kernel() -> Any:
    """The compiled PARSEVAL kernel when it is certainly built from its sources as
    they are (as `synagree.base.native.built_from` would say), else None."""
    try:
        from synagree.evaluation import _parsevalc  # type: ignore[attr-defined]
    except ImportError:
        return None
    where = getattr(_parsevalc, "__file__", None)
    if where is None:
        return None
    source = os.path.join(os.path.dirname(where), "_parsevalc.c")
    try:
        newer = os.stat(source).st_mtime > os.stat(where).st_mtime
    except OSError:  # no source beside it: an installed build
        return _parsevalc
    digest: str = getattr(_parsevalc, "SOURCE_SHA256", "")
    if newer or digest:
        return None  # stale, or a recorded digest to compare: the full path decides
    return _parsevalc


def _score(opts: Dict[str, Any]) -> Optional[Tuple[str, str]]:
    """(stdout, stderr) of the full path for ``opts``, or None when not certain."""
    if not (_bracketed_name(opts["gold"]) and _bracketed_name(opts["test"])):
        return None  # (`_read` would say so): before loading anything (a CoNLL-U compare)
    if opts.get("output", "table") == "table":
        from synagree.render.fit import is_terminal

        if is_terminal(sys.stdout):
            return None
    prm = _params(opts.get("params"))
    gold, test = _read(opts["gold"], True), _read(opts["test"], True)
    kernel = _kernel()
    if prm is None or gold is None or test is None or kernel is None:
        return None
    from synagree.io.evalb_text import split_lines

    name, st = prm
    g_lines, t_lines = split_lines(gold), split_lines(test)
    if len(g_lines) != len(t_lines):
        return None
    rows = kernel.score(g_lines, t_lines, list(st["delete_labels"]),
                        list(st["delete_labels_for_length"]), list(st["quote_labels"]),
                        [list(p) for p in st["eq_labels"]], [list(p) for p in st["eq_words"]],
                        int(st["labeled"]))
    if rows is None:
        return None
    errors = sum(1 for r in rows if r[0] == 1)
    if errors > st["max_error"]:
        return None  # EVALB may stop there: the full path says how
    return _render(opts, name, st, g_lines, rows, errors)


def _render(opts: Dict[str, Any], name: str, st: Dict[str, Any], g_lines: List[str],
            rows: List[Any], errors: int) -> Tuple[str, str]:
    """The outputs, each line by the function the full path calls for it."""
    from synagree._version import __version__
    from synagree.evaluation.evalb_counts import (
        c_message,
        error_note,
        parseval_settings,
        settings_signature,
        totals_of,
    )
    from synagree.render import parseval_text as pt

    cut = st["cutoff_len"]
    counts = [(r[0], r[2], r[3], r[4], r[5], r[6], r[7]) for r in rows]
    totals = totals_of(counts)
    cutoff = totals_of([c for c, r in zip(counts, rows) if r[1] <= cut])
    if opts.get("output") == "evalb":
        err = "" if opts.get("quiet") else pt.bytes_as_text(pt.evalb_message_lines(
            [(k + 1, c_message(r)) for k, r in enumerate(rows) if r[0] == 1]))
        out = [pt.HEADER]
        out += [pt.evalb_row_text(k + 1, r[1], r[0], *r[2:8]) for k, r in enumerate(rows)]
        return pt.bytes_as_text("".join(out + pt.evalb_tail(totals, cutoff, cut))), err
    from synagree.render.fit import UNLIMITED
    from synagree.render.text_table import text_document, text_lines

    gold, system = opts["gold"], os.path.basename(opts["test"])
    scope = {"all": totals, "cutoff": cutoff}
    tables = [text_lines([head, system], ["text", "number"], [4, 2], pt.scope_rows([scope[w]]),
                         width=UNLIMITED) for w, head in pt.scope_heads(cut)]
    note = error_note([(system, errors)])
    settings = parseval_settings(name, st["sha256"], __version__)
    text = "\n".join(pt.head_lines(gold, len(g_lines), name, st["sha256"])) + "\n" + \
        text_document(tables, [note] if note else [], pt.TEXT_UNITS,
                      settings_signature(settings), UNLIMITED)
    return text, ""


def run(argv: Sequence[str]) -> Optional[int]:
    """Run ``synagree`` on ``argv`` when it is a PARSEVAL comparison this path handles
    (module docstring); the exit status, or None (nothing done, nothing written).

    Parameters
    ----------
    argv : sequence of str
        The arguments after ``synagree``.

    Examples
    --------
    >>> run(["agree", "a.conllu", "b.conllu"]) is None  # another command: not handled
    True
    """
    if (len(argv) < 3 or argv[0] != "compare"
            or any(k.startswith("SYNAGREE_") for k in os.environ)):
        return None
    opts = _options(argv)
    if opts is None or not _utf8(sys.stdout):
        return None
    try:
        outputs = _score(opts)
    except Exception:  # whatever it is, the full path reports it its own way
        return None
    if outputs is None:
        return None
    from synagree.base.escape import encodable
    from synagree.cli.signals import start_working, stop_working, work_done

    out, err = outputs
    handlers: Dict[int, object] = {}
    try:  # as synagree.cli.session runs a command, and synagree.io.files.emit writes
        start_working(handlers)
        try:
            sys.stdout.write(encodable(out))
            sys.stdout.flush()
        except BrokenPipeError:
            return 0
        except OSError as exc:
            return _output_failed(exc)
        if err:
            sys.stderr.write(err)
        work_done()
        return 0
    finally:
        stop_working(handlers)


def _utf8(stream: Any) -> bool:
    """Does ``stream`` write UTF-8 (so that writing the text cannot fail on a character;
    another encoding is left to the full path, whose errors are its own)?"""
    encoding = str(getattr(stream, "encoding", None) or "").lower().replace("-", "")
    return encoding.replace("_", "") == "utf8"


def _output_failed(exc: OSError) -> int:
    """Standard output could not be written: the full path's message and status (its
    modules are loaded only now)."""
    import importlib

    files = importlib.import_module("synagree.io.files")
    problems = importlib.import_module("synagree.base.problems")
    files._discard_stdout()
    error = files.output_error("<stdout>", exc, kept="the output is incomplete")
    problems.print_problems(error.errors, limit=50)
    print(f"synagree: {len(error.errors)} error(s) writing the output", file=sys.stderr)
    return 2
