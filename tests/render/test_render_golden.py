"""Golden files: every bundled example at every tier, byte for byte (``STUDIO_REGEN=1`` rewrites them).

Absolute paths differ between machines, so the examples directory is written as ``$EXAMPLES``.
Regenerate only on purpose, and read the diff like code.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.cli import main
from studio.core.pack import load_pack
from studio.core.render.markdown import render_markdown_html

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "resources" / "examples"
GOLDEN = REPO / "tests" / "golden"
REGEN = os.environ.get("STUDIO_REGEN") == "1"
HOSTILE = REPO / "tests" / "data" / "render" / "hostile-notes"
"""A pack made to break the fence: implied profile, disputed, fence-closing text everywhere."""
EXAMPLE_NAMES = sorted(p.name for p in EXAMPLES.iterdir() if (p / "KNOWLEDGE.md").is_file()) \
    if EXAMPLES.is_dir() else []


def _portable(text: str) -> str:
    text = text.replace(str(HOSTILE.parent), "$TESTDATA")
    return text.replace(EXAMPLES.resolve().as_uri(), "file://$EXAMPLES").replace(str(EXAMPLES), "$EXAMPLES")


def _check(name: str, produced: str) -> None:
    path = GOLDEN / name
    produced = _portable(produced)
    if REGEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(produced, encoding="utf-8")
        return
    assert path.is_file(), f"no golden file {name}; run with STUDIO_REGEN=1, then review it"
    assert produced == path.read_text(encoding="utf-8")


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    main(argv)
    return capsys.readouterr().out


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[[list[str]], str]:
    return lambda argv: _cli(argv, capsys)


def test_there_are_examples_to_check() -> None:
    assert EXAMPLE_NAMES


@pytest.mark.parametrize("example", EXAMPLE_NAMES)
def test_catalog_entry(example: str, cli: Callable[[list[str]], str]) -> None:
    _check(f"{example}/catalog.xml", cli(["catalog", str(EXAMPLES / example), "--no-instruction",
                                          "--include-archived"]))


@pytest.mark.parametrize("example", EXAMPLE_NAMES)
def test_guide(example: str, cli: Callable[[list[str]], str]) -> None:
    _check(f"{example}/guide.txt", cli(["guide", str(EXAMPLES / example)]))


@pytest.mark.parametrize("example", EXAMPLE_NAMES)
def test_fence(example: str, cli: Callable[[list[str]], str]) -> None:
    _check(f"{example}/fence.txt", cli(["fence", str(EXAMPLES / example)]))


@pytest.mark.parametrize("example", EXAMPLE_NAMES)
def test_preview(example: str) -> None:
    pack = load_pack(EXAMPLES / example)
    _check(f"{example}/preview.html", render_markdown_html(pack.body, base=pack.root))


def test_catalog_of_all_examples(cli: Callable[[list[str]], str]) -> None:
    _check("catalog-all.txt", cli(["catalog", *(str(EXAMPLES / n) for n in EXAMPLE_NAMES)]))


def test_fence_of_all_examples_in_the_spec_variant(cli: Callable[[list[str]], str]) -> None:
    # One pack per call keeps the CLI simple; the spec variant is checked on the persona example.
    persona = [n for n in EXAMPLE_NAMES if load_pack(EXAMPLES / n).runtime_mode == "persona"]
    for name in persona:
        _check(f"{name}/fence-spec.txt", cli(["fence", str(EXAMPLES / name), "--variant", "spec"]))


def test_hostile_pack_at_every_tier(cli: Callable[[list[str]], str]) -> None:
    _check("hostile-notes/catalog.xml", cli(["catalog", str(HOSTILE), "--no-instruction"]))
    _check("hostile-notes/guide.txt", cli(["guide", str(HOSTILE)]))
    _check("hostile-notes/fence.txt", cli(["fence", str(HOSTILE)]))
    pack = load_pack(HOSTILE)
    _check("hostile-notes/preview.html", render_markdown_html(pack.body, base=pack.root))
