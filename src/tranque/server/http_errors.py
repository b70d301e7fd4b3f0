"""HTTP refusals as flat JSON bodies {"code", "message"[, "parameter"]}, the message in Spanish.

`ApiError` is a refusal raised by an endpoint; routes of the `SpanishErrors` class turn it,
FastAPI's own validation errors and `HTTPException`s that already carry such a body into
one. `table_error` answers a `TableError` that reaches the app (404 or 409).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute

from tranque.server.table import TableError

NOT_FOUND_CODES = ("no_such_table", "bad_invite")  # a `TableError` with these is a 404, others 409


class ApiError(Exception):
    """A refused request; becomes a JSON body {"code", "message"[, "parameter"]}."""

    def __init__(self, status: int, code: str, message: str, parameter: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.body: dict[str, Any] = {"code": code, "message": message}
        if parameter is not None:
            self.body["parameter"] = parameter

    def response(self) -> JSONResponse:
        return JSONResponse(self.body, status_code=self.status)


_FIELD_PROBLEMS = {
    "missing": "falta «{field}»",
    "string_type": "«{field}» debe ser texto",
    "int_type": "«{field}» debe ser un número entero",
    "int_parsing": "«{field}» debe ser un número entero",
    "int_from_float": "«{field}» debe ser un número entero",
    "bool_type": "«{field}» debe ser true o false",
    "bool_parsing": "«{field}» debe ser true o false",
    "string_too_long": "«{field}» es demasiado largo",
}


def invalid_request(error: RequestValidationError) -> JSONResponse:
    """FastAPI's validation error (English, a list) as one Spanish {"code", "parameter", "message"}."""
    first = error.errors()[0]
    location = [str(part) for part in first.get("loc", ()) if part != "body"]
    kind = str(first.get("type", ""))
    if kind == "json_invalid":
        return ApiError(422, "bad_json", "El cuerpo de la petición no es JSON válido.").response()
    if not location or kind in ("model_attributes_type", "dict_type"):
        return ApiError(422, "bad_request", "El cuerpo de la petición debe ser un objeto JSON.").response()
    name = location[-1]
    problem = _FIELD_PROBLEMS.get(kind, "«{field}» no es válido").format(field=name)
    return ApiError(422, "bad_request", problem[0].upper() + problem[1:] + ".", name).response()


class SpanishErrors(APIRoute):
    """A route whose refusals are all flat Spanish bodies: `ApiError`, FastAPI's own validation
    errors, and `HTTPException`s whose detail is already such a body (http_api.TableRequest)."""

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

        return guarded


async def table_error(request: Request, error: TableError) -> JSONResponse:
    """A `TableError` no route turned into its own refusal: 404 for a missing table, else 409."""
    status = 404 if error.code in NOT_FOUND_CODES else 409
    return JSONResponse({"code": error.code, "message": error.message}, status_code=status)
