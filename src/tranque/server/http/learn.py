"""Aprender over HTTP: the lessons, a step's position, a move's feedback, and the stars.

- `GET /api/learn`: the path of lessons, in order, with the caller's stars (an account's;
  null without one: a guest keeps theirs in the browser).
- `GET /api/learn/{lesson}/{step}`: the step's goal and starting position, as the learner
  may see it (R17: their own hand only).
- `POST /api/learn/{lesson}/{step}/move`: `{"moves": [...], "move": "6-4i", "tries": 2}`:
  `moves` are the good moves made so far in the step, `tries` every move tried so far in the
  lesson. Answers the feedback (learn/checker.py); on the lesson's last goal, its `stars`.
- `GET`/`POST /api/learn/progress`: an account's stars by lesson; a POST keeps the best of
  what it sends and what is kept (a guest's stars merged on logging in).

Nothing is kept between moves (each one replays its step: at most a few dozen engine moves
and the line's layout, about 2 ms for the longest step on a 2-core CI-class box, so it runs
on the event loop). Refusals are flat bodies in Spanish and
English (http/errors.py), and change nothing.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from tranque.engine import IllegalAction
from tranque.server.app_state import server_state
from tranque.server.http.accounts import current_user, require_user, same_origin_json
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.learn.checker import BadHistory, judge, replay, view_json
from tranque.server.learn.lessons import BY_ID, IDS, LESSONS
from tranque.server.learn.steps import Lesson, Step, stars
from tranque.server.store import UserRow

router = APIRouter(prefix="/api", tags=["aprender"], route_class=SpanishErrors)
Account = Annotated[UserRow, Depends(require_user)]
Guest = Annotated[UserRow | None, Depends(current_user)]
CHANGES = [Depends(same_origin_json)]
MAX_MOVES = 40  # more good moves than any step has


class Move(BaseModel):
    moves: list[Annotated[str, Field(max_length=16)]] = Field(
        default_factory=list, max_length=MAX_MOVES, description="Las jugadas buenas hechas en este paso."
    )
    move: str = Field(max_length=16, description="La jugada que se intenta: 6-4i, 6-4d, robar, pasar.")
    tries: int = Field(default=0, ge=0, le=1000, description="Jugadas intentadas antes en la lección.")


class Progress(BaseModel):
    progress: dict[Annotated[str, Field(max_length=32)], int] = Field(
        max_length=len(IDS), description="Estrellas (1 a 3) por lección."
    )


def _lesson(lesson_id: str) -> Lesson:
    lesson = BY_ID.get(lesson_id)
    if lesson is None:
        raise ApiError(404, "no_such_lesson", lesson=lesson_id[:32])
    return lesson


def _step(lesson: Lesson, number: int) -> Step:
    if not 0 <= number < len(lesson.steps):
        raise ApiError(404, "no_such_lesson.step", lesson=lesson.id, step=str(number))
    return lesson.steps[number]


def _next(lesson: Lesson) -> str | None:
    index = IDS.index(lesson.id)
    return IDS[index + 1] if index + 1 < len(IDS) else None


@router.get("/learn", summary="Las lecciones de Aprender, con tus estrellas")
async def lessons(request: Request, user: Guest) -> dict[str, Any]:
    kept = None if user is None else await server_state(request).store.learn_progress(user.user_id)
    return {
        "lessons": [
            {
                "id": lesson.id,
                "steps": len(lesson.steps),
                "par": lesson.par,
                "stars": None if kept is None else kept.get(lesson.id),
            }
            for lesson in LESSONS
        ],
        "account": user is not None,
    }


@router.get("/learn/progress", summary="Tus estrellas en Aprender")
async def progress(request: Request, user: Account) -> dict[str, Any]:
    return {"progress": await server_state(request).store.learn_progress(user.user_id)}


@router.post("/learn/progress", dependencies=CHANGES, summary="Guardar estrellas de Aprender")
async def keep_progress(body: Progress, request: Request, user: Account) -> dict[str, Any]:
    for lesson_id, count in body.progress.items():
        if lesson_id not in BY_ID or not 1 <= count <= 3:
            raise ApiError(422, "bad_progress", parameter="progress", lesson=lesson_id[:32])
    state = server_state(request)
    kept = await state.store.keep_learn_progress(user.user_id, body.progress, state.settings.clock.now())
    return {"progress": kept}


@router.get("/learn/{lesson_id}/{step}", summary="Un paso de una lección: su meta y su posición")
async def step_position(lesson_id: str, step: int) -> dict[str, Any]:
    lesson = _lesson(lesson_id)
    chosen = _step(lesson, step)
    return {
        "lesson": lesson.id,
        "step": step,
        "steps": len(lesson.steps),
        "par": lesson.par,
        "goal": chosen.goal,
        "params": chosen.params,
        "preset": chosen.preset,
        "players": chosen.players,
        "mode": chosen.rules.mode.value,
        "seat": 0,
        "turns": len(chosen.turns),
        "position": view_json(replay(chosen, []).round),
        "next": _next(lesson),
    }


@router.post(
    "/learn/{lesson_id}/{step}/move", dependencies=CHANGES, summary="Intentar una jugada en una lección"
)
async def move(lesson_id: str, step: int, body: Move) -> dict[str, Any]:
    lesson = _lesson(lesson_id)
    chosen = _step(lesson, step)
    try:
        feedback = judge(chosen, body.moves, body.move)
    except BadHistory:
        raise ApiError(422, "bad_lesson_moves", parameter="moves") from None
    except IllegalAction:  # not a move at all ("malformed"): a refusal, not a lesson's feedback
        raise ApiError(422, "bad_lesson_move", parameter="move", text=body.move) from None
    finished = feedback["verdict"] == "good" and feedback["done"] and step == len(lesson.steps) - 1
    feedback["lesson_done"] = finished
    feedback["stars"] = stars(lesson.par, body.tries + 1) if finished else None
    feedback["next"] = _next(lesson)
    return feedback
