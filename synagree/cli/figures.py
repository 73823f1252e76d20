"""The figure options of ``plot``, ``noise --plot`` and ``report --noise``, read once the
options are parsed: the run part of `synagree.cli.plot_options` (which declares them)."""
from __future__ import annotations

import argparse
from typing import List, Optional, Tuple

from synagree.agreement.agree import agree_corpus, load_corpus
from synagree.render.plots import Reference, corpus_reference, parse_metrics, parse_ylim


def plot_settings(args: argparse.Namespace) -> Tuple[Optional[List[str]],
                                                     Optional[Tuple[float, float]]]:
    """``--metrics`` and ``--ylim`` parsed (a usage error before any work)."""
    return parse_metrics(getattr(args, "metrics", None)), parse_ylim(getattr(args, "ylim", None))


def corpus_option_reference(args: argparse.Namespace, config: Optional[dict],
                            where: str) -> Optional[Reference]:
    """The ``--corpus`` files' own values (checked against the runs), or None."""
    files = getattr(args, "corpus", None)
    if not files:
        return None
    result = agree_corpus(load_corpus(files), progress=not getattr(args, "quiet", False))
    return corpus_reference(result, config, where)
