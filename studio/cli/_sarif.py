"""``validate --format sarif``: the findings as a SARIF 2.1.0 log, the format code-scanning services read.

One run; ``tool.driver.rules`` is the diagnostic catalogue (``studio.core.catalogue``), each result points into it
by ``ruleId`` and ``ruleIndex``. Files inside the folder the run started in get a relative URI against
``%SRCROOT%`` (GitHub code scanning resolves those against the repository); others get an absolute ``file:`` URI.
Columns count Unicode code points, as the studio's findings do, and the run says so (``columnKind``).
"""

from __future__ import annotations

import os
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import quote

from studio import __version__
from studio.cli._findings import Located, relative_inside, without_surrogates
from studio.core.catalogue import catalogue
from studio.core.diagnostics import Code, Diagnostic, Severity

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"
LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def sarif_log(findings: list[Located], base: Path) -> dict[str, Any]:
    """The SARIF log of ``findings``; ``base`` (absolute) is the folder relative URIs start from."""
    rules, index = _rules()
    results = [_result(item, index[item.diagnostic.code], str(base)) for item in findings]
    driver: dict[str, Any] = {
        "name": "pack-studio",
        "fullName": "Knowledge Pack Studio",
        "version": __version__,
        "semanticVersion": __version__,
        "rules": rules,
    }
    homepage = _homepage()
    if homepage:
        driver["informationUri"] = homepage
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "originalUriBaseIds": {SRCROOT: {"uri": _directory_uri(base)}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }


def _rules() -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The whole catalogue as SARIF rules (every code a finding can carry is declared there; a test holds it)."""
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    for entry in catalogue():
        index[entry.code.code] = len(rules)
        rules.append(_rule(entry.code, entry.module))
    return rules, index


def _rule(code: Code, module: str) -> dict[str, Any]:
    properties: dict[str, Any] = {"behavior": code.behavior.value}
    if code.rule:
        properties["digestRow"] = code.rule
    properties["module"] = module
    rule: dict[str, Any] = {
        "id": code.code,
        "name": "".join(part.capitalize() for part in code.code.split("-")),
        "shortDescription": {"text": without_surrogates(code.doc)},
        "defaultConfiguration": {"level": LEVEL[code.severity]},
        "properties": properties,
    }
    if code.hint:
        rule["help"] = {"text": without_surrogates(code.hint)}
    return rule


def _result(item: Located, rule_index: int, base: str) -> dict[str, Any]:
    d = item.diagnostic
    result: dict[str, Any] = {
        "ruleId": d.code,
        "ruleIndex": rule_index,
        "level": LEVEL[d.severity],
        "message": {"text": without_surrogates(_message(d))},
        "locations": [{"physicalLocation": {
            "artifactLocation": _artifact(item.path, base),
            "region": {"startLine": max(1, d.line), "startColumn": max(1, d.column)},
        }}],
        "properties": {"behavior": d.behavior.value},
    }
    if item.pack:
        result["properties"]["pack"] = without_surrogates(item.pack)
    return result


def _message(d: Diagnostic) -> str:
    """The finding's message followed by its fix hint: code-scanning views show only the message."""
    if not d.hint:
        return d.message
    return f"{d.message}{' ' if d.message.endswith(('.', '!', '?')) else '. '}{d.hint}"


def _artifact(path: str, base: str) -> dict[str, Any]:
    rel = relative_inside(path, base) if path else None
    if rel is not None:
        return {"uri": _quote(rel), "uriBaseId": SRCROOT}
    return {"uri": _file_uri(path or base)}


def _quote(path: str) -> str:
    # Percent-encode the file system's bytes, so an undecodable file name still gives a valid URI.
    return quote(os.fsencode(path), safe="/")


def _file_uri(path: str) -> str:
    return "file://" + _quote(path if path.startswith("/") else "/" + path.replace("\\", "/"))


def _directory_uri(path: Path) -> str:
    uri = _file_uri(str(path))
    return uri if uri.endswith("/") else uri + "/"


def _homepage() -> str | None:
    try:
        urls: list[str] = metadata.metadata("knowledge-pack-studio").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = str(entry).partition(",")
        if label.strip().lower() == "homepage":
            return url.strip()
    return None
