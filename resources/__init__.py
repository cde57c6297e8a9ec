"""Data package ``studio.resources``: the bundled example packs, icons and pack templates (no code).

The build maps this folder into the installed package (see ``setup.py``); code reaches it through
``studio.core.resources``, never by a path relative to a source file.
"""
