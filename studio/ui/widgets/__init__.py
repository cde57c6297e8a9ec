"""Widgets of the main window; each takes core objects or models and calls the core, never parses files."""
