"""The memory plan (synagree/base/memory.py): what the machine allows, and the models.

The limit work is planned against is the smaller of ``--max-memory`` and what
the process can still get: ``MemAvailable``, its cgroups' limits less their
usage (v2 and v1, every ancestor), and its address-space limit.  The readers
are given fake ``/proc`` and cgroup trees here; the models are checked
against what the kernels really take (peak RSS of a subprocess).
"""
from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from synagree.base import memory
from synagree.base.memory import (
    available_memory,
    check_memory,
    check_ted_tables,
    memory_limit,
    ted_table_bytes,
)
from synagree.base.problems import InputError

ROOT = Path(__file__).resolve().parents[1]
GiB = 2**30


def fake_proc(tmp: Path, *, meminfo_kb=None, cgroup="", mountinfo="", files=None) -> Path:
    proc = tmp / "proc"
    (proc / "self").mkdir(parents=True)
    if meminfo_kb is not None:
        (proc / "meminfo").write_text(f"MemTotal:       99999999 kB\n"
                                      f"MemAvailable:   {meminfo_kb} kB\n")
    (proc / "self" / "cgroup").write_text(cgroup)
    (proc / "self" / "mountinfo").write_text(mountinfo)
    for path, text in (files or {}).items():
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return proc


def test_memavailable_alone(tmp_path):
    proc = fake_proc(tmp_path, meminfo_kb=8 * 2**20)
    assert available_memory(proc) == (8 * GiB, "the memory available on this machine "
                                               "(MemAvailable in /proc/meminfo)")


def test_cgroup_v2_limit_less_usage_with_its_ancestors(tmp_path):
    cg = tmp_path / "cg2"
    proc = fake_proc(
        tmp_path, meminfo_kb=64 * 2**20, cgroup="0::/user.slice/job\n",
        mountinfo=f"30 23 0:26 / {cg} rw,nosuid - cgroup2 cgroup2 rw\n",
        files={cg / "user.slice" / "job" / "memory.max": "max\n",  # no limit of its own
               cg / "user.slice" / "job" / "memory.current": "1000\n",
               cg / "user.slice" / "memory.max": f"{10 * GiB}\n",
               cg / "user.slice" / "memory.current": f"{2 * GiB}\n"})
    room, source = available_memory(proc)
    assert room == 8 * GiB and "memory.max" in source and "user.slice" in source


def test_cgroup_v1_memory_controller(tmp_path):
    cg = tmp_path / "memcg"
    proc = fake_proc(
        tmp_path, meminfo_kb=64 * 2**20,
        cgroup="5:cpu,cpuacct:/x\n4:memory:/docker/abc\n0::/\n",
        mountinfo=(f"35 31 0:32 / {tmp_path / 'cpu'} rw - cgroup cgroup rw,cpu,cpuacct\n"
                   f"36 31 0:33 /docker {cg} rw,relatime - cgroup cgroup rw,memory\n"),
        files={cg / "abc" / "memory.limit_in_bytes": f"{3 * GiB}\n",
               cg / "abc" / "memory.usage_in_bytes": f"{GiB}\n",
               cg / "memory.limit_in_bytes": "9223372036854771712\n"})  # no limit
    room, source = available_memory(proc)
    assert room == 2 * GiB and "memory.limit_in_bytes" in source


def test_the_smaller_limit_is_used_and_named(tmp_path):
    proc = fake_proc(tmp_path, meminfo_kb=8 * 2**20)
    assert memory_limit(16 * GiB, proc)[::2] == (8 * GiB, True)
    assert memory_limit(GiB, proc) == (GiB, "--max-memory", False)
    # the case: --bootstrap with --max-memory 16G on a machine with 8 GB free
    with pytest.raises(InputError) as exc:
        check_memory(12 * GiB, "resampling", "use fewer replicates", 16 * GiB, proc)
    msg = exc.value.errors[0].message
    assert "more than this process can get: 8.0 GiB" in msg and "MemAvailable" in msg
    assert "--max-memory allows 16.0 GiB" in msg and "raise --max-memory" not in msg
    with pytest.raises(InputError) as exc:
        check_memory(2 * GiB, "resampling", "use fewer replicates", GiB, proc)
    assert "above the limit of 1.0 GiB (--max-memory)" in exc.value.errors[0].message
    check_memory(7 * GiB, "resampling", "use fewer replicates", 16 * GiB, proc)  # fits


def test_limited_sets_the_default_of_deep_checks():
    with memory.limited(2 * GiB):
        assert memory.current_limit() == 2 * GiB
        with pytest.raises(InputError):
            check_ted_tables(30_001, 1, 4)  # 6.7 GiB
    assert memory.current_limit() == memory.DEFAULT_MAX_MEMORY


def test_ted_hint_names_the_threads_that_fit(tmp_path):
    proc = fake_proc(tmp_path, meminfo_kb=64 * 2**20)
    per = ted_table_bytes(20_001, 4)  # 3 GiB a thread
    with pytest.raises(InputError) as exc:
        check_ted_tables(20_001, 8, 4, limit=10 * GiB, proc=proc)
    assert f"SYNAGREE_THREADS={10 * GiB // per} fits" in exc.value.errors[0].message


def test_table_model_matches_the_kernels_constants():
    from synagree.distance import kernels_numba
    assert memory.TED_CHUNK_COLS == kernels_numba.CHUNK_COLS
    c = (ROOT / "synagree" / "distance" / "_tedc.c").read_text()
    assert re.search(rf"#define CHUNK_COLS {memory.TED_CHUNK_COLS}\b", c)


@pytest.mark.slow
@pytest.mark.parametrize("nodes", [3000])
def test_table_model_matches_what_the_kernel_takes(nodes):
    """Peak RSS growth (VmHWM) of one TED of two trees of ``nodes`` nodes, one thread, against
    `ted_table_bytes` (they agreed to 0.1 % when this was written)."""
    code = textwrap.dedent(rf"""
        import re, numpy as np
        from synagree.io.conllu import DepSentence
        from synagree.trees.flat import Vocabulary, dependency_tree
        from synagree.distance.ted import TreePack, Costs
        from synagree.distance import kernels
        n = {nodes - 1}
        v = Vocabulary()
        def tree(seed):
            r = np.random.default_rng(seed)
            heads = [0] + [int(r.integers(1, i + 1)) for i in range(1, n)]
            return dependency_tree(DepSentence.from_heads(heads, ["dep"] * n), v)
        pack = TreePack([tree(1), tree(2)])
        d, i, r, u = Costs.unit(len(v)).arrays()
        out = np.zeros(1)
        def peak():  # this process's peak RSS (ru_maxrss would count the parent's too)
            text = open("/proc/self/status").read()
            return int(re.search(r"VmHWM:\s+(\d+) kB", text).group(1)) * 1024
        before = peak()
        kernels.pairs(pack, np.array([0]), np.array([1]), d, i, r, u, out)
        print(pack.maxn, d.itemsize, peak() - before)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={"SYNAGREE_THREADS": "1", "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0, r.stderr
    maxn, cell, grew = map(int, r.stdout.split())
    planned = ted_table_bytes(maxn, cell)
    assert 0.8 * planned <= grew <= 1.1 * planned, (grew, planned)
