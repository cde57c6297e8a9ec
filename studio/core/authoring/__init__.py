"""Authoring: new packs from templates, new files, renames and deletes, quick fixes, completion and formatting.

Everything here is Qt-free and writes only when asked, atomically; the CLI (``new``, ``fix``, ``format``)
and the app's wizard, tree actions and editor assists sit on the same functions.
"""
