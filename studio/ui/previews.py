"""What the preview tabs show for one pack, computed in a worker by calling the core renderers.

Nothing here renders XML or Markdown itself: it gathers the core's output and the token count of each
tier so the GUI thread only has to put text into widgets.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from studio.core.model import Pack
from studio.core.pack_fs import PackFS, Status
from studio.core.render.catalog import render_catalog
from studio.core.render.costs import count_tokens
from studio.core.render.fence import FenceItem, FencePack, FenceVariant, render_fence
from studio.core.render.guide import EMPTY_BODY, render_guide
from studio.core.render.markdown import render_markdown_html
from studio.core.render.resources import ResourceKind, ResourceScan, scan_resources
from studio.core.render.tool_form import build_tool_form, render_tool_form
from studio.core.tokens import DEFAULT_ENCODING, get_tokenizer

FENCE_FILE_LIMIT = 256 * 1024
FENCE_MAX_FILES = 40
TOOL_NOTE = ("The guide's resource list as an agent receives it with a read_files tool: ids stay the same across "
             "rescans and edits. pack-studio read-files PACK --ids ID ... shows what the tool returns.")


@dataclass(slots=True)
class Preview:
    """One preview tab: its text and a one-line token count (or why there is none)."""

    text: str
    tokens: str
    note: str = ""
    """Shown above the text when the tier is empty for a reason (archived, quarantined ...)."""


@dataclass(slots=True)
class PackPreviews:
    guide_html: str
    catalog: Preview
    activation: Preview
    fence: Preview
    activation_tool: Preview | None = None
    """The activation "as a tool": the resource list as ``# Input Files`` with stable ids and ``read_files``."""


def failed_previews(reason: str) -> PackPreviews:
    """What the tabs show when building the previews failed: the reason, in place of every count."""
    failed = Preview("", f"cannot count: {reason}", f"The preview could not be built: {reason}")
    return PackPreviews(guide_html=f"<p style='color:#c62828'>The preview could not be built: {html.escape(reason)}"
                        "</p>", catalog=failed, activation=failed, fence=failed)


def runtime_items(pack: Pack, scan: ResourceScan | None = None) -> list[FenceItem]:
    """Every runtime resource (``compiled/``) as a whole-file fence item; the resolver picks finer ones.

    All are read through one PackFS of the pack (by descriptor from its root): a file that is, or becomes while
    this runs, a symlink leading out of the pack is left out, never read.
    """
    items: list[FenceItem] = []
    wanted = [r.path for r in (scan or scan_resources(pack)).resources
              if r.kind is ResourceKind.RUNTIME and r.path.endswith((".md", ".txt"))]
    if not wanted:
        return items
    with PackFS(pack.root) as fs:
        for rel in wanted:
            result = fs.read(rel, FENCE_FILE_LIMIT)
            if result.status is Status.OK and result.data is not None:
                items.append(FenceItem(rel, result.data.decode("utf-8", errors="replace")))
            if len(items) >= FENCE_MAX_FILES:
                break
    return items


def build_previews(pack: Pack, encoding: str = DEFAULT_ENCODING,
                   variant: FenceVariant = FenceVariant.SUPERSET) -> PackPreviews:
    """All four previews for ``pack`` (slow: walks the pack, reads runtime files, counts tokens).

    Tokens are counted with ``encoding`` (an unavailable one gives a reason instead of a number) and the
    fence wrapper carries ``variant``'s attribute set.
    """
    tokenizer = get_tokenizer(encoding)
    html = (render_markdown_html(pack.body, base=pack.root) if pack.body.strip()
            else f"<p style='color:gray'>{EMPTY_BODY}: KNOWLEDGE.md has no text after its frontmatter.</p>")
    catalog = render_catalog([pack])
    note = "" if catalog else (
        "This pack is not listed in the catalog (archived, quarantined, skipped or shadowed)."
    )
    scan = scan_resources(pack)
    guide = render_guide(pack, scan=scan)
    tool_text = render_tool_form(build_tool_form(pack, scan=scan))
    items = runtime_items(pack, scan)
    fence = render_fence([FencePack(pack, items)], variant)
    fence_note = "" if items else "The pack has no runtime files (compiled/) to put in a fence."
    return PackPreviews(
        guide_html=html,
        catalog=Preview(catalog, count_tokens(catalog, tokenizer).describe(), note),
        activation=Preview(guide, count_tokens(guide, tokenizer).describe()),
        fence=Preview(fence, count_tokens(fence, tokenizer).describe(), fence_note),
        activation_tool=Preview(tool_text, count_tokens(tool_text, tokenizer).describe(), TOOL_NOTE),
    )
