"""Write the generated corpus of docs/qa-questions.md: four annotators of 240 sentences.

The sentences are made up here (templates over small English lexicons, in
UD): a subject, a verb, an object, prepositional phrases attached to the
verb (``obl``) or to a noun (``nmod``), coordinated nouns (``conj``, ``cc``).
Every sentence carries ``# sent_id``, ``# text`` and ``# batch = week1`` ...
``week8`` (30 sentences a week).  The reference analysis is generated first;
each annotator file is that analysis changed in a way known by construction:

``anna``  the reference, with random slips (8 % of the words relabelled, each
          to a label drawn from the corpus's own label distribution, so no
          label is preferred; 3 % reattached to another word);
``ben``   the same kind of random slips, drawn independently;
``cleo``  random slips as anna's, and a **preference**: 60 % of the words the
          reference labels ``obl`` are labelled ``nmod`` (head unchanged);
``dan``   the reference with anna's rate of slips in weeks 1–4 and **7.5
          times** that rate in weeks 5–8 (a drift halfway).

Rerun to regenerate (the output is the same for the same seed):

    python tests/data/questions/make_questions.py
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import List, Tuple

HERE = Path(__file__).resolve().parent

SUBJECTS = [("PRON", "She"), ("PRON", "He"), ("PRON", "They"), ("PROPN", "Anna"),
            ("PROPN", "Oslo"), ("NOUN", "children"), ("NOUN", "teachers")]
VERBS = ["saw", "bought", "found", "sent", "painted", "read", "opened", "carried"]
NOUNS = ["letter", "book", "box", "car", "garden", "table", "window", "picture", "door",
         "boat", "shop", "river", "house", "friend", "bridge", "market"]
ADJS = ["old", "red", "small", "new", "quiet"]
PREPS = ["in", "on", "near", "with", "from", "behind"]

# a word: [form, upos, head (1-based, 0 root), deprel]
Word = List[object]


def noun_phrase(rng: random.Random, words: List[Word], head: int, rel: str,
                depth: int = 0) -> int:
    """Append a noun phrase attached to ``head`` as ``rel``; its head noun's id."""
    det = len(words) + 1
    words.append(["the", "DET", 0, "det"])
    if rng.random() < 0.3:
        words.append([rng.choice(ADJS), "ADJ", 0, "amod"])
    noun = len(words) + 1
    words.append([rng.choice(NOUNS), "NOUN", head, rel])
    for w in words[det - 1:noun - 1]:
        w[2] = noun
    if depth == 0 and rng.random() < 0.2:  # coordination: the noun, and another
        cc = len(words) + 1
        words.append(["and", "CCONJ", 0, "cc"])
        second = noun_phrase(rng, words, noun, "conj", depth + 1)
        words[cc - 1][2] = second
    if depth == 0 and rng.random() < 0.25:  # a PP modifying the noun
        prep_phrase(rng, words, noun, "nmod", depth + 1)
    return noun


def prep_phrase(rng: random.Random, words: List[Word], head: int, rel: str,
                depth: int = 0) -> None:
    """Append ``case`` + a noun phrase attached to ``head`` as ``rel``."""
    case = len(words) + 1
    words.append([rng.choice(PREPS), "ADP", 0, "case"])
    noun = noun_phrase(rng, words, head, rel, depth)
    words[case - 1][2] = noun


def sentence(rng: random.Random) -> List[Word]:
    """One reference analysis."""
    upos, form = rng.choice(SUBJECTS)
    words: List[Word] = [[form, upos, 2, "nsubj"], [rng.choice(VERBS), "VERB", 0, "root"]]
    noun_phrase(rng, words, 2, "obj")
    for _ in range(rng.choice([0, 1, 1])):
        prep_phrase(rng, words, 2, "obl")
    words.append([".", "PUNCT", 2, "punct"])
    return words


def ancestors(words: List[Word], i: int) -> set:
    """Word ids above word ``i`` (1-based)."""
    out, h = set(), int(words[i - 1][2])
    while h:
        out.add(h)
        h = int(words[h - 1][2])
    return out


def slips(rng: random.Random, words: List[Word], labels: List[str], rate: float) -> None:
    """Random slips: relabel (to a label drawn from the corpus's distribution) and reattach."""
    for i, w in enumerate(words, start=1):
        if w[3] in ("root", "punct"):
            continue
        if rng.random() < rate:
            w[3] = rng.choice(labels)
        if rng.random() < rate * 3 / 8:  # reattach to another word not below it
            choices = [j for j in range(1, len(words) + 1)
                       if j != i and i not in ancestors(words, j) and j != w[2]]
            if choices:
                w[2] = rng.choice(choices)


def write(path: Path, sents: List[Tuple[str, List[Word]]]) -> None:
    lines = []
    for k, (batch, words) in enumerate(sents, start=1):
        lines += [f"# sent_id = q{k:03d}", f"# batch = {batch}",
                  "# text = " + " ".join(str(w[0]) for w in words)]
        lines += [f"{i}\t{w[0]}\t_\t{w[1]}\t_\t_\t{w[2]}\t{w[3]}\t_\t_"
                  for i, w in enumerate(words, start=1)]
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(seed: int = 25) -> None:
    rng = random.Random(seed)
    ref = [(f"week{k // 30 + 1}", sentence(rng)) for k in range(240)]
    # the corpus's label distribution, one entry per word (root and punct never slip)
    labels = [str(w[3]) for _, ws in ref for w in ws if w[3] not in ("root", "punct")]
    out = {}
    for name, rate, prefer in (("anna", 0.08, False), ("ben", 0.08, False),
                               ("cleo", 0.08, True)):
        r = random.Random(f"{seed}-{name}")
        sents = []
        for batch, ws in ref:
            copy = [list(w) for w in ws]
            if prefer:
                for w in copy:
                    if w[3] == "obl" and r.random() < 0.6:
                        w[3] = "nmod"
            slips(r, copy, labels, rate)
            sents.append((batch, copy))
        out[name] = sents
    r = random.Random(f"{seed}-dan")
    dan = []
    for k, (batch, ws) in enumerate(ref):
        copy = [list(w) for w in ws]
        slips(r, copy, labels, 0.08 if k < 120 else 0.60)
        dan.append((batch, copy))
    out["dan"] = dan
    for name, sents in out.items():
        write(HERE / f"{name}.conllu", sents)


if __name__ == "__main__":
    main()
