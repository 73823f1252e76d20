"""Write the bundled sample treebank: synagree/data/en-sample/{ann_a,ann_b}/sample.conllu.

Forty short English sentences written for this project, annotated in UD by
"annotator A"; annotator B's copy differs where real annotators tend to
differ: PP attachment (verb vs noun), relation subtypes (nsubj:pass vs nsubj,
obl:tmod vs obl), coordination (attachment of the second conjunct and of the
conjunction), and a few plain label slips.  Rerun to regenerate:

    python treebanks/make_sample.py
"""
from pathlib import Path

# Each sentence: list of "form upos head deprel"; disagreements of annotator B:
# {word id: (head, deprel)}.
S = [
 ("The cat sat on the mat .", "DET NOUN VERB ADP DET NOUN PUNCT", "2 3 0 6 6 3 3", "det nsubj root case det obl punct", {}),
 ("I saw the man with the telescope .", "PRON VERB DET NOUN ADP DET NOUN PUNCT", "2 0 4 2 7 7 2 2", "nsubj root det obj case det obl punct", {7: (4, "nmod")}),
 ("She ate pizza with her friends .", "PRON VERB NOUN ADP PRON NOUN PUNCT", "2 0 2 6 6 2 2", "nsubj root obj case nmod:poss obl punct", {6: (3, "nmod")}),
 ("The report was written by the committee .", "DET NOUN AUX VERB ADP DET NOUN PUNCT", "2 4 4 0 7 7 4 4", "det nsubj:pass aux:pass root case det obl:agent punct", {2: (4, "nsubj"), 7: (4, "obl")}),
 ("We met on Monday .", "PRON VERB ADP PROPN PUNCT", "2 0 4 2 2", "nsubj root case obl punct", {4: (2, "obl:tmod")}),
 ("Tom and Mary left early .", "PROPN CCONJ PROPN VERB ADV PUNCT", "4 3 1 0 4 4", "nsubj cc conj root advmod punct", {2: (1, "cc")}),
 ("He bought apples , pears and plums .", "PRON VERB NOUN PUNCT NOUN CCONJ NOUN PUNCT", "2 0 2 5 3 7 3 2", "nsubj root obj punct conj cc conj punct", {7: (5, "conj"), 6: (7, "cc")}),
 ("The dog barked loudly .", "DET NOUN VERB ADV PUNCT", "2 3 0 3 3", "det nsubj root advmod punct", {}),
 ("They put the book on the shelf .", "PRON VERB DET NOUN ADP DET NOUN PUNCT", "2 0 4 2 7 7 2 2", "nsubj root det obj case det obl punct", {}),
 ("The girl with red hair smiled .", "DET NOUN ADP ADJ NOUN VERB PUNCT", "2 6 5 5 2 0 6", "det nsubj case amod nmod root punct", {}),
 ("Students who study hard pass .", "NOUN PRON VERB ADV VERB PUNCT", "5 3 1 3 0 5", "nsubj nsubj acl:relcl advmod root punct", {3: (1, "acl")}),
 ("The window was broken yesterday .", "DET NOUN AUX VERB ADV PUNCT", "2 4 4 0 4 4", "det nsubj:pass aux:pass root advmod punct", {4: (0, "root"), 3: (4, "cop"), 2: (4, "nsubj")}),
 ("She told me a story about dragons .", "PRON VERB PRON DET NOUN ADP NOUN PUNCT", "2 0 2 5 2 7 5 2", "nsubj root iobj det obj case nmod punct", {7: (2, "obl")}),
 ("My brother lives in Oslo .", "PRON NOUN VERB ADP PROPN PUNCT", "2 3 0 5 3 3", "nmod:poss nsubj root case obl punct", {1: (2, "det")}),
 ("We can start the meeting now .", "PRON AUX VERB DET NOUN ADV PUNCT", "3 3 0 5 3 3 3", "nsubj aux root det obj advmod punct", {}),
 ("The children played in the park after school .", "DET NOUN VERB ADP DET NOUN ADP NOUN PUNCT", "2 3 0 6 6 3 8 3 3", "det nsubj root case det obl case obl punct", {8: (6, "nmod")}),
 ("He said that it was raining .", "PRON VERB SCONJ PRON AUX VERB PUNCT", "2 0 6 6 6 2 2", "nsubj root mark nsubj aux ccomp punct", {}),
 ("I want to leave .", "PRON VERB PART VERB PUNCT", "2 0 4 2 2", "nsubj root mark xcomp punct", {4: (2, "ccomp")}),
 ("The old man and the sea .", "DET ADJ NOUN CCONJ DET NOUN PUNCT", "3 3 0 6 6 3 3", "det amod root cc det conj punct", {}),
 ("Prices rose sharply in March .", "NOUN VERB ADV ADP PROPN PUNCT", "2 0 2 5 2 2", "nsubj root advmod case obl punct", {5: (2, "obl:tmod")}),
 ("She was given a prize by the jury .", "PRON AUX VERB DET NOUN ADP DET NOUN PUNCT", "3 3 0 5 3 8 8 3 3", "nsubj:pass aux:pass root det obj case det obl:agent punct", {8: (5, "nmod")}),
 ("Read the instructions carefully .", "VERB DET NOUN ADV PUNCT", "0 3 1 1 1", "root det obj advmod punct", {}),
 ("The house on the hill is empty .", "DET NOUN ADP DET NOUN AUX ADJ PUNCT", "2 7 5 5 2 7 0 7", "det nsubj case det nmod cop root punct", {5: (7, "obl")}),
 ("We walked and talked for hours .", "PRON VERB CCONJ VERB ADP NOUN PUNCT", "2 0 4 2 6 4 2", "nsubj root cc conj case obl punct", {6: (2, "obl")}),
 ("The letter arrived this morning .", "DET NOUN VERB DET NOUN PUNCT", "2 3 0 5 3 3", "det nsubj root det obl:tmod punct", {5: (3, "obl")}),
 ("He is a teacher .", "PRON AUX DET NOUN PUNCT", "4 4 4 0 4", "nsubj cop det root punct", {}),
 ("They sold the car to a dealer in Bergen .", "PRON VERB DET NOUN ADP DET NOUN ADP PROPN PUNCT", "2 0 4 2 7 7 2 9 7 2", "nsubj root det obj case det obl case nmod punct", {9: (2, "obl")}),
 ("Cats and dogs are pets .", "NOUN CCONJ NOUN AUX NOUN PUNCT", "5 3 1 5 0 5", "nsubj cc conj cop root punct", {}),
 ("I think she knows the answer .", "PRON VERB PRON VERB DET NOUN PUNCT", "2 0 4 2 6 4 2", "nsubj root nsubj ccomp det obj punct", {}),
 ("The film , which I liked , won a prize .", "DET NOUN PUNCT PRON PRON VERB PUNCT VERB DET NOUN PUNCT", "2 8 6 6 6 2 6 0 10 8 8", "det nsubj punct obj nsubj acl:relcl punct root det obj punct", {3: (2, "punct"), 7: (2, "punct")}),
 ("Please close the door .", "INTJ VERB DET NOUN PUNCT", "2 0 4 2 2", "discourse root det obj punct", {1: (2, "advmod")}),
 ("She works at a bank near the station .", "PRON VERB ADP DET NOUN ADP DET NOUN PUNCT", "2 0 5 5 2 8 8 5 2", "nsubj root case det obl case det nmod punct", {8: (2, "obl")}),
 ("The results were published in Nature .", "DET NOUN AUX VERB ADP PROPN PUNCT", "2 4 4 0 6 4 4", "det nsubj:pass aux:pass root case obl punct", {}),
 ("Nobody expected such a result .", "PRON VERB DET DET NOUN PUNCT", "2 0 5 5 2 2", "nsubj root det:predet det obj punct", {3: (5, "amod")}),
 ("He ran fast but missed the bus .", "PRON VERB ADV CCONJ VERB DET NOUN PUNCT", "2 0 2 5 2 7 5 2", "nsubj root advmod cc conj det obj punct", {}),
 ("Two of the students failed .", "NUM ADP DET NOUN VERB PUNCT", "5 4 4 1 0 5", "nsubj case det nmod root punct", {}),
 ("We stayed at home because it rained .", "PRON VERB ADP NOUN SCONJ PRON VERB PUNCT", "2 0 4 2 7 7 2 2", "nsubj root case obl mark nsubj advcl punct", {}),
 ("The book that you lent me was great .", "DET NOUN PRON PRON VERB PRON AUX ADJ PUNCT", "2 8 5 5 2 5 8 0 8", "det nsubj obj nsubj acl:relcl iobj cop root punct", {6: (5, "obj")}),
 ("Turn left at the next corner .", "VERB ADV ADP DET ADJ NOUN PUNCT", "0 1 6 6 6 1 1", "root advmod case det amod obl punct", {2: (1, "obj")}),
 ("It was raining , so we stayed inside .", "PRON AUX VERB PUNCT ADV PRON VERB ADV PUNCT", "3 3 0 7 7 7 3 7 3", "expl aux root punct advmod nsubj parataxis advmod punct", {7: (3, "conj"), 1: (3, "nsubj")}),
]


def write(out: Path, annotator_b: bool) -> None:
    lines = []
    for k, (text, upos, heads, rels, diff) in enumerate(S, start=1):
        forms, upos, heads, rels = text.split(), upos.split(), heads.split(), rels.split()
        assert len(forms) == len(upos) == len(heads) == len(rels), text
        lines.append(f"# sent_id = sample-{k:02d}")
        lines.append(f"# text = {text}")
        for i, (f, u, h, r) in enumerate(zip(forms, upos, heads, rels), start=1):
            if annotator_b and i in diff:
                h, r = diff[i]
            lines.append("\t".join([str(i), f, "_", u, "_", "_", str(h), r, "_", "_"]))
        lines.append("")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    here = Path(__file__).resolve().parents[1] / "synagree" / "data" / "en-sample"
    write(here / "ann_a" / "sample.conllu", annotator_b=False)
    write(here / "ann_b" / "sample.conllu", annotator_b=True)
    print(f"wrote {len(S)} sentences for two annotators under {here}")
