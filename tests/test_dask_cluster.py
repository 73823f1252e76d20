"""Every long pass on a real Dask cluster (issue 24, item 4).

A LocalCluster with a scheduler and two worker processes runs on localhost;
each command runs once here and once with ``--dask ADDR`` (its own client,
as a user's would connect).  The outputs must be identical, byte for byte,
and the scheduler must have run exactly the tasks the local run did: as many
``run_tile`` tasks as the local run computed tiles (counted by wrapping the
local executor), and one ``run_job`` task per noise run.  A scheduler plugin
counts the tasks that finished.

The corpus is made here: 600 random sentences, three annotators (the second
and third relabel and reattach some words of the first), so that every pass
has several tiles (512 units a tile) and every annotator-subset pass exists.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Dict, List

import numpy as np
import pytest

distributed = pytest.importorskip("distributed", reason="dask[distributed] not installed")

from dask.utils import key_split  # noqa: E402
from distributed.diagnostics.plugin import SchedulerPlugin  # noqa: E402

from synagree.distance import sums  # noqa: E402
from synagree.distance.dask_exec import DaskExecutor  # noqa: E402

pytestmark = pytest.mark.slow

LABELS = ["nsubj", "nsubj:pass", "obj", "iobj", "obl", "obl:tmod", "amod", "det", "case",
          "advmod", "nmod", "nmod:poss", "conj", "cc", "punct"]
UNITS = 600  # > 512: two row tiles, three tile pairs per pass


class TaskCounter(SchedulerPlugin):
    """Counts the tasks that finished (processing -> memory), by key prefix."""

    name = "synagree-task-counter"

    def __init__(self) -> None:
        self.counts: Counter = Counter()

    def transition(self, key, start, finish, *args, **kwargs) -> None:
        if start == "processing" and finish == "memory":
            self.counts[key_split(key)] += 1


def _install(dask_scheduler) -> None:
    dask_scheduler.add_plugin(TaskCounter())


def _counts(dask_scheduler) -> Dict[str, int]:
    return dict(dask_scheduler.plugins[TaskCounter.name].counts)


@pytest.fixture(scope="module")
def cluster():
    """A scheduler and two worker processes (one thread each) on localhost."""
    cl = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, host="127.0.0.1",
                                  env={"SYNAGREE_THREADS": "1"})
    client = distributed.Client(cl)
    client.run_on_scheduler(_install)
    try:
        yield cl, client
    finally:
        client.close()
        cl.close()


def _tasks(client) -> Counter:
    return Counter(client.run_on_scheduler(_counts))


def _sentence(words: List[tuple], sid: str) -> str:
    text = " ".join(f"w{i}" for i in range(1, len(words) + 1))
    lines = [f"# sent_id = {sid}", f"# text = {text}"]
    for i, (h, lab) in enumerate(words, 1):
        lines.append("\t".join([str(i), f"w{i}", f"w{i}", "X", "X", "_", str(h), lab, "_", "_"]))
    return "\n".join(lines) + "\n\n"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> List[Path]:
    """Three annotators' files of UNITS random sentences (valid trees, UD labels)."""
    rng = np.random.default_rng(24)
    base = []
    for _ in range(UNITS):
        n = int(rng.integers(2, 16))
        heads = [0] + [int(rng.integers(1, k + 1)) for k in range(1, n)]  # word k+1 -> 1..k
        perm = rng.permutation(n) + 1  # shuffle word order: projectivity varies
        pos = {int(w): i + 1 for i, w in enumerate(perm)}
        words = [None] * n
        for w in range(1, n + 1):
            h = heads[w - 1]
            lab = "root" if h == 0 else LABELS[int(rng.integers(len(LABELS)))]
            words[pos[w] - 1] = (0 if h == 0 else pos[h], lab)
        base.append(words)
    d = tmp_path_factory.mktemp("dask_corpus")
    paths = []
    for ann, p in (("anna", 0.0), ("bert", 0.15), ("cleo", 0.3)):
        text = []
        for k, words in enumerate(base):
            out = []
            for i, (h, lab) in enumerate(words):
                if h and rng.random() < p:
                    lab = LABELS[int(rng.integers(len(LABELS)))]
                if h and rng.random() < p / 2 and words[h - 1][0]:
                    h = words[h - 1][0]  # to the grandparent: never a cycle
                out.append((h, lab))
            text.append(_sentence(out, f"s{k}"))
        path = d / f"{ann}.conllu"
        path.write_text("".join(text), encoding="utf-8")
        paths.append(path)
    return paths


@pytest.fixture
def local_tiles(monkeypatch) -> Counter:
    """Counts the tiles local runs compute (the local executor, wrapped)."""
    seen: Counter = Counter()
    original = sums.local_executor

    def counting(ut, costs, spans, want_s):
        spans = list(spans)
        seen["run_tile"] += len(spans)
        return original(ut, costs, spans, want_s)

    monkeypatch.setattr(sums, "local_executor", counting)
    return seen


def _both(run_cli, cluster, local_tiles, args: List[str], out_local: Path, out_dask: Path):
    """Run ``args`` here (-o out_local) and on the cluster (-o out_dask); the task counts."""
    _, client = cluster
    before = _tasks(client)
    rc, _, err = run_cli(*args, "-o", out_local)
    assert rc == 0, err
    here = Counter(local_tiles)
    rc, _, err = run_cli(*args, "-o", out_dask, "--dask", cluster[0].scheduler_address)
    assert rc == 0, err
    assert local_tiles == here, "the Dask run computed tiles locally"
    return here, _tasks(client) - before


def test_agree_every_pass_on_dask(run_cli, cluster, corpus, local_tiles, tmp_path):
    args = ["agree", *corpus, "-q", "--output", "json", "--unlabelled", "--label-direction",
            "--hierarchy", "ud", "--label-distance", "hierarchy", "--breakdown", "--worst", "3"]
    a, b = tmp_path / "local.json", tmp_path / "dask.json"
    here, there = _both(run_cli, cluster, local_tiles, args, a, b)
    assert a.read_bytes() == b.read_bytes()  # every number, bit for bit
    doc = json.loads(a.read_text())
    for key in ("alpha_plain", "alpha_plain_unlabelled", "alpha_plain_direction",
                "alpha_plain_hier"):
        assert doc[key] is not None and "alpha_plain_se" not in doc, key  # exact passes
    # main, hierarchy, unlabelled, direction (labelled and unlabelled), and each
    # annotator left out (--worst with three annotators): three tile pairs each (600
    # units, 512 a tile); the two length bins (373 and 227 units) one each; all of them
    # on the cluster
    assert here["run_tile"] == (5 + 3) * 3 + 2
    assert there["run_tile"] == here["run_tile"]


def test_compare_alpha_on_dask(run_cli, cluster, corpus, local_tiles, tmp_path):
    gold, *systems = corpus
    args = ["compare", gold, *systems, "-q", "--output", "json"]
    a, b = tmp_path / "local.json", tmp_path / "dask.json"
    here, there = _both(run_cli, cluster, local_tiles, args, a, b)
    assert a.read_bytes() == b.read_bytes()
    assert json.loads(a.read_text())["systems"][1]["alpha_plain"] is not None
    assert here["run_tile"] == 2 * 3 and there["run_tile"] == here["run_tile"]


def test_report_on_dask(run_cli, cluster, corpus, local_tiles, tmp_path):
    args = ["report", *corpus, "-q", "--output", "json", "--bootstrap", "50", "--layers", ""]
    a, b = tmp_path / "local.json", tmp_path / "dask.json"
    here, there = _both(run_cli, cluster, local_tiles, args, a, b)
    assert a.read_bytes() == b.read_bytes()
    # the main pass and one per annotator pair (three annotators: three pairs)
    assert here["run_tile"] == 4 * 3 and there["run_tile"] == here["run_tile"]


def test_noise_runs_on_dask(run_cli, cluster, corpus, tmp_path):
    _, client = cluster
    args = ["noise", corpus[1], "-q", "--sample", "80", "--grid", "0.2,0.6", "--runs", "3",
            "--series", "both,relabel", "--hierarchy", "ud"]
    rc, _, err = run_cli(*args, "-o", tmp_path / "local")
    assert rc == 0, err
    before = _tasks(client)
    rc, _, err = run_cli(*args, "-o", tmp_path / "dask", "--dask",
                         cluster[0].scheduler_address)
    assert rc == 0, err
    there = _tasks(client) - before
    assert there["run_job"] == 2 * 2 * 3  # one task per run
    for name in ("runs.csv", "runs.jsonl", "summary.csv"):
        assert (tmp_path / "local" / name).read_bytes() == (tmp_path / "dask" / name).read_bytes()


def test_sampled_de_says_it_ran_here(run_cli, cluster, corpus, local_tiles, tmp_path):
    args = ["agree", *corpus[:2], "--output", "json", "--sample-pairs", "5000"]
    a, b = tmp_path / "local.json", tmp_path / "dask.json"
    here, there = _both(run_cli, cluster, local_tiles, args, a, b)
    assert here["run_tile"] == there["run_tile"] == 0  # no exact pass at all
    notes = json.loads(b.read_text())["notes"]
    assert any("computed here, not on the cluster" in n for n in notes), notes
    local = json.loads(a.read_text())
    assert local["alpha_plain"] == json.loads(b.read_text())["alpha_plain"]


def test_noise_stops_early_and_resumes_on_dask(cluster, corpus, tmp_path):
    """max_runs with an executor: the window leaves no run behind, a rerun resumes."""
    from synagree.noise.experiments import run_noise_experiment

    _, client = cluster
    ex = DaskExecutor(client)
    kw = dict(sample=30, series=["relabel"], grid=[0.5], runs=5)
    first = run_noise_experiment([corpus[0]], tmp_path / "x", max_runs=2, executor=ex, **kw)
    assert (first.computed, "json" in first.files) == (2, False)
    rest = run_noise_experiment([corpus[0]], tmp_path / "x", executor=ex, **kw)
    assert (rest.resumed, rest.computed) == (2, 3)
    local = run_noise_experiment([corpus[0]], tmp_path / "y", **kw)
    assert [r["alpha_plain"] for r in rest.rows] == [r["alpha_plain"] for r in local.rows]
    assert ex.tasks == 5
