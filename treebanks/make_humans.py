"""Write the worked-example files of docs/qa-questions-2.md: tests/data/humans/*.conllu.

The forty sentences of the bundled sample (treebanks/make_sample.py), with
its annotator A's analysis as the adjudicated reference, and:

* ``gold.conllu``: the reference;
* ``anna.conllu``: an independent human annotation, the sample's annotator B
  (PP attachment, relation subtypes, coordination, label slips);
* ``bert.conllu``: a second independent human, with disagreements of the same
  kinds drawn at random (seed 11) on about one word in twelve;
* ``parser.conllu``: a parser's output: the reference with attachment and
  label errors drawn at random (seed 7) on about one word in six;
* ``post-anna.conllu``, ``post-bert.conllu``: the parser's output as two
  annotators corrected it: anna put most of the parser's errors right (each
  with probability 0.85) and added some of her own analyses; bert, anchored
  to the parser, put right about half (probability 0.5) and added fewer.

Every change keeps each sentence a tree (one root, no cycle).  Rerun to
regenerate (deterministic):

    python treebanks/make_humans.py
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Dict, List, Tuple

from make_sample import S

Arc = Tuple[int, str]
Sentence = List[Arc]  # (head, deprel) per word

# label confusions a parser or an annotator makes (either direction)
CONFUSIONS = [("obl", "nmod"), ("obj", "iobj"), ("nsubj", "nsubj:pass"), ("advmod", "obl"),
              ("amod", "nmod"), ("xcomp", "ccomp"), ("obl", "obl:tmod"), ("acl", "acl:relcl"),
              ("det", "nmod:poss"), ("cop", "aux"), ("conj", "parataxis"), ("mark", "case")]


def reference() -> List[Sentence]:
    return [[(int(h), r) for h, r in zip(heads.split(), rels.split())]
            for _, _, heads, rels, _ in S]


def descendants(sent: Sentence, w: int) -> set:
    out = {w}
    grew = True
    while grew:
        grew = False
        for i, (h, _) in enumerate(sent, start=1):
            if h in out and i not in out:
                out.add(i)
                grew = True
    return out


def confuse(label: str, rng: random.Random) -> str:
    options = [b for a, b in CONFUSIONS if a == label] + [a for a, b in CONFUSIONS if b == label]
    return rng.choice(options) if options else rng.choice(["dep", "nmod", "obl", "advmod"])


def perturb(sent: Sentence, rate: float, rng: random.Random) -> Dict[int, Arc]:
    """Changes {word: (head, deprel)} on about ``rate`` of the non-root words."""
    out: Dict[int, Arc] = {}
    cur = list(sent)
    for w in range(1, len(sent) + 1):
        h, r = cur[w - 1]
        if h == 0 or rng.random() >= rate:
            continue
        if rng.random() < 0.5:  # an attachment error: a head outside the word's subtree
            banned = descendants(cur, w)
            heads = [x for x in range(1, len(sent) + 1) if x not in banned and x != h]
            if not heads:
                continue
            arc = (rng.choice(heads), r)
        else:  # a label error
            arc = (h, confuse(r, rng))
        cur[w - 1] = arc
        out[w] = arc
    return out


def apply(sent: Sentence, diff: Dict[int, Arc]) -> Sentence:
    return [diff.get(i, arc) for i, arc in enumerate(sent, start=1)]


def is_tree(sent: Sentence) -> bool:
    if sum(1 for h, _ in sent if h == 0) != 1:
        return False
    for w in range(1, len(sent) + 1):
        seen, x = set(), w
        while x != 0:
            if x in seen:
                return False
            seen.add(x)
            x = sent[x - 1][0]
    return True


def correct(parsed: Sentence, truth: Sentence, own: Dict[int, Arc], p_fix: float,
            p_own: float, rng: random.Random) -> Sentence:
    """An annotator's correction of ``parsed``: each wrong arc put right with
    probability ``p_fix``, then each of the annotator's own analyses ``own`` taken
    with probability ``p_own`` (kept only where the sentence stays a tree)."""
    out = [t if p != t and rng.random() < p_fix else p for p, t in zip(parsed, truth)]
    for w, arc in sorted(own.items()):
        if rng.random() < p_own:
            trial = list(out)
            trial[w - 1] = arc
            if is_tree(trial):
                out = trial
    return out if is_tree(out) else parsed


def write(path: Path, sents: List[Sentence]) -> None:
    lines = []
    for k, ((text, upos, _, _, _), sent) in enumerate(zip(S, sents), start=1):
        assert is_tree(sent), (path.name, k)
        lines += [f"# sent_id = sample-{k:02d}", f"# text = {text}"]
        for i, (f, u, (h, r)) in enumerate(zip(text.split(), upos.split(), sent), start=1):
            lines.append("\t".join([str(i), f, "_", u, "_", "_", str(h), r, "_", "_"]))
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    out = Path(__file__).resolve().parents[1] / "tests" / "data" / "humans"
    out.mkdir(parents=True, exist_ok=True)
    gold = reference()
    anna_diff = [d for _, _, _, _, d in S]
    rng_b, rng_p, rng_c = random.Random(11), random.Random(7), random.Random(5)
    bert_diff = [perturb(s, 1 / 12, rng_b) for s in gold]
    parser_diff = [perturb(s, 1 / 6, rng_p) for s in gold]
    anna = [apply(s, d) for s, d in zip(gold, anna_diff)]
    bert = [apply(s, d) for s, d in zip(gold, bert_diff)]
    parser = [apply(s, d) for s, d in zip(gold, parser_diff)]
    post_anna = [correct(p, g, d, 0.85, 0.6, rng_c) for p, g, d in zip(parser, gold, anna_diff)]
    post_bert = [correct(p, g, d, 0.5, 0.4, rng_c) for p, g, d in zip(parser, gold, bert_diff)]
    files = {"gold": gold, "anna": anna, "bert": bert, "parser": parser,
             "post-anna": post_anna, "post-bert": post_bert}
    for name, sents in files.items():
        write(out / f"{name}.conllu", sents)
    print(f"wrote {', '.join(files)} ({len(S)} sentences each) under {out}")


if __name__ == "__main__":
    main()
