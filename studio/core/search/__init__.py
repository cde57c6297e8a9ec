"""Workspace search and the three retrieval layers: L0 compressed index, L1 full-text search, L2 full files.

Bottom to top: ``textprep`` (how text is tokenised for the engine, how user text becomes a query), ``blocks`` (files
cut into sections), ``files`` (which files of a pack are indexed: the resolver's), ``engine`` (the tantivy index
that ranks), ``store`` (the SQLite file in the cache folder and the engine beside it), ``changes`` (what changed,
read off the writing thread), ``writes``
(storing it), ``indexer`` (build and incremental updates), ``snippets`` and ``query`` (search), ``index``
(``SearchIndex``, the object callers hold); ``keywords`` and ``token_counts`` (an L0 line's keywords and token
count, counts kept in the database), ``compressed`` (the L0 index text) and ``layers`` (the L0 -> L1 -> L2
simulation beside the resolver). Qt-free; nothing here writes into a pack.
"""

from __future__ import annotations

from studio.core.cache_files import default_cache_dir
from studio.core.search.changes import RefreshReport
from studio.core.search.index import IndexInfo, SearchIndex
from studio.core.search.query import SearchHit, SearchResults
from studio.core.search.store import IndexLocationError

__all__ = ["IndexInfo", "IndexLocationError", "RefreshReport", "SearchHit", "SearchIndex", "SearchResults",
           "default_cache_dir"]
