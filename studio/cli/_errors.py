"""The CLI's own exception, in a module of its own so the entry point can catch it without importing the core."""

from __future__ import annotations


class UsageError(ValueError):
    """A command-line value that cannot be used (an unknown pack name, a broken pins file): exit status 2."""
