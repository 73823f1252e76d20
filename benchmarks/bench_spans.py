"""``spans --layer form`` against ``--layer upos`` on the same files (goal: form <= 2x upos).

Every layer has as many annotations (one a word); ``form`` has thousands of
labels where ``upos`` has 17, so a comparison that walks the annotations once
per label is quadratic on ``form`` only.  Two CoNLL-U files of N sentences
(default 4,000, ~15 words each, a vocabulary of 8,000 forms, one UPOS in
twenty changed in the second) are written to a temporary folder and compared
on both layers in the same run; the ratio is printed with the load.

    python benchmarks/bench_spans.py [--sentences N]
"""
from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

from common import best_of, goal_line, loadavg

from synagree.evaluation.spans import span_agreement

UPOS = ["NOUN", "VERB", "ADJ", "ADV", "PRON", "DET", "ADP", "AUX", "CCONJ", "SCONJ",
        "NUM", "PART", "PROPN", "PUNCT", "SYM", "INTJ", "X"]


def write_pair(folder: Path, sentences: int, seed: int = 1) -> "tuple[Path, Path]":
    rng = random.Random(seed)
    vocab = [f"w{k}" for k in range(8000)]
    a_lines, b_lines = [], []
    for s in range(sentences):
        n = rng.randint(8, 22)
        head = [f"# sent_id = s{s + 1}"]
        a_lines += head
        b_lines += head
        for i in range(1, n + 1):
            form, upos = rng.choice(vocab), rng.choice(UPOS)
            row = [str(i), form, "_", upos, "_", "_", str(i - 1), "dep" if i > 1 else "root",
                   "_", "_"]
            a_lines.append("\t".join(row))
            if rng.random() < 0.05:  # (the words themselves must agree: the same text)
                row[3] = rng.choice(UPOS)
            b_lines.append("\t".join(row))
        a_lines.append("")
        b_lines.append("")
    a, b = folder / "a.conllu", folder / "b.conllu"
    a.write_text("\n".join(a_lines) + "\n")
    b.write_text("\n".join(b_lines) + "\n")
    return a, b


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sentences", type=int, default=4000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        a, b = write_pair(Path(tmp), args.sentences)
        t_upos = best_of(lambda: span_agreement([a, b], layer="upos"), 3)
        t_form = best_of(lambda: span_agreement([a, b], layer="form"), 3)
    ratio = t_form / t_upos
    print(f"spans on {args.sentences:,} sentences: --layer upos {t_upos:.2f} s, "
          f"--layer form {t_form:.2f} s: form/upos = {ratio:.2f} "
          f"(goal <= 2: {'met' if ratio <= 2 else 'MISSED'})")
    goal_line("spans --layer form <= 2x --layer upos", f"upos {t_upos:.2f} s",
              f"form {t_form:.2f} s", f"{ratio:.2f}x", loadavg())


if __name__ == "__main__":
    main()
