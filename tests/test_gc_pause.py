"""`synagree.base.gc_pause.paused_gc`: the cyclic collector paused for a block and back
afterwards (errors included), nested pauses, a collector already off left off; and
`compare` building its alignments, units and trees inside such a pause."""
from __future__ import annotations

import gc
from typing import Iterator, List

import pytest

from synagree.base.gc_pause import paused_gc
from synagree.evaluation import compare as compare_mod


@pytest.fixture(autouse=True)
def _collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_paused_inside_and_back_after() -> None:
    with paused_gc():
        assert not gc.isenabled()
        made = [[k] for k in range(1000)]
    assert gc.isenabled()
    assert len(made) == 1000


def test_back_after_an_error() -> None:
    with pytest.raises(ZeroDivisionError):
        with paused_gc():
            _ = 1 / 0
    assert gc.isenabled()


def test_nested_pauses_end_with_the_outermost() -> None:
    with paused_gc():
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    with paused_gc():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_objects_made_in_the_pause_count_as_old() -> None:
    gc.collect()
    with paused_gc():
        made = [{"k": k} for k in range(5000)]
    assert gc.get_count()[0] < 5000  # not all waiting in the youngest generation
    assert len(made) == 5000


def test_compare_scores_and_builds_trees_with_the_collector_paused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: List[bool] = []
    real = compare_mod.evaluate

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(compare_mod, "evaluate", spy)
    row = "{}\t{}\t_\t{}\t_\t_\t{}\t{}\t_\t_\n"
    gold = row.format(1, "Dogs", "NOUN", 2, "nsubj") + row.format(2, "bark", "VERB", 0, "root")
    system = gold.replace("nsubj", "obj")
    res = compare_mod.compare(gold + "\n", [system + "\n"], names=["A"])
    assert seen == [False]
    assert gc.isenabled()
    assert res.system("A").value("LAS") == 0.5
