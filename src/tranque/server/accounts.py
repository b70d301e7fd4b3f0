"""Accounts: register, log in, log out, and who am I (OpenAPI at /docs).

Passwords are hashed with argon2id (argon2-cffi's defaults, RFC 9106's low-memory profile),
always in a worker thread: one hash takes tens of milliseconds of CPU and would stall every
table on the event loop. A login creates a session: a random token in the `tranque_session`
cookie, of which the database keeps only the SHA-256 (sessions.py).

Every refusal is a JSON body {"code", "message"} with the message in Spanish; a bad field
also names it ({"code", "parameter", "message"}).

CSRF: the session cookie is SameSite=Lax, so browsers leave it off cross-site POSTs. Two more
locks cover what Lax does not (a sibling subdomain is "same-site"; old browsers ignore
SameSite): (1) state-changing endpoints accept only `Content-Type: application/json`. A page
on another origin can send JSON only after a CORS preflight, which this server never grants;
the "simple" requests a form or a no-cors fetch can make (form-urlencoded, multipart,
text/plain, or no Content-Type at all, which FastAPI would otherwise read as JSON) are
refused. (2) A request whose `Origin` header is present and names another host is refused:
browsers send `Origin` on every cross-origin POST, and a script outside a browser has no
victim's cookie to abuse.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import unicodedata
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Annotated, Any
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Depends, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, Field

from tranque.server.app import server_state
from tranque.server.seats import token_hash
from tranque.server.sessions import SESSION_COOKIE, user_from_session
from tranque.server.store import NameTaken, UserRow

SESSION_SECONDS = 30 * 24 * 3600
NAME_PATTERN = re.compile(r"[\w.-]{3,24}")  # \w: letters (ñ, á too), digits and _
PASSWORD_MIN = 8
PASSWORD_MAX = 1024  # hashing a megabyte "password" is a cheap way to burn our CPU
WRONG_LOGIN = "Nombre o contraseña incorrectos."

_hasher = PasswordHasher()  # argon2id


# Errors: flat {"code", "message"} bodies in Spanish ----------------------------------------


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


# CSRF (see the module's docstring) ---------------------------------------------------------


def same_origin_json(request: Request) -> None:
    """Refuse a state-changing request a page on another origin could have made."""
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    if origin is not None and urlsplit(origin).netloc.lower() != host.lower():
        raise ApiError(403, "cross_origin", "Petición rechazada: viene de otro sitio.")
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json":
        raise ApiError(415, "json_required", "Envía los datos como JSON (Content-Type: application/json).")


# Login rate limit ----------------------------------------------------------------------------


@dataclass
class LoginLimiter:
    """At most `per_minute` login attempts per account name and per client address within any
    60 s, counted on the app's clock. In memory: a restart forgets, which is acceptable for
    a limit measured in minutes."""

    per_minute: int
    now: Callable[[], float]
    attempts: dict[str, deque[float]] = field(default_factory=dict)

    def allow(self, *keys: str) -> bool:
        """Count one attempt against every key, unless one of them is already at its limit."""
        now = self.now()
        if len(self.attempts) > 10_000:  # keys are only pruned when used; sweep the idle ones
            for key in [k for k, times in self.attempts.items() if not times or times[-1] <= now - 60]:
                del self.attempts[key]
        windows = [self.attempts.setdefault(key, deque()) for key in keys]
        for times in windows:
            while times and times[0] <= now - 60:
                times.popleft()
        if any(len(times) >= self.per_minute for times in windows):
            return False
        for times in windows:
            times.append(now)
        return True


def login_limiter(request: Request) -> LoginLimiter:
    app_state = request.app.state
    limiter: LoginLimiter | None = getattr(app_state, "login_limiter", None)
    if limiter is None:
        settings = server_state(request).settings
        limiter = LoginLimiter(settings.login_attempts_per_minute, settings.clock.now)
        app_state.login_limiter = limiter
    return limiter


# Sessions --------------------------------------------------------------------------------


async def current_user(request: Request) -> UserRow | None:
    state = server_state(request)
    token = request.cookies.get(SESSION_COOKIE)
    return await user_from_session(state.store, token, state.settings.clock.now())


async def require_user(request: Request) -> UserRow:
    """A dependency for endpoints that need an account: 401 without a live session."""
    user = await current_user(request)
    if user is None:
        raise ApiError(401, "login_required", "Entra con tu cuenta para hacer esto.")
    return user


async def start_session(request: Request, response: Response, user: UserRow) -> None:
    state = server_state(request)
    await end_session(request)
    token = secrets.token_urlsafe(32)
    expires = state.settings.clock.now() + SESSION_SECONDS
    await state.store.create_session(token_hash(token), user.user_id, expires)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=SESSION_SECONDS,
        path="/",
        httponly=True,
        samesite="lax",
        secure=state.settings.secure_cookies,
    )


async def end_session(request: Request) -> None:
    token = request.cookies.get(SESSION_COOKIE)
    if token and len(token) <= 128:
        await server_state(request).store.delete_session(token_hash(token))


# Endpoints -------------------------------------------------------------------------------

router = APIRouter(prefix="/api", tags=["cuentas"], route_class=SpanishErrors)


class Credentials(BaseModel):
    name: str = Field(examples=["Pedro_23"], description="3 a 24 letras, cifras, _, - o .")
    password: str = Field(examples=["una clave larga"], description="Al menos 8 caracteres.")


class Me(BaseModel):
    id: int
    name: str


def clean_name(name: str) -> str:
    name = unicodedata.normalize("NFC", name.strip())
    if not NAME_PATTERN.fullmatch(name):
        raise ApiError(
            422,
            "bad_name",
            "El nombre lleva de 3 a 24 caracteres: letras, cifras, guion bajo (_), guion (-) o punto.",
            "name",
        )
    return name


@router.post(
    "/register",
    response_model=Me,
    status_code=201,
    dependencies=[Depends(same_origin_json)],
    summary="Crear una cuenta (y entrar con ella)",
)
async def register(body: Credentials, request: Request, response: Response) -> Me:
    name = clean_name(body.name)
    if not PASSWORD_MIN <= len(body.password) <= PASSWORD_MAX:
        raise ApiError(
            422,
            "bad_password",
            f"La contraseña debe tener al menos {PASSWORD_MIN} caracteres (y no más de {PASSWORD_MAX}).",
            "password",
        )
    state = server_state(request)
    if await state.store.find_user(name) is not None:  # don't spend a hash on a known refusal
        raise ApiError(409, "name_taken", "Ese nombre ya está en uso; elige otro.", "name")
    hashed = await asyncio.to_thread(_hasher.hash, body.password)
    try:
        user = await state.store.create_user(name, hashed, state.settings.clock.now())
    except NameTaken:
        raise ApiError(409, "name_taken", "Ese nombre ya está en uso; elige otro.", "name") from None
    await start_session(request, response, user)
    return Me(id=user.user_id, name=user.name)


_dummy_hash: str | None = None


async def _password_matches(user: UserRow | None, password: str) -> bool:
    """Verify in a worker thread; an unknown name costs the same hash, so timing says nothing."""
    global _dummy_hash
    if user is None:
        if _dummy_hash is None:
            _dummy_hash = await asyncio.to_thread(_hasher.hash, secrets.token_urlsafe(16))
        stored = _dummy_hash
    else:
        stored = user.password_hash
    try:
        await asyncio.to_thread(_hasher.verify, stored, password)
    except (VerificationError, InvalidHashError):
        return False
    return user is not None


@router.post(
    "/login", response_model=Me, dependencies=[Depends(same_origin_json)], summary="Entrar con tu cuenta"
)
async def login(body: Credentials, request: Request, response: Response) -> Me:
    limiter = login_limiter(request)
    address = request.client.host if request.client else "?"
    name = unicodedata.normalize("NFC", body.name.strip())
    if not limiter.allow("name:" + name.casefold(), "ip:" + address):
        raise ApiError(429, "too_many_attempts", "Demasiados intentos; espera un minuto y vuelve a probar.")
    if len(body.password) > PASSWORD_MAX or len(body.name) > 64:
        raise ApiError(401, "wrong_login", WRONG_LOGIN)
    user = await server_state(request).store.find_user(name)
    if not await _password_matches(user, body.password):
        raise ApiError(401, "wrong_login", WRONG_LOGIN)
    assert user is not None
    await start_session(request, response, user)
    return Me(id=user.user_id, name=user.name)


@router.post(
    "/logout", status_code=204, dependencies=[Depends(same_origin_json)], summary="Salir de tu cuenta"
)
async def logout(request: Request) -> Response:
    await end_session(request)
    response = Response(status_code=204)
    response.delete_cookie(
        SESSION_COOKIE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=server_state(request).settings.secure_cookies,
    )
    return response


@router.get("/me", response_model=Me, summary="Con qué cuenta has entrado")
async def me(user: Annotated[UserRow, Depends(require_user)]) -> Me:
    return Me(id=user.user_id, name=user.name)
