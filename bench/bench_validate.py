"""Benchmark: full validation of a generated workspace against an I/O floor measured in the same run.

Floor = walk the tree (os.walk, same skip rules) + read every KNOWLEDGE.md + load its frontmatter with
PyYAML's C loader. Studio = ``open_workspace`` (scan, parse with positions, every check, collisions).

    python bench/bench_validate.py --corpus /tmp/bench-corpus           # reuse a corpus
    python bench/bench_validate.py --packs 1000 --files-per-pack 40      # generate one first

Prints both times, the ratio and the per-pack cost, and the time with one worker process per core
(findings only, as ``pack-studio validate`` loads). Also checks the
validator against the corpus manifest's planted defects (``expect`` codes) and reports recall.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from studio.core.model import Scope
from studio.core.workspace import ScanLimits, WorkspaceOptions, open_workspace

SKIP = {".git", "node_modules", "indexes", "__pycache__"}
MAKE_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "bench" / "make_corpus.py"


def floor(root: Path) -> tuple[float, int]:
    start = time.perf_counter()
    found = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP and (not d.startswith(".") or d == ".agents")]
        if "KNOWLEDGE.md" in filenames:
            dirnames[:] = []
            data = Path(dirpath, "KNOWLEDGE.md").read_bytes()
            text = data.decode("utf-8", errors="replace")
            if text.startswith("---"):
                end = text.find("\n---", 3)
                with contextlib.suppress(yaml.YAMLError):
                    yaml.load(text[3:end], Loader=yaml.CSafeLoader)
            found += 1
    return time.perf_counter() - start, found


def studio(root: Path, processes: int = 1, findings_only: bool = False) -> tuple[float, object]:
    options = WorkspaceOptions(explicit=[root], project=None, home=None, org_roots=[], builtin=False,
                               limits=ScanLimits(max_depth=12, max_dirs=1_000_000), processes=processes,
                               findings_only=findings_only)
    start = time.perf_counter()
    ws = open_workspace(options)
    return time.perf_counter() - start, ws




def recall(root: Path, ws) -> str:
    manifest = json.loads((root / "manifest.json").read_text())
    by_path = {str(p.root): p for p in ws.packs}
    hit = total = 0
    misses: list[str] = []
    for entry in manifest["entries"]:
        pack = by_path.get(str((root / entry["path"]).resolve())) or by_path.get(str(root / entry["path"]))
        if pack is None:
            continue
        rules = {d.rule for d in pack.diagnostics}
        for code in entry.get("expect", []):
            total += 1
            if code in rules:
                hit += 1
            elif len(misses) < 5:
                misses.append(f"{entry['path']}: {code} ({entry.get('defect', '')})")
    return f"planted defects found: {hit}/{total}" + ("; e.g. missed " + "; ".join(misses) if misses else "")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", type=Path)
    ap.add_argument("--packs", type=int, default=1000)
    ap.add_argument("--files-per-pack", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=9)
    args = ap.parse_args()
    root = args.corpus
    if root is None:
        root = Path(tempfile.mkdtemp(prefix="pack-bench-")) / "corpus"
        subprocess.run([sys.executable, str(MAKE_CORPUS), "--out", str(root), "--packs", str(args.packs),
                        "--files-per-pack", str(args.files_per_pack), "--seed", "0"], check=True)
    floor(root)  # warm the page cache so both sides read from memory
    studio(root)  # and import everything the studio needs, as a running app or CLI already has
    # The machine may be shared: run the three in turns, many times, and report the best of each plus the
    # median of the per-turn ratios (a slow spell hits both sides of one turn alike). CPU time of this
    # process is reported too; it ignores time lost waiting for a core (not meaningful for workers).
    floors, studios, forked, cpu_f, cpu_s = [], [], [], [], []
    ws = None
    found = 0
    cores = os.cpu_count() or 1
    for _ in range(args.repeat):
        c0 = time.process_time()
        f, found = floor(root)
        c1 = time.process_time()
        s, ws = studio(root)
        c2 = time.process_time()
        p, _ = studio(root, cores, findings_only=True)
        floors.append(f)
        studios.append(s)
        forked.append(p)
        cpu_f.append(c1 - c0)
        cpu_s.append(c2 - c1)
    f, s, p = min(floors), min(studios), min(forked)
    paired = statistics.median(b / a for a, b in zip(floors, studios, strict=True))
    paired_p = statistics.median(b / a for a, b in zip(floors, forked, strict=True))
    n = len(ws.packs)  # type: ignore[union-attr]
    scopes = {sc: sum(1 for p in ws.packs if p.scope is sc) for sc in Scope}  # type: ignore[union-attr]
    print(f"packs: floor found {found}, studio loaded {n} {dict((k.value, v) for k, v in scopes.items() if v)}")
    print(f"best of {args.repeat} runs (ratio of bests; median of per-run ratios in brackets)")
    print(f"floor  (walk + read + C YAML): {f * 1000:8.1f} ms")
    print(f"studio (open_workspace):       {s * 1000:8.1f} ms  = {s / f:.2f}x floor [{paired:.2f}x], "
          f"{s / n * 1e6:.0f} us/pack")
    print(f"{cores} worker processes, findings only: {p * 1000:6.1f} ms  = {p / f:.2f}x floor [{paired_p:.2f}x]  "
          f"(what validate does)")
    print(f"CPU time, one process: floor {min(cpu_f) * 1000:.1f} ms, studio {min(cpu_s) * 1000:.1f} ms "
          f"= {min(cpu_s) / min(cpu_f):.2f}x")
    print(recall(root, ws))
    return 0


if __name__ == "__main__":
    sys.exit(main())
