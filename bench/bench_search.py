"""How fast is workspace search? Build, warm queries, one-file updates and GUI stalls, against floors of the same run.

Figures (goals from issue #29; earlier ones from #18):

- **build**: the index built from nothing over every pack, against the floor of reading every byte of the corpus
  (every file, read whole, measured in the same run right before; goal: within 3x). ``--breakdown`` also times
  FTS5 alone on the same text, the engine the studio used before.
- **query**: p50/p95/max of 50 varied queries (25 English words and phrases, 25 Chinese words of 2-4
  characters, sampled from the corpus with a fixed seed) on the built index, in-process, each after one warm-up
  pass (goal: p95 within 10 ms).
- **update**: one changed file re-indexed with ``update_paths`` in the full-size index (goal: within 100 ms).
- **GUI stall**: the longest gap of a 10 ms heartbeat on the GUI thread while ``SearchService`` builds the index
  from nothing (in its child process) and the Find in Workspace panel searches every 300 ms (goal: under 50 ms).
- ``--tokenizers``: the measurement behind the CJK tokenisation (``studio/core/search/textprep.py``), made with
  FTS5: trigram, CJK characters as tokens (the choice) and CJK bigrams, on the first 200 packs.
- ``--engines``: the measurement behind the engine (``studio/core/search/engine.py``): FTS5 (detail=full and
  detail=column) and tantivy with one and two writer threads, on the same prepared rows.

    python bench/bench_search.py                       # /work/corpus-1k, every figure
    python bench/bench_search.py --packs 200 --no-gui  # quicker
    python bench/bench_search.py --tokenizers          # only the tokenizer comparison

The corpus is read, never written: the update figure works on a copy of one pack, and every index goes to a
temporary folder. Timings on a shared machine are noisy; compare the ratios, and re-run on a quiet one.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from studio.core.pack_fs import PackFS  # noqa: E402
from studio.core.search import SearchIndex  # noqa: E402
from studio.core.search.files import list_pack_files, read_file  # noqa: E402
from studio.core.search.textprep import index_text  # noqa: E402

DEFAULT_CORPUS = Path("/work/corpus-1k")
CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")
WORD = re.compile(r"[a-z]{5,}")


def pack_roots(corpus: Path, limit: int | None) -> list[str]:
    roots: list[str] = []
    for dirpath, dirnames, filenames in os.walk(corpus):
        if "KNOWLEDGE.md" in filenames:
            roots.append(dirpath)
            dirnames[:] = []
        else:
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") or d == ".agents")
    roots.sort()
    return roots[:limit] if limit else roots


def read_floor(folders: list[Path]) -> tuple[float, int]:
    """Seconds to read every byte of every file under ``folders``, and how many bytes that is."""
    started = time.perf_counter()
    total = 0
    for folder in folders:
        for dirpath, _dirnames, filenames in os.walk(folder):
            for name in filenames:
                try:
                    with open(os.path.join(dirpath, name), "rb") as fh:
                        total += len(fh.read())
                except OSError:
                    continue
    return time.perf_counter() - started, total


def sample_queries(roots: list[str], count: int, seed: int = 18) -> list[str]:
    """Half English (words and two-word phrases), half Chinese (2-4 characters), from random files."""
    rng = random.Random(seed)
    english: list[str] = []
    chinese: list[str] = []
    while len(english) < count // 2 or len(chinese) < count - count // 2:
        root = rng.choice(roots)
        files = [f for f in list_pack_files(root).files if f.layer != "guide"]
        if not files:
            continue
        with PackFS(root) as fs:
            read = read_file(fs, rng.choice(files))
        if isinstance(read, str):
            continue
        words = WORD.findall(read.text.lower())
        if words and len(english) < count // 2:
            i = rng.randrange(len(words))
            english.append(" ".join(words[i:i + 2]) if rng.random() < 0.4 else words[i])
        runs = CJK_RUN.findall(read.text)
        if runs and len(chinese) < count - count // 2:
            run = rng.choice(runs)
            size = min(len(run), rng.choice((2, 2, 3, 4)))
            start = rng.randrange(len(run) - size + 1)
            chinese.append(run[start:start + size])
    return english + chinese


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def bench_queries(index: SearchIndex, queries: list[str]) -> dict[str, Any]:
    for q in queries:  # warm-up: page cache, statement cache, regex cache
        index.search(q)
    times = []
    hits = []
    for q in queries:
        started = time.perf_counter()
        found = index.search(q)
        times.append((time.perf_counter() - started) * 1000)
        hits.append(len(found.hits))
    return {"count": len(queries), "load": load(), "p50_ms": round(percentile(times, 0.5), 2),
            "p95_ms": round(percentile(times, 0.95), 2), "max_ms": round(max(times), 2),
            "zero_hit_queries": sum(1 for h in hits if h == 0),
            "slowest": sorted(zip(times, queries, strict=True), reverse=True)[:3]}


def bench_update(index: SearchIndex, corpus_root: str, work: Path, rounds: int = 20) -> dict[str, Any]:
    """Copy one pack, add it to the index, then change one of its files ``rounds`` times."""
    work.mkdir(parents=True, exist_ok=True)
    copy = work / "changed-pack"
    shutil.copytree(corpus_root, copy, symlinks=True)
    index.refresh([copy])
    files = list_pack_files(copy).files
    target = next((f for f in files if f.layer in ("wiki", "document", "compiled")), files[0])
    path = copy / target.path
    base = path.read_text(encoding="utf-8", errors="replace")
    times = []
    for n in range(rounds):
        path.write_text(base + f"\n\nfreshword{n}x appended\n", encoding="utf-8")
        st = path.stat()
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + (n + 1) * 1_000_000_000))
        started = time.perf_counter()
        report = index.update_paths([path])
        times.append((time.perf_counter() - started) * 1000)
        assert report.indexed == 1, report
        index.maintain()  # the app's housekeeping after an update, off the timed path as in the app
    assert index.search(f"freshword{rounds - 1}x").hits, "the change is not searchable"
    return {"file_bytes": len(base.encode()), "rounds": rounds, "load": load(),
            "median_ms": round(statistics.median(times), 2), "max_ms": round(max(times), 2)}


def prepared_rows(roots: list[str]) -> list[tuple[int, str, str, str]]:
    """(row id, headings, path, body) of every row the index would hold, as FTS5 is given them."""
    rows: list[tuple[int, str, str, str]] = []
    for root in roots:
        with PackFS(root) as fs:
            for stamp in list_pack_files(root, fs).files:
                got = read_file(fs, stamp)
                if isinstance(got, str):
                    continue
                path_text = index_text(stamp.path)
                rows.extend((len(rows) + 1, index_text(r.headings), path_text, index_text(r.text)) for r in got.rows)
    return rows


def fts_floor(roots: list[str], work: Path) -> dict[str, float]:
    """FTS5 alone: the same rows inserted into a bare contentless table, the text already read and prepared."""
    started = time.perf_counter()
    rows = prepared_rows(roots)
    prepared = time.perf_counter() - started
    conn = sqlite3.connect(work / "fts-floor.sqlite3")
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("CREATE VIRTUAL TABLE fts USING fts5(heading, path, body, content='', "
                 "tokenize='unicode61 remove_diacritics 2')")
    conn.execute("INSERT INTO fts(fts, rank) VALUES ('hashsize', 16777216)")
    started = time.perf_counter()
    with conn:
        conn.executemany("INSERT INTO fts(rowid, heading, path, body) VALUES (?, ?, ?, ?)", rows)
    inserted = time.perf_counter() - started
    conn.close()
    return {"read_and_prepare_s": round(prepared, 2), "fts5_insert_s": round(inserted, 2)}


def bench_gui(roots: list[str], work: Path) -> dict[str, Any]:
    """Longest GUI-thread stall while the service builds the index and the panel searches now and then."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QElapsedTimer, QTimer

    from studio.ui.app import make_app
    from studio.ui.search_service import SearchService
    from studio.ui.widgets.find_in_workspace import FindInWorkspacePanel

    app = make_app()
    service = SearchService(work / "gui-cache", in_child_process=True)
    panel = FindInWorkspacePanel(service)
    panel.resize(900, 600)
    panel.show()
    clock = QElapsedTimer()
    gaps: list[int] = []
    last = [0]

    def tick() -> None:
        now = clock.elapsed()
        gaps.append(now - last[0])
        last[0] = now

    words = iter(["refund", "语气", "retry", "分区", "token", "schema", "预算", "latency"] * 100)
    typing = QTimer()
    typing.setInterval(300)
    typing.timeout.connect(lambda: (panel.query.setText(next(words)), panel.search_now()))
    beat = QTimer()
    beat.setInterval(10)
    beat.timeout.connect(tick)
    done: list[object] = []
    service.index_ready.connect(done.append)
    for _ in range(20):  # let the window's first frames pass before timing
        app.processEvents()
    clock.start()
    beat.start()
    typing.start()
    started = time.perf_counter()
    service.refresh(roots)
    while not done:
        app.processEvents()
        time.sleep(0.001)
    seconds = time.perf_counter() - started
    beat.stop()
    typing.stop()
    service.close()
    stalls = sorted((g - 10 for g in gaps[1:]), reverse=True)
    return {"build_s": round(seconds, 2), "ticks": len(gaps), "longest_stall_ms": stalls[0] if stalls else 0,
            "stalls_over_50ms": sum(1 for s in stalls if s > 50), "searches": panel.latest > 0}


def compare_tokenizers(roots: list[str], work: Path, queries: list[str]) -> list[dict[str, Any]]:
    """Trigram vs unicode61 + CJK characters vs unicode61 + CJK bigrams: build, size, latency, Chinese recall."""
    texts = []
    for root in roots:
        with PackFS(root) as fs:
            for stamp in list_pack_files(root, fs).files:
                read = read_file(fs, stamp)
                if not isinstance(read, str):
                    texts.extend(r.text for r in read.rows)
    run = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")

    def bigrams(text: str) -> str:
        return run.sub(lambda m: " " + " ".join(a + b for a, b in zip(m.group(), m.group()[1:], strict=False))
                       + " " + m.group()[-1] + " ", text)

    variants = [("trigram", "trigram", lambda t: t, lambda q: '"' + q + '"'),
                ("unicode61 + CJK characters (chosen)", "unicode61 remove_diacritics 2", index_text,
                 lambda q: '"' + " ".join(index_text(q).split()) + '"'),
                ("unicode61 + CJK bigrams", "unicode61 remove_diacritics 2", bigrams,
                 lambda q: '"' + " ".join(a + b for a, b in zip(q, q[1:], strict=False)) + '"'
                 if run.fullmatch(q) and len(q) > 1 else '"' + q + '"')]
    out = []
    for label, tokenizer, prepare, to_query in variants:
        db = work / f"tok-{len(out)}.sqlite3"
        conn = sqlite3.connect(db)
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute(f"CREATE VIRTUAL TABLE f USING fts5(body, content='', tokenize='{tokenizer}')")
        started = time.perf_counter()
        prepared = [(prepare(t),) for t in texts]
        prep_s = time.perf_counter() - started
        started = time.perf_counter()
        with conn:
            conn.executemany("INSERT INTO f(body) VALUES (?)", prepared)
        insert_s = time.perf_counter() - started
        times, zero_zh = [], 0
        for q in queries:
            started = time.perf_counter()
            rows = conn.execute("SELECT rowid FROM f WHERE f MATCH ? ORDER BY bm25(f) LIMIT 50",
                                (to_query(q),)).fetchall()
            times.append((time.perf_counter() - started) * 1000)
            zero_zh += int(not rows and bool(run.search(q)))
        conn.close()
        out.append({"tokenizer": label, "prepare_s": round(prep_s, 2), "insert_s": round(insert_s, 2),
                    "size_mb": round(db.stat().st_size / 1e6, 1), "p95_ms": round(percentile(times, 0.95), 2),
                    "chinese_queries_without_hits": zero_zh})
    return out


def compare_engines(roots: list[str], work: Path, queries: list[str]) -> list[dict[str, Any]]:
    """Candidate engines on the same rows (the studio's sections, CJK spread as the index stores it), the text
    prepared in memory first so that only the engine is timed: build, size, and top-20 queries with bm25 and the
    heading/path/body weights (p50/p95 of the sampled queries, and of the commonest words alone). Candidates:
    FTS5 as shipped (contentless, detail=full), FTS5 with detail=column (no phrases, so no CJK words), and
    tantivy (the ``tantivy`` package, when importable: ``pip install tantivy``)."""
    from studio.core.search.textprep import Query, engine_expression, parse_query

    def fts_expression(query: Query) -> str:
        """FTS5 MATCH text for ``query`` (every term, each a quoted string of its tokens)."""
        return " AND ".join('"' + " ".join(t.tokens) + '"' for t in query.terms)

    rows = prepared_rows(roots)
    common = _commonest_words(rows)
    out = []
    for detail in ("full", "column"):
        db = work / f"engine-{detail}.sqlite3"
        conn = sqlite3.connect(db, isolation_level=None)
        conn.execute(f"CREATE VIRTUAL TABLE fts USING fts5(heading, path, body, content='', "
                     f"tokenize='unicode61 remove_diacritics 2', detail={detail})")
        conn.execute("INSERT INTO fts(fts, rank) VALUES ('hashsize', 134217728)")
        started = time.perf_counter()
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO fts(rowid, heading, path, body) VALUES (?,?,?,?)", rows)
        conn.execute("COMMIT")
        conn.execute("INSERT INTO fts(fts) VALUES ('optimize')")
        build = time.perf_counter() - started

        def run(q: str, conn: sqlite3.Connection = conn) -> None:
            expression = fts_expression(parse_query(q))
            with contextlib.suppress(sqlite3.OperationalError):  # detail=column refuses phrases
                conn.execute(_TOP20, (expression,)).fetchall()
        out.append({"engine": f"FTS5 detail={detail}", "build_s": round(build, 2),
                    "size_mb": round(db.stat().st_size / 1e6, 1)} | _timed(run, queries, common))
        conn.close()
    try:
        import tantivy
    except ImportError:  # a dependency of the studio; kept for a bench run from an older environment
        out.append({"engine": "tantivy", "missing": "pip install tantivy"})
        return out
    from studio.core.search import engine as engine_module

    for threads in (1, 2):
        # The engine as the studio ships it (schema, analyzer, field boosts), with 1 or 2 writer threads.
        folder = work / f"tantivy-{threads}"
        engine = engine_module.Engine(folder, create=True)
        started = time.perf_counter()
        writer = engine.index.writer(engine_module.FRESH_HEAP_BYTES, threads)
        for rowid, heading, path_text, body in rows:
            writer.add_document(tantivy.Document(sid=rowid, fid=rowid, pack=0, kind="wiki", file=path_text,
                                                 heading=heading, path=path_text, body=body))
        writer.commit()
        writer.wait_merging_threads()
        build = time.perf_counter() - started
        searcher = engine.searcher()

        def run_t(q: str, engine: Any = engine, searcher: Any = searcher) -> None:
            expression = engine_expression(parse_query(q), "all", lambda prefix: engine.completions(searcher, prefix))
            if expression is not None:
                engine.top(searcher, engine.parse(expression), 20)
        size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        out.append({"engine": f"tantivy 0.27, {threads} writer thread(s)", "build_s": round(build, 2),
                    "size_mb": round(size / 1e6, 1)} | _timed(run_t, queries, common))
    return out


_TOP20 = "SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts, 8.0, 3.0, 1.0) LIMIT 20"


def _commonest_words(rows: list[tuple[int, str, str, str]], count: int = 5) -> list[str]:
    seen: dict[str, int] = {}
    for _, _, _, body in rows[:5000]:
        for word in set(WORD.findall(body.lower())):
            seen[word] = seen.get(word, 0) + 1
    return sorted(seen, key=lambda w: -seen[w])[:count]


def _timed(run: Any, queries: list[str], common: list[str]) -> dict[str, Any]:
    for q in queries:
        run(q)
    times = []
    for q in queries:
        started = time.perf_counter()
        run(q)
        times.append((time.perf_counter() - started) * 1000)
    common_times = []
    for q in common:
        started = time.perf_counter()
        run(q)
        common_times.append((time.perf_counter() - started) * 1000)
    return {"p50_ms": round(percentile(times, 0.5), 2), "p95_ms": round(percentile(times, 0.95), 2),
            "common_word_max_ms": round(max(common_times), 2), "load": load()}


def load() -> float:
    """The one-minute load average (0 where the system has none): every figure is reported with it."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return 0.0


def bench_build(roots: list[str], folders: list[Path], work: Path, run: int, breakdown: bool) -> tuple[dict[str, Any],
                                                                                                     SearchIndex]:
    """One from-nothing build against the floor measured right before it (warm page cache for both)."""
    read_floor(folders)
    cpu = time.process_time()
    load_before = load()
    floor_s, floor_bytes = read_floor(folders)
    floor_cpu = time.process_time() - cpu
    index = SearchIndex.open(work / f"cache-{run}")
    started, cpu = time.perf_counter(), time.process_time()
    children = _children_cpu()
    report = index.refresh(roots)
    build_s = time.perf_counter() - started
    build_cpu = time.process_time() - cpu + _children_cpu() - children
    started = time.perf_counter()
    index.refresh(roots)  # what re-opening the workspace costs once the index is built
    reopen_s = time.perf_counter() - started
    info = index.info()
    figures = {"floor_s": round(floor_s, 3), "floor_cpu_s": round(floor_cpu, 3), "bytes": floor_bytes,
               "seconds": round(build_s, 2), "cpu_s": round(build_cpu, 2),
               "ratio_to_floor": round(build_s / floor_s, 1), "files": report.files,
               "bytes_read": report.bytes_read, "skipped": dict(report.skipped),
               "index_mb": round(info.bytes / 1e6, 1), "refresh_unchanged_s": round(reopen_s, 2),
               "load": [load_before, load()]}
    if breakdown:
        figures["fts5_alone"] = fts_floor(roots, work)
    return figures, index


def bench_cli(roots: list[str], cache: Path, queries: list[str], rounds: int = 5) -> dict[str, Any]:
    """``pack-studio search`` with the index built (warm) against ``pack-studio --version``, medians of
    ``rounds`` runs each, interleaved so that both see the same load: wall time and CPU time (user + system, which
    the load of a shared machine disturbs less). The search is given the folders holding the packs
    (``.agents/knowledge`` of each project), so that it finds every pack the bench indexed; its result cache is
    a folder of the bench's own, warmed by the first run. Python writes and reuses compiled modules as an installed
    studio does (``PYTHONDONTWRITEBYTECODE`` is dropped): compiling every module on each run is not what a user
    pays."""
    folders = sorted({str(Path(root).parent) for root in roots})
    # ``python -m studio``: ``studio.launcher`` run as a module only defines main and exits at once, measuring nothing.
    exe = [sys.executable, "-m", "studio"] if not shutil.which("pack-studio") else ["pack-studio"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env |= {"PYTHONPATH": str(Path(__file__).resolve().parents[1]), "XDG_CACHE_HOME": str(cache / "xdg")}
    search_argv = [*exe, "search", queries[0], *folders, "--cache-dir", str(cache)]
    for _ in range(2):  # stores folder stamps the build left unsure, fills the result cache, compiles modules
        subprocess.run(search_argv, env=env, capture_output=True, check=False)
    subprocess.run([*exe, "--version"], env=env, capture_output=True, check=False)

    def timed(argv: list[str]) -> tuple[float, float]:
        started, cpu = time.perf_counter(), _children_cpu()
        subprocess.run(argv, env=env, capture_output=True, check=False)
        return time.perf_counter() - started, _children_cpu() - cpu

    version, search = [], []
    for n in range(rounds):
        version.append(timed([*exe, "--version"]))
        search.append(timed([*exe, "search", queries[n % len(queries)], *folders, "--cache-dir", str(cache)]))
    v, s = statistics.median(w for w, _ in version), statistics.median(w for w, _ in search)
    v_cpu, s_cpu = statistics.median(c for _, c in version), statistics.median(c for _, c in search)
    return {"version_s": round(v, 3), "search_s": round(s, 3), "extra_ms": round((s - v) * 1000),
            "version_cpu_s": round(v_cpu, 3), "search_cpu_s": round(s_cpu, 3),
            "extra_cpu_ms": round((s_cpu - v_cpu) * 1000), "load": load()}


def _children_cpu() -> float:
    """CPU seconds of finished child processes (the build's worker processes, when it uses them)."""
    times = os.times()
    return times.children_user + times.children_system


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--packs", type=int, default=None, help="use only the first N packs")
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--runs", type=int, default=1, help="repeat build and queries N times (medians reported)")
    parser.add_argument("--no-gui", action="store_true", help="skip the GUI stall figure")
    parser.add_argument("--breakdown", action="store_true", help="also time FTS5 alone on the same text (the "
                        "engine before tantivy)")
    parser.add_argument("--tokenizers", action="store_true", help="only compare tokenizers (first 200 packs)")
    parser.add_argument("--engines", action="store_true", help="only compare engines (FTS5 variants, tantivy)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"no corpus at {args.corpus} (generate one with make_corpus.py)", file=sys.stderr)
        return 2
    roots = pack_roots(args.corpus, args.packs)
    work = Path(tempfile.mkdtemp(prefix="bench-search-"))
    figures: dict[str, Any] = {"packs": len(roots), "cores": os.cpu_count()}
    try:
        queries = sample_queries(roots, args.queries)
        if args.tokenizers:
            figures["tokenizers"] = compare_tokenizers(roots[:200], work, queries)
        elif args.engines:
            figures["engines"] = compare_engines(roots, work, queries)
        else:
            # The whole corpus, or the packs' folders when only some are used; read once first to warm the page
            # cache, so that the floor and the build both read warm files.
            folders = [Path(r) for r in roots] if args.packs else [args.corpus]
            builds, runs_q, updates = [], [], []
            for run in range(max(1, args.runs)):
                build, index = bench_build(roots, folders, work, run, args.breakdown and run == 0)
                builds.append(build)
                runs_q.append(bench_queries(index, queries))
                if run == 0 and not args.packs:
                    figures["cli"] = bench_cli(roots, work / f"cache-{run}", queries) | {"goal_extra_ms": 100}
                updates.append(bench_update(index, roots[0], work / f"update-{run}"))
                index.close()
                shutil.rmtree(work / f"cache-{run}", ignore_errors=True)
            figures["builds"], figures["queries"], figures["updates"] = builds, runs_q, updates
            figures["build"] = _median_of(builds, ("floor_s", "floor_cpu_s", "seconds", "cpu_s", "ratio_to_floor",
                                                   "refresh_unchanged_s")) | {"goal_ratio": 3}
            figures["query"] = _median_of(runs_q, ("p50_ms", "p95_ms", "max_ms")) | {"goal_p95_ms": 10}
            figures["update"] = _median_of(updates, ("median_ms", "max_ms")) | {"goal_ms": 100}
            if not args.no_gui:
                figures["gui"] = bench_gui(roots, work) | {"goal_ms": 50}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        print(json.dumps(figures, ensure_ascii=False, indent=2))
    else:
        print_summary(figures)
    return 0


def _median_of(runs: list[dict[str, Any]], keys: tuple[str, ...]) -> dict[str, Any]:
    """The first run's figures with ``keys`` replaced by their median over every run."""
    out = dict(runs[0])
    for key in keys:
        out[key] = round(statistics.median(r[key] for r in runs), 3)
    out["runs"] = len(runs)
    return out


def print_summary(f: dict[str, Any]) -> None:
    print(f"packs: {f['packs']}")
    if "engines" in f:
        print("engines, on the same rows prepared in memory (top-20 queries, bm25 with column weights):")
        for row in f["engines"]:
            if "missing" in row:
                print(f"  {row['engine']}: not installed ({row['missing']})")
                continue
            print(f"  {row['engine']:34s} build {row['build_s']:6.2f} s  {row['size_mb']:7.1f} MB  "
                  f"p50 {row['p50_ms']:6.2f} ms  p95 {row['p95_ms']:6.2f} ms  commonest words max "
                  f"{row['common_word_max_ms']:6.2f} ms  [{row['load']}]")
        return
    if "tokenizers" in f:
        print("tokenizers, on the first 200 packs:")
        for row in f["tokenizers"]:
            print(f"  {row['tokenizer']:38s} prepare {row['prepare_s']:6.2f} s  insert {row['insert_s']:6.2f} s  "
                  f"{row['size_mb']:7.1f} MB  p95 {row['p95_ms']:6.2f} ms  Chinese queries without hits "
                  f"{row['chinese_queries_without_hits']}")
        return
    build = f["build"]
    print(f"cores {f['cores']}; medians over {build['runs']} run(s); load averages in brackets")
    for n, b in enumerate(f["builds"]):
        print(f"run {n + 1}  floor {b['floor_s']:.2f} s (cpu {b['floor_cpu_s']:.2f}), build {b['seconds']:.2f} s "
              f"(cpu {b['cpu_s']:.2f}, workers included) = {b['ratio_to_floor']}x  [{b['load'][0]} -> {b['load'][1]}]; "
              f"query p95 {f['queries'][n]['p95_ms']} ms [{f['queries'][n]['load']}]; "
              f"update {f['updates'][n]['median_ms']} ms")
    print(f"floor   read every byte: {build['floor_s']:.2f} s, cpu {build['floor_cpu_s']:.2f} s "
          f"({build['bytes'] / 1e6:.0f} MB)")
    print(f"build   {build['seconds']:.2f} s (cpu {build['cpu_s']:.2f} s) = {build['ratio_to_floor']}x the floor "
          f"(goal 3x); {build['files']} files, {build['bytes_read'] / 1e6:.0f} MB read, index {build['index_mb']} MB")
    print(f"        re-opening (nothing changed: folders stamped, no file read): {build['refresh_unchanged_s']:.2f} s")
    if "fts5_alone" in f["builds"][0]:
        parts = f["builds"][0]["fts5_alone"]
        print(f"        FTS5 alone (the engine before) would need {parts['fts5_insert_s']:.2f} s "
              f"({parts['fts5_insert_s'] / f['builds'][0]['floor_s']:.1f}x the floor); reading and cutting "
              f"the text {parts['read_and_prepare_s']:.2f} s")
    q = f["query"]
    print(f"query   p50 {q['p50_ms']} ms, p95 {q['p95_ms']} ms (goal 10), max {q['max_ms']} ms over {q['count']} "
          f"queries; {q['zero_hit_queries']} without hits")
    u = f["update"]
    print(f"update  one changed file ({u['file_bytes']} bytes): median {u['median_ms']} ms, max {u['max_ms']} ms "
          "(goal 100)")
    if "cli" in f:
        c = f["cli"]
        print(f"cli     warm `pack-studio search` {c['search_s']:.2f} s vs `--version` {c['version_s']:.2f} s: "
              f"{c['extra_ms']} ms more (goal 100); CPU (user + system) {c['search_cpu_s']:.2f} s vs "
              f"{c['version_cpu_s']:.2f} s: {c['extra_cpu_ms']} ms more [{c['load']}]")
    if "gui" in f:
        g = f["gui"]
        print(f"gui     longest stall {g['longest_stall_ms']} ms (goal 50), {g['stalls_over_50ms']} over 50 ms, "
              f"while building for {g['build_s']} s in the child process and searching every 300 ms")


if __name__ == "__main__":
    sys.exit(main())
