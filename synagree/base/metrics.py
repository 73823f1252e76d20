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

The registry also *computes*: each score carries its **family** (a word
score, a span score, a label-credit score, an edge score, a tree score) and a
word score its **credit** (`WordCredit`): the word fields that must be the same
on both words of an aligned pair, as the CoNLL 2018 scorer defines each of its
metrics by a small key.  Every list of scores in the package is a query of the
registry (`word_scores`, `resampled_scores`, `score_keys`, `is_attachment`),
so a new word score is one entry (`register`, or `registered` for a while):
``agree`` (both paths), ``compare``, their intervals, tables and
significance tests then compute and print it.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

VARIANT_NAMES = ("plain", "diff", "norm")

#: units of the registry (the ``unit`` column of the glossary)
FRACTION = "fraction"
COUNT = "count"
SETTING = "setting"
PROBABILITY = "probability"


#: families of scores (the ``family`` of a `Metric`)
SPAN_SCORE = "span score"  # tokens and sentences: character spans that match
WORD_SCORE = "word score"  # aligned words whose fields agree (`WordCredit`)
CREDIT_SCORE = "label-credit score"  # a word score with partial label credit
EDGE_SCORE = "edge score"  # enhanced (DEPS) edges that match
TREE_SCORE = "tree score"  # α over trees
#: the families a command's score table lists, in registry order
SCORE_FAMILIES = (SPAN_SCORE, WORD_SCORE, CREDIT_SCORE, EDGE_SCORE, TREE_SCORE)

#: the word fields a `WordCredit` may compare (each command reads them from its words)
WORD_FIELDS = {
    "head": "the head word (in `compare`: mapped into gold space through the alignment)",
    "deprel": "DEPREL as written, subtypes included",
    "udeprel": "the universal relation (DEPREL before `:`)",
    "upos": "UPOS", "xpos": "XPOS",
    "ufeats": "the universal features, sorted (`compare` only)",
    "lemma": "LEMMA (in `compare` a gold `_` accepts any lemma)",
    "functional_children": "the functional children by head, relation, UPOS and "
                           "universal features (`compare` only: MLAS)",
}


@dataclass(frozen=True)
class WordCredit:
    """How a word score credits an aligned word pair: one small key, as in the scorer.

    A pair of aligned words is correct when every field of ``same`` is the
    same on both words (CoNLL 2018 scorer style: the key of a word is the
    tuple of its fields); ``same=()`` credits the alignment itself (``Words``).

    Attributes
    ----------
    same : tuple of str
        Names in `WORD_FIELDS`.
    scope : tuple of str
        The commands that compute the score: ``agree`` (between annotators:
        the share of aligned words, pair-averaged) and/or ``compare`` (against
        gold: F1 over aligned words).
    content_only : bool
        Count only words whose relation is a content relation (CLAS, MLAS, BLEX).
    ud_only : bool
        Defined for UD relations only: left out, with a note, when the labels
        are not UD's.
    resample : int
        Positive: ``compare`` keeps per-unit counts for the bootstrap intervals
        and the significance tests (``compare --bootstrap``, ``--significance``),
        which list the scores by this rank (ties in registry order); 0: not.
    gloss : str
        The short definition of the score in the ``values:`` line of a table.
    """

    same: Tuple[str, ...]
    scope: Tuple[str, ...] = ("agree",)
    content_only: bool = False
    ud_only: bool = False
    resample: int = 0
    gloss: str = ""

    def __post_init__(self) -> None:
        unknown = [f for f in self.same if f not in WORD_FIELDS]
        if unknown:
            raise ValueError(f"unknown word field(s) {unknown}; expected some of "
                             f"{', '.join(WORD_FIELDS)}")


@dataclass(frozen=True)
class Metric:
    """One reported number (one row of the glossary, docs/method.md §13).

    Attributes
    ----------
    key : str
        The name in every output; ``<v>`` stands for each α variant.
    definition : str
        One sentence (Markdown), units stated.
    unit : str
        ``fraction``, ``count``, ``setting`` or a unit such as ``edits``; a
        row of several keys of different units names them in order
        (``count / fraction``).
    section : str
        The defining section of ``docs/method.md`` (``"6.1"``), or "".
    group : str
        The glossary table it belongs to: ``agree``, ``compare``, ``tags`` or
        ``layers``.
    also : tuple of str
        Further keys documented in the same row (``d_e`` beside ``d_o``).
    label : str
        The row's name cell (Markdown) when the keys alone do not say where
        they stand (``per tag: `count`, `exact`, `credit```); "" for the keys.
    family : str
        For a score: one of `SCORE_FAMILIES`; "" for other numbers.
    credit : WordCredit, optional
        For a word score: how it credits an aligned word pair.
    """

    key: str
    definition: str
    unit: str
    section: str
    group: str
    also: Tuple[str, ...] = ()
    label: str = ""
    family: str = ""
    credit: Optional[WordCredit] = field(default=None, compare=False)

    def keys(self) -> List[str]:
        """The concrete keys of the row: one per α variant where a key holds ``<v>``."""
        out: List[str] = []
        for k in (self.key, *self.also):
            out.extend([k] if "<v>" not in k else [k.replace("<v>", v) for v in VARIANT_NAMES])
        return out

    def name(self) -> str:
        """The glossary's name cell: `label`, else the keys in backticks."""
        return self.label or ", ".join(f"`{k}`" for k in (self.key, *self.also))


def _m(group: str, rows: Sequence[Tuple[Any, ...]]) -> List[Metric]:
    """Rows ``(key, definition, unit, section[, also[, label]][, {family, credit}])`` of
    one group."""
    out = []
    for r in rows:
        kw: Dict[str, Any] = r[-1] if isinstance(r[-1], dict) else {}
        out.append(Metric(r[0], r[1], r[2], r[3], group, *r[4:len(r) - bool(kw)], **kw))
    return out


def _word(*same: str, scope: Tuple[str, ...] = ("agree",), **kw: Any) -> Dict[str, Any]:
    """The ``family``/``credit`` fields of a word score's row."""
    return {"family": WORD_SCORE, "credit": WordCredit(same, scope, **kw)}


_IN_COMPARE = ("compare",)


GROUPS = {
    "agree": "Agreement between annotators (`agree`, `report`, `noise`)",
    "compare": "Parser evaluation (`compare`)",
    "tags": "Tag evaluation (`tags`)",
    "layers": "Token layers (`categorical`, `report`)",
}

REGISTRY: List[Metric] = [
    *_m("agree", [
        ("alpha_<v>", "Krippendorff's α over tree edit distance with δ of variant v "
         "(plain: TED; diff: TED − \\|\\|x\\| − \\|y\\|\\|; norm: TED / (\\|x\\| + \\|y\\|), "
         "[§4](#s4)); `null` when undefined", FRACTION, "5", {"family": TREE_SCORE}),
        ("LAS", "CoNLL 2018 LAS: words with the same head and the same **universal** "
         "relation (DEPREL before `:`); between annotators the share of aligned words, "
         "in `compare` the F1 over aligned words; reported for UD relations only", FRACTION,
         "6.1", _word("head", "udeprel", ud_only=True,
                      gloss="share of words with the same head and universal relation (UD "
                            "relations only)")),
        ("LAS_full", "as `LAS` with the full DEPREL (subtypes compared)", FRACTION, "6.1",
         _word("head", "deprel", gloss="with the same head and full DEPREL")),
        ("UAS", "words with the same head", FRACTION, "6.1", _word("head", gloss="the same head")),
        ("LA", "words with the same full DEPREL", FRACTION, "6.1",
         _word("deprel", gloss="the same full DEPREL")),
        ("jaccard", "labelled-bracket Jaccard, phrase structure", FRACTION, "6.2"),
        ("d_o", "observed and expected disagreement of an α (under `counts.alpha_<v>`)",
         "squared distance (edits², or unitless for norm)", "5.1", ("d_e",)),
        ("do_sum", "the numerators of D_o and D_e, and the number of pairable values",
         "sums / count", "5.1", ("de_sum", "n")),
        ("total", "words compared by the word scores (pair-weighted: a unit weighs its "
         "word count), under `counts.scores`; the words each score counts correct are "
         "under `counts.scores.correct.<key>`", "words", "6.1"),
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
        ("matching", "how sentences were matched into units: `sent_id`, `position` or "
         "`text` ([§1.4](#s1-4), [§1.9](#s1-9))", SETTING, "1.4"),
        ("joined_units", "units that join several sentences of an annotation (differing "
         "sentence splits)", COUNT, "1.7"),
        ("edited_units", "units whose annotations differ by local word edits", COUNT,
         "1.8"),
        ("text_check", "`on`, `off` or `not possible`", SETTING, "1.5"),
        ("phrase_style", "the bracket style and why (phrase structure only)", SETTING,
         "1.6"),
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
        ("LA_wup", "mean Wu–Palmer label closeness per word (`--wu-palmer`), following "
         "`--label-credit`", FRACTION, "15.4"),
        ("LAS_wup", "mean of [same head] × Wu–Palmer label closeness per word", FRACTION,
         "15.4"),
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
        ("contribution", "a unit's c_u; tables show it as a share of D_o",
         "squared distance", "12.1"),
        ("d_o_share", "`--worst` tables, per unit: its `contribution` c_u as a share of "
         "D_o of the ranked variant (JSON: `contribution` and `d_o`)", "percent", "12.1"),
        ("mean_ted", "mean TED between annotations (per unit, pair or annotator)", "edits",
         "12.2"),
        ("position", "`--worst`, per unit: its place in corpus order (from 0)", COUNT,
         "12.1"),
        ("change_<v>", "leave-one-out: the α without the annotator (`report`; `alpha_<v>` "
         "beside it: the α without) or without the unit (`--worst`; JSON `influence` and "
         "`alpha_without`) minus the α with it", FRACTION, "12.2"),
        ("comparisons", "`report`, annotator distances: the (unit, other annotator) pairs "
         "behind `mean_ted` and `mean_norm`, the mean of TED / (\\|x\\| + \\|y\\|)",
         "count / fraction", "12.2", ("mean_norm",)),
        ("specific", "`agree --breakdown`, per label or arc bin: specific agreement "
         "2·both / (first + second), and with `both_head`", FRACTION, "21.2",
         ("specific_head",)),
        ("alpha", "one-vs-rest Krippendorff's α of a label or arc bin", FRACTION, "21.2",
         (), "`alpha` (breakdown row)"),
        ("alpha_label", "nominal Krippendorff's α on DEPREL over the aligned words "
         "(`details.breakdown.totals`)", FRACTION, "21.2"),
        ("first", "pair-weighted words of a label or arc bin", "words", "21.1",
         ("second", "both", "both_head")),
        ("values", "breakdown, per label or arc bin: the values n_L in the bin (Σ over "
         "words of the annotations that put the word there); `n_values`: all values n",
         "values", "21.2", ("n_values",)),
        ("disagree", "breakdown, per label or arc bin: its disagreement dis_L "
         "= Σ 2k(m − k)/(m − 1) over the words", "values", "21.2"),
        ("words", "breakdown, per row: the pair-weighted aligned words (in the length "
         "bins and `totals`: all of them)", "words", "21.1"),
        ("LAS_correct", "the pair-weighted words a word score counts correct (phrase "
         "structure: `jaccard`): in the CSV of `agree` over the corpus, in the breakdown "
         "per UPOS or length bin and in its `totals`", "words", "21.3",
         ("LAS_full_correct", "UAS_correct", "LA_correct", "jaccard_correct")),
        ("first_label_1", "label confusions {L1, L2}: the words where the first annotator "
         "chose L1 and the second L2, the reverse, and those of them whose heads agree",
         "words", "21.2", ("first_label_2", "same_head")),
        ("baseline", "with `--baseline`: per metric `old`, `new`, `delta` (new − old), "
         "`ci`, `p_bootstrap`, `p_randomisation`, `significant`; `worse`/`better` "
         "sentences", "fraction / count", "18",
         ("old", "new", "delta", "p_bootstrap", "p_randomisation", "significant")),
        ("per_unit", "under `details`: per pairable unit its id, text digest, words, "
         "mean TED, the counts of its word scores (`ratios.<key>`) and α D_o sums",
         "counts / sums", "18.1"),
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
        # the alternative annotator test (synagree alt-test): docs/method.md §34.2
        ("winning_rate", "alt-test: ω, the share of left-out humans the candidate wins "
         "against (Benjamini–Yekutieli rejections); it passes at ω ≥ 0.5", FRACTION, "34.2"),
        ("advantage_probability", "alt-test: ρ, the share of sentences on which the "
         "candidate aligns with the other humans at least as well as the left-out human "
         "(per human, and its mean)", FRACTION, "34.2"),
        ("epsilon", "alt-test: ε, the cost-benefit allowance; `critical_epsilon` the "
         "smallest ε at which the candidate passes; `fdr_q` the Benjamini–Yekutieli level",
         FRACTION, "34.2", ("critical_epsilon", "fdr_q")),
        ("candidate_wins", "alt-test, per left-out human: sentences where the candidate "
         "aligns at least as well / where the human does (a tie counts for both); "
         "`mean_difference` = (human_wins − candidate_wins) / units, `t` its one-sided "
         "t statistic against ε", "count / fraction", "34.2",
         ("human_wins", "mean_difference", "t")),
        ("alpha_u", "`spans --coefficient alpha-u`: Krippendorff's unitizing α over the "
         "continuum (overall and per category, under `categories`); `d_o`, `d_e` its "
         "disagreements; `continuum_length` the positions; `observers` the files; "
         "`nested_left_out` the spans inside another of the same label",
         "fraction / count", "34.4",
         ("continuum_length", "continuum_begin", "observers", "nested_left_out")),
        ("partial", "`spans` (GATE's AnnotationDiff), per pair and label: response spans "
         "overlapping a key span of the same label with another extent; key spans without a "
         "response; response spans without a key (`correct`: the same extent)", COUNT, "24.1",
         ("missing", "spurious")),
        ("gamma", "`spans --coefficient gamma`: Mathet et al.'s γ = 1 − D_o/D_e "
         "(pygamma-agreement's defaults); `gamma_ci` γ with D_e at its mean ∓ 1.96 standard "
         "errors; "
         "`observed_disorder` D_o, the best alignment's disorder per mean units per annotator; "
         "`expected_disorder` D_e, the mean disorder of `gamma_samples` random continua "
         "(`disorder_samples`, drawn with `gamma_seed`), `expected_disorder_se` its standard "
         "error; `precision_level` pygamma's; `gamma_units` the units; `duplicates_left_out` "
         "spans an annotator gives twice", "fraction / count", "34.5",
         ("observed_disorder", "expected_disorder", "expected_disorder_se", "disorder_samples",
          "gamma_samples", "gamma_units", "gamma_seed", "precision_level",
          "duplicates_left_out")),
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
        ("first_count", "`--bias` per label: words the first (second) annotator gives "
         "the label; words only the first (second) gives it", COUNT, "25.2",
         ("second_count", "first_only", "second_only")),
        ("drift_batches", "batches of `--by`", COUNT, "26.1"),
        ("drift_batches_outside", "batches whose α (of `--variant`) is outside their "
         "control band", COUNT, "26.3"),
        ("alpha_<v>_band", "the control band `[low, high]` of a batch's α (under "
         "`details.drift`)", FRACTION, "26.3"),
        ("d_o_<v>", "`--where` per query: D_o and D_e of `alpha_<v>` over the query's "
         "restriction (under `details.where`)", "squared distance (edits², or unitless for "
         "norm)", "27.3", ("d_e_<v>",)),
        ("drift_p", "permutation p of the batches' dispersion of α, per variant (under "
         "`details.drift`)", PROBABILITY, "26.4"),
        ("unanimous", "`adjudicate`: words whose annotators all gave the same head and label",
         COUNT, "31.2"),
        ("decided_by_vote", "`adjudicate`: words whose consensus head and label each had "
         "strictly the most votes; by a tie rule; moved by the tree constraint; by a "
         "curator's decision", COUNT, "31.2",
         ("decided_by_tie", "decided_by_tree", "decided_by_curator")),
        ("worklist_items", "`adjudicate`: rows of the curator's worklist", COUNT, "31.5"),
        ("competence", "`adjudicate --weights competence`: an annotator's accuracy on head "
         "choices (span choices for bracketed input) estimated by one-coin Dawid–Skene",
         PROBABILITY, "31.3"),
        # the noise experiment's summary (summary.csv, summary.md)
        ("mean", "noise experiment (`summary.csv`, `summary.md`): per series, p and metric "
         "the mean of the runs' values; `median`, `std` (sample standard deviation, "
         "ddof = 1), `min` and `max` likewise", "as the metric", "8.1",
         ("median", "std", "min", "max")),
    ]),
    *_m("compare", [
        ("gold_sentences", "sentences and words of the gold file", COUNT, "11.1",
         ("gold_words",)),
        ("Tokens", "CoNLL 2018 F1 of tokens", FRACTION, "11.2", {"family": SPAN_SCORE}),
        ("Sentences", "CoNLL 2018 F1 of sentence boundaries", FRACTION, "11.2",
         {"family": SPAN_SCORE}),
        ("Words", "CoNLL 2018 F1 of syntactic words", FRACTION, "11.2",
         _word(scope=_IN_COMPARE)),
        ("UPOS", "CoNLL 2018 F1 of UPOS", FRACTION, "11.2", _word("upos", scope=_IN_COMPARE)),
        ("XPOS", "CoNLL 2018 F1 of XPOS", FRACTION, "11.2", _word("xpos", scope=_IN_COMPARE)),
        ("UFeats", "CoNLL 2018 F1 of the universal features", FRACTION, "11.2",
         _word("ufeats", scope=_IN_COMPARE)),
        ("AllTags", "CoNLL 2018 F1 of UPOS, XPOS and UFeats together", FRACTION, "11.2",
         _word("upos", "xpos", "ufeats", scope=_IN_COMPARE)),
        ("Lemmas", "CoNLL 2018 F1 of lemmas", FRACTION, "11.2",
         _word("lemma", scope=_IN_COMPARE)),
        ("UAS", "CoNLL 2018 UAS: F1 over aligned words with the gold head", FRACTION,
         "11.2", _word("head", scope=_IN_COMPARE, resample=2)),
        ("LAS", "CoNLL 2018 LAS: **universal** relation, F1 over aligned words", FRACTION,
         "11.2", _word("head", "udeprel", scope=_IN_COMPARE, resample=1)),
        ("CLAS", "CoNLL 2018 content-word LAS (UD relations only)", FRACTION, "11.2",
         _word("head", "udeprel", scope=_IN_COMPARE, content_only=True, ud_only=True,
               resample=3)),
        ("MLAS", "CoNLL 2018 morphology-aware LAS (UD relations only)", FRACTION, "11.2",
         _word("head", "udeprel", "upos", "ufeats", "functional_children", scope=_IN_COMPARE,
               content_only=True, ud_only=True)),
        ("BLEX", "CoNLL 2018 bilexical LAS (UD relations only)", FRACTION, "11.2",
         _word("head", "udeprel", "lemma", scope=_IN_COMPARE, content_only=True,
               ud_only=True)),
        ("LAS_full", "as `LAS` with the full DEPREL", FRACTION, "11.2",
         _word("head", "deprel", scope=_IN_COMPARE)),
        ("LAS_hier", "as `LAS` with hierarchical label credit", FRACTION, "11.2",
         {"family": CREDIT_SCORE}),
        ("LAS_bdm", "as `LAS` with BDM label closeness against gold", FRACTION, "15.5",
         {"family": CREDIT_SCORE}),
        ("LAS_wup", "as `LAS` with Wu–Palmer label closeness against gold (`--wu-palmer`)",
         FRACTION, "15.5", {"family": CREDIT_SCORE}),
        ("ELAS", "F1 of enhanced (DEPS) edges with full labels; when gold has DEPS",
         FRACTION, "20.2", {"family": EDGE_SCORE}),
        ("EULAS", "F1 of enhanced (DEPS) edges with universal labels", FRACTION, "20.2",
         {"family": EDGE_SCORE}),
        ("gold_empty_node_edges", "under `enhanced`: the enhanced edges touching empty "
         "nodes left out of `ELAS`/`EULAS`, in gold and in the system", COUNT, "20.2",
         ("system_empty_node_edges",)),
        ("precision", "of a metric (under `counts.<key>`)", FRACTION, "11.2",
         ("recall", "f1", "aligned_accuracy")),
        ("correct", "the counts behind a metric", COUNT, "11.2",
         ("gold", "system", "aligned")),
        ("alpha_<v>", "α between gold and the system", FRACTION, "11.3",
         {"family": TREE_SCORE}),
        ("units", "units of α; units that join several sentences", COUNT, "11.3",
         ("joined_units",)),
        ("identical_units", "units whose gold and system trees are identical", COUNT,
         "11.3"),
        ("mean_unit_ted", "mean TED per unit, gold against system", "edits", "11.3"),
        ("prf", "micro and macro P/R/F1 over relations of `strict`, `lenient`, "
         "`unlabelled`, `strict_label_only`, `lenient_label_only`", FRACTION, "17.2", (),
         "`prf.<variant>` (`--prf`)"),
        ("micro_precision", "over all words: `correct / system`, `correct / gold`, "
         "`2·correct / (gold + system)`; of `strict`, `lenient`, `unlabelled` exactly "
         "`LAS_full`, `LAS`, `UAS`", FRACTION, "17.1", ("micro_recall", "micro_f1")),
        ("macro_precision", "unweighted mean of the per-label P, R and F1 over `labels`",
         FRACTION, "17.1", ("macro_recall", "macro_f1")),
        ("labels", "labels averaged: the union of gold and system labels", COUNT, "17.1"),
        ("bracket_recall", "bracketed input (PARSEVAL): EVALB's bracket recall, "
         "precision and F-measure over the valid sentences", FRACTION, "22.3",
         ("bracket_precision", "bracket_F1")),
        ("complete_match", "bracketed input: the valid sentences whose brackets all match",
         FRACTION, "22.3"),
        ("tagging_accuracy", "bracketed input: EVALB's tagging accuracy over the valid "
         "sentences", FRACTION, "22.3"),
        ("cutoff_len", "bracketed input: the parameter file's `CUTOFF_LEN`, the longest "
         "sentence of EVALB's second summary", SETTING, "22.3"),
        ("baseline", "with `--baseline`: per system and metric `old`, `new`, `delta` "
         "(new − old), `ci`, `p_bootstrap`, `p_randomisation`, `significant`; "
         "`worse`/`better` sentences", "fraction / count", "18",
         ("old", "new", "delta", "p_bootstrap", "p_randomisation")),
        ("value_a", "with `--significance`: per pair of systems `a`, `b` and metric, the "
         "value of `a` (`value_b`: of `b`); `diff` = value_a − value_b, its paired-bootstrap "
         "interval `ci` (the tables' column `diff_ci`), `p_bootstrap`, `p_randomisation`",
         FRACTION, "11.5", ("value_b",)),
        ("per_unit", "per system: per unit its id, text digest, gold words, TED, "
         "LAS/UAS/CLAS counts and α D_o sums", "counts / sums", "18.1"),
    ]),
    *_m("tags", [
        ("sentences", "sentences and words compared", COUNT, "9.3", ("words",)),
        ("accuracy", "share of words whose system tag equals the gold tag", FRACTION,
         "9.3"),
        ("accuracy_hier", "mean hierarchical credit(gold, system) per word", FRACTION,
         "9.3"),
        ("cohen_kappa", "Cohen's κ and Scott's π on exact tags, gold vs system",
         FRACTION, "12.3", ("scott_pi",)),
        ("kappa_hier", "hierarchical κ on the tags", FRACTION, "9.4"),
        ("hier_p_observed", "under `counts`: the mean pair agreement P(A) and the chance "
         "agreement P(E) of `kappa_hier`", FRACTION, "9.4", ("hier_p_expected",)),
        ("count", "gold words with that tag; exact matches; summed credit", "count / sum",
         "9.3", ("exact", "credit"), "per tag: `count`, `exact`, `credit`"),
        ("accuracy", "`exact / count`, `credit / count`", FRACTION, "9.3",
         ("accuracy_hier",), "per tag: `accuracy`, `accuracy_hier`"),
        ("confusion_count", "per tag: the words of the most frequent other system tag "
         "(`confusion`)", COUNT, "9.3"),
        ("form_mismatches", "words whose forms differ between gold and system (compared "
         "anyway, each a warning)", COUNT, "9.3"),
        ("accuracy_alt", "accuracy with alternatives: mean mass the system puts on the "
         "gold alternatives, tags compared exactly", FRACTION, "15.2"),
        ("accuracy_bdm", "mean GATE BDM against gold per word ([§15.3](#s15-3), "
         "[§23](#s23))", FRACTION, "15.3"),
        ("bdm_prf", "GATE's BDM-based counts and strict/lenient P, R, F1; with one "
         "annotation per word, P = R = F1 = `accuracy_bdm`", "sum / count / fraction",
         "23.3", (), "`bdm_prf` (`--bdm`)"),
        ("accuracy_wup", "mean Wu–Palmer closeness against gold per word (`--wu-palmer`)",
         FRACTION, "15.3"),
        ("alt_correct", "the sums behind `accuracy_alt`, `accuracy_bdm` and "
         "`accuracy_wup`", "sum", "15.2", ("bdm", "wup"),
         "`alt_correct`, `bdm`, `wup` (under `counts`, and per tag)"),
        ("accuracy_alt", "`alt_correct / count`, `bdm / count`, `wup / count`", FRACTION,
         "15.2", ("accuracy_bdm", "accuracy_wup"),
         "per tag: `accuracy_alt`, `accuracy_bdm`, `accuracy_wup`"),
        ("prf", "P/R/F1 over tags as written / over their top-level ancestors; the same "
         "keys as in `compare`", FRACTION, "17.3", (),
         "`prf.strict`, `prf.lenient` (`--prf`)"),
        ("micro_precision", "over all words; each equals `accuracy` (of the variant's "
         "tags)", FRACTION, "17.1", ("micro_recall", "micro_f1")),
        ("macro_precision", "as in `compare`", "fraction / count", "17.1",
         ("macro_recall", "macro_f1", "labels")),
        ("gold", "words where gold / the system gives the feature; both with the same "
         "value; the same value or both absent", COUNT, "19.4",
         ("system", "correct", "agree"),
         "per feature (`--per-feature`): `gold`, `system`, `correct`, `agree`"),
        ("precision", "`correct / system`, `correct / gold`, `2 correct / (gold + "
         "system)`, `agree / words`", FRACTION, "19.4", ("recall", "f1", "accuracy"),
         "per feature: `precision`, `recall`, `f1`, `accuracy`"),
        ("micro_precision", "over all features: pooled counts; unweighted mean F1 of the "
         "features given", FRACTION, "19.4", ("micro_recall", "micro_f1", "macro_f1")),
        ("set_accuracy", "words whose whole feature sets / universal-feature sets are "
         "equal (`ufeats_accuracy` is CoNLL 2018 `UFeats` on identical tokenisation)",
         FRACTION, "19.4", ("ufeats_accuracy",)),
        ("set_equal", "under `per_feature.counts`: the words behind `set_accuracy` and "
         "`ufeats_accuracy`", COUNT, "19.4", ("ufeats_equal",)),
        ("coarse_accuracy", "share of words whose mapped system tag is the mapped gold tag",
         FRACTION, "16.2"),
        ("coarse_cohen_kappa", "Cohen's κ and Scott's π on the mapped (coarse) tags",
         FRACTION, "16.2", ("coarse_scott_pi",)),
        ("fine_accuracy", "`accuracy`, `cohen_kappa`, `scott_pi` again, inside the `tiers` "
         "block", FRACTION, "16.2", ("fine_cohen_kappa", "fine_scott_pi")),
        ("tier_credit", "mean tiered credit per word: 1 same fine tag, w sibling, "
         "1/k + w(k−1)/k bare coarse tag", FRACTION, "16.2"),
        ("sibling_credit", "the credit w of a sibling fine tag (`--sibling-credit`)",
         SETTING, "16.2"),
        ("coarse_correct", "`tiers`, per class: the words behind `coarse_accuracy` and "
         "`fine_accuracy` (in the level blocks `coarse`, `fine`: `correct`, `exact`; the "
         "summed tiered credit: `credit`), and the words given a bare coarse tag",
         COUNT, "16.3", ("fine_exact", "bare_coarse")),
        ("coarse_types", "coarse classes and fine tags in the mapping (per class: its fine "
         "tags in the mapping and in gold)", COUNT, "16.3",
         ("fine_types", "gold_fine_types")),
        ("ambiguous_fine_types", "fine tags in coarse classes of more than one fine tag; "
         "those classes", COUNT, "16.3", ("ambiguous_coarse_types",)),
        ("ambiguous_words", "gold words whose fine tag is not determined by its coarse tag; "
         "their share", "count / fraction", "16.3", ("ambiguous_share",)),
        ("recovery_ceiling", "share of gold words whose fine tag is the most frequent gold "
         "fine tag of its class", FRACTION, "16.3"),
        ("majority_count", "the gold words behind `recovery_ceiling` and "
         "`recovered_accuracy`", COUNT, "16.3", ("recovered",)),
        ("recovered_accuracy", "share of words recovered right from the system's coarse "
         "tag by that choice", FRACTION, "16.3"),
        ("minority_words", "gold words whose coarse tag is not their fine tag's majority",
         COUNT, "16.4", (), "`majority.minority_words` (`--majority`)"),
        ("decided", "known words whose coarse tag and lexicon leave one candidate; its "
         "share of the known words", "count / fraction", "16.5", ("decided_share",),
         "`lexicon.total.decided`, `decided_share` (`--lexicon`)"),
        ("unknown", "forms not in the lexicon; several candidates; none; decided right "
         "from the system's coarse tag", COUNT, "16.5", ("ambiguous", "gap", "recovered"),
         "`lexicon.total.unknown`, `ambiguous`, `gap`, `recovered`"),
        ("known", "`lexicon` (total, per class, per form): the words whose form the "
         "lexicon has; the decided ones whose candidate is the gold tag; the shares "
         "unknown / words and recovered / known", "count / fraction", "16.5",
         ("decided_correct", "unknown_share", "recovered_share")),
        ("forms", "`lexicon`: the forms the lexicon lists; per form, its tags there",
         COUNT, "16.5", ("lexicon_tags",)),
    ]),
    *_m("layers", [
        ("observed", "observed agreement A_o on a token layer", FRACTION, "12.3"),
        ("cohen_kappa", "Cohen's κ for two annotators; the Davies & Fleiss κ for more (the "
         "same chance model)", FRACTION, "12.3"),
        ("scott_pi", "Scott's π for two annotators; Fleiss' κ for more (pooled chance)",
         FRACTION, "12.3"),
        ("alpha_nominal", "Krippendorff's α, nominal, on the layer (over every item coded by "
         "two or more annotators)", FRACTION, "12.3"),
        ("specific", "specific agreement per category", FRACTION, "12.3"),
        ("gwet_ac", "Gwet's AC1 (identity weights) or AC2 (ordinal, quadratic or "
         "hierarchy weights) of the layer (`--coefficient`); `p_a` and `p_e` its observed "
         "and chance agreement", FRACTION, "34.1", ("p_a", "p_e"),
         "`gwet_ac`, `p_a`, `p_e` (`--coefficient`)"),
        ("gwet_se", "Gwet's standard error of `gwet_ac` (linearised over the words); "
         "`gwet_ci` its t interval at `--ci-level`, upper end capped at 1", FRACTION, "34.1",
         ("gwet_ci",)),
        ("pairable_items", "`--coefficient`: words coded by two or more annotators (the "
         "items of p_a); `n_categories` the q of Gwet's chance term", COUNT, "34.1",
         ("n_categories",)),
        ("specific_macro", "mean specific agreement over the categories that occur",
         FRACTION, "12.3"),
        ("cohen_kappa_macro", "the unweighted mean of `cohen_kappa` over the documents (the "
         "pooled `cohen_kappa` when there is one document); JSON: `macro_documents`",
         FRACTION, "12.3"),
        ("assignments", "per category (the specific-agreement tables): the annotators' "
         "assignments of it, all annotators pooled; JSON: `category_frequency`", COUNT,
         "12.3"),
        ("items", "compared words; words coded by every annotator; units left out", COUNT,
         "12.3", ("complete_items", "ignored_units")),
        ("complete_agree", "under `counts`: Σ over complete items of Σ_k n_ik(n_ik − 1) "
         "(the agreeing ordered pairs behind κ and π); the disagreement sum of α",
         "pairs / values", "12.3", ("alpha_disagreement",)),
        ("feats:NAME", "the layer of one feature of FEATS: its value, `_` where absent",
         "layer", "19.2"),
        ("given", "per feature: annotator values that carry it, over the compared words",
         COUNT, "19.2"),
        ("pair_items", "per feature: (word, annotator pair) comparisons, and those that "
         "agree; `observed = pair_agree / pair_items`", COUNT, "19.3", ("pair_agree",)),
        ("feature_items", "which words are a feature's items: `all` or `present`", SETTING,
         "19.2"),
        ("alpha_masi", "α over each word's set of incoming enhanced edges, MASI / Jaccard "
         "distance, at the `ELAS` or `EULAS` label level (the `measure` of the table and "
         "CSV; in JSON `alpha` under `enhanced.levels.<level>`, with `distance`)",
         FRACTION, "20.3", ("alpha_jaccard",), "`alpha_masi`, `alpha_jaccard` (`--enhanced`)"),
        ("F1", "pairwise 2·matches/(edges a + edges b) with the ELAS/EULAS matches (in JSON "
         "`f1` of `enhanced.levels.<level>.pairs`, with `matches`, `edges_a`, `edges_b`; "
         "`pooled_f1` over all pairs)", FRACTION, "20.3", (), "`F1` (`--enhanced`)"),
        ("agreed_trials", "`--format gate`: GATE's agreed and total trials (counted pairs "
         "with the same value; all counted pairs) and the annotations of set 1 it skips "
         "(a duplicate span in set 1, no coextensive one in set 2, several there)", COUNT,
         "24.5", ("total_trials", "duplicates_1", "unmatched", "duplicates_2")),
        ("pooled_f1", "`--enhanced`, per level: the pairwise F1 pooled over the pairs; per "
         "pair the matches and the edges of each annotator", "fraction / count", "20.3",
         ("matches", "edges_a", "edges_b")),
    ]),
]
def _first_rows(rows: List[Metric]) -> Dict[str, Metric]:
    out: Dict[str, Metric] = {}
    for m in rows:
        for k in m.keys():
            out.setdefault(k, m)  # a key documented again in a later group keeps its first row
    return out


#: key -> Metric, every concrete key (variants expanded, `Metric.also` included); a key
#: documented in several groups (``cohen_kappa`` in `agree`, `tags`) maps to its first row
METRICS: Dict[str, Metric] = _first_rows(REGISTRY)


# --------------------------------------------------------------------------- extending

def register(entry: Metric) -> Metric:
    """Add a metric to the registry (at its end); a word score is then computed by the
    commands of its ``credit.scope`` (docs/method.md §13).

    Raises
    ------
    ValueError
        A row of the same key and group is registered already.

    Examples
    --------
    >>> m = register(Metric("UAS_upos", "words with the same head and UPOS", FRACTION,
    ...                     "6.1", "agree", family=WORD_SCORE,
    ...                     credit=WordCredit(("head", "upos"), ("agree", "compare"))))
    >>> "UAS_upos" in word_scores("agree"), "UAS_upos" in word_scores("compare")
    (True, True)
    >>> unregister(m); "UAS_upos" in word_scores("agree")
    False
    """
    if any(m.key == entry.key and m.group == entry.group for m in REGISTRY):
        raise ValueError(f"{entry.key!r} is registered already in group {entry.group!r}")
    REGISTRY.append(entry)
    _reindex()
    return entry


def unregister(entry: Metric) -> None:
    """Remove a metric added by `register`."""
    REGISTRY.remove(entry)
    _reindex()


@contextmanager
def registered(*entries: Metric) -> Iterator[Tuple[Metric, ...]]:
    """The registry with ``entries`` added for the duration of a ``with`` block."""
    done: List[Metric] = []
    try:
        for e in entries:
            done.append(register(e))
        yield tuple(done)
    finally:
        for e in reversed(done):
            unregister(e)


def _reindex() -> None:
    METRICS.clear()  # in place: modules hold the dict
    METRICS.update(_first_rows(REGISTRY))


# --------------------------------------------------------------------------- queries

def word_scores(command: str, ud: bool = True) -> Tuple[str, ...]:
    """The word scores ``command`` computes (``agree`` or ``compare``), in registry order.

    ``ud=False``: the labels are not UD relations, so the scores defined for UD
    relations only (`WordCredit.ud_only`) are left out.
    """
    out: List[str] = []
    for m in REGISTRY:
        c = m.credit
        if (c is not None and command in c.scope and (ud or not c.ud_only)
                and m.key not in out):
            out.append(m.key)
    return tuple(out)


def word_credit(key: str, command: str) -> WordCredit:
    """The credit of word score ``key`` in ``command`` (KeyError if it has none there)."""
    for m in REGISTRY:
        if m.key == key and m.credit is not None and command in m.credit.scope:
            return m.credit
    raise KeyError(f"{key!r} is not a word score of {command!r} (synagree.base.metrics)")


def ud_only_scores(command: str) -> Tuple[str, ...]:
    """The word scores of ``command`` defined for UD relations only."""
    return tuple(k for k in word_scores(command) if word_credit(k, command).ud_only)


def resampled_scores(command: str) -> Tuple[str, ...]:
    """The word scores whose per-unit counts ``command`` keeps for intervals and tests."""
    keys = [k for k in word_scores(command) if word_credit(k, command).resample > 0]
    return tuple(sorted(keys, key=lambda k: word_credit(k, command).resample))


def score_keys(command: str, families: Sequence[str] = SCORE_FAMILIES) -> List[str]:
    """The score keys of ``command``'s table, in registry order: its group's scores of
    ``families`` and the word scores of its scope (variants expanded)."""
    out: List[str] = []
    for m in REGISTRY:
        if m.family not in families:
            continue
        mine = m.credit is not None and command in m.credit.scope
        if mine or (m.credit is None and m.group == command):
            out.extend(k for k in m.keys() if k not in out)
    return out


def is_attachment(key: str, command: str) -> bool:
    """``key`` scores syntax in ``command``: a word score that compares heads, a
    label-credit or edge score, or α."""
    m = next((r for r in REGISTRY if key in r.keys()
              and (r.group == command or (r.credit and command in r.credit.scope))), None)
    if m is None:
        return False
    if m.family == WORD_SCORE:
        return m.credit is not None and "head" in m.credit.same
    return m.family in (CREDIT_SCORE, EDGE_SCORE, TREE_SCORE)


def units_note(keys: Sequence[str], command: str = "agree") -> str:
    """The ``values:`` line of a table of fractions: each word score's gloss."""
    gl = [f"{k}: {word_credit(k, command).gloss}" for k in keys
          if k in word_scores(command) and word_credit(k, command).gloss]
    return "fractions (0 to 1)" + ("; " + ", ".join(gl) if gl else "")

#: suffixes that derive a key from a registered one
DERIVED_SUFFIXES = ("_ci", "_se", "_ci_low", "_ci_high")

#: the glossary rows of the derived keys: (name, definition, unit, section)
DERIVED: List[Tuple[str, str, str, str]] = [
    ("`<key>_ci`", "bootstrap percentile interval `[low, high]` of `<key>` at `--ci-level` "
     "(`--bootstrap B`)", "as `<key>`", "5.4"),
    ("`<key>_se`", "standard error of `<key>` when D_e is sampled", "as `<key>`", "5.3"),
    ("`<key>_ci_low`, `<key>_ci_high`", "the ends of `<key>_ci` as two CSV columns",
     "as `<key>`", "5.4"),
]

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


def _link(section: str) -> str:
    return f"[§{section}](#s{section.replace('.', '-')})"


def _row(name: str, definition: str, unit: str, section: str) -> str:
    ref = section and f"(#s{section.replace('.', '-')})"
    if section and ref not in definition:  # a definition may cite its section itself
        definition = f"{definition} ({_link(section)})"
    return f"| {name} | {definition} | {unit} |"


def glossary(group: str) -> str:
    """The Markdown glossary table of one group (docs/method.md §13)."""
    if group not in GROUPS:
        raise KeyError(f"{group!r} is not a glossary group: {', '.join(GROUPS)}")
    rows = ["| name | definition | unit |", "|---|---|---|"]
    rows += [_row(m.name(), m.definition, m.unit, m.section)
             for m in REGISTRY if m.group == group]
    return "\n".join(rows) + "\n"


def derived_glossary() -> str:
    """The Markdown table of the derived keys (`DERIVED`, docs/method.md §13)."""
    rows = ["| name | definition | unit |", "|---|---|---|"]
    rows += [_row(*d) for d in DERIVED]
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

