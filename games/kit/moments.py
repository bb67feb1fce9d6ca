"""Moments as the engines' events carry them, without ``datetime``'s slow paths.

``iso(moment)`` is exactly ``moment.isoformat()``: that one builds the text through a
printf-style format and a call to the timezone (about 10,000 instructions compiled);
here the text is joined from the fields and the timezone's suffix, made once for each
fixed-offset ``datetime.timezone`` (UTC, what the services pass). A naive moment and any
other timezone (a ``zoneinfo`` one changes offset with the date) go through
``isoformat`` itself. ``later(moment, seconds)`` is ``moment + timedelta(seconds=...)``
with the ``timedelta`` of each whole number of seconds made once (its constructor parses
keywords and floats). tests/unit/games/kit/test_moments.py holds both to ``datetime``'s.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Final

_TWO: Final = tuple(f"{n:02d}" for n in range(100))
_SUFFIXES: Final[dict[timezone, str]] = {}  # a fixed-offset timezone -> "+HH:MM" (or more)
_DELTAS: Final[dict[int, timedelta]] = {}  # whole seconds -> timedelta
_KEPT: Final = 256  # each table is emptied when it holds more (they hold constants)


def _suffix(zone: timezone) -> str:
    suffix = _SUFFIXES.get(zone)
    if suffix is None:
        if len(_SUFFIXES) >= _KEPT:
            _SUFFIXES.clear()
        text = datetime(2000, 1, 1, tzinfo=zone).isoformat()
        suffix = _SUFFIXES[zone] = text[19:]  # after "2000-01-01T00:00:00"
    return suffix


def iso(moment: datetime) -> str:
    """Exactly ``moment.isoformat()``."""
    zone = moment.tzinfo
    if type(zone) is not timezone:
        return moment.isoformat()
    two = _TWO
    year = moment.year
    micro = moment.microsecond
    # Compiled, an f-string of str pieces is one join; a piece with a format spec (or a
    # chain of +) costs a call each: the numbers come as text from _TWO.
    text = (
        f"{str(year) if year >= 1000 else f'{year:04d}'}-{two[moment.month]}-"
        f"{two[moment.day]}T{two[moment.hour]}:{two[moment.minute]}:{two[moment.second]}"
    )
    if micro:
        text = f"{text}.{micro:06d}"
    return text + _suffix(zone)


def later(moment: datetime, seconds: int) -> datetime:
    """Exactly ``moment + timedelta(seconds=seconds)``."""
    delta = _DELTAS.get(seconds)
    if delta is None:
        if len(_DELTAS) >= _KEPT:
            _DELTAS.clear()
        delta = _DELTAS[seconds] = timedelta(seconds=seconds)
    return moment + delta
