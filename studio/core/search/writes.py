"""Writing what changed into the search database, and the lookups the comparison needs."""

from __future__ import annotations

import json
import os
import sqlite3
from typing import Any

from studio.core.search.changes import Known, PackWork, RefreshReport
from studio.core.search.store import Store
from studio.core.search.textprep import index_text


def write(store: Store, works: list[PackWork], report: RefreshReport) -> None:
    if not works:
        return
    with store.write() as conn:
        next_id = (conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'sections'").fetchone() or (0,))[0] + 1
        dead = 0
        for work in works:
            pack_id = pack_row(conn, work)
            for file_id in work.removed:
                dead += drop_file(conn, file_id)
                report.removed += 1
            conn.executemany("UPDATE files SET mtime_ns = ? WHERE id = ?", [(m, i) for i, m in work.touched])
            sections: list[tuple[Any, ...]] = []
            fts: list[tuple[int, str, str, str]] = []
            for read, old_id in work.files:
                st = read.stamp
                if old_id is None:
                    cur = conn.execute(
                        "INSERT INTO files(pack_id, path, layer, size, mtime_ns, digest, title) VALUES (?,?,?,?,?,?,?)",
                        (pack_id, st.path, st.layer, st.size, st.mtime_ns, read.digest, read.title))
                    file_id = int(cur.lastrowid or 0)
                else:
                    file_id = old_id
                    dead += conn.execute("DELETE FROM sections WHERE file_id = ?", (file_id,)).rowcount
                    conn.execute("UPDATE files SET size = ?, mtime_ns = ?, digest = ?, title = ? WHERE id = ?",
                                 (st.size, st.mtime_ns, read.digest, read.title, file_id))
                path_text = index_text(st.path)
                for row in read.rows:
                    sections.append((next_id, file_id, pack_id, row.kind, row.heading, row.start_line, row.end_line))
                    fts.append((next_id, index_text(row.headings), path_text, index_text(row.text)))
                    next_id += 1
                report.indexed += 1
            conn.executemany("INSERT INTO sections(id, file_id, pack_id, kind, heading, start_line, end_line) "
                             "VALUES (?,?,?,?,?,?,?)", sections)
            conn.executemany("INSERT INTO fts(rowid, heading, path, body) VALUES (?,?,?,?)", fts)
        if dead:
            conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'dead'", (dead,))


def pack_row(conn: sqlite3.Connection, work: PackWork) -> int:
    row = conn.execute("SELECT id, name FROM packs WHERE root = ?", (work.root,)).fetchone()
    if row is None:
        name = work.name or os.path.basename(work.root)
        return int(conn.execute("INSERT INTO packs(root, name) VALUES (?, ?)", (work.root, name)).lastrowid or 0)
    if work.name is not None and work.name != row[1]:
        conn.execute("UPDATE packs SET name = ? WHERE id = ?", (work.name, row[0]))
    return int(row[0])


def drop_file(conn: sqlite3.Connection, file_id: int) -> int:
    dead = conn.execute("DELETE FROM sections WHERE file_id = ?", (file_id,)).rowcount
    conn.execute("DELETE FROM files WHERE id = ?", (file_id,))
    return int(dead)


def known_files(store: Store, roots: list[str]) -> dict[str, dict[str, Known]]:
    out: dict[str, dict[str, Known]] = {r: {} for r in roots}
    with store.lock:
        rows = store.conn.execute("SELECT p.root, f.path, f.id, f.size, f.mtime_ns, f.digest FROM files f "
                                  "JOIN packs p ON p.id = f.pack_id WHERE p.root IN (SELECT value FROM json_each(?))",
                                  (json.dumps(roots),)).fetchall()
    for root, path, file_id, size, mtime, digest in rows:
        if root in out:
            out[root][path] = Known(file_id, size, mtime, digest)
    return out


def drop_vanished(store: Store, report: RefreshReport) -> None:
    with store.lock:
        packs = store.conn.execute("SELECT id, root FROM packs").fetchall()
    gone = [pack_id for pack_id, root in packs if not os.path.isdir(root)]
    if not gone:
        return
    with store.write() as conn:
        dead = 0
        for pack_id in gone:
            dead += conn.execute("DELETE FROM sections WHERE pack_id = ?", (pack_id,)).rowcount
            report.removed += conn.execute("DELETE FROM files WHERE pack_id = ?", (pack_id,)).rowcount
            conn.execute("DELETE FROM packs WHERE id = ?", (pack_id,))
        conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'dead'", (dead,))


