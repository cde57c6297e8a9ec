"""``lime-1.31``: the Lime desktop app's knowledge injection (``lime_knowledge::resolve_knowledge_context``).

Sources, all in github.com/limecloud/lime at tag ``v1.31.0`` (commit a87039a31228a226385859d7e021b5add79e622b,
also the newest commit stored); ``lib.rs`` is ``src-tauri/crates/knowledge/src/lib.rs``, ``turn.rs`` is
``src-tauri/src/commands/aster_agent_cmd/runtime_turn.rs``. Read for facts; nothing below is Lime's code.

- Task-blind. The task only goes into the optional run record (``lib.rs`` 1058-1171, 1634-1664); which files are
  read never depends on it (``select_runtime_view_paths``, ``lib.rs`` 3328-3418).
- Budget: characters (Unicode code points) of file content, 24,000 unless the request says otherwise, clamped to
  1,000-120,000 (``lib.rs`` 20, 1063-1066). Lime's own chat sends no ``maxChars`` (``src/features/knowledge/
  agent/knowledgeMetadata.ts`` 217-244, ``turn.rs`` 3064-3105), so 24,000 is what users get; the studio's token
  budget plays no part. The wrapper and Lime's usage note are not counted.
- Packs: the requested pack, then the companions in the order given, a repeated name dropped (``lib.rs``
  1227-1253); a sort puts ``persona`` packs first and keeps that order otherwise (1069-1074, 1281-1287). The
  mode is ``runtime.mode`` as written, else ``persona`` for the types ``personal-profile`` (``personal-ip`` is
  renamed to it) and ``brand-persona``, else ``data`` (1255-1279, 1567-1572, 2277-2334).
- Shares with several packs: each pack may use ``min(left, max(1,000, 50% of the budget / n))`` where n counts
  the persona packs for a persona pack when data packs are present, else the data packs (at least 1); one pack
  alone uses all of it. The loop stops when nothing is left (``lib.rs`` 1082-1101, 1289-1312).
- Files of a pack, the first rule that gives any (``lib.rs`` 3328-3431): (1) the entries of
  ``compiled/index.json`` when it parses as Lime's index (every field of ``KnowledgeCompiledIndex`` and its
  entries, ``lib.rs`` 509-530), ranked by title keywords when ``runtime.mode`` (else the index's
  ``runtimeMode``) is persona (application guide, quotes, personality/voice, values/method,
  abilities/positioning, scripts/scenes, the rest), then by path; only paths that are files;
  (2) every file under ``compiled/splits/``, any extension, in path order (3457-3499); (3) ``compiled/brief.md``
  (with a "legacy brief" warning, 1442-1455); (4) ``metadata.primaryDocument`` when it is under ``documents/``,
  else ``documents/<name>.md``; (5) ``KNOWLEDGE.md`` whole, frontmatter included (2899-2919). So the guide's body,
  ``compiled/briefing.md``, ``facts.md`` and ``boundaries.md`` and a persona pack's voice files are never read
  when splits exist.
- Filling: files in that order while the pack's share lasts; a file longer than what is left is cut to it and
  ``"\\n\\n..."`` added (with a warning), which ends the pack (``lib.rs`` 1383-1434, 3620-3627). Nothing is
  skipped whole to make room for a later file.
- Skips: no type check (any non-empty ``type`` loads, ``custom:...`` or not; ``--allow-custom-types`` changes
  nothing) and no status filter (draft, stale, disputed and archived packs load with a warning, 1328-1365).
  But a pack Lime cannot read stops the whole resolution and the turn goes on with no knowledge at all
  (``turn.rs`` 3107-3119): a name that is not lower-case letters, digits and single hyphens (max 64) or differs
  from the folder, an empty ``description``/``type``/``status``, a field of the wrong shape (``lib.rs`` 175-210,
  2109-2129, 2223-2275), a ``compiled/index.json`` or selected file that is not UTF-8 (3356-3359, 1387-1392).
- Fence (``lib.rs`` 1595-1617, 1436, 1468, 1113-1132; ``turn.rs`` 38, 3120-3160): per pack
  ``<knowledge_pack name status trust grounding mode selected_files>`` (trust ``unreviewed`` and grounding
  ``recommended`` when absent; ``mode`` is ``persona`` or ``data``; ``selected_files`` comma-joined), a fixed
  usage note (persona or data), then each file as ``<!-- path -->`` and its trimmed text, files separated by
  ``---`` lines; packs joined by a blank line, under a runtime-knowledge header in the system prompt with Lime's
  warnings as one status line. ``family=`` and ``injectionMode=`` exist only in the design document
  (``docs/roadmap/knowledge/prd-v2.md`` 717-773), not in the 1.31 code; Lime's own test checks ``mode=``
  (``lib.rs`` 4781-4807).
- Tokens: Lime's own estimate, ``ceil(characters / 4)`` per file content, summed (3629-3631, 1127-1130).

Where the studio differs on purpose: Lime keeps packs in ``.lime/knowledge/packs/<name>/``; a pack opened from a
folder of another name is simulated as if it were there (with a warning). Symlinks are never followed out of the
pack (Lime would follow them); at most ``MAX_FILE_BYTES`` of a file are read (Lime's budget is far smaller).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from studio.core.clients.run import ClientRequest, ClientRun, label
from studio.core.model import Pack
from studio.core.pack_fs import LinkState, PackFS, Status
from studio.core.runtime_files import MAX_FILE_BYTES

NAME = "lime-1.31"
CHARACTER_BUDGET = 24_000
PACK_SHARE_PERCENT = 50
MIN_PACK_SHARE = 1_000
CUT_MARK = "\n\n..."
_PERSONA_TYPES = frozenset({"personal-profile", "personal-ip", "brand-persona"})
# Title keywords that order a persona pack's indexed splits, most important first (lib.rs 3396-3418).
_PERSONA_TITLE_RANKS: tuple[tuple[str, ...], ...] = (
    ("智能体应用指南", "应用指南"), ("金句", "语录"), ("性格", "表达风格", "口吻"), ("价值观", "方法论", "观点"),
    ("能力", "定位"), ("话术", "场景"))
_UNRANKED = 50
_NAME_MAX = 64
_REQUIRED = ("name", "description", "type", "status")
_OPTIONAL_STRINGS = ("profile", "version", "language", "license", "scope", "trust", "grounding")
_INDEX_STRINGS = ("profile", "runtimeMode", "primaryDocument", "generatedAt")
_ENTRY_STRINGS = ("id", "title", "relativePath", "sourceDocument", "sha256")
_ENTRY_COUNTS = ("charCount", "tokenEstimate")
_STATUS_NOTES = {"draft": "not confirmed yet", "needs-review": "not confirmed yet", "stale": "may be out of date",
                 "disputed": "disputed (Lime marks this an error)", "archived": "archived (Lime marks this an error)"}


class LimeStops(Exception):
    """Lime's resolver returns an error: the chat turn goes on without any knowledge."""


@dataclass(frozen=True, slots=True)
class LimePack:
    pack: Pack
    mode: str
    """``runtime.mode`` as written (any string), else the type's default: what orders packs and splits."""

    @property
    def persona(self) -> bool:
        return self.mode == "persona"


def simulate(request: ClientRequest) -> ClientRun:
    run = ClientRun(NAME, token_method="chars/4")
    try:
        packs = lime_packs(request, run)
        fill_packs(request, packs, run)
    except LimeStops as stop:
        run.selected.clear()
        run.tokens = 0
        run.warnings.append(f"{stop} Lime's resolver stops there and the turn goes on with no knowledge.")
        return run
    if run.tokens > request.budget:
        run.warnings.append(f"Lime ignores the task and the token budget: its own estimate of {run.tokens:,} tokens "
                            f"is over the budget of {request.budget:,}.")
    return run


def lime_packs(request: ClientRequest, run: ClientRun) -> list[LimePack]:
    """The packs in Lime's order (persona first, else as given), or LimeStops for the first it cannot read."""
    seen: set[str] = set()
    packs: list[LimePack] = []
    for pack in request.packs:
        key = pack.name.strip().lower()
        if key in seen:
            run.warnings.append(f"{pack.name}: named twice; Lime loads the first only.")
            continue
        seen.add(key)
        refusal = lime_refusal(pack)
        if refusal:
            raise LimeStops(f"{pack.name}: {refusal}.")
        if pack.root.name != pack.name:
            run.warnings.append(f"{pack.name}: Lime keeps a pack in .lime/knowledge/packs/{pack.name}/ and refuses "
                                f"one in a folder named {pack.root.name!r}; simulated as if it were moved there.")
        packs.append(LimePack(pack, lime_mode(pack)))
    packs.sort(key=lambda p: 0 if p.persona else 1)  # stable: the given order within each family
    return packs


def lime_refusal(pack: Pack) -> str | None:
    """Why Lime cannot read ``pack``'s metadata, or None (the shapes its frontmatter model accepts)."""
    data = pack.frontmatter.data if pack.frontmatter is not None else None
    if not isinstance(data, dict):
        return "KNOWLEDGE.md has no frontmatter Lime can read"
    for key in _REQUIRED:
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            return f"{key} is missing or not text"
    if not lime_name_ok(data["name"]):
        return f"name {data['name']!r} is not lower-case letters, digits and single hyphens (at most {_NAME_MAX})"
    for key in _OPTIONAL_STRINGS:
        if data.get(key) is not None and not isinstance(data[key], str):
            return f"{key} is not text"
    maintainers = data.get("maintainers", [])
    if not isinstance(maintainers, list) or not all(isinstance(m, str) for m in maintainers):
        return "maintainers is not a list of text"
    runtime = data.get("runtime")
    if runtime is not None and (not isinstance(runtime, dict) or not isinstance(runtime.get("mode", ""), str | None)):
        return "runtime.mode is not text"
    if not isinstance(data.get("metadata", {}), dict):
        return "metadata is not a mapping"
    return None


def lime_name_ok(name: str) -> bool:
    # The folder is the lower-cased name and must equal the name as written: so only already-valid names pass.
    return (0 < len(name) <= _NAME_MAX and all(c.isascii() and (c.islower() or c.isdigit() or c == "-") for c in name)
            and not name.startswith("-") and not name.endswith("-") and "--" not in name)


def lime_mode(pack: Pack) -> str:
    mode = pack.field("runtime", "mode")
    if isinstance(mode, str):
        return mode
    return "persona" if (pack.type or "") in _PERSONA_TYPES else "data"


def pack_share(budget: int, left: int, packs: list[LimePack], pack: LimePack) -> int:
    """Characters ``pack`` may use: all that is left when alone, else a per-family share of the budget."""
    if len(packs) <= 1:
        return max(left, 1)
    personas = sum(p.persona for p in packs)
    data = len(packs) - personas
    sharing = personas if pack.persona and data else data
    target = budget * PACK_SHARE_PERCENT // 100 // max(sharing, 1)
    return max(min(left, max(target, MIN_PACK_SHARE)), 1)


def fill_packs(request: ClientRequest, packs: list[LimePack], run: ClientRun) -> None:
    left = CHARACTER_BUDGET
    for lime_pack in packs:
        if left <= 0:
            break
        share = pack_share(CHARACTER_BUDGET, left, packs, lime_pack)
        left -= fill_pack(request, lime_pack, share, run)


def fill_pack(request: ClientRequest, lime_pack: LimePack, share: int, run: ClientRun) -> int:
    """Read the pack's files in Lime's order into ``run`` while ``share`` lasts; returns the characters used."""
    pack = lime_pack.pack
    used = 0
    with PackFS(pack.root) as fs:
        for path in view_paths(fs, lime_pack, run):
            if used >= share:
                break
            text = read_text(fs, pack, path)
            if text is None:
                run.warnings.append(f"{label(pack, path, request.packs)}: a link out of the pack; the studio does "
                                    "not follow it (Lime would read it).")
                continue
            chars = len(text)
            if chars > share - used:
                text = text[:share - used] + CUT_MARK
                run.warnings.append(f"{label(pack, path, request.packs)}: cut to {share - used:,} of its {chars:,} "
                                    f"characters (the pack's share of Lime's {CHARACTER_BUDGET:,}-character budget).")
            used += len(text)
            run.selected.append(label(pack, path, request.packs))
            run.tokens += -(-len(text) // 4)
            if path == "compiled/brief.md":
                run.warnings.append(f"{label(pack, path, request.packs)}: no splits; Lime falls back to the legacy "
                                    "compiled brief and asks for the pack to be compiled again.")
    note = _STATUS_NOTES.get(pack.status or "")
    if note or pack.status != "ready":
        run.warnings.append(f"{pack.name}: status {pack.status}: {note or 'unknown to Lime'}; Lime loads it anyway.")
    return used


def view_paths(fs: PackFS, lime_pack: LimePack, run: ClientRun) -> list[str]:
    """The pack files Lime reads, in its order (the first of its five rules that gives any)."""
    indexed = index_paths(fs, lime_pack, run)
    if indexed:
        return indexed
    splits = split_paths(fs, lime_pack.pack, run)
    if splits:
        return splits
    pack = lime_pack.pack
    for path in ("compiled/brief.md", primary_document(pack), "KNOWLEDGE.md"):
        if is_file(fs, path):
            return [path]
    raise LimeStops(f"{pack.name}: no file Lime can inject.")


def index_paths(fs: PackFS, lime_pack: LimePack, run: ClientRun) -> list[str]:
    """``compiled/index.json``'s split paths in Lime's order, or [] when it is absent, not Lime's shape or lists
    no file; LimeStops when it cannot be read as text (Lime gives up then, it does not fall back)."""
    pack = lime_pack.pack
    found = fs.read("compiled/index.json", MAX_FILE_BYTES)
    if found.status is Status.UNREADABLE:
        raise LimeStops(f"{pack.name}: compiled/index.json cannot be read ({found.error or 'unreadable'}).")
    if found.status is not Status.OK or found.data is None:  # absent, a folder, or a link the studio won't follow
        return []
    if found.size > len(found.data):
        run.warnings.append(f"{pack.name}: compiled/index.json is larger than the studio reads; simulated as if "
                            "Lime could not parse it.")
        return []
    try:
        text = found.data.decode("utf-8")
    except UnicodeDecodeError:
        raise LimeStops(f"{pack.name}: compiled/index.json is not UTF-8 text.") from None
    try:
        index = json.loads(text)
    except (ValueError, RecursionError):
        return []
    entries = index_entries(index)
    if entries is None:
        return []
    declared = pack.field("runtime", "mode")
    mode = declared if isinstance(declared, str) else index["runtimeMode"]
    persona = mode == "persona"
    entries.sort(key=lambda e: (title_rank(e["title"]) if persona else _UNRANKED, e["relativePath"]))
    return [path for path in (lime_relative(e["relativePath"]) for e in entries) if path and is_file(fs, path)]


def index_entries(index: Any) -> list[dict[str, Any]] | None:
    """The index's split entries when every field Lime requires is there with its type, else None."""
    if not isinstance(index, dict) or not all(isinstance(index.get(k), str) for k in _INDEX_STRINGS):
        return None
    splits = index.get("splits")
    if not isinstance(splits, list):
        return None
    for entry in splits:
        if not (isinstance(entry, dict) and all(isinstance(entry.get(k), str) for k in _ENTRY_STRINGS)
                and all(_count(entry.get(k)) for k in _ENTRY_COUNTS)
                and isinstance(entry.get("sourceAnchors"), list)
                and all(isinstance(a, str) for a in entry["sourceAnchors"])):
            return None
    return splits


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**32


def title_rank(title: str) -> int:
    lowered = title.lower()
    for rank, words in enumerate(_PERSONA_TITLE_RANKS):
        if any(word in lowered for word in words):
            return rank
    return _UNRANKED


def split_paths(fs: PackFS, pack: Pack, run: ClientRun) -> list[str]:
    """Every file under ``compiled/splits/`` in path order: a link to a file inside the pack counts as that file,
    a link out of it is listed (Lime follows it; ``read_text`` will not), a linked folder is not entered."""
    tree = fs.walk("compiled/splits")
    if tree.stopped_at is not None:
        run.warnings.append(f"{pack.name}: compiled/splits/ has more entries than the studio lists; the rest is "
                            "left out of the simulation.")
    links = {link.rel for link in tree.links if link.state in (LinkState.FILE, LinkState.OUTSIDE)}
    return sorted(f.rel for f in tree.files if f.is_regular or f.rel in links)


def primary_document(pack: Pack) -> str:
    declared = pack.field("metadata", "primaryDocument")
    path = lime_relative(declared) if isinstance(declared, str) else None
    return path if path and path.startswith("documents/") else f"documents/{pack.name}.md"


def lime_relative(path: str) -> str | None:
    """A pack-relative path as Lime accepts one: no leading '/', no '..' step (backslashes read as '/')."""
    normalized = path.strip().replace("\\", "/")
    if not normalized or normalized.startswith("/") or "../" in normalized or "/.." in normalized:
        return None
    return normalized


def is_file(fs: PackFS, path: str) -> bool:
    return fs.exists(path) or fs.kind(path)[0] is Status.OUTSIDE


def read_text(fs: PackFS, pack: Pack, path: str) -> str | None:
    """The file as Lime reads it (strict UTF-8), None for a link out of the pack; LimeStops when unreadable."""
    found = fs.read(path, MAX_FILE_BYTES)
    if found.status in (Status.OUTSIDE, Status.LOOP):
        return None
    if found.status is not Status.OK or found.data is None:
        raise LimeStops(f"{pack.name}: {path} cannot be read ({found.error or found.status.value}).")
    data = found.data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as bad:
        # A read cut at MAX_FILE_BYTES may end inside a character: only that tail is not Lime's concern.
        if found.size > len(data) and bad.start >= len(data) - 3:
            return data[:bad.start].decode("utf-8")
        raise LimeStops(f"{pack.name}: {path} is not UTF-8 text.") from None
