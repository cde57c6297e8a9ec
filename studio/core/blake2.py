"""BLAKE2b, the studio's one digest for cache keys, token-count keys and file identities, without ``hashlib``'s import.

``hashlib`` loads OpenSSL's bindings when imported (2 ms, a fiftieth of a warm ``pack-studio search``), yet its
``blake2b`` is always CPython's own ``_blake2`` module: OpenSSL's is never used for it. Commands that only need
BLAKE2b take it from here; SHA-256 still comes from ``hashlib``, imported where it is used.
"""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # an interpreter without CPython's module
    from hashlib import blake2b

__all__ = ["blake2b"]
