# Types of the C extension synagree.trees._flatc (see _flatc.c).
import numpy as np

def dependency_arrays(heads: np.ndarray, hoff: np.ndarray, labs: np.ndarray, lab: np.ndarray,
                      lml: np.ndarray, rlab: np.ndarray, rlml: np.ndarray, kr: np.ndarray,
                      rkr: np.ndarray, info: np.ndarray) -> None: ...
