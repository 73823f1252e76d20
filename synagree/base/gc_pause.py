"""Pausing Python's cyclic garbage collector while a reader builds a corpus.

A reader makes millions of small containers (lists, dicts, sentence
objects) and no reference cycles.  While they are made, the cyclic collector
would walk the growing corpus again and again, finding nothing (a third of
the CoNLL-U reader's time on a 50 MB file, six sevenths of the bracket
parse's: benchmarks/bench_reader.py).  Reference counting still frees
everything as usual; only the search for cycles waits.

When the pause ends, the objects made meanwhile are counted as old (the
collector's oldest generation, `gc.freeze` then `gc.unfreeze`): they are a
corpus, kept for the whole run, and the youngest generation's next
collection would otherwise walk all of them at once (another tenth of the
reader's time) only to find them alive.  Where a program froze objects
itself (`gc.get_freeze_count`), nothing is moved.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector for the ``with`` block.

    It runs again afterwards if it ran before (an exception included), with
    every object counted as old (see the module's notes); nested pauses
    leave it paused until the outermost ends.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        if not gc.get_freeze_count():
            gc.freeze()  # every tracked object to the frozen set ...
            gc.unfreeze()  # ... and back, into the oldest generation
        gc.enable()
