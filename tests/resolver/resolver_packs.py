"""Text of the fixture packs used by the resolver tests (written to temp dirs; nothing from /work/shared)."""

from __future__ import annotations


def knowledge(name: str, *, profile: str = "document-first", status: str = "ready", mode: str = "data",
              grounding: str | None = None, primary: str | None = None, trust: str = "user-confirmed",
              body: str = "# Guide\n\nUse this pack for product questions.\n") -> str:
    lines = ["---", f"name: {name}", f"description: Test pack {name} for resolver behaviour.",
             "type: brand-product", f"status: {status}", f"profile: {profile}", f"trust: {trust}",
             "runtime:", f"  mode: {mode}"]
    if grounding:
        lines.append(f"grounding: {grounding}")
    if primary:
        lines += ["metadata:", f"  primaryDocument: {primary}"]
    return "\n".join(lines) + "\n---\n" + body


BRIEF = """# Product brief

## Pricing

The Falcon kettle costs 89 euros in the EU and ships in matte black.

## Warranty

Two years of warranty cover the heating element and the lid hinge.

## Boundaries

Never promise delivery dates. Do not compare with competitor kettles.
"""

DOC_FIRST_FILES = {
    "documents/brief.md": BRIEF,
    "compiled/briefing.md": "# Briefing\n\nFalcon is a gooseneck kettle for pour-over coffee.\n",
    "compiled/facts.md": "# Facts\n\n- Capacity 0.9 L\n- Heats to 100 °C in 4 minutes\n",
    "compiled/boundaries.md": "# Boundaries\n\nNever promise delivery dates.\n",
    "compiled/splits/brief/pricing.md": "# Pricing\n\nThe Falcon kettle costs 89 euros in the EU.\n",
    "compiled/splits/brief/warranty.md": "# Warranty\n\nTwo years of warranty cover the heating element.\n",
    "compiled/splits/brief/boundaries.md": "# Boundaries\n\nNever promise delivery dates.\n",
    "sources/spec-sheet.md": "Line one\nWarranty: 24 months, heating element and lid hinge.\n",
    "indexes/source-map.json": """{"claims": [{"claim_id": "warranty", "text": "Two years of warranty",
      "status": "confirmed", "source": {"path": "sources/spec-sheet.md", "anchor": "#L2"},
      "compiled_into": ["compiled/splits/brief/warranty.md", "documents/brief.md#warranty"]},
      {"claim_id": "price", "text": "89 euros", "status": "stale",
      "source": {"path": "sources/spec-sheet.md", "anchor": "#L1"},
      "compiled_into": ["compiled/splits/brief/pricing.md", "documents/brief.md#pricing"]}]}""",
    "runs/compile-2026-01-01T00-00-00Z.json": '{"run_id": "c1", "trigger": "manual", "status": "passed", '
                                              '"inputs": [], "outputs": []}',
    "schemas/claim.schema.json": "{}",
    "evals/discovery.validation.json": '{"pack_name": "falcon-kettle", "cases": [{"id": "a", "prompt": '
                                       '"kettle price", "expected": "select"}]}',
}
