"""The server's log lines (logs.py): their fields in each format, secrets redacted, and a flood
of one line folded into that line and a count."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from tranque.server import logs


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def written() -> Iterator[tuple[logging.Logger, logs.Handler, io.StringIO]]:
    """A logger of its own through `logs.Handler` into a string, in JSON."""
    stream = io.StringIO()
    handler = logs.Handler()
    handler.setStream(stream)
    handler.setFormatter(logs.LineFormatter("json"))
    logger = logging.getLogger(f"tranque.test_logs.{id(stream)}")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    try:
        yield logger, handler, stream
    finally:
        logger.removeHandler(handler)


def lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_a_hundred_repeats_are_one_line_and_a_count() -> None:
    clock, out = Clock(), list[logging.LogRecord]()
    repeats = logs.Repeats(10.0, sink=out.append, clock=clock)
    passed = []
    for _ in range(100):
        record = logging.LogRecord(
            "tranque.cluster", logging.WARNING, __file__, 1, "leases unavailable (%s)", ("x",), None
        )
        if repeats.filter(record):
            passed.append(record.getMessage())
        clock.now += 0.05  # 100 lines in 5 s: all within one window
    repeats.flush()
    written = passed + [record.getMessage() for record in out]
    assert len(written) <= 2
    assert written == ["leases unavailable (x)", "leases unavailable (x) …repeated 99 times within 10 s"]


def test_after_the_window_the_line_passes_again_after_its_count() -> None:
    clock, out = Clock(), list[logging.LogRecord]()
    repeats = logs.Repeats(10.0, sink=out.append, clock=clock)

    def say(message: str) -> bool:
        return repeats.filter(
            logging.LogRecord("tranque.bus", logging.WARNING, __file__, 1, message, None, None)
        )

    assert say("lost Redis") and not say("lost Redis") and not say("lost Redis")
    assert say("another line")  # a different template is not folded
    clock.now += 10
    assert say("lost Redis")
    assert [record.getMessage() for record in out] == ["lost Redis …repeated 2 times within 10 s"]
    repeats.flush()
    assert len(out) == 1  # nothing folded since


def test_the_handler_writes_the_folded_count(
    written: tuple[logging.Logger, logs.Handler, io.StringIO],
) -> None:
    logger, handler, stream = written
    for _ in range(100):
        logger.warning("quick match: leases unavailable (%s)", "Redis is unreachable")
    handler.close()
    messages = [line["message"] for line in lines(stream)]
    assert messages == [
        "quick match: leases unavailable (Redis is unreachable)",
        "quick match: leases unavailable (Redis is unreachable) …repeated 99 times within 10 s",
    ]


def test_every_line_has_its_fields_and_the_contexts(
    written: tuple[logging.Logger, logs.Handler, io.StringIO],
) -> None:
    logger, _, stream = written
    logger.info("outside any request")
    request, table, account = logs.REQUEST.set("req-1"), logs.TABLE.set("T4bl3"), logs.ACCOUNT.set(7)
    try:
        logger.warning("inside one")
    finally:
        logs.REQUEST.reset(request)
        logs.TABLE.reset(table)
        logs.ACCOUNT.reset(account)
    outside, inside = lines(stream)
    assert set(outside) == {"time", "level", "logger", "process", "message"}
    assert str(outside["time"]).endswith("Z") and "T" in str(outside["time"])
    assert outside["level"] == "INFO" and outside["logger"] == logger.name
    assert inside["request"] == "req-1" and inside["table"] == "T4bl3" and inside["account"] == 7


def test_secrets_are_redacted_in_messages_and_tracebacks(
    written: tuple[logging.Logger, logs.Handler, io.StringIO],
) -> None:
    logger, _, stream = written
    logger.warning("connecting to %s", "postgresql://tranque:Pg-Secret-1@db:5432/tranque")
    logger.warning("GET /metrics Authorization: Bearer tqb_Bot-Secret-2 /x?token=Tok-Secret-3&a=1")
    try:
        raise RuntimeError("redis://:Redis-Secret-4@cache:6379/0 is down")
    except RuntimeError:
        logger.exception("failed")
    text = stream.getvalue()
    for secret in ("Pg-Secret-1", "Bot-Secret-2", "Tok-Secret-3", "Redis-Secret-4"):
        assert secret not in text
    first, second, third = lines(stream)
    assert first["message"] == "connecting to postgresql://tranque:***@db:5432/tranque"
    assert second["message"] == "GET /metrics Authorization: Bearer *** /x?token=***&a=1"
    assert "redis://:***@cache:6379/0 is down" in str(third["error"])


@pytest.mark.parametrize("style", logs.FORMATS)
def test_each_format_is_one_line_with_the_same_fields(style: str) -> None:
    record = logging.LogRecord("tranque.x", logging.ERROR, __file__, 1, 'said "%s"', ("hola mundo",), None)
    record.process_name, record.request, record.table, record.account = "node-1", "r1", None, 3
    line = logs.LineFormatter(style).format(record)
    assert "\n" not in line
    if style == "json":
        assert json.loads(line)["message"] == 'said "hola mundo"'
    elif style == "logfmt":
        assert line.endswith('account=3 message="said \\"hola mundo\\""')
        assert " level=ERROR logger=tranque.x process=node-1 request=r1 " in line
    else:
        assert line.endswith(' ERROR tranque.x [node-1] request=r1 account=3 said "hola mundo"')


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="one of text, json, logfmt"):
        logs.log_config("xml")
