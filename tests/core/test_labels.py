"""Distinguishing labels: same-name packs never look the same, and unrelated packs never change a label."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from hypothesis import given
from hypothesis import strategies as st

from studio.core.labels import (
    LabelIndex,
    LabelInput,
    PackLabel,
    group_labels,
    pack_labels,
    tab_titles,
    telling_suffixes,
)
from studio.core.model import Scope
from studio.core.pack import load_pack

SCOPES = [s.value for s in Scope]
_names = st.text(alphabet="abcxyz-19.林", min_size=1, max_size=6)
_segments = st.lists(st.sampled_from(["a", "b", "v0.4.0", "v0.7.2", "splits", "acme", "x y", "林"]), min_size=0,
                     max_size=4)


@st.composite
def packs(draw: st.DrawFn) -> list[LabelInput]:
    """Packs with few names, few scopes and short, often overlapping paths: collisions are the point."""
    count = draw(st.integers(1, 8))
    out: dict[PurePosixPath, LabelInput] = {}
    for _ in range(count):
        name = draw(st.sampled_from(["acme", "faq", "boundaries"]) | _names)
        root = PurePosixPath("/", *draw(_segments), draw(st.sampled_from([name, "acme", "copy"])))
        out[root] = LabelInput(name, draw(st.sampled_from(SCOPES)), root)
    return list(out.values())


@given(packs())
def test_labels_of_distinct_packs_are_distinct(items: list[LabelInput]) -> None:
    labels = pack_labels(items)
    texts = [labels[p.root].text for p in items]
    assert len(set(texts)) == len(items), texts
    for item in items:
        assert labels[item.root].text.startswith(item.name)


@given(packs(), _names, st.sampled_from(SCOPES), _segments)
def test_adding_an_unrelated_pack_changes_no_label(items: list[LabelInput], name: str, scope: str,
                                                   segments: list[str]) -> None:
    if name in {p.name for p in items}:
        name = "unrelated-" + name
    root = PurePosixPath("/", "elsewhere", *segments, name)
    if root in {p.root for p in items}:
        return
    before = pack_labels(items)
    after = pack_labels([*items, LabelInput(name, scope, root)])
    assert {r: after[r] for r in before} == before
    assert after[root].text == name


def test_unique_names_stay_bare_and_shared_ones_name_scope_then_the_telling_path() -> None:
    items = [
        LabelInput("acme", "project", PurePosixPath("/work/repo/.agents/knowledge/acme")),
        LabelInput("acme", "user", PurePosixPath("/home/me/.agents/knowledge/acme")),
        LabelInput("brief", "explicit", PurePosixPath("/packs/v0.4.0/brief")),
        LabelInput("brief", "explicit", PurePosixPath("/packs/v0.7.2/brief")),
        LabelInput("faq", "project", PurePosixPath("/work/repo/.agents/knowledge/faq")),
    ]
    labels = {str(root): label.text for root, label in pack_labels(items).items()}
    assert labels == {
        "/work/repo/.agents/knowledge/acme": "acme — project",
        "/home/me/.agents/knowledge/acme": "acme — user",
        "/packs/v0.4.0/brief": "brief — explicit, v0.4.0/",
        "/packs/v0.7.2/brief": "brief — explicit, v0.7.2/",
        "/work/repo/.agents/knowledge/faq": "faq",
    }


def test_differing_folder_names_tell_copies_apart_by_themselves() -> None:
    items = [LabelInput("acme", "project", PurePosixPath("/r/acme")),
             LabelInput("acme", "project", PurePosixPath("/r/acme-old")),
             LabelInput("acme", "project", PurePosixPath("/s/acme-old"))]
    labels = pack_labels(items)
    assert [labels[i.root].text for i in items] == ["acme — project, acme", "acme — project, r/acme-old",
                                                    "acme — project, s/acme-old"]
    assert [labels[i.root].folder for i in items] == ["acme", "r/acme-old", "s/acme-old"]


def test_a_path_that_ends_another_gets_its_whole_form() -> None:
    short, long = PurePosixPath("/a/acme"), PurePosixPath("/x/a/acme")
    assert telling_suffixes([short, long]) == {short: "/a/acme", long: "x/a/acme"}


def test_real_packs_are_labelled_from_their_scope_and_root(tmp_path: Path) -> None:
    for folder in ("one/acme", "two/acme"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "KNOWLEDGE.md").write_text("---\nname: acme\n---\n", encoding="utf-8")
    loaded = [load_pack(tmp_path / "one/acme", Scope.PROJECT), load_pack(tmp_path / "two/acme", Scope.PROJECT)]
    assert sorted(label.text for label in pack_labels(loaded).values()) == [
        "acme — project, one/", "acme — project, two/"]


def test_tab_titles_name_the_shortest_telling_parent() -> None:
    a = PurePosixPath("/p/compiled/splits/product-brief/boundaries.md")
    b = PurePosixPath("/p/compiled/splits/launch/boundaries.md")
    c = PurePosixPath("/p/compiled/briefing.md")
    k1 = PurePosixPath("/x/acme/KNOWLEDGE.md")
    k2 = PurePosixPath("/y/acme/KNOWLEDGE.md")
    assert tab_titles([a, b, c]) == {a: "boundaries.md — product-brief", b: "boundaries.md — launch",
                                     c: "briefing.md"}
    assert tab_titles([k1]) == {k1: "KNOWLEDGE.md — acme"}
    assert tab_titles([k1, k2]) == {k1: "KNOWLEDGE.md — x/acme", k2: "KNOWLEDGE.md — y/acme"}


@given(st.lists(st.lists(st.sampled_from(["a", "b", "splits", "x"]), min_size=0, max_size=4), max_size=6))
def test_tab_titles_of_distinct_files_are_distinct(folders: list[list[str]]) -> None:
    paths = list(dict.fromkeys(PurePosixPath("/", *parts, "boundaries.md") for parts in folders))
    titles = tab_titles(paths)
    assert len(set(titles.values())) == len(paths)


def test_thousands_of_copies_of_one_name_are_labelled_in_linear_time() -> None:
    import time

    items = [LabelInput("same", "explicit", PurePosixPath("/", *[f"d{i % 7}"] * 12, f"v{i}", "same"))
             for i in range(3000)]
    started = time.perf_counter()
    labels = pack_labels(items)
    assert time.perf_counter() - started < 5  # quadratic comparison took minutes here
    assert len({label.text for label in labels.values()}) == 3000


@given(packs(), packs(), st.lists(st.integers(0, 15), max_size=6))
def test_the_label_index_agrees_with_pack_labels_after_any_changes(first: list[LabelInput], second: list[LabelInput],
                                                                    removals: list[int]) -> None:
    """Packs added, replaced (a new name or scope at the same root) and removed one batch at a time: the index's
    labels are those ``pack_labels`` gives for the packs present, and it reports every label that changed."""
    index = LabelIndex()
    present: dict[PurePosixPath, LabelInput] = {}
    before: dict[PurePosixPath, str] = {}
    for step in (first, second):
        changed = set(index.update(step))
        present.update((p.root, p) for p in step)
        gone = [list(present)[i % len(present)] for i in removals] if present and step is second else []
        changed |= set(index.remove(gone))
        for root in gone:
            present.pop(root, None)
        # Name group by name group, as the index works (``pack_labels`` adds a whole-path fallback for two label
        # texts that coincide across names, which the index leaves out).
        expected: dict[PurePosixPath, PackLabel] = {}
        for name in {p.name for p in present.values()}:
            expected.update(group_labels([p for p in present.values() if p.name == name]))  # type: ignore[arg-type]
        assert {root: index.label(root) for root in present} == expected
        assert {r for r in present if before.get(r) != expected[r].text} <= changed
        if len({label.text for label in expected.values()}) == len(expected):
            assert expected == pack_labels(present.values())
        before = {root: label.text for root, label in expected.items()}
        for root in present:
            assert index.namesakes(present[root].name) == sum(p.name == present[root].name for p in present.values())
