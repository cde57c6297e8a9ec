"""Resolver warnings carry catalogue codes: a tool tells them apart by code, and ``rules CODE`` explains each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.core.catalogue import lookup

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.mark.parametrize("pack", ["orbit-launch-notes", "atlas-lending-policy"])
def test_every_resolve_warning_has_a_declared_code_with_its_severity(pack: str,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    main(["resolve", str(EXAMPLES / pack), "--task", "sources evidence citation", "--budget", "300",
          "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    warnings = data["warnings"] + [w for p in data["packs"] for w in p["warnings"]]
    assert warnings
    for warning in warnings:
        entry = lookup(warning["code"])
        assert entry is not None, warning
        assert entry.code.severity.value == warning["severity"]
        assert entry.module == "studio.core.resolver.warning_codes"
    assert "resolve-over-budget" in {w["code"] for w in warnings}


def test_a_gated_status_warning_is_told_by_its_code(capsys: pytest.CaptureFixture[str]) -> None:
    main(["resolve", str(EXAMPLES / "orbit-launch-notes"), "--task", "launch", "--format", "json"])
    codes = {w["code"] for w in json.loads(capsys.readouterr().out)["warnings"]}
    assert {"resolve-pack-status", "resolve-pack-unreviewed"} <= codes


def test_rules_explains_a_resolver_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "resolve-nothing-selected"]) == 0
    assert "nothing was selected" in capsys.readouterr().out
