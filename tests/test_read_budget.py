"""The reading budget (docs/performance.md, "The reading budget"): every input is read in
chunks and refused (exit 2, ``input-too-large``) once it passes 1/16 of ``--max-memory``.

Bombs are generated here by streaming compression (a few MiB of zeros or of a
repeated valid sentence); a small ``--max-memory`` keeps the tests fast.  The
slow test checks the issue's figures: a 4 GiB gzip bomb and ``/dev/zero`` at the
default limit, under 500 MB of resident memory (the time, under 10 s: benchmarks/bench_bounded.py).
"""
from __future__ import annotations

import bz2
import io
import lzma
import os
import resource
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Callable, List

import pytest

import synagree
from synagree.base.memory import limited, read_budget
from synagree.base.problems import InputError
from synagree.cli.main import main
from synagree.io.compression import decompress, read_bytes, read_limited

ROOT = Path(__file__).resolve().parents[1]
ROW = "{}\tw{}\t_\tX\t_\t_\t{}\t{}\t_\t_\n"
SENT = ROW.format(1, 1, 2, "nsubj") + ROW.format(2, 2, 0, "root") + "\n"
SMALL = "32M"  # a reading budget of 2 MiB
BUDGET = 32 * 2**20 // 16


def _stream(chunk: bytes, total: int, compressor: Callable[[], object]) -> bytes:
    """``total`` bytes made of ``chunk`` repeated, compressed as they are made."""
    co = compressor()
    out = io.BytesIO()
    made = 0
    while made < total:
        out.write(co.compress(chunk))  # type: ignore[attr-defined]
        made += len(chunk)
    out.write(co.flush())  # type: ignore[attr-defined]
    return out.getvalue()


def gzip_bomb(total: int = 64 * 2**20, chunk: bytes = b"\0" * 2**20) -> bytes:
    return _stream(chunk, total, lambda: zlib.compressobj(9, zlib.DEFLATED, 31))


COMPRESSORS = {"gz": lambda: zlib.compressobj(9, zlib.DEFLATED, 31),
               "xz": lzma.LZMACompressor, "bz2": bz2.BZ2Compressor}


def _run(args: List[str], capsys) -> "tuple[int, str]":
    code = main(args)
    return code, capsys.readouterr().err


@pytest.fixture()
def good(tmp_path: Path) -> Path:
    p = tmp_path / "good.conllu"
    p.write_text(SENT * 3)
    return p


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
def test_bombs_of_every_compression_refused_on_the_command_line(tmp_path, good, capsys, kind):
    bomb = tmp_path / f"bomb.conllu.{kind}"
    bomb.write_bytes(_stream(b"\0" * 2**20, 16 * 2**20, COMPRESSORS[kind]))
    code, err = _run(["agree", str(bomb), str(good), "--max-memory", SMALL], capsys)
    assert code == 2
    assert "input-too-large" in err and str(bomb) in err
    assert "2.0 MiB" in err and "(decompressed)" in err and "raise --max-memory" in err
    assert "Traceback" not in err


def test_valid_but_huge_compressed_conllu_refused(tmp_path, good, capsys):
    huge = tmp_path / "huge.conllu.gz"
    huge.write_bytes(_stream(SENT.encode() * 1000, 8 * 2**20, COMPRESSORS["gz"]))
    code, err = _run(["compare", str(good), str(huge), "--max-memory", SMALL], capsys)
    assert code == 2 and "input-too-large" in err and str(huge) in err


@pytest.mark.slow
def test_regular_file_refused_by_its_size_before_reading(tmp_path, good, capsys):
    big = tmp_path / "big.conllu"
    big.write_text(SENT * (BUDGET // len(SENT) + 10))
    code, err = _run(["agree", str(big), str(good), "--max-memory", SMALL], capsys)
    assert code == 2 and "the file holds" in err and "input-too-large" in err
    # within the budget it is read
    assert main(["agree", str(big), str(good), "--max-memory", "64M"]) in (0, 2)
    assert "input-too-large" not in capsys.readouterr().err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_dev_zero_refused(good, capsys):
    code, err = _run(["agree", "/dev/zero", str(good), "--max-memory", SMALL], capsys)
    assert code == 2 and "/dev/zero" in err and "input-too-large" in err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
@pytest.mark.parametrize("args", [
    ["agree", "/dev/zero", "{good}", "--format", "arborator"],
    ["agree", "/dev/zero", "{good}", "--format", "webanno-tsv3"],
    ["agree", "/dev/zero", "{good}", "--format", "tiger-xml"],
    ["agree", "/dev/zero", "{good}", "--format", "negra"],
    ["agree", "/dev/zero", "{good}", "--format", "ptb"],
    ["agree", "/dev/zero", "{good}"],  # sniffed: the first bytes only, not an endless line
    ["compare", "/dev/zero", "{good}"],
    ["categorical", "/dev/zero", "--format", "gate", "--sets", "a,b", "--type", "t",
     "--feature", "f"],
])
def test_dev_zero_refused_in_every_format(good, capsys, args):
    """Every reader of the registry reads within the budget (issue 33's formats too)."""
    code, err = _run([a.format(good=good) for a in args] + ["--max-memory", SMALL], capsys)
    assert code == 2 and "/dev/zero" in err and "input-too-large" in err, err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
@pytest.mark.parametrize("option", ["--hierarchy", "--params"])
def test_side_files_from_dev_zero_refused(tmp_path, good, capsys, option):
    if option == "--hierarchy":
        args = ["compare", str(good), str(good), "--hierarchy", "/dev/zero", "--bdm"]
    else:
        tree = tmp_path / "a.mrg"
        tree.write_text("(S (NP (DT a)) (VP (VB b)))\n")
        args = ["compare", str(tree), str(tree), "--params", "/dev/zero"]
    code, err = _run(args + ["--max-memory", SMALL], capsys)
    assert code == 2 and "Traceback" not in err
    assert "/dev/zero" in err


def test_python_api_raises_input_error_never_memory_error(good):
    bomb = gzip_bomb()
    calls = {
        "read": lambda: synagree.read(io.BytesIO(bomb)),
        "agree": lambda: synagree.agree([io.BytesIO(bomb), str(good)], max_memory=2**25),
        "compare": lambda: synagree.compare(io.BytesIO(bomb), [str(good)], max_memory=2**25),
        "categorical": lambda: synagree.categorical([str(good), io.BytesIO(bomb)],
                                                    max_memory=2**25),
    }
    for name, call in calls.items():
        with limited(2**25):
            with pytest.raises(InputError) as info:
                call()
        assert info.value.errors[0].kind == "input-too-large", name


def test_text_and_binary_streams_bounded():
    with limited(2**25):
        with pytest.raises(InputError, match="input-too-large"):
            synagree.read(io.StringIO(SENT * (BUDGET // len(SENT) + 10)))
        with pytest.raises(InputError, match="input-too-large"):
            synagree.read(io.BytesIO(SENT.encode() * (BUDGET // len(SENT) + 10)))
        # just under the budget: read
        assert len(synagree.read(io.StringIO(SENT * (BUDGET // len(SENT) - 1)))) > 0


def test_read_limited_stops_one_byte_past_the_budget():
    src = io.BytesIO(b"x" * 1000)
    assert read_limited(io.BytesIO(b"x" * 100), "s", 100) == b"x" * 100
    with pytest.raises(InputError) as info:
        read_limited(src, "s", 99)
    assert src.tell() == 100  # no more read than needed to know
    assert "the budget given" in str(info.value)


@pytest.mark.parametrize("size", [0, 1, 99, 100, 101, 500, 5000])
def test_read_limited_with_a_size_gives_the_same_bytes_and_refusals(size):
    """``size`` (a regular file's, as read_bytes passes it) is a hint for the first read:
    a stream that gives more or less than it says reads the same, refused the same."""
    for n in (0, 1, 99, 100, 101, 3000):
        data = bytes(range(256)) * (n // 256) + bytes(n % 256)
        for cap in (100, 10_000):
            if n > cap:
                with pytest.raises(InputError, match="input-too-large"):
                    read_limited(io.BytesIO(data), "s", cap, size=size)
                continue
            assert read_limited(io.BytesIO(data), "s", cap, size=size) == data
            assert read_limited(io.BytesIO(data), "s", None, size=size, cap=cap) == data


def test_decompress_and_read_bytes_keep_their_results_within_budget(tmp_path):
    data = SENT.encode() * 100
    gz = _stream(data, len(data), COMPRESSORS["gz"])
    assert decompress(gz) == data
    p = tmp_path / "a.conllu.gz"
    p.write_bytes(gz + gz)  # two gzip members, as gzip reads them
    assert read_bytes(p) == data + data
    with pytest.raises(InputError, match="input-too-large"):
        decompress(gz, name="a", budget=len(data) - 1)


def test_budget_is_a_share_of_the_limit():
    assert read_budget(32 * 2**20, proc="/nonexistent")[0] == 2 * 2**20
    with limited(64 * 2**20):
        assert read_budget(proc="/nonexistent")[0] == 4 * 2**20
    assert read_budget(1024, proc="/nonexistent")[0] == 2**20  # the floor


def _child_peak_kib() -> int:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_issue_figures_4gib_bomb_and_dev_zero_default_limit(tmp_path, good):
    """4 MB of gzip expanding to 4 GiB, and /dev/zero, at the default --max-memory: exit 2
    peak RSS under 500 MB (CLI and API, each in its own process; the time:
    benchmarks/bench_bounded.py)."""
    bomb = tmp_path / "bomb.gz"
    bomb.write_bytes(gzip_bomb(4 * 2**30, b"\0" * 2**24))
    assert bomb.stat().st_size < 8 * 2**20
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    api = ("import io, sys, synagree\n"
           "from synagree.base.problems import InputError\n"
           "try:\n    synagree.agree([io.BytesIO(open(sys.argv[1], 'rb').read()), sys.argv[2]])\n"
           "except InputError as e:\n    print(e); sys.exit(2)\n")
    runs = [[sys.executable, "-m", "synagree", "agree", str(bomb), str(good)],
            [sys.executable, "-m", "synagree", "agree", "/dev/zero", str(good)],
            [sys.executable, "-c", api, str(bomb), str(good)]]
    for cmd in runs:
        # each run in a fresh grandchild so that its own peak is measured
        wrapper = [sys.executable, "-c",
                   "import resource, subprocess, sys\n"
                   "r = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
                   "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
                   "print(r.stderr + r.stdout)", *cmd]
        out = subprocess.run(wrapper, capture_output=True, text=True, env=env, timeout=60)
        code, peak_kib = out.stdout.split("\n", 1)[0].split()
        assert code == "2", out.stdout
        assert "input-too-large" in out.stdout
        assert "Traceback" not in out.stdout
        assert int(peak_kib) * 1024 < 500e6, (cmd, peak_kib)
