#!/bin/sh
# Install (or remove) the desktop entry, the application icon and the AppStream metainfo, so that Knowledge Pack
# Studio shows up in the desktop's application menu and can open folders from the file manager.
#
#   sh packaging/install-desktop.sh              # for you: ${XDG_DATA_HOME:-~/.local/share}
#   sh packaging/install-desktop.sh --prefix /usr/local   # for everyone (as root): /usr/local/share
#   sh packaging/install-desktop.sh --uninstall  # remove what it installed (same --prefix, if one was given)
#
# Install the app first (pipx install . puts pack-studio-gui in ~/.local/bin). Desktop sessions often start
# without ~/.local/bin on their PATH, so the installed entry names the absolute path of the pack-studio-gui
# found now.
set -eu

app_id=io.github.knowledge_pack_studio.KnowledgePackStudio
here=$(cd "$(dirname "$0")" && pwd)
share=${XDG_DATA_HOME:-${HOME:?HOME is not set}/.local/share}
uninstall=0

usage() {
    echo "usage: sh packaging/install-desktop.sh [--prefix DIR] [--uninstall]" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case $1 in
        --prefix) [ $# -ge 2 ] || usage; share=$2/share; shift 2 ;;
        --uninstall) uninstall=1; shift ;;
        -h|--help) echo "usage: sh packaging/install-desktop.sh [--prefix DIR] [--uninstall]"; exit 0 ;;
        *) usage ;;
    esac
done

desktop=$share/applications/$app_id.desktop
metainfo=$share/metainfo/$app_id.metainfo.xml
icons=$share/icons/hicolor

refresh() {
    # Caches are optional: desktops rescan without them, only later.
    if command -v update-desktop-database >/dev/null 2>&1; then
        update-desktop-database -q "$share/applications" 2>/dev/null || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$icons/index.theme" ]; then
        gtk-update-icon-cache -q -t "$icons" 2>/dev/null || true
    fi
}

if [ "$uninstall" = 1 ]; then
    rm -f "$desktop" "$metainfo"
    for icon in "$icons"/*/apps/"$app_id".png "$icons"/*/apps/"$app_id".svg; do
        [ -e "$icon" ] && rm -f "$icon"
    done
    refresh
    # The cache update-desktop-database wrote is ours when no other entry is left beside it.
    if [ -f "$share/applications/mimeinfo.cache" ] && ! ls "$share/applications"/*.desktop >/dev/null 2>&1; then
        rm -f "$share/applications/mimeinfo.cache"
    fi
    # The folders the install made, when nothing else lives in them (rmdir never removes a folder in use).
    for dir in "$icons"/*/apps "$icons"/* "$icons" "$share/icons" "$share/applications" "$share/metainfo"; do
        [ -d "$dir" ] && rmdir "$dir" 2>/dev/null || true
    done
    echo "removed Knowledge Pack Studio's desktop entry, icons and metainfo from $share"
    exit 0
fi

mkdir -p "$share/applications" "$share/metainfo"
gui=$(command -v pack-studio-gui 2>/dev/null || true)
if [ -n "$gui" ]; then
    # The absolute path, escaped for sed; the entry otherwise relies on the session's PATH.
    escaped=$(printf '%s\n' "$gui" | sed 's/[\\&|]/\\&/g')
    sed -e "s|^Exec=pack-studio-gui |Exec=$escaped |" -e "s|^TryExec=pack-studio-gui\$|TryExec=$escaped|" \
        "$here/$app_id.desktop" > "$desktop.tmp"
    mv "$desktop.tmp" "$desktop"
    # A CLI-only install has the launcher but not Qt: the menu entry would start nothing useful. Ask the launcher's
    # own interpreter (its first line) whether it can import PySide6, and say how to add it if not.
    interpreter=$(head -n 1 "$gui" 2>/dev/null | sed -n 's/^#! *//p' | cut -d ' ' -f 1)
    case "$(basename "${interpreter:-none}")" in
        python*)
            if [ -x "$interpreter" ] && ! "$interpreter" -c 'import PySide6' >/dev/null 2>&1; then
                echo "install-desktop: $gui cannot start the app: its Python has no PySide6" \
                     "(install the app with: pipx install '.[gui]')" >&2
            fi ;;
    esac
else
    echo "install-desktop: pack-studio-gui is not on PATH; the menu entry appears once it is (pipx install .)" >&2
    cp "$here/$app_id.desktop" "$desktop"
fi
chmod 644 "$desktop"
cp "$here/$app_id.metainfo.xml" "$metainfo"
(cd "$here/icons/hicolor" && find . -type f -name "$app_id.*") | while read -r rel; do
    mkdir -p "$(dirname "$icons/$rel")"
    cp "$here/icons/hicolor/$rel" "$icons/$rel"
done
refresh
echo "installed Knowledge Pack Studio's desktop entry, icons and metainfo into $share"
