"""Generate a 200-split field guide pack (and its answer-quality suite) for ranking tests and the evals benchmark.

The guide mixes topics the way a real one does: a handful of *fungi notes* whose titles and headings say
"Fungi" and whose text mentions the footpath once, a handful of *trail notes* that say "footpath" on nearly
every line and mention fungi once, and many other notes (birds, trees, mosses, insects ...) some of which mention
fungi or the footpath in passing. "fungi near the footpath" should find the fungi notes. Deterministic.

    python bench/field_guide.py OUT_DIR      # writes OUT_DIR/field-guide/
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

TOPICS = ("birds", "trees", "mosses", "insects", "wildflowers", "streams", "lichens", "mammals", "ferns", "rocks")
FILLER = ("the path climbs gently past the old wall and the view opens to the valley below",
          "in spring the ground is wet and the light comes low through the canopy",
          "look for tracks in the soft mud after rain and listen for movement in the undergrowth",
          "the slope faces north so it stays cool and damp well into the summer months",
          "a bench by the gate makes a good place to stop and note what you have seen")
FUNGI = range(150, 155)
"""Split numbers of the fungi notes (not the first five: the reference CLI's dry run takes the first five splits)."""
TRAILS = range(40, 48)
OTHER_CASES = range(60, 105)
SPLITS = 200


def build(out: Path, splits: int = SPLITS, seed: int = 7) -> Path:
    """Write the pack under ``out/field-guide`` and return its root."""
    rng = random.Random(seed)
    root = out / "field-guide"
    folder = root / "compiled" / "splits" / "field-guide"
    folder.mkdir(parents=True)
    (root / "documents").mkdir()
    (root / "KNOWLEDGE.md").write_text(
        "---\nname: field-guide\ndescription: Field notes for the Elm Valley nature reserve - birds, trees, fungi, "
        "trails and seasonal walks. Use when planning a walk or identifying what you find.\ntype: domain-reference\n"
        "status: ready\nprofile: document-first\nmetadata:\n  primaryDocument: documents/field-guide.md\n---\n"
        "# Elm Valley field guide\n\nUse the splits in compiled/splits/field-guide/.\n", encoding="utf-8")
    (root / "documents" / "field-guide.md").write_text("# Elm Valley field guide\n\nSee the splits.\n",
                                                       encoding="utf-8")
    cases = []
    for i in range(splits):
        if i in FUNGI:
            place = ("oak wood", "birch copse", "beech hanger", "meadow edge", "old orchard")[i - FUNGI.start]
            name, title = f"{i:03d}_fungi-{i}", f"Fungi of the {place}"
            body = ["## What grows here\n\nBrackets and small caps grow on the fallen wood; most fruit in autumn "
                    "after rain. " + " ".join(rng.choice(FILLER) + "." for _ in range(3)),
                    "## Identifying them\n\nNote the gills, the stem and the spore colour; never pick fungi to eat."]
        elif i in TRAILS:
            name, title = f"{i:03d}_trail-{i}", f"Trail notes: section {i}"
            lines = [f"The footpath {rng.choice(['turns', 'drops', 'climbs', 'narrows'])} here; keep to the footpath "
                     f"where it is marked." for _ in range(15)]
            body = ["## Route\n\n" + " ".join(lines), "## Surface\n\nWatch for fungi on the logs beside the way."]
        else:
            topic = TOPICS[i % len(TOPICS)]
            name, title = f"{i:03d}_{topic}-{i}", f"{topic.capitalize()} note {i}"
            extra = ""
            if i % 7 == 0:
                extra = " Bracket fungi grow on some of the older trunks."
            elif i % 11 == 0:
                extra = " A footpath crosses the area from east to west."
            body = [f"## {topic.capitalize()}\n\n" + " ".join(rng.choice(FILLER) + "." for _ in range(6)) + extra]
        (folder / f"{name}.md").write_text(f"# {title}\n\n" + "\n\n".join(body) + "\n", encoding="utf-8")
        if i in FUNGI or i in OTHER_CASES:
            topic = "fungi" if i in FUNGI else TOPICS[i % len(TOPICS)]
            cases.append({"id": f"case-{i:03d}", "prompt": f"{topic} near the footpath" if i in FUNGI
                          else f"what {topic} can I see in {title.lower()}",
                          "required_context": [f"compiled/splits/field-guide/{name}.md"]})
    (root / "evals").mkdir()
    (root / "evals" / "answer-quality.json").write_text(
        json.dumps({"pack_name": "field-guide", "evals": cases}, indent=2) + "\n", encoding="utf-8")
    return root


if __name__ == "__main__":
    print(build(Path(sys.argv[1])))
