"""When did a run happen: the record's own time field, else a time in its file name, else its mtime.

Every time the studio keeps is an aware UTC ``datetime``, so ordering, comparing and formatting can never fail.
A written time that has no such form (``0001-01-01T00:00:00+14:00`` is in year 0 in UTC; ``9999-12-31T23:00-02:00``
is in year 10000) is not an exception: it is a ``TimeProblem`` the reader turns into a finding on the record, and
the next source of a time is tried instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
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
OUT_OF_RANGE = "is outside the times the studio can place on a timeline (years 1 to 9999 in UTC)"


@dataclass(frozen=True, slots=True)
class TimeProblem:
    """A written time that could not be used, and where it was written."""

    where: str
    """``timestamp`` (a field name), ``run_id`` or ``file name``."""
    text: str
    reason: str = OUT_OF_RANGE


@dataclass(slots=True)
class TimeChoice:
    """The time a record is placed at, where it came from, and the written times that had to be passed over."""

    time: datetime | None
    source: TimeSource
    problems: list[TimeProblem] = field(default_factory=list)


def parse_time_text(text: str) -> datetime | None:
    """Parse an ISO 8601 string or one of the file-name styles; naive times are taken as UTC.

    None when ``text`` holds no time, or one outside the UTC range (``check_time_text`` says which).
    """
    found = check_time_text(text)
    return found if isinstance(found, datetime) else None


def check_time_text(text: str) -> datetime | TimeProblem | None:
    """Like ``parse_time_text``, but an out-of-range time is a ``TimeProblem`` (``where`` left empty)."""
    text = text.strip()
    if not text or len(text) > 64:
        return None
    try:
        parsed = datetime.fromisoformat(text.replace("z", "Z"))
    except ValueError:
        return _time_in(text)
    return _as_utc(parsed, text)


def _as_utc(value: datetime, text: str) -> datetime | TimeProblem:
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except (OverflowError, ValueError):  # year 0 or 10000 once the offset is applied
        return TimeProblem("", text)


def _time_in(text: str) -> datetime | TimeProblem | None:
    for match in _NAME_TIME.finditer(text):
        try:
            found = datetime(
                int(match["y"]), int(match["mo"]), int(match["d"]),
                int(match["h"] or 0), int(match["mi"] or 0), int(match["s"] or 0), tzinfo=UTC,
            )
        except ValueError:  # 2026-13-45 is digits, not a date; year 0000 is not a year
            continue
        if match["z"] and match["z"] != "Z":
            # Offsets in file names are rare; honour them rather than guess.
            sign = 1 if match["z"][0] == "+" else -1
            digits = match["z"][1:].replace(":", "")
            try:
                found -= sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
            except OverflowError:
                return TimeProblem("", match.group())
        return found
    return None


def time_from_data(data: Any, problems: list[TimeProblem] | None = None) -> datetime | None:
    """The first usable time field of a JSON record (including a time embedded in ``run_id``).

    Out-of-range times are skipped (the next field is tried) and appended to ``problems``.
    """
    if not isinstance(data, dict):
        return None
    for key in TIME_FIELDS:
        value = data.get(key)
        found: datetime | TimeProblem | None = None
        if isinstance(value, str):
            found = check_time_text(value)
        elif isinstance(value, datetime):
            found = _as_utc(value, value.isoformat())
        elif isinstance(value, date):
            found = datetime(value.year, value.month, value.day, tzinfo=UTC)
        if isinstance(found, datetime):
            return found
        if isinstance(found, TimeProblem) and problems is not None:
            problems.append(TimeProblem(key, found.text, found.reason))
    run_id = data.get("run_id")
    if isinstance(run_id, str):
        found = _time_in(run_id)
        if isinstance(found, datetime):
            return found
        if isinstance(found, TimeProblem) and problems is not None:
            problems.append(TimeProblem("run_id", found.text, found.reason))
    return None


def time_from_name(name: str, problems: list[TimeProblem] | None = None) -> datetime | None:
    found = _time_in(name)
    if isinstance(found, TimeProblem):
        if problems is not None:
            problems.append(TimeProblem("file name", found.text, found.reason))
        return None
    return found


def choose(data: Any, name: str, mtime: float | None) -> TimeChoice:
    """Best available time for a record, where it came from, and the written times that could not be used."""
    problems: list[TimeProblem] = []
    if (found := time_from_data(data, problems)) is not None:
        return TimeChoice(found, TimeSource.FIELD, problems)
    if (found := time_from_name(name, problems)) is not None:
        return TimeChoice(found, TimeSource.NAME, problems)
    if mtime is not None:
        try:
            return TimeChoice(datetime.fromtimestamp(mtime, tz=UTC), TimeSource.MTIME, problems)
        except (OverflowError, OSError, ValueError):
            pass
    return TimeChoice(None, TimeSource.NONE, problems)


def choose_time(data: Any, name: str, mtime: float | None) -> tuple[datetime | None, TimeSource]:
    """Best available time for a record and where it came from (``choose`` also says what was passed over)."""
    choice = choose(data, name, mtime)
    return choice.time, choice.source


def format_time(value: datetime | None) -> str:
    """``2026-05-01 10:30:00Z`` for timelines; ``-`` when unknown."""
    # isoformat, not strftime: %Y drops the zero padding of years before 1000 on glibc.
    return value.astimezone(UTC).isoformat(sep=" ", timespec="seconds").replace("+00:00", "Z") if value else "-"
