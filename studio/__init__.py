"""Knowledge Pack Studio: author, validate and debug Agent Knowledge packs."""

from __future__ import annotations

__version__ = "0.1.0"
"""The one place the version is written: the build reads it (pyproject.toml), CHANGELOG.md and the AppStream
metainfo in packaging/ must name it (a test holds them together)."""

APP_ID = "io.github.knowledge_pack_studio.KnowledgePackStudio"
"""Reverse-DNS application id: the desktop entry, icon and AppStream metainfo in packaging/ are named after it."""
