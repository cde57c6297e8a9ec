"""When did a run happen: the record's own time field, else a time in its file name, else its mtime."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Any

from studio.core.runs.model import TimeSource

TIME_FIELDS = ("timestamp", "finished_at", "completed_at", "started_at", "created_at", "observedAt", "asked_at",
               "date")
# 2026-05-01T10-30-00Z, 2026-05-01T10:30:00Z, 20260507T100000Z, and a bare date 2026-10-15 / 20261015.
_NAME_TIME = re.compile(
    r"(?P<y>\d{4})-?(?P<mo>\d{2})-?(?P<d>\d{2})"
    r"(?:[T_](?P<h>\d{2})[-:]?(?P<mi>\d{2})(?:[-:]?(?P<s>\d{2}))?(?:\.\d+)?(?P<z>Z|[+-]\d{2}:?\d{2})?)?"
)


def parse_time_text(text: str) -> datetime | None:
    """Parse an ISO 8601 string or one of the file-name styles; naive times are taken as UTC."""
    text = text.strip()
    if not text or len(text) > 64:
        return None
    try:
        parsed = datetime.fromisoformat(text.replace("z", "Z"))
    except ValueError:
        parsed = None
    if parsed is None:
        return _time_in(text)
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


def _time_in(text: str) -> datetime | None:
    for match in _NAME_TIME.finditer(text):
        try:
            found = datetime(
                int(match["y"]), int(match["mo"]), int(match["d"]),
                int(match["h"] or 0), int(match["mi"] or 0), int(match["s"] or 0), tzinfo=UTC,
            )
        except ValueError:  # 2026-13-45 is digits, not a date
            continue
        if match["z"] and match["z"] != "Z":
            # Offsets in file names are rare; honour them rather than guess.
            sign = 1 if match["z"][0] == "+" else -1
            digits = match["z"][1:].replace(":", "")

            found -= sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
        return found
    return None


def time_from_data(data: Any) -> datetime | None:
    """The first usable time field of a JSON record (including a time embedded in ``run_id``)."""
    if not isinstance(data, dict):
        return None
    for key in TIME_FIELDS:
        value = data.get(key)
        if isinstance(value, str) and (parsed := parse_time_text(value)) is not None:
            return parsed
        if isinstance(value, datetime):
            return value if value.tzinfo else value.replace(tzinfo=UTC)
        if isinstance(value, date):
            return datetime(value.year, value.month, value.day, tzinfo=UTC)
    run_id = data.get("run_id")
    if isinstance(run_id, str):
        return _time_in(run_id)
    return None


def time_from_name(name: str) -> datetime | None:
    return _time_in(name)


def choose_time(data: Any, name: str, mtime: float | None) -> tuple[datetime | None, TimeSource]:
    """Best available time for a record and where it came from."""
    if (found := time_from_data(data)) is not None:
        return found, TimeSource.FIELD
    if (found := time_from_name(name)) is not None:
        return found, TimeSource.NAME
    if mtime is not None:
        try:
            return datetime.fromtimestamp(mtime, tz=UTC), TimeSource.MTIME
        except (OverflowError, OSError, ValueError):
            pass
    return None, TimeSource.NONE


def format_time(value: datetime | None) -> str:
    """``2026-05-01 10:30:00Z`` for timelines; ``-`` when unknown."""
    return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%SZ") if value else "-"
