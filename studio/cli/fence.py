"""``pack-studio fence PACK [--files PATH ...] [--variant V]``: the tier-3 runtime fence for one pack.

Without ``--files`` the fence holds the pack's runtime resources (``kind="runtime"`` in the guide); a runtime
file that is a symlink leading out of the pack is not one of them, and stderr names it (the exit status stays 0).
Files are read from inside the pack only (at most 2 MB each), all through one ``PackFS`` of the pack: by
descriptor from its root, so a file that is (or lies behind) a symlink leading out of the pack is never opened,
even when it is swapped in while the fence is read. A file that cannot be read, or that holds
a NUL byte (binary, such as UTF-16 text, which the resolver drops too), is named on stderr, left out, and the
exit status is 1. A pack whose status is not ``ready`` gets the warning the
reference CLI uses; a pack no client would load is said so on stderr, with its errors, and the exit status is 1
(as for ``guide``). stdout holds only the fence; its token count goes to stderr. PACK is a pack directory or a
pack name found in the scopes (``_scope.pack_argument``).
"""

from __future__ import annotations

import argparse
import sys

from studio.cli._output import add_encoding_option
from studio.cli._pack import guide_pack, say_how_a_client_takes
from studio.cli._scope import add_pack_options
from studio.core.model import Pack
from studio.core.pack_fs import LinkState, PackFS, Status, held
from studio.core.paths import is_unsafe_pointer
from studio.core.render.costs import fence_cost
from studio.core.render.fence import FenceItem, FencePack, FenceVariant, render_fence
from studio.core.render.resources import MAX_DEPTH, MAX_RESOURCES, ResourceKind, classify_path, classify_resources
from studio.core.terminal import printable, write_artefact
from studio.core.textfiles import NotText, read_text_bytes
from studio.core.tokens import DEFAULT_ENCODING, get_tokenizer

MAX_FILE_BYTES = 2 * 1024 * 1024
_RUNTIME_TOPS = ("compiled", "ontology", "answers")
"""The folders whose files are runtime resources (``classify_path``)."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("fence", help="print the tier-3 runtime fence for a pack",
                       description="Print the <knowledge_pack> wrapper a client puts around selected context.")
    add_pack_options(p)
    p.add_argument("--files", nargs="+", default=None, metavar="PATH",
                   help="pack-relative files to include (default: the pack's runtime resources)")
    add_variant_option(p)
    add_encoding_option(p)
    p.set_defaults(func=run)


def add_variant_option(p: argparse.ArgumentParser) -> None:
    """``--variant``, as every command that prints a fence takes it."""
    p.add_argument("--variant", choices=[v.value for v in FenceVariant], default=FenceVariant.SUPERSET.value,
                   help="attribute set of the wrapper (default: superset)")


def run(args: argparse.Namespace) -> int:
    pack = guide_pack(args)
    if pack is None:
        return 2
    with PackFS(pack.root) as fs:  # one PackFS for the whole command: every read by descriptor from the root
        if args.files is not None:
            paths = args.files
        else:
            paths = [r.path for r in classify_resources(pack) if r.kind is ResourceKind.RUNTIME]
            note_links_out(pack, fs)
        items, failed = read_items(pack, paths, fs)
    write_fence(pack, items, FenceVariant(args.variant), args.encoding)
    loads = say_how_a_client_takes(pack)
    return 1 if failed or not loads else 0


def write_fence(pack: Pack, items: list[FenceItem], variant: FenceVariant, encoding: str = DEFAULT_ENCODING) -> None:
    """Print the fence of ``items`` on stdout (with the reference CLI's warning for a pack that is not ready) and
    its token count on stderr, so that stdout holds nothing but the fence."""
    warnings = [] if pack.status == "ready" else [f"Pack status is {pack.status or 'missing'}."]
    fp = FencePack(pack, items, warnings)
    write_artefact(sys.stdout, render_fence([fp], variant))
    sys.stderr.write(f"tokens: {printable(fence_cost([fp], variant, get_tokenizer(encoding)).describe())}\n")


def note_links_out(pack: Pack, fs: PackFS) -> None:
    """Name on stderr the runtime files left out of the default fence because they are symlinks leading out of
    the pack (the resource listing skips them silently; the user should know why a file is missing)."""
    for top in _RUNTIME_TOPS:
        tree = fs.walk(top, max_depth=MAX_DEPTH, max_entries=MAX_RESOURCES * 4,
                       enter=lambda _rel, name: not name.startswith("."))
        for link in tree.links:
            if link.state is LinkState.OUTSIDE and classify_path(pack, link.rel) is ResourceKind.RUNTIME:
                sys.stderr.write(f"{printable(link.rel)}: a symlink that leads outside the pack; not read; left out\n")


def read_items(pack: Pack, paths: list[str], fs: PackFS | None = None) -> tuple[list[FenceItem], bool]:
    """Read each pack-relative path through one PackFS of the pack (``fs`` when the caller holds one open);
    unreadable or escaping paths are named on stderr and left out."""
    items: list[FenceItem] = []
    failed = False
    with held(pack.root, fs) as packfs:
        for rel in paths:
            text, why = _read_one(packfs, rel)
            if text is None:
                sys.stderr.write(f"{printable(rel)}: {printable(why)}; left out\n")
                failed = True
                continue
            items.append(FenceItem(rel.replace("\\", "/"), text))
    return items, failed


def _read_one(fs: PackFS, rel: str) -> tuple[str | None, str]:
    """The text of ``rel``, or None and why it is left out.

    ``rel`` is a file's name as the listing gives it, and a name may hold ``#`` (``notes#2.md``): that file is
    read when it exists. Only a path that does not exist as written is read as ``path#fragment`` (what a
    guide's links and a typed ``--files`` may carry)."""
    if is_unsafe_pointer(rel):  # absolute, a drive, '..' or a NUL byte: never looked up
        return None, "not a path inside the pack"
    # The resolver and the injection lint leave out the same files (``read_text_bytes``: binary-file ...).
    data = read_text_bytes(fs, rel, MAX_FILE_BYTES)
    if isinstance(data, NotText) and data.status is Status.MISSING and "#" in rel:
        data = read_text_bytes(fs, rel.split("#", 1)[0], MAX_FILE_BYTES)
    if isinstance(data, NotText):
        return None, data.message
    return data.decode("utf-8", errors="replace"), ""
