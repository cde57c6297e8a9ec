"""Markdown preview: nothing is fetched, raw HTML stays text, only pack-relative links stay links."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from studio.core.render.markdown import render_markdown_html


def test_raw_html_is_shown_as_text() -> None:
    html = render_markdown_html("<script>alert(1)</script> <img src=http://x/y.png>", base=None)
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<img" not in html


def test_remote_images_become_placeholders_with_alt_text_and_url() -> None:
    html = render_markdown_html("![Front view](https://cdn.example/pro2.png)", base=None)
    assert "<img" not in html
    assert "[image: Front view &#8212; https://cdn.example/pro2.png]" in html


def test_local_images_inside_the_pack_are_shown_others_are_not(make_pack: Callable[..., Path]) -> None:
    root = make_pack("imgs", "---\n---\n", {"assets/pic.png": b"\x89PNG"})
    html = render_markdown_html("![ok](assets/pic.png) ![up](../secret.png) ![gone](assets/no.png)", base=root)
    assert f'<img src="{(root / "assets/pic.png").resolve().as_uri()}" alt="ok" />' in html
    assert html.count("image-placeholder") == 2


def test_only_pack_relative_links_stay_clickable() -> None:
    html = render_markdown_html(
        "[brief](documents/brief.md) [web](https://example.com) [up](../x.md) [top](#facts) [mail](mailto:a@b.c)",
        base=None)
    assert '<a href="documents/brief.md">brief</a>' in html
    assert '<a href="#facts">top</a>' in html
    assert '<span class="external-link" title="https://example.com">web</span>' in html
    assert '<span class="external-link" title="../x.md">up</span>' in html
    assert "mailto" not in html.replace('title="mailto:a@b.c"', "")
    assert html.count("<a ") == 2


def test_code_blocks_are_highlighted_with_inline_styles() -> None:
    html = render_markdown_html("```python\ndef f():\n    return 1\n```\n", base=None)
    assert '<pre class="code"><code class="language-python">' in html
    assert 'style="' in html and "def" in html
    plain = render_markdown_html("```nosuchlang\n<b>\n```\n", base=None)
    assert "&lt;b&gt;" in plain


def test_tables_render() -> None:
    html = render_markdown_html("| a | b |\n|---|---|\n| 1 | 2 |\n", base=None)
    assert "<table>" in html and "<td>2</td>" in html


def test_unopenable_local_targets_are_placeholders(make_pack: Callable[..., Path]) -> None:
    # A name over NAME_MAX makes Path.is_file() raise ENAMETOOLONG on Python 3.11.
    root = make_pack("imgs", "---\n---\n", {"documents/pic.png": b"\x89PNG"})
    long_name = "documents/" + "a" * 300 + ".png"
    html = render_markdown_html(f"![a]({long_name}) ![b](documents/pic.png) [l]({long_name})", base=root)
    assert f"[image: a &#8212; {long_name} (not shown: not a file inside the pack)]" in html
    assert html.count("<img ") == 1
