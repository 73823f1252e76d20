# Types of the C extension synagree.distance._tedc (see _tedc.c).
from typing import Optional

import numpy as np

def pairs(i: np.ndarray, j: np.ndarray, lab: np.ndarray, lml: np.ndarray, noff: np.ndarray,
          kr: np.ndarray, koff: np.ndarray, rlab: np.ndarray, rlml: np.ndarray, rkr: np.ndarray,
          rkoff: np.ndarray, cl: np.ndarray, cr: np.ndarray, dcost: np.ndarray,
          icost: np.ndarray, rmat: np.ndarray, unit: bool, chunk: int, threads: int,
          out: np.ndarray, trusted: bool = ...) -> None: ...
def all_pairs(lab: np.ndarray, lml: np.ndarray, noff: np.ndarray, kr: np.ndarray,
              koff: np.ndarray, rlab: np.ndarray, rlml: np.ndarray, rkr: np.ndarray,
              rkoff: np.ndarray, cl: np.ndarray, cr: np.ndarray, dcost: np.ndarray,
              icost: np.ndarray, rmat: np.ndarray, unit: bool, threads: int,
              out: np.ndarray, trusted: bool = ...) -> None: ...
def tile(lab: np.ndarray, lml: np.ndarray, noff: np.ndarray, kr: np.ndarray, koff: np.ndarray,
         rlab: np.ndarray, rlml: np.ndarray, rkr: np.ndarray, rkoff: np.ndarray,
         cl: np.ndarray, cr: np.ndarray, dcost: np.ndarray, icost: np.ndarray,
         rmat: np.ndarray, unit: bool, uoff: np.ndarray, utree: np.ndarray,
         ucount: np.ndarray, sizes: np.ndarray, r0: int, r1: int, c0: int, c1: int,
         want_s: bool, s_out: np.ndarray, row_out: np.ndarray, diag_out: np.ndarray,
         woff: np.ndarray, within_out: np.ndarray, threads: int,
         trusted: bool = ...) -> None: ...
def check_pack(lab: np.ndarray, lml: np.ndarray, noff: np.ndarray, kr: np.ndarray,
               koff: np.ndarray, rlab: np.ndarray, rlml: np.ndarray, rkr: np.ndarray,
               rkoff: np.ndarray, cl: np.ndarray, cr: np.ndarray) -> int: ...
def ted_pair(lab1: np.ndarray, lml1: np.ndarray, kr1: np.ndarray, rlab1: np.ndarray,
             rlml1: np.ndarray, rkr1: np.ndarray, cl1: int, cr1: int,
             lab2: np.ndarray, lml2: np.ndarray, kr2: np.ndarray, rlab2: np.ndarray,
             rlml2: np.ndarray, rkr2: np.ndarray, cl2: int, cr2: int,
             dcost: Optional[np.ndarray], icost: Optional[np.ndarray],
             rmat: Optional[np.ndarray], unit: bool) -> Optional[float]: ...
# lanes of the SIMD kernel the next call runs: 16 AVX-512F, 8 AVX2, 4 SSE4.1, 0 none/off
def simd_lanes() -> int: ...
