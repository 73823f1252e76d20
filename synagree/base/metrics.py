"""The metric registry: every reported number once, with one name and one meaning.

Each `Metric` gives the key used in JSON, CSV columns, table rows and the
LaTeX/Markdown/HTML outputs, a one-line definition, its unit and the section
of ``docs/method.md`` that defines it.  The glossary of ``docs/method.md`` §13
is generated from this module (``scripts/glossary.py``; a test checks that the
two agree), and a test checks that every metric key a command writes is
registered here.

Conventions (docs/method.md §13):

* values are **fractions** (0 to 1; α may be negative) in every JSON and CSV
  output; a table may print percent where its convention is percent (the
  CoNLL 2018 scorer's table of ``compare``) and then says so in its units line;
* ``LAS`` is the CoNLL 2018 LAS, on the **universal** part of DEPREL (before
  ``:``), everywhere; ``LAS_full`` compares the full DEPREL; a ``_hier``,
  ``_bdm``, ``_unlabelled`` or ``_direction`` suffix names the same measure
  under hierarchical credit, BDM credit, unlabelled trees or head-direction
  labels;
* ``<key>_ci`` is a bootstrap percentile interval ``[low, high]`` of ``<key>``
  and ``<key>_se`` its standard error (sampled D_e);
* a metric a command cannot compute is absent, with a note, never 0.

`RENAMED` maps, per command, the keys of earlier releases to today's
(CHANGELOG.md lists them).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Tuple

VARIANT_NAMES = ("plain", "diff", "norm")

#: units of the registry (the ``unit`` column of the glossary)
FRACTION = "fraction"
COUNT = "count"
SETTING = "setting"
PROBABILITY = "probability"


@dataclass(frozen=True)
class Metric:
    """One reported number.

    Attributes
    ----------
    key : str
        The name in every output; ``<v>`` stands for each α variant.
    definition : str
        One sentence (Markdown), units stated.
    unit : str
        ``fraction``, ``count``, ``setting`` or a unit such as ``edits``.
    section : str
        The defining section of ``docs/method.md`` (``"6.1"``), or "".
    group : str
        The glossary table it belongs to: ``agree``, ``compare``, ``tags``,
        ``layers`` or ``parseval``.
    """

    key: str
    definition: str
    unit: str
    section: str
    group: str

    def keys(self) -> List[str]:
        """The concrete keys: one per α variant when ``key`` holds ``<v>``."""
        if "<v>" not in self.key:
            return [self.key]
        return [self.key.replace("<v>", v) for v in VARIANT_NAMES]


def _m(group: str, rows: List[Tuple[str, str, str, str]]) -> List[Metric]:
    return [Metric(k, d, u, s, group) for k, d, u, s in rows]


GROUPS = {
    "agree": "Agreement between annotators (`agree`, `report`, `noise`)",
    "compare": "Parser evaluation (`compare`)",
    "tags": "Tag evaluation (`tags`)",
    "layers": "Token layers (`categorical`, `report`)",
}

REGISTRY: List[Metric] = [
    *_m("agree", [
        ("alpha_<v>", "Krippendorff's α over tree edit distance with δ of variant v "
         "(plain: TED; diff: TED − \\|\\|x\\| − \\|y\\|\\|; norm: TED / (\\|x\\| + \\|y\\|)); "
         "`null` when undefined", FRACTION, "5"),
        ("LAS", "CoNLL 2018 LAS: words with the same head and the same **universal** "
         "relation (DEPREL before `:`); between annotators the share of aligned words, "
         "in `compare` the F1 over aligned words; reported for UD relations only", FRACTION,
         "6.1"),
        ("LAS_full", "as `LAS` with the full DEPREL (subtypes compared)", FRACTION, "6.1"),
        ("UAS", "words with the same head", FRACTION, "6.1"),
        ("LA", "words with the same full DEPREL", FRACTION, "6.1"),
        ("jaccard", "labelled-bracket Jaccard, phrase structure", FRACTION, "6.2"),
        ("LA_hier", "mean hierarchical label credit per word", FRACTION, "9.6"),
        ("LAS_hier", "mean of [same head] × hierarchical label credit per word", FRACTION,
         "9.6"),
        ("kappa_hier", "hierarchical κ on DEPREL (or on the tags, in `tags`)", FRACTION,
         "9.4"),
        ("scott_pi", "Scott's π on exact labels (Fleiss' κ for more than two annotators)",
         FRACTION, "12.3"),
        ("cohen_kappa", "Cohen's κ on exact labels (Davies & Fleiss' κ for more than two "
         "annotators; `null` where a command needs exactly two)", FRACTION, "12.3"),
        ("alpha_<v>_hier", "α over TED with hierarchical rename costs", FRACTION, "9.6"),
        ("LA_bdm", "mean BDM label closeness per word, following `--label-credit`",
         FRACTION, "15.4"),
        ("LAS_bdm", "mean of [same head] × BDM label closeness per word (in `compare`: "
         "against gold)", FRACTION, "15.4"),
        ("alpha_<v>_unlabelled", "α over unlabelled trees (structure only)", FRACTION,
         "10"),
        ("LA_given_head", "label agreement on the words whose heads agree", FRACTION, "10"),
        ("alpha_<v>_direction", "α over trees whose labels carry the head direction",
         FRACTION, "10"),
        ("alpha_<v>_unlabelled_direction", "α over unlabelled trees whose labels carry "
         "the head direction", FRACTION, "10"),
        ("ted_zero_pairs", "annotator pairs of a sentence with TED 0", COUNT, "10"),
        ("ted_zero_different_heads", "annotator pairs with TED 0 but different heads",
         COUNT, "10"),
        ("ted_zero_different_heads_direction", "as `ted_zero_different_heads` with "
         "head-direction labels", COUNT, "10"),
        ("units", "pairable units (two or more annotations); in `compare` the units of α",
         COUNT, "1.1"),
        ("units_total", "all units read", COUNT, "1.1"),
        ("annotations", "pairable values n", COUNT, "5.1"),
        ("annotators", "number of annotators (`annotator_names`: their names)", COUNT,
         "1.3"),
        ("ignored", "pairable units left out of the word scores (differing word counts)",
         COUNT, "6.1"),
        ("multi_root", "annotations with more than one root word", COUNT, "2.1"),
        ("cycle_sentences", "annotations with words not reachable from the root", COUNT,
         "2.4"),
        ("distinct_trees", "distinct trees among the pairable values", COUNT, "5.3"),
        ("joined_units", "units that join several sentences of an annotation (differing "
         "sentence splits)", COUNT, "1.7"),
        ("edited_units", "units whose annotations differ by local word edits", COUNT,
         "1.7"),
        ("matching", "how sentences were matched into units", SETTING, "1.4"),
        ("text_check", "`on`, `off` or `not possible`", SETTING, "1.5"),
        ("phrase_style", "the bracket style and why (phrase structure only)", SETTING,
         "1.6"),
        # the parser beside a second human (compare --humans, report --system)
        ("human_mean", "human band: mean agreement of the other humans with the reference "
         "(a second human's value), per metric", FRACTION, "28.2"),
        ("human_ci", "human band: the paired-bootstrap interval of `human_mean`", FRACTION,
         "28.2"),
        ("diff", "human band: the parser's agreement with the reference minus "
         "`human_mean`", FRACTION, "28.2"),
        ("diff_ci", "human band: the paired-bootstrap interval of `diff` (the verdict's "
         "basis)", FRACTION, "28.2"),
        ("p_value", "human band: two-sided paired-bootstrap p of `diff` = 0", FRACTION,
         "28.2"),
        ("verdict", "human band: `within`, `below` or `above` the human band, or "
         "`undefined`", SETTING, "28.2"),
        # pre-annotation (agree --preannotation)
        ("kept_share", "words whose head and full DEPREL an annotator kept from the "
         "pre-annotation / words", FRACTION, "29.1"),
        ("changed_share", "words whose arc an annotator changed / words", FRACTION, "29.1"),
        ("kept_by_all_share", "words every annotator kept from the pre-annotation / words",
         FRACTION, "29.3"),
        ("LAS_kept", "LAS with the other annotators on the words an annotator kept",
         FRACTION, "29.2"),
        ("LAS_changed", "LAS with the other annotators on the words an annotator changed",
         FRACTION, "29.2"),
        ("LAS_full_kept", "as `LAS_kept` with the full DEPREL", FRACTION, "29.2"),
        ("LAS_full_changed", "as `LAS_changed` with the full DEPREL", FRACTION, "29.2"),
        ("alpha_<v>_kept", "α over the trees restricted to the words an annotator kept",
         FRACTION, "29.2"),
        ("alpha_<v>_changed", "α over the trees restricted to the words an annotator "
         "changed", FRACTION, "29.2"),
        ("alpha_<v>_with_kept", "α over the units of the pre-annotation analysis, every "
         "word", FRACTION, "29.3"),
        ("alpha_<v>_without_kept", "α over the trees restricted to the words at least one "
         "annotator changed from the pre-annotation", FRACTION, "29.3"),
        ("LAS_with_kept", "LAS among the annotators over the words of the pre-annotation "
         "analysis", FRACTION, "29.3"),
        ("LAS_without_kept", "LAS among the annotators over the words at least one "
         "annotator changed", FRACTION, "29.3"),
        ("LAS_full_with_kept", "as `LAS_with_kept` with the full DEPREL", FRACTION, "29.3"),
        ("LAS_full_without_kept", "as `LAS_without_kept` with the full DEPREL", FRACTION,
         "29.3"),
        # planning (synagree plan, report --plan)
        ("units_needed_<v>", "units needed for an interval of `alpha_<v>` no wider than "
         "the target width, by resampling the pilot", COUNT, "30.2"),
        # --bias (agree, categorical), --by, --where: docs/method.md §25-27
        ("bias_flagged_labels", "(pair, layer, label) triples whose Holm-adjusted McNemar "
         "p is below 0.05 (`--bias`)", COUNT, "25.3"),
        ("stuart_maxwell", "Stuart–Maxwell statistic X² of marginal homogeneity of an "
         "annotator pair's square table (under `details.bias`)", "χ²", "25.1"),
        ("stuart_maxwell_df", "its degrees of freedom (labels − 1, per component)", COUNT,
         "25.1"),
        ("stuart_maxwell_p", "its p-value, P(χ²_df ≥ X²)", PROBABILITY, "25.1"),
        ("mcnemar_p", "McNemar's exact two-sided p of one label against the rest", PROBABILITY,
         "25.2"),
        ("mcnemar_p_holm", "`mcnemar_p` adjusted by Holm over the labels of the pair and "
         "layer", PROBABILITY, "25.3"),
        ("drift_batches", "batches of `--by`", COUNT, "26.1"),
        ("drift_batches_outside", "batches whose α (of `--variant`) is outside their "
         "control band", COUNT, "26.3"),
        ("alpha_<v>_band", "the control band `[low, high]` of a batch's α (under "
         "`details.drift`)", FRACTION, "26.3"),
        ("drift_p", "permutation p of the batches' dispersion of α, per variant (under "
         "`details.drift`)", PROBABILITY, "26.4"),
    ]),
    *_m("compare", [
        ("Tokens", "CoNLL 2018 F1 of tokens", FRACTION, "11.2"),
        ("Sentences", "CoNLL 2018 F1 of sentence boundaries", FRACTION, "11.2"),
        ("Words", "CoNLL 2018 F1 of syntactic words", FRACTION, "11.2"),
        ("UPOS", "CoNLL 2018 F1 of UPOS", FRACTION, "11.2"),
        ("XPOS", "CoNLL 2018 F1 of XPOS", FRACTION, "11.2"),
        ("UFeats", "CoNLL 2018 F1 of the universal features", FRACTION, "11.2"),
        ("AllTags", "CoNLL 2018 F1 of UPOS, XPOS and UFeats together", FRACTION, "11.2"),
        ("Lemmas", "CoNLL 2018 F1 of lemmas", FRACTION, "11.2"),
        ("CLAS", "CoNLL 2018 content-word LAS (UD relations only)", FRACTION, "11.2"),
        ("MLAS", "CoNLL 2018 morphology-aware LAS (UD relations only)", FRACTION, "11.2"),
        ("BLEX", "CoNLL 2018 bilexical LAS (UD relations only)", FRACTION, "11.2"),
        ("ELAS", "F1 of enhanced (DEPS) edges with full labels; when gold has DEPS",
         FRACTION, "20.2"),
        ("EULAS", "F1 of enhanced (DEPS) edges with universal labels", FRACTION, "20.2"),
        ("identical_units", "units whose gold and system trees are identical", COUNT,
         "11.3"),
        ("mean_unit_ted", "mean TED per unit, gold against system", "edits", "11.3"),
    ]),
    *_m("tags", [
        ("accuracy", "share of words whose system tag equals the gold tag", FRACTION,
         "9.3"),
        ("accuracy_hier", "mean hierarchical credit(gold, system) per word", FRACTION,
         "9.3"),
        ("accuracy_bdm", "mean BDM closeness against gold per word", FRACTION, "15.3"),
        ("accuracy_alt", "accuracy with alternatives: mean mass the system puts on the "
         "gold alternatives", FRACTION, "15.2"),
        ("accuracy_wup", "mean Wu–Palmer closeness against gold per word", FRACTION,
         "15.3"),
    ]),
    *_m("compare", [  # PARSEVAL, `compare` on bracketed files (EVALB's numbers as fractions)
        ("bracket_recall", "EVALB's bracketing recall: matched brackets / gold brackets",
         FRACTION, "22.3"),
        ("bracket_precision", "EVALB's bracketing precision: matched brackets / test "
         "brackets", FRACTION, "22.3"),
        ("bracket_F1", "EVALB's bracketing F-measure, 2PR / (P + R)", FRACTION, "22.3"),
        ("complete_match", "share of sentences whose brackets match exactly", FRACTION,
         "22.3"),
        ("tagging_accuracy", "share of words with the gold preterminal tag", FRACTION,
         "22.3"),
    ]),
    *_m("layers", [
        ("observed", "observed agreement A_o on a token layer", FRACTION, "12.3"),
        ("alpha_nominal", "Krippendorff's α, nominal, on a token layer (over every item "
         "coded by two or more annotators)", FRACTION, "12.3"),
        ("specific", "specific agreement per category", FRACTION, "12.3"),
        ("specific_macro", "mean specific agreement over the categories that occur",
         FRACTION, "12.3"),
        ("items", "compared words", COUNT, "12.3"),
        ("complete_items", "words coded by every annotator", COUNT, "12.3"),
    ]),
]

#: key -> Metric, every concrete key (variants expanded)
METRICS: Dict[str, Metric] = {k: m for m in REGISTRY for k in m.keys()}

#: suffixes that derive a key from a registered one
DERIVED_SUFFIXES = ("_ci", "_se", "_ci_low", "_ci_high")

#: old key (earlier releases) -> key today, per command; CHANGELOG.md has this table
_AGREE_RENAMED: Dict[str, str] = {
    "las": "LAS_full", "uas": "UAS", "la": "LA",
    "las_ci": "LAS_full_ci", "uas_ci": "UAS_ci", "la_ci": "LA_ci",
    "hier_la": "LA_hier", "hier_las": "LAS_hier", "hier_kappa_labels": "kappa_hier",
    "hier_kappa": "kappa_hier",
    "kappa_labels_scott": "scott_pi", "cohen_kappa_labels": "cohen_kappa",
    "bdm_la": "LA_bdm", "bdm_las": "LAS_bdm", "la_given_head": "LA_given_head",
    **{f"alpha_{v}_h": f"alpha_{v}_hier" for v in VARIANT_NAMES},
}
#: the token-layer coefficients (categorical, report), bare and as the bootstrap's
#: ``{layer}_{coefficient}`` names of the fixed layers
_LAYER_COEFFICIENTS = {"kappa": "cohen_kappa", "pi": "scott_pi", "alpha": "alpha_nominal"}
_LAYER_RENAMED: Dict[str, str] = {
    **_LAYER_COEFFICIENTS,
    **{f"{layer}_{old}": f"{layer}_{new}" for old, new in _LAYER_COEFFICIENTS.items()
       for layer in ("deprel", "head", "upos", "xpos", "feats", "head+deprel")},
}
RENAMED: Dict[str, Dict[str, str]] = {
    "agree": _AGREE_RENAMED,
    "report": {**_AGREE_RENAMED, **_LAYER_RENAMED},
    "noise": _AGREE_RENAMED,
    "compare": {},
    "tags": {"hier_credit": "accuracy_hier", "hier_kappa": "kappa_hier",
             "mean_credit": "accuracy_hier",
             "alt_accuracy": "accuracy_alt", "mean_bdm": "accuracy_bdm",
             "mean_wup": "accuracy_wup"},
    "categorical": _LAYER_RENAMED,
}


def metric(key: str) -> Metric:
    """The registered metric of ``key`` (a derived key ``X_ci``/``X_se`` gives X's).

    Raises
    ------
    KeyError
        ``key`` is not registered (with a sentence naming it).

    Examples
    --------
    >>> metric("LAS_full").unit, metric("alpha_norm_ci").section
    ('fraction', '5')
    """
    found = METRICS.get(key)
    if found is None:
        base = base_key(key)
        found = METRICS.get(base) if base is not None else None
    if found is None:
        raise KeyError(f"{key!r} is not a registered metric (synagree.base.metrics)")
    return found


def base_key(key: str) -> Optional[str]:
    """The registered key a derived key is built on (``LAS_ci`` → ``LAS``), or None."""
    for suffix in DERIVED_SUFFIXES:
        if key.endswith(suffix) and key[: -len(suffix)] in METRICS:
            return key[: -len(suffix)]
    return None


def is_registered(key: str) -> bool:
    """``key`` is a registered metric or derived from one."""
    return key in METRICS or base_key(key) is not None


def glossary(group: str) -> str:
    """The Markdown glossary table of one group (docs/method.md §13)."""
    rows = ["| name | definition | unit |", "|---|---|---|"]
    for m in REGISTRY:
        if m.group != group:
            continue
        ref = f" ([§{m.section}](#s{m.section.replace('.', '-')}))" if m.section else ""
        name = "`" + m.key.replace("<v>", "<v>") + "`"
        rows.append(f"| {name} | {m.definition}{ref} | {m.unit} |")
    return "\n".join(rows) + "\n"


def iter_keys(x: object, path: Tuple[str, ...] = ()) -> Iterator[Tuple[Tuple[str, ...], str]]:
    """Every dict key of a JSON-like value with its path (for the registry tests)."""
    if isinstance(x, dict):
        for k, v in x.items():
            yield path, str(k)
            yield from iter_keys(v, path + (str(k),))
    elif isinstance(x, list):
        for v in x:
            yield from iter_keys(v, path)


_UNIVERSAL = re.compile(r"^[a-z]+$")
