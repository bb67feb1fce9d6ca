"""Log lines as a process writes them under ``LOG_FORMAT=json``, captured in a test."""

from __future__ import annotations

import contextlib
import io
import json
import logging
from collections.abc import Iterator
from typing import Any

from shared.logs import log_handler


class JsonLines:
    def __init__(self, stream: io.StringIO) -> None:
        self._stream = stream

    def __call__(self) -> list[dict[str, Any]]:
        """Every line written so far, each a JSON object."""
        return [json.loads(line) for line in self._stream.getvalue().splitlines() if line]


@contextlib.contextmanager
def json_lines(level: int = logging.INFO) -> Iterator[JsonLines]:
    """The root logger writes through the processes' own handler (shared/logs.py) into
    a buffer too, at ``level``, until the block ends."""
    stream = io.StringIO()
    handler = log_handler("json", stream)
    root = logging.getLogger()
    before = root.level
    root.addHandler(handler)
    root.setLevel(level)
    try:
        yield JsonLines(stream)
    finally:
        root.removeHandler(handler)
        root.setLevel(before)
