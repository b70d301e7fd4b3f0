"""«¿Qué jugarías?» over HTTP (OpenAPI at /docs); no account needed, nothing is stored.

- `GET /api/puzzles/daily[?date=YYYY-MM-DD]`: the day's puzzle (the date the client says,
  its own calendar day; else today in UTC by the server's clock), as `GET /api/puzzles/{id}`.
- `GET /api/puzzles/random[?not=ID]`: another puzzle («Otro»), not `not`.
- `GET /api/puzzles/{id}`: the position, the solver's own view only (book.Book.public, R17).
- `POST /api/puzzles/{id}/answer` with `{"action": {...}}`: right or wrong, the best move,
  each choice's worth in points of the hand and the explanation (book.Book.judge).

Refusals are flat bodies in Spanish and English (http/errors.py) and change nothing.
"""

from __future__ import annotations

import datetime
import json
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from tranque.server.app_state import server_state
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.puzzles.book import Book, packaged, parse_action

router = APIRouter(prefix="/api/puzzles", tags=["problemas"], route_class=SpanishErrors)


def _book() -> Book:
    return packaged()


packaged()  # read once as the app is built, never on the event loop while serving


def _known(book: Book, puzzle_id: str) -> None:
    if puzzle_id not in book.puzzles:
        raise ApiError(404, "no_such_puzzle")


@router.get("/daily", summary="El problema del día")
async def daily(request: Request, date: str | None = None) -> dict[str, Any]:
    book = _book()
    if date is None:
        now = server_state(request).settings.clock.now()
        day = datetime.datetime.fromtimestamp(now, datetime.UTC).date()
    else:
        try:
            day = datetime.date.fromisoformat(date)
        except ValueError:
            raise ApiError(422, "puzzle_date", parameter="date") from None
    puzzle_id = book.daily(day)
    return {**book.public(puzzle_id), "daily": day.isoformat()}


@router.get("/random", summary="Otro problema, al azar")
async def another(not_: Annotated[str | None, Query(alias="not")] = None) -> dict[str, Any]:
    book = _book()
    return book.public(book.another(secrets.token_hex(8), not_))


@router.get("/{puzzle_id}", summary="Un problema: la posición que ve quien juega")
async def one(puzzle_id: str) -> dict[str, Any]:
    book = _book()
    _known(book, puzzle_id)
    return book.public(puzzle_id)


@router.post("/{puzzle_id}/answer", summary="Responder un problema: la mejor jugada y por qué")
async def answer(puzzle_id: str, request: Request) -> dict[str, Any]:
    book = _book()
    _known(book, puzzle_id)
    try:
        body = json.loads(await request.body())
    except (ValueError, UnicodeDecodeError):
        raise ApiError(422, "puzzle_answer.malformed", parameter="action") from None
    action = parse_action(body.get("action")) if isinstance(body, dict) else None
    if action is None:
        raise ApiError(422, "puzzle_answer.malformed", parameter="action")
    verdict = book.judge(puzzle_id, action)
    if verdict is None:
        raise ApiError(422, "puzzle_answer", parameter="action")
    return verdict
