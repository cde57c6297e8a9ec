"""The desktop app's job panels: resolver simulator, runs browser with evidence, and dispute review.

Each panel is a QWidget built from core objects; it adapts the core and holds no domain logic.
"""
