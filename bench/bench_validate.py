"""Benchmark: validation of a generated workspace against I/O floors measured in the same run.

Two tiers, each against its own floor:

- KNOWLEDGE.md tier (``validate --fast``). Floor = walk the tree (os.walk, same skip rules) + read every
  KNOWLEDGE.md + load its frontmatter with PyYAML's C loader. Studio = ``open_workspace`` without the content
  checks (scan, parse with positions, every layout check, collisions).
- Content tier (``validate``, the default). Floor = the above + read every byte of every other file in each
  pack + one regex pass over those bytes (``<[!/?A-Za-z]``, the markup opener every fence-breaking scan needs).
  Studio = ``open_workspace`` with the content checks (JSON and runs/ records, modes and links of every file,
  injection and fence-breaking text in every text file).

    python bench/bench_validate.py --corpus /tmp/bench-corpus           # reuse a corpus
    python bench/bench_validate.py --packs 1000 --files-per-pack 40      # generate one first
    python bench/bench_validate.py --corpus /tmp/corpus-10k --whole-process   # the 10,000-pack scale figures

``--whole-process`` times what a user runs instead: ``pack-studio validate --fast --format json`` (and, with
``--tier content`` or ``both``, plain ``validate``) as a fresh process, against a fresh process that walks, reads
every KNOWLEDGE.md and loads its frontmatter with the C YAML loader (the content floor adds every byte and the
regex pass), with the peak memory (max RSS) of each. The directory limit is lifted on both sides
(``--max-dirs``), since the default of 5,000 stops before 10,000 packs.

``--warm`` (issue #28) times ``pack-studio validate`` as a fresh process three ways, in turns: cold (``--no-cache``),
warm (the result cache primed, nothing changed) and the stat floor (a fresh process that walks the tree and
``lstat``s every entry: what any answer to "did anything change?" must do), with the cache's size on disk.
``--against TREE`` times the cold ``validate`` of another tree's studio in the same turns: the issue allows cold
figures 10% worse at most.

Prints both times, the ratio and the per-pack cost, and the time with one worker process per core
(findings only, as ``pack-studio validate`` loads). Also checks the
validator against the corpus manifest's planted defects (``expect`` codes) and reports recall.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
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
CONTENT_SKIP = {".git", "node_modules", "__pycache__"}
MARKUP = re.compile(rb"<[!/?A-Za-z]")
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


def content_floor(root: Path) -> tuple[float, int]:
    """The KNOWLEDGE.md floor, plus every byte of every file of each pack read and scanned once."""
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
            MARKUP.findall(data)
            for inner, subdirs, files in os.walk(dirpath):
                subdirs[:] = [d for d in subdirs if d not in CONTENT_SKIP and not d.startswith(".")]
                for name in files:
                    if inner == dirpath and name == "KNOWLEDGE.md":
                        continue
                    with open(os.path.join(inner, name), "rb") as fh:
                        MARKUP.findall(fh.read())
            found += 1
    return time.perf_counter() - start, found


def studio(root: Path, processes: int = 1, findings_only: bool = False, content: bool = False,
           ) -> tuple[float, object]:
    options = WorkspaceOptions(explicit=[root], project=None, home=None, org_roots=[], builtin=False,
                               limits=ScanLimits(max_depth=12, max_dirs=1_000_000), processes=processes,
                               findings_only=findings_only, content_checks=content)
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
    ap.add_argument("--tier", choices=("knowledge", "content", "both"), default="both")
    ap.add_argument("--whole-process", action="store_true",
                    help="time fresh processes (the CLI as a user runs it) against fresh floor processes")
    ap.add_argument("--warm", action="store_true",
                    help="pack-studio validate cold (--no-cache) and warm (result cache primed) against the stat floor")
    ap.add_argument("--against", type=Path, metavar="TREE",
                    help="with --warm: also time a cold validate of the studio in TREE (a tree of studio/ from "
                         "another commit: git archive COMMIT studio | tar -x -C TREE) in the same turns")
    args = ap.parse_args()
    root = args.corpus
    if root is None:
        root = Path(tempfile.mkdtemp(prefix="pack-bench-")) / "corpus"
        subprocess.run([sys.executable, str(MAKE_CORPUS), "--out", str(root), "--packs", str(args.packs),
                        "--files-per-pack", str(args.files_per_pack), "--seed", "0"], check=True)
    if args.warm:
        warm_and_cold(root, args.repeat, args.against)
        return 0
    if args.whole_process:
        whole_process(root, args.repeat, args.tier)
        return 0
    if args.tier in ("knowledge", "both"):
        knowledge_tier(root, args.repeat)
    if args.tier in ("content", "both"):
        content_tier(root, args.repeat)
    return 0


_FLOOR_PROCESS = """
import contextlib, os, re, sys
from pathlib import Path
import yaml
SKIP = {".git", "node_modules", "indexes", "__pycache__"}
CONTENT_SKIP = {".git", "node_modules", "__pycache__"}
MARKUP = re.compile(rb"<[!/?A-Za-z]")
content = sys.argv[2] == "content"
found = 0
for dirpath, dirnames, filenames in os.walk(sys.argv[1]):
    dirnames[:] = [d for d in dirnames if d not in SKIP and (not d.startswith(".") or d == ".agents")]
    if "KNOWLEDGE.md" in filenames:
        dirnames[:] = []
        data = Path(dirpath, "KNOWLEDGE.md").read_bytes()
        text = data.decode("utf-8", errors="replace")
        if text.startswith("---"):
            with contextlib.suppress(yaml.YAMLError):
                yaml.load(text[3:text.find("\\n---", 3)], Loader=yaml.CSafeLoader)
        if content:
            MARKUP.findall(data)
            for inner, subdirs, files in os.walk(dirpath):
                subdirs[:] = [d for d in subdirs if d not in CONTENT_SKIP and not d.startswith(".")]
                for name in files:
                    if not (inner == dirpath and name == "KNOWLEDGE.md"):
                        with open(os.path.join(inner, name), "rb") as fh:
                            MARKUP.findall(fh.read())
        found += 1
print(found)
"""


def _run_process(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """(wall seconds, peak RSS in MiB, stdout) of one fresh process, as ``/usr/bin/time`` would see them. Started
    in the root folder: ``python -c`` puts its working folder first on the module path, where a checkout would
    shadow the tree an ``env``'s ``PYTHONPATH`` names."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False, env=env, cwd="/")
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux; the largest child so far
    return seconds, max(peak, before) / 1024, done.stdout


def whole_process(root: Path, repeat: int, tier: str) -> None:
    """Fresh processes, in turns: the floor, then ``pack-studio validate`` (see the module docstring)."""
    studio_cmd = [sys.executable, "-c", "import sys; from studio.launcher import main; sys.exit(main())"]
    tiers = [t for t in ("knowledge", "content") if tier in (t, "both")]
    for name in tiers:
        floor_argv = [sys.executable, "-c", _FLOOR_PROCESS, str(root), name]
        fast = ["--fast"] if name == "knowledge" else []
        studio_argv = [*studio_cmd, "validate", *fast, "--max-dirs", "10000000", "--format", "json", str(root)]
        _run_process(floor_argv)  # warm the page cache
        floors, studios = [], []
        packs = found = 0
        for _ in range(repeat):
            f, _rss, out = _run_process(floor_argv)
            found = int(out.strip() or 0)
            s, _rss, out = _run_process(studio_argv)
            packs = json.loads(out)["summary"]["packs"]
            floors.append(f)
            studios.append(s)
        # Peak memory of each side alone (RUSAGE_CHILDREN keeps the largest child ever, so measure in a child).
        f_rss = _peak_rss(floor_argv)
        s_rss = _peak_rss(studio_argv)
        label = "validate --fast" if name == "knowledge" else "validate (content checks)"
        ratios = [b / a for a, b in zip(floors, studios, strict=True)]
        print(f"\n{label}, whole process, {packs} packs (floor found {found}), {repeat} runs in turns")
        print(f"floor  (fresh python: walk + read{' every byte' if name == 'content' else ' KNOWLEDGE.md'} + C YAML"
              f"{' + regex pass' if name == 'content' else ''}): {min(floors):6.2f} s, peak {f_rss:5.0f} MiB")
        print(f"studio (pack-studio {' '.join(['validate', *fast])} --format json): {min(studios):6.2f} s, "
              f"peak {s_rss:5.0f} MiB (parent)")
        print(f"ratio of bests {min(studios) / min(floors):.2f}x floor; median of per-run ratios "
              f"{statistics.median(ratios):.2f}x ({', '.join(f'{r:.2f}' for r in ratios)})")


_STAT_FLOOR = """
import os, sys
entries = 0
stack = [sys.argv[1]]
while stack:
    with os.scandir(stack.pop()) as it:
        for entry in it:
            entry.stat(follow_symlinks=False)
            entries += 1
            if entry.is_dir(follow_symlinks=False):
                stack.append(entry.path)
print(entries)
"""


def warm_and_cold(root: Path, repeat: int, against: Path | None = None) -> None:
    """Cold and warm ``validate`` against the stat floor, fresh processes in turns (see the module docstring);
    with ``against``, the cold ``validate`` of that tree's studio too (the issue allows cold 10% worse at most)."""
    studio_cmd = [sys.executable, "-c", "import sys; from studio.launcher import main; sys.exit(main())"]
    validate = [*studio_cmd, "validate", "--max-dirs", "10000000", "--format", "json", str(root)]
    floor_argv = [sys.executable, "-c", _STAT_FLOOR, str(root)]
    base_env = None if against is None else {**os.environ, "PYTHONPATH": str(against.resolve())}
    base_colds: list[float] = []
    with tempfile.TemporaryDirectory(prefix="kps-cache-") as cache:
        os.environ["XDG_CACHE_HOME"] = cache
        _run_process(floor_argv)  # the page cache and the dentry cache, for every side alike
        _run_process(validate)  # primes the result cache
        base_cold = validate
        if base_env is not None:
            base_env["XDG_CACHE_HOME"] = cache
            helped = _run_process([*studio_cmd, "validate", "--help"], base_env)[2]
            base_cold = [*validate, "--no-cache"] if "--no-cache" in helped else validate  # older: no cache at all
            _run_process(base_cold, base_env)  # its modules compiled, as this tree's are
        floors, colds, warms = [], [], []
        entries = packs = 0
        for _ in range(repeat):
            f, _rss, out = _run_process(floor_argv)
            entries = int(out.strip() or 0)
            if base_env is not None:
                base_colds.append(_run_process(base_cold, base_env)[0])
            c, _rss, out = _run_process([*validate, "--no-cache"])
            cold_summary = json.loads(out)["summary"]
            w, _rss, out = _run_process(validate)
            warm_summary = json.loads(out)["summary"]
            assert warm_summary == cold_summary, (warm_summary, cold_summary)
            packs = warm_summary["packs"]
            floors.append(f)
            colds.append(c)
            warms.append(w)
        size = sum(p.stat().st_size for p in Path(cache).rglob("*") if p.is_file())
    print(f"\nvalidate, {packs} packs, {entries} entries, {repeat} runs in turns (best of each; in brackets the "
          "median of the per-turn ratios, which a shared machine's slow spells disturb less)")
    print(f"stat floor (walk + lstat every entry): {min(floors):6.2f} s")
    for label, times in (("cold  validate --no-cache:        ", colds), ("warm  validate (nothing changed): ", warms)):
        per_turn = statistics.median(t / f for f, t in zip(floors, times, strict=True))
        print(f"{label}    {min(times):6.2f} s = {min(times) / min(floors):5.2f}x floor [{per_turn:.2f}x]")
    if base_colds:
        per_turn = statistics.median(c / b for b, c in zip(base_colds, colds, strict=True))
        print(f"cold  validate of {against}: {min(base_colds):6.2f} s = {min(base_colds) / min(floors):5.2f}x floor; "
              f"this tree's cold / its cold: {min(colds) / min(base_colds):.2f} [{per_turn:.2f}] (goal: at most 1.10)")
    print(f"result cache on disk: {size / 2**20:.1f} MiB")


def _peak_rss(argv: list[str]) -> float:
    """Peak RSS (MiB) of the process ``argv`` starts (its own children not counted), measured from a wrapper."""
    wrapper = ("import resource, subprocess, sys\n"
               "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    done = subprocess.run([sys.executable, "-c", wrapper, *argv], capture_output=True, text=True, check=False)
    return int(done.stdout.strip() or 0) / 1024


def content_tier(root: Path, repeat: int) -> None:
    content_floor(root)  # warm the page cache: every file, both sides read from memory
    studio(root, content=True)  # and import everything the content checks need
    floors, studios, forked, cpu_f, cpu_s = [], [], [], [], []
    ws = None
    cores = os.cpu_count() or 1
    for _ in range(repeat):
        c0 = time.process_time()
        f, _found = content_floor(root)
        c1 = time.process_time()
        s, ws = studio(root, content=True)
        c2 = time.process_time()
        p, _ = studio(root, cores, findings_only=True, content=True)
        floors.append(f)
        studios.append(s)
        forked.append(p)
        cpu_f.append(c1 - c0)
        cpu_s.append(c2 - c1)
    f, s, p = min(floors), min(studios), min(forked)
    n = len(ws.packs)  # type: ignore[union-attr]
    print(f"\ncontent tier (validate), {n} packs, {repeat} runs; ratio of bests, [median of per-run ratios], "
          "(every run's ratio)")
    print(f"floor  (walk + read every byte + one regex pass): {f * 1000:8.1f} ms")
    print(f"studio (open_workspace, content checks, 1 process): {s * 1000:8.1f} ms  = {s / f:.2f}x floor "
          f"[{statistics.median(b / a for a, b in zip(floors, studios, strict=True)):.2f}x] "
          f"({', '.join(f'{b / a:.2f}' for a, b in zip(floors, studios, strict=True))})")
    print(f"{cores} worker processes, findings only (what validate does): {p * 1000:8.1f} ms  = {p / f:.2f}x floor "
          f"[{statistics.median(b / a for a, b in zip(floors, forked, strict=True)):.2f}x] "
          f"({', '.join(f'{b / a:.2f}' for a, b in zip(floors, forked, strict=True))})")
    print(f"CPU time, one process: floor {min(cpu_f) * 1000:.1f} ms, studio {min(cpu_s) * 1000:.1f} ms "
          f"= {min(cpu_s) / min(cpu_f):.2f}x (with N idle cores, validate's wall time is about this over N)")


def knowledge_tier(root: Path, repeat: int) -> None:
    args = argparse.Namespace(repeat=repeat)
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


if __name__ == "__main__":
    sys.exit(main())
