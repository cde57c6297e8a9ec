"""The candidate walk: records never use up the file limit, and a frozen session shares one walk."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from resolver_packs import DOC_FIRST_FILES, knowledge

from studio.core.model import Pack
from studio.core.pack_fs import PackFS, PackTree
from studio.core.resolver import ResolveRequest, ResolverSession, resolve
from studio.core.resolver import candidates as candidates_module


def test_records_do_not_count_toward_the_file_limit(pack_at: Callable[..., Pack],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    files: dict[str, str | bytes] = dict(DOC_FIRST_FILES)
    files.update({f"runs/context-{i:04d}.json": '{"run_id": "x"}' for i in range(40)})
    pack = pack_at("falcon-kettle", knowledge("falcon-kettle", primary="documents/brief.md"), files)
    monkeypatch.setattr(candidates_module, "MAX_FILES", 12)  # more than the pack's views, fewer than its records
    result = resolve(ResolveRequest("warranty", [pack], budget=4000))
    decisions = result.packs[0].selected + result.packs[0].skipped
    assert not [d for d in decisions if d.reason == "too-many-files"]
    assert "compiled/splits/brief/warranty.md" in {d.path for d in result.packs[0].selected}
    # The forty records are one folder decision, not forty rows.
    assert [d.path for d in decisions if d.path.startswith("runs")] == ["runs/"]


def test_the_limit_still_stops_a_pack_of_too_many_views(pack_at: Callable[..., Pack],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    files: dict[str, str | bytes] = {f"wiki/page-{i:03d}.md": f"# Page {i}\n\nwarranty {i}\n" for i in range(30)}
    pack = pack_at("many-pages", knowledge("many-pages", profile="wiki-first"), files)
    monkeypatch.setattr(candidates_module, "MAX_FILES", 10)
    result = resolve(ResolveRequest("warranty", [pack]))
    assert [d for d in result.packs[0].skipped if d.reason == "too-many-files"]


def test_a_frozen_session_walks_a_pack_once(pack_at: Callable[..., Pack], monkeypatch: pytest.MonkeyPatch) -> None:
    pack = pack_at("falcon-kettle", knowledge("falcon-kettle", primary="documents/brief.md"), DOC_FIRST_FILES)
    walks = []
    real = PackFS.walk

    def counting_walk(self: PackFS, top: str = "", **kwargs: Any) -> PackTree:
        walks.append(top)
        return real(self, top, **kwargs)

    monkeypatch.setattr(PackFS, "walk", counting_walk)
    session = ResolverSession()
    tasks = ["warranty", "pricing in the EU", "delivery dates", "capacity"]
    with session.frozen():
        frozen = [session.resolve(ResolveRequest(tasks[0], [pack])).fenced_text]
        first = len(walks)  # the candidate walk and the compile-record look-up
        frozen += [session.resolve(ResolveRequest(t, [pack])).fenced_text for t in tasks[1:]]
    assert first >= 1 and len(walks) == first
    # Shared candidates give the same answers as fresh resolves.
    assert frozen == [resolve(ResolveRequest(t, [pack])).fenced_text for t in tasks]
    walks.clear()
    session.resolve(ResolveRequest("warranty", [pack]))
    assert len(walks) >= 1  # outside the block the files are checked again
