"""Processes updating one index at the same time while another searches it (real processes, real files).

Writers take turns on SQLite's write lock (the engine is written only inside it); a writer that commits one
update after another must not keep the other out until its wait times out, and a search racing commits and
merges of segments must always answer. An error of the engine that is not damage (the process out of file
descriptors) is said in the result and leaves the index as it is.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

from search_packs import knowledge

from studio.core.search import SearchIndex

SECONDS = 6.0
WAIT_S = 3.0
"""The writers' lock timeout in this test (10 s in the studio), so that a writer kept out fails within the run."""

_WRITER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from studio.core.search import SearchIndex, store
    store.BUSY_TIMEOUT_S = float(sys.argv[4])
    cache, root, seconds = sys.argv[1], Path(sys.argv[2]), float(sys.argv[3])
    index = SearchIndex.open(cache)
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        n += 1
        page = root / "wiki" / f"page{n % 10}.md"
        page.write_text(f"# Page\\n\\nkettle {root.name}x{n}y\\n", encoding="utf-8")
        index.update_paths([page])
        if n % 7 == 0:
            index.maintain()
    index.close()
    print(n)
""")

_READER = textwrap.dedent("""
    import sys, time
    from studio.core.search import SearchIndex
    cache, seconds = sys.argv[1], float(sys.argv[2])
    index = SearchIndex.open(cache)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        result = index.search("kettle", limit=50)
        assert not result.problem and result.hits, result.problem
    assert not index.notices, [n.message for n in index.notices]
    index.close()
""")


def test_two_writers_and_a_reader_share_one_index(make_pack: Callable[..., Path], tmp_path: Path,
                                                  cache_dir: Path) -> None:
    packs = [make_pack(f"pack{k}", knowledge(f"pack{k}"), {
        f"wiki/page{n}.md": f"# Page\n\nkettle pack{k}x0y\n" for n in range(10)}, parent=tmp_path / "packs")
        for k in range(2)]
    index = SearchIndex.open(cache_dir)
    index.refresh(packs)
    index.close()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(cache_dir), str(root), str(SECONDS), str(WAIT_S)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for root in packs]
    procs.append(subprocess.Popen([sys.executable, "-c", _READER, str(cache_dir), str(SECONDS)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env))
    outcomes = [(p.wait(timeout=120), *p.communicate()) for p in procs]
    for code, _, err in outcomes:
        assert code == 0, err[-2000:]
    index = SearchIndex.open(cache_dir)
    try:
        assert index.refresh(packs).indexed == 0  # every update was stored in both halves of the index
        for root in packs:
            for page in sorted((root / "wiki").iterdir()):
                word = page.read_text(encoding="utf-8").split()[-1]
                assert [h.path for h in index.search(word).hits] == [f"wiki/{page.name}"]
    finally:
        index.close()


_OUT_OF_FILES = textwrap.dedent("""
    import json, os, resource, sys
    from pathlib import Path
    from studio.core.search import SearchIndex
    cache, page = sys.argv[1], Path(sys.argv[2])
    index = SearchIndex.open(cache)
    index.search("kettle")
    other = SearchIndex.open(cache)  # another studio adds a segment the first must open at its next search
    page.write_text("# Page\\n\\nkettle changed\\n", encoding="utf-8")
    other.update_paths([page])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 4096), hard))
    held = []
    try:
        while True:
            held.append(os.open(os.devnull, os.O_RDONLY))
    except OSError:
        pass
    result = index.search("kettle")
    for fd in held:
        os.close(fd)
    print(json.dumps({"problem": result.problem, "notices": [n.code for n in index.notices],
                      "files": index.info().files, "after": len(index.search("kettle", limit=50).hits)}))
""")


def test_running_out_of_file_descriptors_is_not_damage(make_pack: Callable[..., Path], tmp_path: Path,
                                                       cache_dir: Path) -> None:
    pack = make_pack("pack", knowledge("pack"), {f"wiki/page{n}.md": f"# Page\n\nkettle {n}\n" for n in range(10)},
                     parent=tmp_path / "packs")
    index = SearchIndex.open(cache_dir)
    index.refresh([pack])
    index.close()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.run([sys.executable, "-c", _OUT_OF_FILES, str(cache_dir), str(pack / "wiki" / "page0.md")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    seen = json.loads(proc.stdout)
    assert "Too many open files" in seen["problem"] and "Try again" in seen["problem"]  # said, and the index kept
    assert seen["notices"] == [] and seen["files"] == 11 and seen["after"] == 10
