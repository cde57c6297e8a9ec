#!/usr/bin/env bash
# Build the standalone Linux bundle: a folder with its own Python, Qt, example packs and token-count data, which
# runs on a machine with no Python packages installed and never touches the network. Slow (a few minutes) and
# optional: CI does not run it.
#
#   bash packaging/build-standalone.sh [OUT_DIR]      # default OUT_DIR: dist/standalone
#
# Produces OUT_DIR/pack-studio/ (start OUT_DIR/pack-studio/pack-studio, same commands as the pack-studio CLI; no
# command opens the window) and OUT_DIR/pack-studio-VERSION-linux-ARCH.tar.gz of that folder.
#
# PyInstaller rather than Nuitka or pyside6-deploy (which drives Nuitka): it needs no C compiler, builds in minutes
# rather than tens of minutes on a small machine, and its maintained hooks already collect PySide6's plugins.
# A folder bundle ("onedir") rather than a single file: a single file unpacks itself to /tmp on every start.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$repo/dist/standalone}" && cd "${1:-$repo/dist/standalone}" && pwd)
python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Qt's X11 plugin needs these libraries; the bundle carries whichever the build machine has, so a target machine
# does not need them installed. (The list is studio/ui/launch.py's XCB_LIBRARIES.)
# The cache is read once into a variable: "ldconfig -p | grep -q" under pipefail fails at random, since grep -q
# exits at the first match and ldconfig, still writing, dies of SIGPIPE (status 141).
absent=()
cache=$(ldconfig -p 2>/dev/null || true)
for lib in xcb-cursor.so.0 xcb-icccm.so.4 xcb-image.so.0 xcb-keysyms.so.1 xcb-randr.so.0 xcb-render-util.so.0 \
           xcb-shape.so.0 xcb-xkb.so.1 xkbcommon-x11.so.0; do
    grep -qF "lib$lib " <<<"$cache" || absent+=("lib$lib")
done
if ((${#absent[@]})); then
    echo "build-standalone: warning: ${absent[*]} not installed here, so the bundle will not carry them and needs" \
         "them on the target machine. On Debian/Ubuntu: sudo apt-get install libxcb-cursor0 libxcb-icccm4" \
         "libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 libxcb-shape0 libxcb-xkb1" \
         "libxkbcommon-x11-0" >&2
fi

echo "build-standalone: build environment in $work"
"$python" -m venv "$work/venv"
# The project as a user installs it (a wheel, not editable): the bundle takes its resources from site-packages.
"$work/venv/bin/pip" install -q --upgrade pip
"$work/venv/bin/pip" wheel -q --no-deps -w "$work/wheel" "$repo"
wheel=$(ls "$work"/wheel/knowledge_pack_studio-*.whl)
"$work/venv/bin/pip" install -q "$wheel[gui]" "pyinstaller>=6.10"

rm -rf "$out/pack-studio"
"$work/venv/bin/pyinstaller" --noconfirm --clean --log-level WARN --distpath "$out" --workpath "$work/build" \
    "$repo/packaging/pack-studio.spec"

version=$("$out/pack-studio/pack-studio" --version | awk '{print $2}')
archive="$out/pack-studio-$version-linux-$(uname -m).tar.gz"
tar -C "$out" -czf "$archive" pack-studio
echo "build-standalone: $out/pack-studio ($(du -sh "$out/pack-studio" | cut -f1)), $archive ($(du -sh "$archive" | cut -f1))"
