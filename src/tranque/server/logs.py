"""The server's log lines: one format for Tranque's loggers and uvicorn's, secrets redacted,
floods of one line folded.

`log_config(settings)` is the `logging.config.dictConfig` dictionary `tranque serve` hands
uvicorn (which applies it in every worker process). Every line carries `time` (ISO 8601, UTC),
`level`, `logger`, `process` (the node's name in a cluster, else the pid), and where known
`request` (an id per HTTP request or WebSocket, `RequestIds`), `table` and `account`, as:

- "text":   ``2026-12-07T03:50:01.250Z WARNING tranque.server.x [node] request=… message``
- "json":   one JSON object a line: {"time", "level", "logger", "process", "message", …}
- "logfmt": ``time=… level=… logger=… process=… message="…"``

One small `logging.Formatter` renders all three from one dictionary of fields, so the three
carry exactly the same fields; a JSON-only library would still leave the other two to write.

`Handler`'s filters, in order: `Context` adds the fields above; `Repeats` lets the first of a
(logger, template) through and folds its repeats within `REPEAT_SECONDS` into one later
"…repeated N times" line; `Redact` masks passwords in URLs, bearer tokens and `token=`-like
values in the message and its traceback (a safety net: nothing should log them to begin with).
"""

from __future__ import annotations

import datetime
import logging
import os
import re
import secrets
import threading
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

FORMATS = ("text", "json", "logfmt")
REPEAT_SECONDS = 10.0
UNFOLDED = frozenset({"uvicorn.access"})  # one template, a different request each line

REQUEST: ContextVar[str | None] = ContextVar("tranque_request", default=None)
TABLE: ContextVar[str | None] = ContextVar("tranque_table", default=None)
ACCOUNT: ContextVar[int | None] = ContextVar("tranque_account", default=None)
_node: list[str] = []  # this process's name in its cluster, once known


def set_node(name: str) -> None:
    """Name this process in its log lines (cluster/node.py's name) instead of its pid."""
    _node[:] = [name]


def process_name() -> str:
    return _node[0] if _node else str(os.getpid())


def bind_table(table_id: str) -> None:
    """Lines logged from here on in this task are about table `table_id` (its actor's task)."""
    TABLE.set(table_id)
    REQUEST.set(None)


# Redaction ------------------------------------------------------------------------------

_SECRETS = (
    # scheme://user:PASSWORD@host → scheme://user:***@host
    (re.compile(r"([a-z][a-z0-9+.-]*://[^:/@\s]*:)[^@\s]+@", re.IGNORECASE), r"\1***@"),
    (re.compile(r"\b(bearer\s+)[^\s\"',;]+", re.IGNORECASE), r"\1***"),
    # token=…, password: …, "tranque_session": "…", secret=… (a query, a header, a dict's repr)
    (
        re.compile(
            r"""([\w-]*(?:token|password|passwd|secret|session)['"]?\s*[=:]\s*['"]?)([^\s&;,'"}]+)""",
            re.IGNORECASE,
        ),
        r"\1***",
    ),
)


def redact(text: str) -> str:
    """`text` with passwords in URLs, bearer tokens and secret-like `key=value`s masked.

    >>> redact("postgresql://tranque:s3cret@db:5432/tranque and redis://:pw@cache:6379/0")
    'postgresql://tranque:***@db:5432/tranque and redis://:***@cache:6379/0'
    >>> redact("Authorization: Bearer tqb_abc123, GET /x?token=abc&page=2")
    'Authorization: Bearer ***, GET /x?token=***&page=2'
    >>> redact("{'tranque_session': 'Zx9', 'password': 'hunter22'} stays readable")
    "{'tranque_session': '***', 'password': '***'} stays readable"
    """
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


class Redact(logging.Filter):
    """Masks secrets in a record's message (formatted once, here) and in its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        record.msg, record.args = redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


# Context ---------------------------------------------------------------------------------


class Context(logging.Filter):
    """Adds `process`, and `request`, `table`, `account` where the context knows them."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "process_name"):  # (a folded line keeps its first line's)
            record.process_name = process_name()
            record.request = REQUEST.get()
            record.table = TABLE.get()
            record.account = ACCOUNT.get()
        return True


# Repeats ---------------------------------------------------------------------------------


@dataclass
class _Seen:
    first: logging.LogRecord
    since: float
    folded: int = 0


class Repeats(logging.Filter):
    """Folds a (logger, message template) said again within `seconds` of its first line:
    those repeats are counted, not written, and `sink` is handed one "…repeated N times"
    line once the window is over (at the next line logged, or at `flush`)."""

    def __init__(
        self,
        seconds: float = REPEAT_SECONDS,
        sink: Callable[[logging.LogRecord], Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.seconds, self.sink, self.clock = seconds, sink, clock
        self._seen: dict[tuple[str, int, str], _Seen] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "folded", False) or record.name in UNFOLDED:
            return True
        now = self.clock()
        key = (record.name, record.levelno, str(record.msg))
        with self._lock:
            due = self._due(now)
            seen = self._seen.get(key)
            passes = seen is None or now - seen.since >= self.seconds
            if passes:
                self._seen[key] = _Seen(record, now)
            else:
                assert seen is not None
                seen.folded += 1
        self._emit(due)
        return passes

    def flush(self) -> None:
        """Hand over every count not written yet."""
        with self._lock:
            due = self._due(None)
        self._emit(due)

    def _due(self, now: float | None) -> list[logging.LogRecord]:
        """The summary lines of the windows over by `now` (None: all); those windows end."""
        due = []
        for key, seen in list(self._seen.items()):
            if now is None or now - seen.since >= self.seconds:
                del self._seen[key]
                if seen.folded:
                    due.append(_summary(seen, self.seconds))
        return due

    def _emit(self, due: list[logging.LogRecord]) -> None:
        if self.sink is not None:
            for record in due:
                self.sink(record)


def _summary(seen: _Seen, seconds: float) -> logging.LogRecord:
    summary = logging.makeLogRecord(dict(seen.first.__dict__))
    message = seen.first.getMessage()
    times = "time" if seen.folded == 1 else "times"
    summary.msg, summary.args = f"{message} …repeated {seen.folded} {times} within {seconds:g} s", None
    summary.exc_info = summary.exc_text = None
    summary.folded = True
    summary.created = time.time()
    return summary


# Formatting --------------------------------------------------------------------------------


class LineFormatter(logging.Formatter):
    """One line per record, in `style` ("text", "json" or "logfmt"), from the same fields."""

    def __init__(self, style: str = "text") -> None:
        super().__init__()
        if style not in FORMATS:
            raise ValueError(f"log format {style!r}: one of {', '.join(FORMATS)}")
        self.line_style = style

    def fields(self, record: logging.LogRecord) -> dict[str, Any]:
        moment = datetime.datetime.fromtimestamp(record.created, datetime.UTC)
        values: dict[str, Any] = {
            "time": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "process": getattr(record, "process_name", None) or str(record.process),
        }
        for name in ("request", "table", "account"):
            value = getattr(record, name, None)
            if value is not None:
                values[name] = value
        values["message"] = record.getMessage()
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            values["error"] = record.exc_text
        if record.stack_info:
            values["stack"] = record.stack_info
        return values

    def format(self, record: logging.LogRecord) -> str:
        values = self.fields(record)
        if self.line_style == "json":
            return orjson.dumps(values, default=str).decode()
        if self.line_style == "logfmt":
            return " ".join(f"{name}={_logfmt_value(value)}" for name, value in values.items())
        context = " ".join(
            f"{name}={values[name]}" for name in ("request", "table", "account") if name in values
        )
        head = f"{values['time']} {values['level']} {values['logger']} [{values['process']}]"
        line = " ".join(part for part in (head, context, values["message"]) if part)
        for extra in ("error", "stack"):
            if extra in values:
                line += "\n" + values[extra]
        return line


def _logfmt_value(value: object) -> str:
    text = str(value)
    if text and not re.search(r'[\s"=\\]', text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


class Handler(logging.StreamHandler):  # type: ignore[type-arg]
    """Standard error, through `Context`, `Repeats` and `Redact` (in that order: the repeats
    are told apart by their message's template, before it is filled in and redacted)."""

    def __init__(self, repeat_seconds: float = REPEAT_SECONDS) -> None:
        super().__init__()
        self.repeats = Repeats(repeat_seconds, sink=self.handle)
        for each in (Context(), self.repeats, Redact()):
            self.addFilter(each)

    def close(self) -> None:
        self.repeats.flush()  # what was folded since the last line
        super().close()


def log_config(log_format: str = "text", access_log: bool = False) -> dict[str, Any]:
    """The `dictConfig` of the server's logging: Tranque's and uvicorn's loggers at INFO
    through one `Handler`; uvicorn's access log only if `access_log`."""
    if log_format not in FORMATS:
        raise ValueError(f"log format {log_format!r}: one of {', '.join(FORMATS)}")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": {"()": f"{__name__}.LineFormatter", "style": log_format}},
        "handlers": {"line": {"()": f"{__name__}.Handler", "formatter": "line"}},
        "loggers": {
            "tranque": {"handlers": ["line"], "level": "INFO", "propagate": False},
            "uvicorn": {"handlers": ["line"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            "uvicorn.access": {
                "handlers": ["line"] if access_log else [],
                "level": "INFO" if access_log else "WARNING",
                "propagate": False,
            },
        },
        "root": {"handlers": ["line"], "level": "WARNING"},
    }


# Request ids -----------------------------------------------------------------------------

_GIVEN_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


class RequestIds:
    """Gives each HTTP request and WebSocket an id (a proxy's `X-Request-Id` if it sent a
    plain one, else a new one), in the logs' context and in an `X-Request-Id` header."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or []).get(b"x-request-id", b"").decode("latin-1")
        request = given if _GIVEN_ID.fullmatch(given) else secrets.token_hex(8)
        header = (b"x-request-id", request.encode())

        async def send_with_id(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                message = {**message, "headers": [*message.get("headers", []), header]}
            await send(message)

        tokens = REQUEST.set(request), TABLE.set(None), ACCOUNT.set(None)
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            ACCOUNT.reset(tokens[2])
            TABLE.reset(tokens[1])
            REQUEST.reset(tokens[0])
