"""`CompareOptions`: the options of ``synagree compare`` on dependency trees.

Exported by `synagree.base.command_options` with the other options classes; a
module of its own (as `synagree.base.parseval_options`) so that a CoNLL-U
comparison builds only this class, not all seven (dataclass creation compiles
each class's methods at import: issue 36, start-up).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Optional, Tuple

from synagree.base.options_base import Options, option

__all__ = ["CompareOptions"]


@dataclass(frozen=True)
class CompareOptions(Options):
    """``synagree compare`` on dependency trees (`synagree.evaluation.compare.compare`).

    Examples
    --------
    >>> CompareOptions(alpha=False, names=["parser"]).names
    ('parser',)
    """

    command: ClassVar[str] = "compare()"
    hierarchy: Any = option("hierarchy")
    breakdown: bool = option("breakdown")
    significance: bool = option("significance")
    test_replicates: int = option("test_replicates")
    seed: int = option("seed")
    bootstrap: int = option("bootstrap")
    names: Optional[Tuple[str, ...]] = option("names")
    alpha: bool = option("alpha")
    sample_pairs: Optional[int] = option("sample_pairs")
    exact: bool = option("exact")
    level: float = option("level")
    R: Optional[int] = option("R")
    full_labels: bool = option("full_labels")
    progress: Optional[bool] = option("progress")
    max_memory: int = option("max_memory")
    tag_syntax: str = option("tag_syntax")
    bdm: bool = option("bdm")
    prf: bool = option("prf")
    wu_palmer: bool = option("wu_palmer")
    executor: Any = option("executor")
