"""The provenance consistency line says what was compared, and says so when there is nothing to compare with."""

from __future__ import annotations

from runs_support import VALID_COMPILE

from studio.cli import main
from studio.core.pack import load_pack
from studio.core.provenance import read_provenance
from studio.core.runs import read_runs


def consistency(root) -> str:  # type: ignore[no-untyped-def]
    return read_provenance(load_pack(root), read_runs(root)).consistency


def test_no_compile_run_means_nothing_to_compare_not_agreement(runs_pack) -> None:
    root = runs_pack({})
    text = consistency(root)
    assert text.startswith("Nothing to compare producedBy with") and "agrees" not in text


def test_agreement_names_the_run_and_the_fields_compared(runs_pack) -> None:
    root = runs_pack({"runs/compile-2026-05-01T10-30-00Z.json": VALID_COMPILE})
    assert consistency(root) == ("producedBy agrees with the latest compile run "
                                 "(runs/compile-2026-05-01T10-30-00Z.json) on name, version, digest.")


def test_disagreement_and_no_common_field(runs_pack) -> None:
    other = dict(VALID_COMPILE, builder_skill={"name": "other-builder"})
    assert "disagrees" in consistency(runs_pack({"runs/compile-2026-05-01T10-30-00Z.json": other}))
    bare = dict(VALID_COMPILE, builder_skill={"name": "x"})
    root = runs_pack({"runs/compile-2026-05-01T10-30-00Z.json": bare},
                     knowledge="---\nname: demo\ndescription: d\ntype: brand-product\nstatus: ready\nmetadata:\n"
                               "  producedBy:\n    kind: manual\n    version: 1.0.0\n---\n# G\n")
    assert "state no field in common" in consistency(root)


def test_runs_text_prints_the_consistency_line(runs_pack, capsys) -> None:
    root = runs_pack({})
    main(["runs", str(root)])
    assert "Nothing to compare producedBy with" in capsys.readouterr().out
