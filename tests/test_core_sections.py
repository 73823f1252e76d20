"""Core + sections (issue 31 item 2): ``spans``, ``categorical`` and ``tags`` compute a
core (the inputs read, checked and aligned) and then each optional part as a pure
function of the core returning a frozen dataclass, as ``agree_corpus`` does
(`synagree.agreement.core`); the results they return cannot be changed.

The numbers themselves are checked by the commands' own tests and the golden outputs
(tests/test_golden.py, tests/test_common_outputs.py); here: the shape.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = [ROOT / "synagree" / "data" / "en-sample" / d / "sample.conllu"
          for d in ("ann_a", "ann_b")]


def _frozen(obj: object) -> None:
    """Assigning a field of ``obj`` raises FrozenInstanceError."""
    name = dataclasses.fields(obj)[0].name  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(obj, name, None)


def test_spans_core_and_sections():
    from synagree.evaluation import spans

    paths = spans.as_inputs(SAMPLE)
    kind, layer = spans._check_span_options(paths, None, "type", True, "ud", "auto", None)
    assert (kind, layer) == ("conllu", "upos")
    core = spans._conllu_documents(paths, layer, None, "auto")
    _frozen(core)
    credit = spans._bdm_section(core, "ud")
    _frozen(credit)
    pairs = spans._pair_section(core, "type", credit.score)
    again = spans._pair_section(core, "type", credit.score)  # pure: the same again
    assert [p.as_dict() for p in pairs] == [p.as_dict() for p in again]
    res = spans.span_agreement(SAMPLE, bdm=True, hierarchy="ud")
    assert [p.as_dict() for p in res.pairs] == [p.as_dict() for p in pairs]
    _frozen(res)
    _frozen(res.pairs[0])


def test_categorical_core_and_sections():
    from synagree.agreement import token_layers as tl
    from synagree.io.corpus import from_files

    corpus = from_files(SAMPLE)
    core = tl._layer_core(corpus, ["deprel", "head", "xpos"], "all", None, True, None)
    _frozen(core)
    assert list(core.results) == ["deprel", "head"] and "xpos" in core.skipped  # no value
    again = tl._layer_core(corpus, ["deprel", "head", "xpos"], "all", None, True, None)
    assert {k: v.coefficients() for k, v in again.results.items()} == \
        {k: v.coefficients() for k, v in core.results.items()}
    iv = tl._interval_section(core.items, None, 20, 3, 0.9, None)
    _frozen(iv)
    assert set(iv.layers) == {"deprel", "head"} and iv.features is None
    rep = tl.token_layer_agreement(corpus, ["deprel", "head", "xpos"], skip_id_like=True,
                                   replicates=20, seed=3, level=0.9)
    def ends(x):
        return {layer: {k: (v["low"], v["high"]) for k, v in c.items()} for layer, c in x.items()}

    assert ends(rep.intervals) == ends(iv.layers)  # the same stream, the same draws
    assert rep.skipped == core.skipped
    _frozen(rep)


def test_tags_core_and_sections():
    from synagree.evaluation import tags

    hierarchy, tier_spec = tags._check_tag_options("deprel", None, False, "plain", False,
                                                   None, False, None, "ac1", None)
    assert tier_spec is None
    core = tags._tag_core(*SAMPLE, "deprel", "plain", False, None, "auto", True)
    _frozen(core)
    assert len(core.pairs) == sum(len(s.words) for s in core.gold) == 284
    gwet, line = tags._gwet_section(core, "ac1", None, 0.95, hierarchy, False)
    assert line.startswith("AC1, weights identity")
    res = tags.evaluate_tags(*SAMPLE, column="deprel", coefficient="ac1")
    assert res.gwet.to_dict() == gwet.to_dict()  # the section alone gives the result's
    assert res.exact == sum(g == s for g, s in core.pairs)
    _frozen(res)
    with pytest.raises(tags.InputError, match="--majority and --lexicon qualify --tiers"):
        tags._check_tag_options("upos", None, False, "plain", False, None, True, None, None,
                                None)


def test_noise_core_and_sections(tmp_path):
    """noise: the core (source sampled, extra metrics, run plan, configuration) once;
    the runs and the summary each a pure function of it returning a frozen part; the
    command's outcome is made of the same parts, and is itself immutable."""
    import json

    from synagree.noise import experiments as ex

    kw = dict(sample=12, seed=3, series=["both", "relabel"], grid=[0.2, 0.6], runs=2)
    core = ex.noise_core([SAMPLE[0]], **kw, fmt="auto", phrase_style="auto", cycles="skip",
                         label_scope="source", draw=(False, False, "nondominated"),
                         extra_metrics=None, hierarchy="ud")
    _frozen(core)
    assert len(core.specs) == 2 * 2 * 2 and len(core.source.sentences) == 12
    assert "LAS_hier" in core.metrics and core.columns[-len(core.metrics):] == core.metrics
    runs = ex.runs_section(core)
    _frozen(runs)
    assert len(runs.rows) == len(core.specs)
    backwards = ex.runs_section(core, core.specs[::-1])  # pure: each run its own seed
    assert backwards.rows[::-1] == runs.rows
    summary = ex.summary_section(core, runs.rows)
    _frozen(summary)
    assert summary == ex.summary_section(core, list(runs.rows))  # the same again
    res = ex.run_noise_experiment([SAMPLE[0]], tmp_path / "out", **kw, hierarchy="ud")
    assert res.rows == list(runs.rows)  # a section alone equals the command's part
    assert res.summary == list(summary.rows)
    assert (res.columns, res.metrics) == (list(core.columns), list(core.metrics))
    assert json.loads(json.dumps(res.config)) == json.loads(json.dumps(core.config))
    _frozen(res)


def test_compare_core_and_sections():
    """compare (dependency): the core (files read, names, label credit, each system
    scored and aligned, the trees for α) once; each system's sections (scores, α,
    breakdowns, per-unit counts) and the corpus-level ones (significance, intervals)
    pure functions of it returning frozen parts; in any order, the same; the command's
    result is made of the same parts, and is itself immutable."""
    import json

    from synagree.base.command_options import CompareOptions
    from synagree.evaluation import compare as cmp

    gold, systems = SAMPLE[0], [SAMPLE[1], SAMPLE[0]]
    kw = dict(names=["A", "B"], hierarchy="ud", breakdown=True, significance=True,
              test_replicates=200, bootstrap=200, seed=5, prf=True)
    opts = CompareOptions.build(None, kw, "test").as_kwargs()
    plan = cmp._Plan(**{k: v for k, v in opts.items() if k not in ("hierarchy", "names")})
    core = cmp._compare_core(gold, systems, "ud", ["A", "B"], plan)
    _frozen(core)
    assert core.names == ("A", "B") and core.trees is not None
    assert [len(t) for t in core.trees] == [len(u) for u in core.units]
    alpha = cmp._alpha_section(core, 0)
    _frozen(alpha)
    bd = cmp._breakdown_section(core, 0)
    _frozen(bd)
    _frozen(bd.confusion)
    parts = [cmp._system_section(core, k) for k in range(2)]
    _frozen(parts[0])
    backwards = [cmp._system_section(core, k) for k in (1, 0)][::-1]  # another order

    def js(obj: object) -> str:
        return json.dumps(obj, sort_keys=True, default=str)

    assert [js(p.result.as_dict()) for p in backwards] == [js(p.result.as_dict()) for p in parts]
    assert parts[1].result.alpha["plain"].alpha == 1.0  # gold against itself
    sig = cmp._significance_section(core, parts[::-1][::-1])
    assert sig is not None
    res = cmp.compare(gold, systems, **kw)  # the command: core + sections
    assert js(res.as_dict()) == js(cmp._assemble(core, parts).as_dict())
    assert js(res.significance.as_dict()) == js(sig.as_dict())  # a section alone
    assert res.system("A").intervals == cmp._interval_section(core, parts)["A"]
    assert res.system("A").alpha["plain"].alpha == alpha.stats["plain"].alpha
    assert js(res.system("A").as_dict()["breakdowns"]) == \
        js({k: [b.as_dict() for b in v] for k, v in bd.breakdowns.items()})
    assert res.system("A").confusion == bd.confusion
    assert res.system("A").scores == cmp._score_section(core, 0)
    assert "LAS_hier" in res.system("A").scores and res.system("A").intervals
    _frozen(res)
    _frozen(res.systems[0])


def test_parseval_compare_core_and_sections():
    """compare (PARSEVAL): the core (every system read and scored by EVALB's rules, the
    names, warnings and the scorer's notes) once; α, breakdowns, the tests and the
    intervals each a pure function of it; in any order, the same; the command's result
    is made of the same parts, and is itself immutable."""
    import json

    from synagree.evaluation import parseval_compare as pc

    data = ROOT / "tests" / "data" / "parseval"
    gold, systems = data / "gold.mrg", [data / "parser-a.mrg", data / "parser-b.mrg"]
    kw = dict(names=["A", "B"], alpha=True, breakdown=True, significance=True,
              test_replicates=200, bootstrap=200, seed=7)
    plan = pc._ParsevalPlan(alpha=True, breakdown=True, significance=True,
                            test_replicates=200, bootstrap=200, R=None, seed=7, level=0.95,
                            sample_pairs=None, exact=False, progress=None, max_memory=None,
                            engine="auto", executor=None)
    core = pc._parseval_core(gold, systems, "collins", ["A", "B"], plan)
    _frozen(core)
    assert core.names == ("A", "B") and len(core.results) == 2
    # the sections in another order than the command's
    cis = pc._interval_section(core)
    sig = pc._significance_section(core)
    bds = pc._breakdown_section(core)
    alpha = pc._alpha_section(core)
    _frozen(alpha)
    assert alpha.d_e == "exact" and set(alpha.systems) == {"A", "B"}

    def js(obj: object) -> str:
        return json.dumps(obj, sort_keys=True, default=str)

    assert js(pc._alpha_section(core).systems["A"][1]) == js(alpha.systems["A"][1])  # pure
    res = pc.compare_parseval(gold, systems, **kw)
    assert js(res.as_dict()) == js(pc._assemble(core, alpha, bds, sig, cis).as_dict())
    assert js(res.significance.as_dict()) == js(sig.as_dict())  # a section alone
    assert res.system("B").intervals == cis["B"] and cis["B"]
    assert res.system("A").alpha["plain"].alpha == alpha.systems["A"][0]["plain"].alpha
    assert js(res.system("A").breakdown.as_dict()) == js(bds["A"].as_dict())
    _frozen(res)
    _frozen(res.systems[0])
