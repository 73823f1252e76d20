"""The long description of each command, shown at the top of ``synagree CMD --help``.

Data, in one place beside `synagree.cli.main.COMMANDS` (which holds the one-line
help): `synagree.cli.main.build_parser` sets it when it adds the command's
sub-parser, so a command module's ``register`` only adds options.
"""
from __future__ import annotations

# typing is needed only by the type checker (its import costs start-up: issue 36)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Dict

#: command -> its ``--help`` description (argparse re-wraps it to the terminal)
DESCRIPTIONS: Dict[str, str] = {
    "agree": "Agreement between annotators of the same sentences.",
    "adjudicate": ("From disagreement to gold: per unit the consensus dependency tree (the "
                   "maximum spanning arborescence of the annotators' arc votes, one child of "
                   "the root), labels and columns by vote, Adjudication=... provenance in "
                   "MISC, a curator's worklist ordered by how much each unit moves alpha, "
                   "and the curator's decisions applied on top."),
    "report": ("Annotation QA report: alpha and LAS with bootstrap CIs, annotator pair "
               "matrices, leave-one-out alpha, token-layer kappa/pi/alpha with specific "
               "agreement and confusion, noise curves, and the worst sentences drawn as "
               "dependency arcs or phrase-structure trees with the differences highlighted."),
    "categorical": ("Categorical agreement on token layers (labels, heads, UPOS, XPOS, FEATS): "
                    "observed agreement, Cohen's kappa, Scott's pi, Fleiss' kappa and Davies & "
                    "Fleiss kappa (more than two annotators), Krippendorff's alpha (nominal), "
                    "specific agreement."),
    "compare": ("Score one or more system CoNLL-U files against a gold file: the CoNLL 2018 "
                "shared-task metrics (any tokenisation and sentence split), LAS_full, "
                "hierarchical LAS, Krippendorff's alpha over tree edit distance between gold "
                "and each system, breakdowns and significance tests between systems.  "
                "Bracketed (Penn-style) files, one tree a line: PARSEVAL exactly as EVALB "
                "computes it (--params), with alpha, breakdowns, significance and --baseline "
                "on request."),
    "tags": ("Compare one CoNLL-U column of a system file with a gold file word by word (same "
             "tokenisation): exact accuracy, Melamed & Resnik hierarchical credit, Cohen's "
             "kappa, Scott's pi, hierarchical kappa, per-tag breakdown."),
    "spans": ("Compare annotations as labelled spans the way GATE's Annotation Diff does: "
              "strict (same span and label), lenient (overlapping spans count) and average "
              "precision, recall and F1, per pair of files (the first as key) and per label; "
              "constituents of bracketed trees, or CoNLL-U words labelled by one column. With "
              "--bdm, GATE's BDM-based P/R/F1."),
    "bdm": ("Write GATE's BDM score file for a concept hierarchy: one line per unordered pair "
            "of concepts (self pairs included) with the balanced distance metric and its "
            "parameters (msca, cp, dpk, dpr, n0, n1, n2, bran), computed as GATE's "
            "Ontology_BDM_Computation plugin computes them. GATE's IAA plugin reads the file."),
    "alt-test": ("The alternative annotator test (Calderon, Reichart & Dror 2025): leave each "
                 "human out in turn and ask, sentence by sentence, whether the candidate (a "
                 "parser or an LLM, --candidate) or the left-out human agrees better with the "
                 "other humans; one-sided t-tests against the cost-benefit allowance epsilon, "
                 "Benjamini-Yekutieli corrected, give the winning rate and the decision "
                 "(docs/method.md §34.2). Three or more humans."),
    "plan": ("How many sentences must be double-annotated: the units needed for a confidence "
             "interval of alpha (each variant) of a given width, from a pilot sample, by "
             "resampling the pilot's sentences at increasing sample sizes (docs/method.md §30)."),
    "noise": ("Perturb a sample of a treebank (relabel / reattach, docs/method.md §8) and "
              "measure agreement between original and perturbed copies. Results go to OUT/ "
              "(runs.jsonl, runs.csv, results.json, summary.csv, summary.md); rerunning the "
              "same command resumes an interrupted experiment."),
    "plot": ("Plot noise-experiment results: one figure per series (mean curves with a shaded "
             "spread band for each chosen metric against p; alpha_diff on a panel of its own) "
             "and a LAS-vs-alpha scatter, as PNG, SVG and PDF; with --corpus, the corpus's own "
             "alpha and LAS as reference lines."),
}
