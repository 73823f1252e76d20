"""Build of the optional C kernels (everything else is in pyproject.toml).

The two extensions hold synagree's compiled kernels (tree building, tree
edit distance, the all-pairs sums).  They are optional: where no C compiler
is available the install still succeeds and the same kernels run through
numba instead (synagree.base.native).
"""
import sys

from setuptools import Extension, setup

# IEEE arithmetic as written: no fused multiply-add, no reassociation, so that
# the C kernels' sums are bit-identical to numba's.  Unrolling: 1.1-1.4x on the
# TED rows (benchmarks/bench_kernel.py, same run, 2026-11-23).
ARGS = [] if sys.platform == "win32" else ["-O3", "-funroll-loops", "-ffp-contract=off",
                                           "-fno-math-errno", "-pthread"]
LINK = [] if sys.platform == "win32" else ["-pthread"]

setup(ext_modules=[
    Extension("synagree.trees._flatc", ["synagree/trees/_flatc.c"], optional=True,
              extra_compile_args=ARGS, extra_link_args=LINK),
    Extension("synagree.distance._tedc", ["synagree/distance/_tedc.c"], optional=True,
              extra_compile_args=ARGS, extra_link_args=LINK),
])
