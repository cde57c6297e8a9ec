"""Renderers: pure functions from parsed packs to the text a model (or the preview pane) sees."""
