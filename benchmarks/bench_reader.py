"""The CoNLL-U and bracket readers against the readers they replaced, in one run.

Data: the UD files of the shared data (``../shared/data/ud/*.conllu``)
concatenated, repeatedly, to about 50 MB in a temporary directory, and the
same trees written as bracketed phrase trees (one per line, Penn style:
``(DEPREL (UPOS form) ...)``) for the bracket reader.  Each candidate reads
the whole file, in turn (A B C ... A B C ..., ``--rounds`` rounds); the
table gives min / median wall time, MB/s (10^6 bytes of the file per
second, from the min) and the ratios.  The machine is shared: only ratios
measured in one run mean anything (the load is printed beside them).

CoNLL-U candidates:

* ``old``: the reader before issue 24, a verbatim copy kept in
  ``tests/reader_baseline.py`` (``old_read_conllu``), the baseline;
* ``new``: `synagree.io.conllu.read_conllu` (the C scan of
  ``synagree/io/_scanc.c``);
* ``new, Python scan``: the same with ``SYNAGREE_KERNELS=numba`` (the scan
  an installation without a C compiler runs);
* ``split loop``: read and decode the file, split it into lines and every
  line at its tabs (``str.split``), nothing checked, nothing kept;
* ``split loop, kept``: the same, keeping every line's columns (a list of
  lists: what a reader that only split would hold);
* ``byte scan``: read the file's bytes and find every newline and tab
  (numpy), nothing decoded.

Every reader's sentences are checked equal to the old reader's first.

Bracket candidates: ``old`` (``old_parse_bracket_file``), ``new`` (C),
``new, Python path`` (the JSON path), and ``token loop`` (read, decode,
``re.findall`` of the tokens: the old reader's tokenizer alone).

End to end (``--e2e BASELINE``): ``synagree agree -q`` on the 50,000 trees
of bench_goals.py's ``sampled50k`` goal (25,000 sentences x 2 files), run
by this checkout and by BASELINE, a source tree of the commit before
(``git archive 66d92b7 | tar -x -C /tmp/base``, then ``python setup.py
build_ext --inplace`` there), each as its own process on PYTHONPATH, in turn
(wall time and peak RSS; the outputs must be identical).

The scorer's reader (``--scorer``): `synagree.evaluation.conll18.read_treebank`
(the CoNLL 2018 scorer's strictness as a mode over the scan's records) against
its line-by-line reading (what it was before issue 31 item 6, still its
path for files with problems), and `synagree.evaluation.tags.read_tag_column`
against its line-by-line reading, on each shared UD file, in turn; the
treebanks are checked equal first.

    python benchmarks/bench_reader.py [--rounds N] [--mb 50] [--quick] [--e2e BASELINE]
    python benchmarks/bench_reader.py --scorer [--rounds N]
"""
from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import numpy as np
from common import ROOT, SHARED, loadavg

sys.path.insert(0, str(ROOT / "tests"))
import reader_baseline as old  # noqa: E402  (tests/reader_baseline.py)

from synagree.base.problems import ProblemLog  # noqa: E402
from synagree.io import native_scan  # noqa: E402
from synagree.io.brackets import parse_bracket_file  # noqa: E402
from synagree.io.conllu import DepSentence, read_conllu  # noqa: E402


def make_conllu(path: Path, mb: float) -> None:
    """The shared UD files, concatenated until the file holds ``mb`` MB."""
    data = b"".join(p.read_bytes() for p in sorted((SHARED / "ud").glob("*.conllu")))
    with open(path, "wb") as f:
        written = 0
        while written < mb * 1e6:
            f.write(data)
            written += len(data)


def phrase(s: DepSentence) -> str:
    """A dependency tree as a Penn-style bracketed tree: each word a phrase
    labelled by its DEPREL holding ``(UPOS form)`` and its dependents, in
    word order."""
    def atom(x: str) -> str:
        return x.replace("(", "-LRB-").replace(")", "-RRB-").replace(" ", "_") or "_"

    kids: List[List[int]] = [[] for _ in range(s.n_words + 1)]
    for i, h in enumerate(s.heads.tolist(), start=1):
        kids[h].append(i)
    done: Dict[int, str] = {}
    stack = [(0, False)]
    while stack:  # post-order, without recursion
        w, expanded = stack.pop()
        if not expanded:
            stack.append((w, True))
            stack.extend((k, False) for k in kids[w])
            continue
        parts = [done.pop(k) if k != w else f"({atom(s.upos[w - 1])} {atom(s.forms[w - 1])})"
                 for k in sorted(kids[w] + ([w] if w else []))]
        done[w] = f"({atom(s.deprels[w - 1]).upper() if w else 'S'} {' '.join(parts)})"
    return done[0]


def make_brackets(path: Path, conllu: Path) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for s in read_conllu(conllu):
            f.write(phrase(s) + "\n")


# ---------------------------------------------------------------- candidates

def split_loop(path: Path) -> int:
    n = 0
    for line in path.read_bytes().decode("utf-8").split("\n"):
        n += len(line.split("\t"))
    return n


def split_loop_kept(path: Path) -> List[List[str]]:
    return [line.split("\t") for line in path.read_bytes().decode("utf-8").split("\n")]


def byte_scan(path: Path) -> int:
    a = np.frombuffer(path.read_bytes(), np.uint8)
    return len(np.flatnonzero(a == 10)) + len(np.flatnonzero(a == 9))


_TOKEN = re.compile(r"\(|\)|[^\s()]+")


def token_loop(path: Path) -> int:
    return len(_TOKEN.findall(path.read_bytes().decode("utf-8")))


def with_kernels(kernels: str, fn: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        before = os.environ.get("SYNAGREE_KERNELS")
        os.environ["SYNAGREE_KERNELS"] = kernels
        try:
            return fn()
        finally:
            if before is None:
                del os.environ["SYNAGREE_KERNELS"]
            else:
                os.environ["SYNAGREE_KERNELS"] = before
    return run


def timed(cands: List[Tuple[str, Callable[[], object]]], rounds: int) -> Dict[str, List[float]]:
    """Each candidate once per round, in turn; wall seconds per run."""
    times: Dict[str, List[float]] = {name: [] for name, _ in cands}
    for _ in range(rounds):
        for name, fn in cands:
            gc.collect()
            t = time.perf_counter()
            result = fn()
            times[name].append(time.perf_counter() - t)
            del result
    return times


def report(title: str, size: int, times: Dict[str, List[float]], base: str, new: str) -> None:
    mb = size / 1e6
    print(f"\n{title}: {mb:.1f} MB, {len(times[base])} rounds, load {loadavg()}")
    print(f"  {'reader':22s} {'min s':>7s} {'median s':>9s} {'MB/s':>7s} "
          f"{'speed / old':>12s} {'new / this':>11s}")
    best = {k: min(v) for k, v in times.items()}
    for name, ts in times.items():
        print(f"  {name:22s} {best[name]:7.3f} {statistics.median(ts):9.3f} "
              f"{mb / best[name]:7.1f} {best[base] / best[name]:11.2f}x "
              f"{best[name] / best[new]:10.2f}x")
    per_round = [o / n for o, n in zip(times[base], times[new])]
    print(f"  {new} vs {base}, per round: min {min(per_round):.2f}x, "
          f"median {statistics.median(per_round):.2f}x")


def same_sentences(a: List[DepSentence], b: List[DepSentence]) -> bool:
    fields = ("file", "index", "line", "forms", "deprels", "upos", "xpos", "feats",
              "lemmas", "metadata", "comments", "multiword", "deps")
    return len(a) == len(b) and all(
        all(getattr(x, f) == getattr(y, f) for f in fields)
        and list(x.word_lines) == list(y.word_lines) and np.array_equal(x.heads, y.heads)
        for x, y in zip(a, b))


def e2e(baseline: Path, rounds: int) -> None:
    """`synagree agree` on 50,000 trees, by BASELINE and by this checkout, in turn."""
    from bench_goals import Data, run

    tmp = Path(tempfile.mkdtemp(prefix="bench_reader_e2e_"))
    try:
        a, b = Data(tmp).big_pair()
        cmd = [sys.executable, "-m", "synagree", "agree", "-q", str(a), str(b)]
        envs = {"before": dict(os.environ, PYTHONPATH=str(baseline)),
                "after": dict(os.environ, PYTHONPATH=str(ROOT))}
        outs = {k: subprocess.run(cmd, env=e, capture_output=True, text=True, check=True,
                                  cwd=tmp).stdout for k, e in envs.items()}
        assert outs["before"] == outs["after"], "the outputs differ"
        load = loadavg()
        res: Dict[str, list] = {k: [] for k in envs}
        for _ in range(rounds):
            for k, e in envs.items():
                res[k].append(run(cmd, e))
        print(f"\n`synagree agree -q` on 50,000 trees ({a.stat().st_size / 1e6:.1f} + "
              f"{b.stat().st_size / 1e6:.1f} MB), {rounds} rounds, load {load} -> {loadavg()}")
        for k, rs in res.items():
            print(f"  {k:7s} wall {min(r[0] for r in rs):.2f} / "
                  f"{statistics.median(r[0] for r in rs):.2f} s (min / median), CPU "
                  f"{min(r[1] for r in rs):.2f} s, peak RSS {max(r[2] for r in rs):.0f} MB")
        per = [x[0] / y[0] for x, y in zip(res["before"], res["after"])]
        print(f"  before / after, per round: min {min(per):.2f}x, median "
              f"{statistics.median(per):.2f}x")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def scorer(rounds: int) -> None:
    """read_treebank and read_tag_column: the scan's records against line by line."""
    from synagree.evaluation import conll18, tags

    def line_by_line(module: object, name: str, fn: Callable[[], object]
                     ) -> Callable[[], object]:
        def run() -> object:
            fast = getattr(module, name)
            setattr(module, name, lambda *a: None)
            try:
                return fn()
            finally:
                setattr(module, name, fast)
        return run

    for path in sorted((SHARED / "ud").glob("*.conllu")):
        def read(p: Path = path) -> object:
            return conll18.read_treebank(p)

        def column(p: Path = path) -> object:
            return tags.read_tag_column(p, "deprel", ProblemLog())

        slow_read = line_by_line(conll18, "_scanned_treebank", read)
        a, b = read(), slow_read()
        assert [(w.form, w.head, w.deprel, w.start, w.end) for w in a.words] == \
            [(w.form, w.head, w.deprel, w.start, w.end) for w in b.words], path  # type: ignore
        slow_column = line_by_line(tags, "_scanned_tag_sentences", column)
        assert column() == slow_column(), path
        times = timed([("line by line", slow_read), ("scan", read),
                       ("tags line by line", slow_column), ("tags scan", column)], rounds)
        report(f"read_treebank, {path.name}", path.stat().st_size,
               {k: times[k] for k in ("line by line", "scan")}, "line by line", "scan")
        report(f"read_tag_column, {path.name}", path.stat().st_size,
               {k: times[k] for k in ("tags line by line", "tags scan")}, "tags line by line",
               "tags scan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--mb", type=float, default=50.0)
    ap.add_argument("--quick", action="store_true", help="10 MB, 3 rounds")
    ap.add_argument("--e2e", type=Path, metavar="BASELINE",
                    help="also time `agree` on 50,000 trees against this source tree")
    ap.add_argument("--e2e-only", action="store_true", help="only the end-to-end part")
    ap.add_argument("--scorer", action="store_true",
                    help="only the scorer's reader and tags' column reader (issue 31 item 6)")
    args = ap.parse_args()
    if args.quick:
        args.rounds, args.mb = 3, 10.0
    if not (SHARED / "ud").is_dir():
        sys.exit(f"shared data not found: {SHARED / 'ud'}")
    c = native_scan.scanc()
    print(f"cores: {os.cpu_count()}, C scans: {'built' if c is not None else 'NOT built'}, "
          f"load {loadavg()}; {time.strftime('%Y-%m-%d %H:%M')}")
    if args.scorer:
        scorer(args.rounds)
        return
    if args.e2e is not None:
        # first, while this process is small: a child's peak RSS starts from
        # its parent's at the fork
        e2e(args.e2e, args.rounds)
    elif args.e2e_only:
        sys.exit("--e2e-only needs --e2e BASELINE")
    if args.e2e_only:
        return
    tmp = Path(tempfile.mkdtemp(prefix="bench_reader_"))
    try:
        conllu, mrg = tmp / "big.conllu", tmp / "big.mrg"
        make_conllu(conllu, args.mb)
        make_brackets(mrg, conllu)

        ref = old.old_read_conllu(conllu)
        assert same_sentences(ref, read_conllu(conllu)), "the new reader differs (C scan)"
        assert same_sentences(ref, with_kernels("numba", lambda: read_conllu(conllu))()), \
            "the new reader differs (Python scan)"
        del ref
        times = timed([
            ("old", lambda: old.old_read_conllu(conllu)),
            ("new", lambda: read_conllu(conllu)),
            ("new, Python scan", with_kernels("numba", lambda: read_conllu(conllu))),
            ("split loop", lambda: split_loop(conllu)),
            ("split loop, kept", lambda: split_loop_kept(conllu)),
            ("byte scan", lambda: byte_scan(conllu)),
        ], args.rounds)
        report("CoNLL-U", conllu.stat().st_size, times, "old", "new")

        ref_b = old.old_parse_bracket_file(mrg, ProblemLog())
        assert ref_b == parse_bracket_file(mrg, ProblemLog()), "the new bracket parse differs"
        assert ref_b == with_kernels("numba", lambda: parse_bracket_file(mrg, ProblemLog()))(), \
            "the new bracket parse differs (Python path)"
        del ref_b
        times = timed([
            ("old", lambda: old.old_parse_bracket_file(mrg, ProblemLog())),
            ("new", lambda: parse_bracket_file(mrg, ProblemLog())),
            ("new, Python path", with_kernels(
                "numba", lambda: parse_bracket_file(mrg, ProblemLog()))),
            ("token loop", lambda: token_loop(mrg)),
        ], args.rounds)
        report("Brackets", mrg.stat().st_size, times, "old", "new")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
