"""Fixtures for the search tests: small packs written per test, and an index in a temp cache folder."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from search_packs import knowledge

from studio.core.search import SearchIndex


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache"


@pytest.fixture
def index(cache_dir: Path) -> Iterator[SearchIndex]:
    idx = SearchIndex.open(cache_dir)
    yield idx
    idx.close()


@pytest.fixture
def kettle(make_pack: Callable[..., Path], tmp_path: Path) -> Path:
    """An English pack with a wiki page, a compiled view, a document and a source."""
    return make_pack("kettle", knowledge("kettle", "Falcon kettle product facts."), {
        "compiled/facts.md": "# Kettle facts\n\nCapacity is 1.7 litres.\n\n## Warranty\n\n"
                             "The warranty lasts two years.\n",
        "wiki/concepts/descaling.md": "# Descaling\n\nDescale the kettle every month.\n"
                                      "Use citric acid, never bleach.\n",
        "documents/brief.md": "# Brief\n\nIntro.\n\n## Boundaries\n\nNever promise a lifetime warranty.\n",
        "sources/interview.txt": "Q: How long is the warranty?\nA: Two years, parts and labour.\n",
        "runs/context-1.json": '{"note": "warranty secret in runs"}',
    }, parent=tmp_path / "packs")


@pytest.fixture
def teahouse(make_pack: Callable[..., Path], tmp_path: Path) -> Path:
    """A Chinese pack."""
    guide = knowledge("teahouse", "山岚茶事的人设知识包。", "# 使用指南\n\n以林悦的口吻写内容。\n")
    return make_pack("teahouse", guide, {
        "compiled/voice.md": "# 声音与语气\n\n说话要具体，少用形容词。\n\n## 禁忌\n\n不评价其他品牌，阶，段落要短。\n",
        "wiki/stories.md": "# 故事素材\n\n林悦小时候跟着外公在茶山上跑。\n",
    }, parent=tmp_path / "packs")


@pytest.fixture
def tree_digest() -> Callable[[Path], dict[str, str]]:
    """Path -> sha256 of every file under a folder (and the folders), to show nothing was written."""
    import hashlib

    def digest(root: Path) -> dict[str, str]:
        out: dict[str, str] = {}
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root).as_posix()
            out[rel] = "dir" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
        return out

    return digest


@pytest.fixture(autouse=True)
def folders_never_sure(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every folder stamp counts as too young to trust, so each refresh walks every pack and stats every file,
    whatever the time the test takes (``test_quick_refresh`` turns this off to test the quick check)."""
    from studio.core.search import folders

    monkeypatch.setattr(folders, "RACY_NS", 10**18)
