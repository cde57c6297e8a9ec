"""Quick Open: an index of pack names and pack file paths, and a fuzzy subsequence matcher that ranks them.

The parts, each its own module:

- ``entries``: what can be opened (a pack by name, a file by ``<pack name>/<path>``) and the case folding
  entries and queries are matched in;
- ``listing``: a pack's file names, read from directory entries only (no file is opened, no symlink is
  followed out of the pack root);
- ``index``: the listed packs as the entries a search runs over, in the order ties are broken in;
- ``scoring``: how well one entry matches a query, and which of its characters matched;
- ``ranking``: a search over an index, best first, which can stop early and be cancelled from a worker;
- ``hit_cache``: recent searches, so a longer query only looks at what a shorter one matched.

The names other modules use are re-exported here.
"""

from studio.core.quick_open.entries import Entry, EntryKind, fold, normalise_query
from studio.core.quick_open.hit_cache import HitCache, is_subsequence
from studio.core.quick_open.index import Index, build_index, tie_order
from studio.core.quick_open.listing import MAX_FILES_PER_PACK, PackListing, list_files, list_pack, list_packs
from studio.core.quick_open.ranking import DEFAULT_LIMIT, Match, Search, match, search
from studio.core.quick_open.scoring import score

__all__ = [
    "DEFAULT_LIMIT",
    "MAX_FILES_PER_PACK",
    "Entry",
    "EntryKind",
    "HitCache",
    "Index",
    "Match",
    "PackListing",
    "Search",
    "build_index",
    "fold",
    "is_subsequence",
    "list_files",
    "list_pack",
    "list_packs",
    "match",
    "normalise_query",
    "score",
    "search",
    "tie_order",
]
