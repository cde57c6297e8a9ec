"""Qt item models that adapt core objects (packs, diagnostics) to views; they translate and never decide."""
