"""``--tag-syntax`` and ``--bdm``: the options shared by ``tags``, ``compare`` and ``agree``
(docs/method.md §15)."""
from __future__ import annotations

import argparse

from synagree.stats.tag_alternatives import TAG_SYNTAXES


def add_tag_syntax_args(p: argparse.ArgumentParser, what: str = "tags") -> None:
    """Add ``--tag-syntax plain|alternatives`` and ``--bdm`` to a command's parser.

    ``what`` names the values in the help ("tags", "DEPREL").
    """
    p.add_argument("--tag-syntax", choices=TAG_SYNTAXES, default="plain",
                   help=f"alternatives: read {what} such as NN|NNS (any of them; for a system "
                        "or annotator, uniform mass) and NN=0.7|NNS=0.3 (probabilities) as "
                        "alternatives, with \\| \\= \\\\ as escapes (default: plain, every "
                        "value one tag)")
    p.add_argument("--bdm", action="store_true",
                   help="also report BDM closeness credit (GATE's balanced distance metric: "
                        "2 depth(common ancestor) / (depth(a) + depth(b)); siblings get "
                        "partial credit)")
