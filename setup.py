"""Build of the optional C kernels (everything else is in pyproject.toml).

The extensions hold synagree's compiled kernels (the CoNLL-U and bracket
readers' scan, tree building, tree edit distance, the all-pairs sums, PARSEVAL's
counts).  They are optional: where no C compiler is available the install still
succeeds and the same kernels run through numba, the readers' scan through
Python (synagree.base.native), PARSEVAL through its Python scorer
(synagree.evaluation.parseval).
"""
import hashlib
import platform
import sys
from pathlib import Path

from setuptools import Extension, setup

# IEEE arithmetic as written: no fused multiply-add, no reassociation, so that
# the C kernels' sums are bit-identical to numba's.  Unrolling: 1.1-1.4x on the
# TED rows (benchmarks/bench_kernel.py, same run, 2026-11-23).
ARGS = [] if sys.platform == "win32" else ["-O3", "-funroll-loops", "-ffp-contract=off",
                                           "-fno-math-errno", "-pthread"]
LINK = [] if sys.platform == "win32" else ["-pthread"]
if platform.machine().lower() in ("i386", "i486", "i586", "i686", "x86"):
    # 32-bit x86: SSE2 arithmetic, not the x87's extended precision, so that
    # float64 sums round as numba's do
    ARGS += ["-msse2", "-mfpmath=sse"]
# Windows: the kernels use POSIX threads, so the optional build fails there
# and numba runs the same kernels.


def kernel(name: str, sources: list) -> Extension:
    """An optional extension that knows the SHA-256 of its sources (in name
    order), so that synagree can tell a build older than its sources."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for src in sorted(sources, key=lambda p: Path(p).name):
        digest.update((here / src).read_bytes())
    return Extension(name, [s for s in sources if s.endswith(".c")], optional=True,
                     depends=[s for s in sources if s.endswith(".h")],
                     define_macros=[("SOURCE_SHA256", f'"{digest.hexdigest()}"')],
                     extra_compile_args=ARGS, extra_link_args=LINK)


setup(ext_modules=[
    kernel("synagree.io._scanc", ["synagree/io/_scanc.c", "synagree/io/_scanc_table.h",
                                   "synagree/io/_scanc_conllu.h",
                                   "synagree/io/_scanc_brackets.h"]),
    kernel("synagree.trees._flatc", ["synagree/trees/_flatc.c"]),
    kernel("synagree.distance._tedc",
           ["synagree/distance/_tedc.c", "synagree/distance/_tedc_zs.h",
            "synagree/distance/_tedc_simd.h"]),
    # PARSEVAL's counts (synagree.evaluation.parseval; a Python scorer runs without it)
    kernel("synagree.evaluation._parsevalc", ["synagree/evaluation/_parsevalc.c"]),
])
