"""Colours, palettes and fonts: light or dark (View ▸ Theme, or the system's), status chip colours, CJK fonts."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from PySide6.QtCore import QObject, Qt, Signal
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


THEMES = ("system", "light", "dark")
"""View ▸ Theme: follow the system's scheme, or always light, or always dark."""


class ThemeSignals(QObject):
    """Signals:
        changed(bool): the theme just applied is dark (True) or light; widgets that keep colours of their own
            (the editor's highlighting, the pack rows' chips) pick new ones.
    """

    changed = Signal(bool)


_state: dict[str, Any] = {"dark": None, "system_dark": None, "choice": "system", "signals": None}


def theme_signals() -> ThemeSignals:
    """The one ``ThemeSignals`` of the application."""
    signals = _state["signals"]
    if signals is None:
        signals = _state["signals"] = ThemeSignals()
    return cast(ThemeSignals, signals)


def system_is_dark() -> bool:
    """Whether the system asks for a dark scheme (Qt 6.5+), else a guess from the palette the app started with."""
    app = QGuiApplication.instance()
    if app is None:
        return False
    scheme = QGuiApplication.styleHints().colorScheme()
    if scheme == Qt.ColorScheme.Dark:
        return True
    if scheme == Qt.ColorScheme.Light:
        return False
    if _state["system_dark"] is None:  # read before any palette of ours replaces the system's
        _state["system_dark"] = QGuiApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128
    return bool(_state["system_dark"])


def is_dark() -> bool:
    """Whether the theme in use is dark (the one applied last; before any, the system's)."""
    dark = _state["dark"]
    return system_is_dark() if dark is None else bool(dark)


def theme_choice() -> str:
    """The View ▸ Theme choice applied last (``system`` until one is)."""
    return str(_state["choice"])


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


def _dark_fusion() -> Any:
    """Fusion with check boxes and radio buttons that can be seen on a dark palette.

    Fusion draws an indicator's border a shade darker than the window colour: on a dark palette that is the
    colour of the lists' background, and an unticked box disappears. This style draws the border again in the
    placeholder-text grey. Used only while the theme is dark (a Python style is asked for every primitive drawn).
    """
    from PySide6.QtWidgets import QProxyStyle, QStyle

    boxes = (QStyle.PrimitiveElement.PE_IndicatorCheckBox, QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck)

    class DarkFusion(QProxyStyle):
        def drawPrimitive(self, element: Any, option: Any, painter: Any, widget: Any = None) -> None:
            super().drawPrimitive(element, option, painter, widget)
            if element in boxes or element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
                painter.save()
                painter.setRenderHint(painter.RenderHint.Antialiasing)
                painter.setPen(option.palette.color(QPalette.ColorRole.PlaceholderText))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                rect = option.rect.adjusted(1, 1, -1, -1)
                if element in boxes:
                    painter.drawRect(rect)
                else:
                    painter.drawEllipse(rect)
                painter.restore()

    style = DarkFusion("Fusion")
    style.setObjectName("studio-dark-fusion")
    return style


def apply_theme(app: QGuiApplication, dark: bool | None = None) -> bool:
    """Use Fusion with a palette matching the system scheme and a font that renders Chinese; returns dark."""
    from PySide6.QtWidgets import QApplication

    system_is_dark()  # remember the system's own palette before replacing it
    dark = system_is_dark() if dark is None else dark
    if isinstance(app, QApplication):
        current = app.style().objectName()
        if dark and current != "studio-dark-fusion":
            app.setStyle(_dark_fusion())
        elif not dark and current.lower() != "fusion":
            app.setStyle("Fusion")
    app.setPalette(dark_palette() if dark else QApplication.style().standardPalette()
                   if isinstance(app, QApplication) else QPalette())
    family = cjk_family()
    if family and not app.property("studio-cjk-font"):
        app.setProperty("studio-cjk-font", True)
        font = QFont(app.font())
        # Keep the platform UI font first and add the CJK family as a fallback for Han characters.
        font.setFamilies([app.font().family(), family])
        app.setFont(font)
    changed = _state["dark"] is not None and _state["dark"] != dark
    _state["dark"] = dark
    if changed:
        theme_signals().changed.emit(dark)
    return dark


def apply_choice(choice: str, app: QGuiApplication | None = None) -> bool:
    """Apply a View ▸ Theme choice (``system``, ``light``, ``dark``) at once; returns whether it is dark.

    With ``system`` the app also follows the system when its scheme changes while the app runs (Qt 6.5+).
    """
    app = app or cast(QGuiApplication, QGuiApplication.instance())
    choice = choice if choice in THEMES else "system"
    _state["choice"] = choice
    if not app.property("studio-follows-scheme"):
        app.setProperty("studio-follows-scheme", True)
        QGuiApplication.styleHints().colorSchemeChanged.connect(_system_scheme_changed)
    return apply_theme(app, None if choice == "system" else choice == "dark")


def _system_scheme_changed(_scheme: object) -> None:
    app = QGuiApplication.instance()
    if _state["choice"] == "system" and isinstance(app, QGuiApplication):
        apply_theme(app, None)


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
