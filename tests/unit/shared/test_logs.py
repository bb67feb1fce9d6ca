"""Logs: JSON lines, refusals as one INFO line, a repeating failure throttled."""

import io
import json
import logging
from datetime import UTC, datetime

import pytest

from shared.errors import InvalidInput, ServiceUnavailable, Unauthorized
from shared.logs import ExpectedRefusals, JsonFormatter, Throttled, configure_logging


def raised(exc):
    try:
        raise exc
    except Exception as caught:
        return caught


def record_of(exc, level=logging.ERROR):
    caught = raised(exc)
    return logging.LogRecord(
        "nameko.containers",
        level,
        __file__,
        1,
        "error handling worker %s: %s",
        ("worker", caught),
        (type(caught), caught, caught.__traceback__),
    )


@pytest.fixture
def root_level():
    root = logging.getLogger()
    before = root.level
    yield root
    root.setLevel(before)


def test_a_refusal_the_caller_caused_is_one_info_line_without_traceback(root_level):
    root_level.setLevel(logging.INFO)
    record = record_of(Unauthorized("invalid_token", "the token is not valid"))
    assert ExpectedRefusals().filter(record)
    assert record.levelname == "INFO" and record.exc_info is None
    assert record.getMessage() == "refused (401 invalid_token): the token is not valid"


def test_a_refusal_is_not_logged_when_the_level_is_above_info(root_level):
    root_level.setLevel(logging.WARNING)
    assert not ExpectedRefusals().filter(record_of(InvalidInput("bad", "bad input")))


@pytest.mark.parametrize(
    "exc", [ServiceUnavailable("broker_unavailable", "try again"), KeyError("a bug")]
)
def test_server_side_failures_keep_their_error_and_traceback(exc, root_level):
    root_level.setLevel(logging.INFO)
    record = record_of(exc)
    assert ExpectedRefusals().filter(record)
    assert record.levelname == "ERROR" and record.exc_info is not None


def test_json_lines_carry_time_level_logger_message_and_the_traceback():
    record = record_of(KeyError("a bug"))
    entry = json.loads(JsonFormatter().format(record))
    assert entry["level"] == "ERROR" and entry["logger"] == "nameko.containers"
    assert entry["message"].startswith("error handling worker worker")
    assert "KeyError" in entry["exception"] and entry["time"].endswith("+00:00")


def test_configure_logging_writes_json_when_asked(capsys, root_level):
    configure_logging("json", "INFO")
    logging.getLogger("deckyard").info("started %s", "cards")
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert json.loads(line)["message"] == "started cards"


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_a_failure_repeating_every_round_is_one_line_per_interval():
    stream = io.StringIO()
    log = logging.getLogger("test.throttled")
    log.handlers[:] = [logging.StreamHandler(stream)]
    log.propagate = False
    log.setLevel(logging.INFO)
    clock = Clock()
    began = datetime(2026, 12, 4, 9, 30, 5, 250_000, tzinfo=UTC)
    failures = Throttled(log, "relay round", interval=30, monotonic=clock, wall=lambda: began)
    for second in range(100):  # ten rounds a second for 100 s: 1,000 failures
        for _ in range(10):
            clock.now = second
            failures.failed(OSError("database is down"))
    failures.succeeded()
    lines = [line for line in stream.getvalue().splitlines() if line.startswith("relay round")]
    assert lines[0] == "relay round failed"
    assert lines[1:4] == [
        f"relay round still failing: {count} times since 2026-12-04T09:30:05+00:00"
        " (the last: database is down)"
        for count in (301, 601, 901)
    ]
    assert (
        lines[-1] == "relay round works again after 1000 failure(s) since 2026-12-04T09:30:05+00:00"
    )
    assert len(lines) == 5


def test_the_log_settings_are_read_and_checked():
    from shared.config import ConfigError, load_settings

    settings = load_settings({"LOG_FORMAT": "JSON", "LOG_LEVEL": "warning"})
    assert (settings.log_format, settings.log_level) == ("json", "WARNING")
    assert (load_settings({}).log_format, load_settings({}).log_level) == ("text", "INFO")
    with pytest.raises(ConfigError, match="LOG_FORMAT"):
        load_settings({"LOG_FORMAT": "xml"})


def test_a_line_written_for_a_request_carries_its_id():
    from shared.logs import REQUEST_ID, RequestIdFilter

    record = record_of(KeyError("a bug"))
    token = REQUEST_ID.set("req-42")
    try:
        assert RequestIdFilter().filter(record)
    finally:
        REQUEST_ID.reset(token)
    assert json.loads(JsonFormatter().format(record))["request_id"] == "req-42"
    assert record.request_suffix == " [request req-42]"

    outside = record_of(KeyError("a bug"))
    assert RequestIdFilter().filter(outside)
    assert "request_id" not in json.loads(JsonFormatter().format(outside))
    assert outside.request_suffix == ""


def test_configure_logging_puts_the_request_id_on_text_lines(capsys, root_level):
    from shared.logs import REQUEST_ID

    configure_logging("text", "INFO")
    token = REQUEST_ID.set("req-7")
    try:
        logging.getLogger("deckyard").info("answered")
    finally:
        REQUEST_ID.reset(token)
    logging.getLogger("deckyard").info("alone")
    first, second = capsys.readouterr().err.strip().splitlines()[-2:]
    assert first.endswith("deckyard INFO answered [request req-7]")
    assert second.endswith("deckyard INFO alone")


def test_a_json_line_names_the_service_and_the_span_of_the_code_that_wrote_it(root_level):
    from shared import logs

    record = record_of(KeyError("a bug"))
    service = logs.SERVICE.set("battle")
    logs.read_trace_ids_with(lambda: ("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"))
    try:
        assert logs.RequestIdFilter().filter(record)
    finally:
        logs.read_trace_ids_with(None)
        logs.SERVICE.reset(service)
    entry = json.loads(JsonFormatter().format(record))
    assert entry["service"] == "battle"
    assert entry["trace_id"] == "4bf92f3577b34da6a3ce929d0e0e4736"
    assert entry["span_id"] == "00f067aa0ba902b7"


def test_outside_a_worker_and_a_span_a_line_has_the_processs_service_or_none(root_level):
    from shared import logs

    configure_logging("json", "INFO", service="gateway")
    try:
        inside = record_of(KeyError("a bug"))
        assert logs.RequestIdFilter().filter(inside)
    finally:
        configure_logging("json", "INFO")
    outside = record_of(KeyError("a bug"))
    assert logs.RequestIdFilter().filter(outside)
    assert json.loads(JsonFormatter().format(inside))["service"] == "gateway"
    entry = json.loads(JsonFormatter().format(outside))
    assert not {"service", "trace_id", "span_id"} & set(entry)


def test_a_lines_own_fields_are_json_fields_and_never_replace_the_common_ones():
    record = record_of(KeyError("a bug"))
    record.fields = {"status": 200, "route": "/v1/me", "level": "made up"}
    entry = json.loads(JsonFormatter().format(record))
    assert (entry["status"], entry["route"], entry["level"]) == (200, "/v1/me", "ERROR")
