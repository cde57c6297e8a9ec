"""The Qt-free core of Knowledge Pack Studio: discovery, parsing, validation, rendering, resolving, runs."""

from __future__ import annotations
