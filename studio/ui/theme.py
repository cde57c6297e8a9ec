"""Colours, palettes and fonts: light or dark following the system, status chip colours, a CJK-capable font."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QGuiApplication, QPalette

# Families known to cover CJK, in order of preference; the first one installed is used.
CJK_FAMILIES = (
    "Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei",
    "WenQuanYi Micro Hei", "Noto Sans CJK JP", "Droid Sans Fallback",
)
MONO_CJK_FAMILIES = ("Noto Sans Mono CJK SC", "Sarasa Mono SC")


@dataclass(frozen=True, slots=True)
class Chip:
    """Colours of one status chip."""

    background: QColor
    foreground: QColor


def status_chip(status: str | None, dark: bool) -> Chip:
    """Chip colours per status: ready green, draft grey, review/stale amber, disputed red, archived muted."""
    palette = {
        "ready": ("#1e7d32", "#2e9d48"),
        "draft": ("#6b7280", "#7b8492"),
        "needs-review": ("#b26a00", "#c98a16"),
        "stale": ("#b26a00", "#c98a16"),
        "disputed": ("#c62828", "#d64545"),
        "archived": ("#9ca3af", "#4b5563"),
    }
    light, darkc = palette.get(status or "", ("#8a8f98", "#5f6670"))
    return Chip(QColor(darkc if dark else light), QColor("#ffffff"))


def is_dark() -> bool:
    """Whether the system asks for a dark scheme (Qt 6.5+), else guess from the window colour."""
    app = QGuiApplication.instance()
    if app is None:
        return False
    scheme = QGuiApplication.styleHints().colorScheme()
    if scheme == Qt.ColorScheme.Dark:
        return True
    if scheme == Qt.ColorScheme.Light:
        return False
    return QGuiApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128


def dark_palette() -> QPalette:
    p = QPalette()
    base, window, text = QColor("#1e1f22"), QColor("#2b2d30"), QColor("#dfe1e5")
    for role, color in (
        (QPalette.ColorRole.Window, window), (QPalette.ColorRole.WindowText, text),
        (QPalette.ColorRole.Base, base), (QPalette.ColorRole.AlternateBase, QColor("#26282b")),
        (QPalette.ColorRole.Text, text), (QPalette.ColorRole.Button, window),
        (QPalette.ColorRole.ButtonText, text), (QPalette.ColorRole.ToolTipBase, QColor("#3c3f41")),
        (QPalette.ColorRole.ToolTipText, text), (QPalette.ColorRole.Highlight, QColor("#2f65ca")),
        (QPalette.ColorRole.HighlightedText, QColor("#ffffff")), (QPalette.ColorRole.Link, QColor("#6ea8ff")),
        (QPalette.ColorRole.PlaceholderText, QColor("#868a91")),
    ):
        p.setColor(role, color)
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor("#6f737a"))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor("#6f737a"))
    return p


def apply_theme(app: QGuiApplication, dark: bool | None = None) -> bool:
    """Use Fusion with a palette matching the system scheme and a font that renders Chinese; returns dark."""
    from PySide6.QtWidgets import QApplication

    dark = is_dark() if dark is None else dark
    if isinstance(app, QApplication):
        app.setStyle("Fusion")
    app.setPalette(dark_palette() if dark else QApplication.style().standardPalette()
                   if isinstance(app, QApplication) else QPalette())
    family = cjk_family()
    if family:
        font = QFont(app.font())
        # Keep the platform UI font first and add the CJK family as a fallback for Han characters.
        font.setFamilies([app.font().family(), family])
        app.setFont(font)
    return dark


@cache
def cjk_family() -> str | None:
    """The first installed font family that covers Simplified Chinese, or None."""
    installed = set(QFontDatabase.families())
    for name in CJK_FAMILIES:
        if name in installed:
            return name
    for name in QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese):
        return name
    return None


@cache
def _editor_families() -> tuple[str, ...]:
    families = [QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family()]
    installed = set(QFontDatabase.families())
    families += [f for f in MONO_CJK_FAMILIES if f in installed]
    cjk = cjk_family()
    if cjk:
        families.append(cjk)
    return tuple(families)


def editor_font() -> QFont:
    """A fixed-pitch font for the editor, with a CJK fallback so Chinese text is not boxes."""
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setFamilies(list(_editor_families()))  # the font list is read once: enumerating fonts is slow
    font.setPointSize(max(font.pointSize(), 10))
    return font
