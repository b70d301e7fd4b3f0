"""HTTP refusals as flat JSON bodies {"code", "message", "message_en"[, "parameter"]}.

`ApiError` is a refusal raised by an endpoint, its texts from the server's catalogue
(`refusals.py`): Spanish in `message`, English in `message_en`. Routes of the
`SpanishErrors` class turn it, FastAPI's own validation errors and `HTTPException`s that
already carry such a body into one, and answer 503 `unavailable` while the database is out
of reach (store/outage.py). `table_error` answers a `TableError` that reaches the
app (404 or 409).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute

from tranque.server.refusals import Refusal
from tranque.server.store.outage import is_outage
from tranque.server.table.actor import TableError

NOT_FOUND_CODES = ("no_such_table", "bad_invite")  # a `TableError` with these is a 404, others 409
UNAVAILABLE_RETRY_SECONDS = 5  # `Retry-After` while the database is out of reach


class ApiError(Refusal):
    """A refused request with its HTTP `status`; `parameter` names the field at fault.

    >>> ApiError(422, "bad_password", parameter="password", least=8, most=1024).body()["message_en"]
    'The password must have at least 8 characters (and at most 1024).'
    """

    def __init__(
        self,
        status: int,
        key: str,
        /,
        parameter: str | None = None,
        retry_after: int | None = None,
        **params: object,
    ) -> None:
        super().__init__(key, **params)
        self.status = status
        self.parameter = parameter
        self.retry_after = retry_after  # seconds: also in the body and a `Retry-After` header

    def body(self) -> dict[str, Any]:
        body = super().body()
        if self.parameter is not None:
            body["parameter"] = self.parameter
        if self.retry_after is not None:
            body["retry_after"] = self.retry_after
        return body

    def response(self) -> JSONResponse:
        headers = None if self.retry_after is None else {"Retry-After": str(self.retry_after)}
        return JSONResponse(self.body(), status_code=self.status, headers=headers)


# Pydantic's kinds of problem with a field, by the catalogue's `bad_request` case.
_FIELD_PROBLEMS = {
    "missing": "bad_request.missing",
    "string_type": "bad_request.text",
    "int_type": "bad_request.whole_number",
    "int_parsing": "bad_request.whole_number",
    "int_from_float": "bad_request.whole_number",
    "bool_type": "bad_request.boolean",
    "bool_parsing": "bad_request.boolean",
    "string_too_long": "bad_request.too_long",
}


def invalid_request(error: RequestValidationError) -> JSONResponse:
    """FastAPI's validation error (English, a list) as one {"code", "parameter", "message", "message_en"}."""
    first = error.errors()[0]
    location = [str(part) for part in first.get("loc", ()) if part != "body"]
    kind = str(first.get("type", ""))
    if kind == "json_invalid":
        return ApiError(422, "bad_json.body").response()
    if not location or kind in ("model_attributes_type", "dict_type"):
        return ApiError(422, "bad_request").response()
    name = location[-1]
    problem = _FIELD_PROBLEMS.get(kind, "bad_request.invalid")
    return ApiError(422, problem, parameter=name, field=name).response()


class SpanishErrors(APIRoute):
    """A route whose refusals are all flat bodies in Spanish and English: `ApiError`, FastAPI's
    own validation errors, and `HTTPException`s whose detail is already such a body."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def guarded(request: Request) -> Response:
            try:
                return await handler(request)
            except ApiError as error:
                return error.response()
            except RequestValidationError as error:
                return invalid_request(error)
            except HTTPException as error:
                if isinstance(error.detail, dict) and "code" in error.detail:
                    return JSONResponse(error.detail, status_code=error.status_code)
                raise
            except Exception as error:
                if is_outage(error):  # the database out of reach: try again soon
                    return ApiError(503, "unavailable", retry_after=UNAVAILABLE_RETRY_SECONDS).response()
                raise

        return guarded


async def table_error(request: Request, error: TableError) -> JSONResponse:
    """A `TableError` no route turned into its own refusal: 404 for a missing table, 503
    while the database is out of reach, else 409."""
    if error.code == "unavailable":
        return ApiError(503, "unavailable", retry_after=UNAVAILABLE_RETRY_SECONDS).response()
    status = 404 if error.code in NOT_FOUND_CODES else 409
    return JSONResponse(error.body(), status_code=status)


class RetryLater(ApiError):
    """A refusal (429) that time lifts: `retry_after`, whole seconds, in the body and in the
    `Retry-After` header.

    >>> RetryLater("too_many_invites", 12.2, count="10").body()["retry_after"]
    13
    """

    def __init__(self, key: str, retry_after: float, /, **params: object) -> None:
        super().__init__(429, key, None, max(1, math.ceil(retry_after)), **params)
