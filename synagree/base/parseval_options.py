"""`ParsevalOptions`: the options of ``synagree compare`` on bracketed trees.

Exported by `synagree.base.command_options` with the other options classes; a
module of its own so that the PARSEVAL path builds only this class (issue 36).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Optional, Tuple

from synagree.base.options_base import Options, option

__all__ = ["ParsevalOptions"]


@dataclass(frozen=True)
class ParsevalOptions(Options):
    """``synagree compare`` on bracketed trees
    (`synagree.evaluation.parseval_compare.compare_parseval`).

    Examples
    --------
    >>> ParsevalOptions(params="new").params, ParsevalOptions().alpha
    ('new', False)
    """

    command: ClassVar[str] = "compare_parseval()"
    params: Any = option("params")
    names: Optional[Tuple[str, ...]] = option("names")
    alpha: bool = option("alpha", default=False)
    breakdown: bool = option("breakdown")
    significance: bool = option("significance")
    test_replicates: int = option("test_replicates")
    bootstrap: int = option("bootstrap")
    R: Optional[int] = option("R")
    seed: int = option("seed")
    level: float = option("level")
    sample_pairs: Optional[int] = option("sample_pairs")
    exact: bool = option("exact")
    progress: Optional[bool] = option("progress")
    max_memory: Optional[int] = option("max_memory", default=None, optional=True)
    engine: str = option("engine")
    executor: Any = option("executor")
