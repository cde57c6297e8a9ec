"""Which files an activation guide lists, and with which ``kind`` (runtime, primary or evidence).

The standard shows one example listing (digest 5.3) and no rule. The rule here follows that example
and the directory x profile matrix of digest 1.2; the cases the standard leaves open are decided as
follows (also written in the README):

- ``compiled/**`` (``compiled/splits/**`` included) is ``runtime`` in every profile.
- The file named by ``metadata.primaryDocument`` is ``primary`` in every profile, listed first.
- Other ``documents/**`` are ``primary`` in document-first and hybrid packs. In wiki-first packs
  (declared or implied) they are secondary exports, listed as ``evidence`` so they stay visible
  without being offered as runtime context.
- ``wiki/**`` is ``primary`` in wiki-first and hybrid packs and ``evidence`` in document-first packs
  (the matrix calls it secondary there, read only for multi-hop questions).
- ``wiki/index.md`` comes first among wiki pages (digest 1.2: related pages, ``wiki/index.md`` first).
- ``ontology/**`` and ``answers/**`` are derived layers loaded as selected subgraphs, so ``runtime``;
  the manifests named by ``metadata.primaryOntology`` / ``metadata.primaryAnswers`` come first.
- ``sources/**`` and ``indexes/source-map.json`` are ``evidence``.
- Not listed: ``KNOWLEDGE.md`` itself (it *is* the guide), ``runs/``, ``evals/``, ``schemas/``,
  ``assets/``, ``scripts/``, other ``indexes/`` files, unknown top-level directories, top-level files
  (``LICENSE`` ...), and hidden files or directories (dot names).
- Symlinks: a symlinked file is listed only if it resolves inside the pack root; symlinked
  directories are never descended (no loops, no escapes). Nothing is opened, only listed.
- At most ``MAX_RESOURCES`` files and ``MAX_DEPTH`` directory levels are walked, so a huge pack
  cannot stall activation; ``ResourceScan.truncated`` says when the limit was hit.

Order: runtime, then primary, then evidence; inside a kind, declared primary files first, then by
path. This is deterministic, which keeps golden files stable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from studio.core.model import Pack
from studio.core.pack_fs import PackFS

MAX_RESOURCES = 2000
MAX_DEPTH = 12


class ResourceKind(StrEnum):
    """The ``kind`` attribute of a ``<file>`` in ``<knowledge_resources>``."""

    RUNTIME = "runtime"
    PRIMARY = "primary"
    EVIDENCE = "evidence"

    @property
    def rank(self) -> int:
        return list(ResourceKind).index(self)


@dataclass(frozen=True, slots=True)
class Resource:
    """One candidate file offered to the resolver."""

    path: str
    """Pack-relative POSIX path."""
    kind: ResourceKind


@dataclass(slots=True)
class ResourceScan:
    """The classified listing, plus whether the walk stopped at a limit."""

    resources: list[Resource] = field(default_factory=list)
    truncated: bool = False


_LISTED_TOP_DIRS = ("compiled", "documents", "wiki", "ontology", "answers", "sources", "indexes")


def classify_resources(pack: Pack) -> list[Resource]:
    """The pack's candidate files with their kind, in listing order (see the module docstring)."""
    return scan_resources(pack).resources


def scan_resources(pack: Pack) -> ResourceScan:
    """Walk the pack (without following symlinks out of it) and classify every listed file."""
    scan = ResourceScan()
    found: list[str] = []
    with PackFS(pack.root) as fs:
        for top in _LISTED_TOP_DIRS:
            if not _walk(fs, top, found):
                scan.truncated = True
                break
    pinned = {p for p in (pack.primary_document, pack.primary_ontology, pack.primary_answers) if p}
    pinned = {_normalise(p) for p in pinned} | {"wiki/index.md"}  # the matrix reads wiki/index.md first
    # Worked out once, not per path: ``primary_document`` resolves its path inside the pack at every call.
    primary, profile = _normalise(pack.primary_document or ""), pack.effective_profile
    for rel in found:
        kind = _classify(_normalise(rel), primary, profile)
        if kind is not None:
            scan.resources.append(Resource(rel, kind))
    scan.resources.sort(key=lambda r: (r.kind.rank, r.path not in pinned, r.path))
    return scan


def classify_path(pack: Pack, rel: str) -> ResourceKind | None:
    """The kind of one pack-relative path, or None when the guide does not list it."""
    return _classify(_normalise(rel), _normalise(pack.primary_document or ""), pack.effective_profile)


def _classify(rel: str, primary: str, profile: str) -> ResourceKind | None:
    """``classify_path`` of a normalised ``rel``, given the pack's normalised primary document and profile."""
    top, _, rest = rel.partition("/")
    if not rest:
        return None  # top-level files are not resources
    if rel == primary:
        return ResourceKind.PRIMARY
    if top == "compiled" or top in ("ontology", "answers"):
        return ResourceKind.RUNTIME
    if top == "documents":
        return ResourceKind.EVIDENCE if profile == "wiki-first" else ResourceKind.PRIMARY
    if top == "wiki":
        return ResourceKind.EVIDENCE if profile == "document-first" else ResourceKind.PRIMARY
    if top == "sources" or rel == "indexes/source-map.json":
        return ResourceKind.EVIDENCE
    return None


def _normalise(rel: str) -> str:
    rel = rel.replace("\\", "/")
    while rel.startswith("./"):
        rel = rel[2:]
    return rel


def _walk(fs: PackFS, top: str, out: list[str]) -> bool:
    """Append regular files under the physical folder ``top`` to ``out`` (one ``pack_fs`` walk, ``MAX_DEPTH``
    levels, symlinked folders never entered, symlinked files listed when they stay inside and end at a regular
    file); False when MAX_RESOURCES was hit or the walk stopped early."""
    tree = fs.walk(top, max_depth=MAX_DEPTH, max_entries=MAX_RESOURCES * 4,
                   enter=lambda _rel, name: not name.startswith("."))
    for entry in tree.files:
        if entry.rel.rsplit("/", 1)[-1].startswith("."):
            continue
        if not entry.is_regular and not (entry.is_link and fs.exists(entry.rel)):
            continue  # FIFOs, sockets, devices; links out of the pack or to folders
        if len(out) >= MAX_RESOURCES:
            return False
        out.append(entry.rel)
    return tree.stopped_at is None
