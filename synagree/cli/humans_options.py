"""The options of ``synagree compare GOLD SYS --humans ...`` (docs/method.md §28).

Kept apart from `synagree.cli.human_band` (which runs it) so that ``compare``
registers them without importing numpy (see `synagree.cli.compare`).
"""
from __future__ import annotations

import argparse

from synagree.base.problems import InputError
from synagree.cli import options
from synagree.cli.options import output_format

#: options of ``compare`` that do not apply to ``--humans`` (dest, spelling, unset value)
NOT_WITH_HUMANS = (("verbose", "-v", False), ("hierarchy", "--hierarchy", None),
                   ("breakdown", "--breakdown", False), ("full_labels", "--full-labels", False),
                   ("significance", "--significance", False), ("no_alpha", "--no-alpha", False),
                   ("params", "--params", None), ("alpha", "--alpha", False),
                   ("prf", "--prf", False), ("bdm", "--bdm", False),
                   ("wu_palmer", "--wu-palmer", False), ("tag_syntax", "--tag-syntax", "plain"),
                   ("sample_pairs", "--sample-pairs", None), ("baseline", "--baseline", None))


def add_humans_args(p: argparse.ArgumentParser) -> None:
    """``--humans`` and the matching options it reads the files with."""
    g = p.add_argument_group("the parser beside a second human (docs/method.md §28)")
    g.add_argument("--humans", nargs="+", metavar="FILE",
                   help="human annotations of the same sentences: the parser's agreement "
                        "with GOLD is set beside theirs, with paired bootstrap intervals "
                        "(--bootstrap, default 1,000) and a verdict (within / below / above "
                        "the human band); one SYSTEM file; all files read and matched as "
                        "agree reads them (--match, --allow-missing, --no-text-check); "
                        "--names then names GOLD, SYSTEM and the humans, in that order")
    # the reading options of agree, as agree has them (with --humans only)
    options.add_options(p, "--match", "--allow-missing", "--no-text-check")


def check_without_humans(args: argparse.Namespace) -> None:
    """The reading options that only ``--humans`` uses, given without it: a usage error
    (``compare`` aligns gold and system by their characters, docs/method.md §11.1)."""
    for given, spelling in ((args.match != "auto", "--match"),
                            (args.allow_missing, "--allow-missing"),
                            (args.no_text_check, "--no-text-check")):
        if given:
            raise InputError.single("<command line>", None, "usage",
                                    f"{spelling} goes with --humans (compare aligns gold and "
                                    f"system by their characters)")


def check_args(args: argparse.Namespace) -> None:
    """Usage errors of ``--humans`` (before any reading)."""
    for dest, spelling, unset in NOT_WITH_HUMANS:
        if getattr(args, dest, unset) not in (unset, None, False):
            raise InputError.single("<command line>", None, "usage",
                                    f"{spelling} does not go with --humans (the human band "
                                    f"compares annotations, docs/method.md §28)")
    if len(args.systems) != 1:
        raise InputError.single("<command line>", None, "usage",
                                f"--humans compares one system file with the humans, not "
                                f"{len(args.systems)}")
    if output_format(args) == "evalb":
        raise InputError.single("<command line>", None, "usage",
                                "--output evalb is for bracketed files, not --humans")
    n_files = 2 + len(args.humans)
    if args.names and len(args.names) != n_files:
        raise InputError.single("<command line>", None, "usage",
                                f"with --humans, --names gives one name per file (GOLD, "
                                f"SYSTEM, then each human): {n_files} names, not "
                                f"{len(args.names)}")
