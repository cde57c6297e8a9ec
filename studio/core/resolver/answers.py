"""``answers/`` as resolver candidates, through ``metadata.primaryAnswers`` (digest 1.4, 6.3 "answer-ready packs").

The standard's answer subgraph runs question -> approved answer block -> claims -> citation targets. The studio
simulates its first two steps, which is what puts an answer in front of a model: one candidate per question in
the question map ``metadata.primaryAnswers`` names (its text, its variants and the answers of the blocks it
links in ``answers/answer-blocks.json``), and one per answer block no question links. Citation targets, source
surfaces, structured data and monitoring runs stay out: they are citation candidates and observations, never
context (the standard says so of each).

Without the pointer ``answers/`` is not simulated (the walk reports ``not-simulated``), as a client that only
follows the standard's pointers would not read it either.

Both files are JSON of no fixed shape (digest 11.26): a list of records, one record, or an object holding a
list under any key are all read. Reading is bounded: at most ``MAX_FILE_BYTES`` per file (the walk's limit)
and ``MAX_RECORDS`` records per file; a record that is not an object, or has no text, is left out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from studio.core.jsonread import JsonFailure, read_json

ANSWER_BLOCKS = "answers/answer-blocks.json"
MAX_RECORDS = 2000
MAX_FIELD_CHARS = 4000
"""A longer question or answer is cut: a record is one answer, not a document."""
SETTLED_EVIDENCE = frozenset({"verified"})
SETTLED_REVIEW = frozenset({"approved", "reviewed"})


@dataclass(frozen=True, slots=True)
class AnswerItem:
    """One question (with its answers) or one unlinked answer block, ready to be a candidate."""

    path: str
    """The file the record is in: the question map, or the answer-blocks file."""
    record_id: str
    title: str
    text: str
    caution: str | None
    """Why a linked answer is not settled (evidence not verified, review not approved); None when it is."""


def answer_items(question_map: str, read: Callable[[str], bytes | None]) -> tuple[list[AnswerItem], list[str]]:
    """Items from ``question_map`` and the answer blocks; ``read(rel) -> bytes | None`` reads a pack file
    (bounded, inside the pack). Returns the items and the files they came from (so the walk does not list them
    as skipped)."""
    used: list[str] = []
    blocks: dict[str, dict[str, Any]] = {}
    block_records = _records(read(ANSWER_BLOCKS)) if question_map != ANSWER_BLOCKS else []
    if block_records:
        used.append(ANSWER_BLOCKS)
    for record in block_records:
        block_id = _text(record.get("id"))
        if block_id:
            blocks.setdefault(block_id, record)
    items: list[AnswerItem] = []
    linked: set[str] = set()
    data = read(question_map)
    questions = _records(data)
    if data is not None:
        used.append(question_map)
    for record in questions:
        question = _text(record.get("question"))
        if not question:
            # A question map may hold answer blocks itself (a pack pointing primaryAnswers at them).
            own = _block_item(question_map, record)
            if own is not None:
                items.append(own)
            continue
        ids = [_text(i) for i in _list(record.get("answerBlockIds"))]
        found = [blocks[i] for i in ids if i in blocks]
        linked.update(i for i in ids if i in blocks)
        lines = [f"Question: {question}"]
        variants = [v for v in map(_text, _list(record.get("variants"))) if v]
        if variants:
            lines.append("Also asked as: " + "; ".join(variants))
        cautions = []
        for block in found:
            lines.append(f"Answer ({_text(block.get('id'))}): {_text(block.get('answer'))}")
            caution = _caution(block)
            if caution:
                cautions.append(caution)
        missing = [i for i in ids if i and i not in blocks]
        if missing:
            lines.append("Answer blocks not found: " + ", ".join(missing))
        record_id = _text(record.get("id")) or question[:60]
        items.append(AnswerItem(question_map, record_id, question, "\n".join(lines), "; ".join(cautions) or None))
    items.extend(item for block_id, record in blocks.items() if block_id not in linked
                 if (item := _block_item(ANSWER_BLOCKS, record)) is not None)
    return items, used


def _block_item(path: str, record: dict[str, Any]) -> AnswerItem | None:
    answer = _text(record.get("answer"))
    if not answer:
        return None
    block_id = _text(record.get("id")) or answer[:60]
    return AnswerItem(path, block_id, block_id, f"Answer ({block_id}): {answer}", _caution(record))


def _caution(block: dict[str, Any]) -> str | None:
    evidence, review = _text(block.get("evidenceStatus")), _text(block.get("reviewStatus"))
    problems = []
    if evidence not in SETTLED_EVIDENCE:
        problems.append(f"evidence {evidence or 'not stated'}")
    if review not in SETTLED_REVIEW:
        problems.append(f"review {review or 'not stated'}")
    if not problems:
        return None
    return f"answer block {_text(block.get('id')) or '(no id)'}: " + ", ".join(problems)


def _records(data: bytes | None) -> list[dict[str, Any]]:
    if data is None:
        return []
    parsed = read_json(data)
    if isinstance(parsed, JsonFailure):
        return []
    value = parsed.value
    if isinstance(value, dict):
        # One record, or an object holding the list (``{"questions": [...]}``).
        lists = [v for v in value.values() if isinstance(v, list) and any(isinstance(x, dict) for x in v)]
        value = lists[0] if lists and not ("question" in value or "answer" in value) else [value]
    if not isinstance(value, list):
        return []
    return [r for r in value[:MAX_RECORDS] if isinstance(r, dict)]


def _list(value: object) -> Iterable[object]:
    return value[:MAX_RECORDS] if isinstance(value, list) else ()


def _text(value: object) -> str:
    return " ".join(value.split())[:MAX_FIELD_CHARS] if isinstance(value, str) else ""
