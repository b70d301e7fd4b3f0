"""Accounts: register, log in, log out, and who am I (OpenAPI at /docs).

Names are checked and compared as names.py says (NFKC; look-alikes of an existing name are
refused), passwords as passwords.py says (argon2id; common ones and the name are refused). A
login creates a session: a random token in the `tranque_session` cookie, of which the
database keeps only the SHA-256; logging out ends it and closes the sockets opened with it
(sessions.py). Failed logins and registrations are limited per client address
(accounts/throttle.py, addresses.py).

Every refusal is a JSON body {"code", "message", "message_en"}, the message in Spanish and in
English; a bad field also names it (`parameter`): http/errors.py.

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

import secrets
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field

from tranque.server.accounts.names import NAME_PATTERN, SKELETON_MAX, login_key, normal_form, skeleton
from tranque.server.accounts.passwords import (
    PASSWORD_MAX,
    PASSWORD_MIN,
    hash_password,
    password_matches,
    weakness,
)
from tranque.server.accounts.sessions import SESSION_COOKIE, TOKEN_MAX, user_from_session
from tranque.server.addresses import client_address, is_https
from tranque.server.app_state import ServerState, server_state
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.moderation.standing import barred, utc_text
from tranque.server.store import NameTaken, UserRow
from tranque.server.table.seats import token_hash

SESSION_SECONDS = 30 * 24 * 3600
NAME_MAX = 64  # longer than any name: a login with it is simply wrong


# CSRF (see the module's docstring) ---------------------------------------------------------


def same_origin_json(request: Request) -> None:
    """Refuse a state-changing request a page on another origin could have made."""
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    if origin is not None and urlsplit(origin).netloc.lower() != host.lower():
        raise ApiError(403, "cross_origin")
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json":
        raise ApiError(415, "json_required")


# Sessions --------------------------------------------------------------------------------


async def current_user(request: Request) -> UserRow | None:
    state = server_state(request)
    token = request.cookies.get(SESSION_COOKIE)
    return await user_from_session(state.store, token, state.settings.clock.now())


async def require_user(request: Request) -> UserRow:
    """A dependency for endpoints that need an account: 401 without a live session."""
    user = await current_user(request)
    if user is None:
        raise ApiError(401, "login_required")
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
        secure=secure_cookies(request),
    )


def secure_cookies(request: Request) -> bool:
    """`Secure` when configured, and whenever the client came over https (behind a trusted
    proxy, uvicorn takes the scheme from its `X-Forwarded-Proto`)."""
    return server_state(request).settings.secure_cookies or is_https(request)


async def end_session(request: Request) -> None:
    """Delete the request's session and close the sockets opened with it."""
    token = request.cookies.get(SESSION_COOKIE)
    if token and len(token) <= TOKEN_MAX:
        state = server_state(request)
        await state.store.delete_session(token_hash(token))
        await state.session_sockets.close_all(token)


# Endpoints -------------------------------------------------------------------------------

router = APIRouter(prefix="/api", tags=["cuentas"], route_class=SpanishErrors)


class Credentials(BaseModel):
    name: str = Field(examples=["Pedro_23"], description="3 a 24 letras, cifras, _, - o .")
    password: str = Field(examples=["una clave larga"], description="Al menos 8 caracteres.")


class Me(BaseModel):
    id: int
    name: str


class MeWithRole(Me):
    role: str = Field(description="player | moderator | admin")


def clean_name(name: str) -> str:
    name = normal_form(name)
    if not NAME_PATTERN.fullmatch(name) or len(skeleton(name)) > SKELETON_MAX:
        raise ApiError(422, "bad_name", parameter="name")
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
    check_password(body.password, name)
    state = server_state(request)
    # Known refusals first: they cost no hash and no registration from the address's quota.
    if await state.store.find_user(name) is not None:
        raise ApiError(409, "name_taken", parameter="name")
    similar = await state.store.find_similar_user(name)
    if similar is not None:
        raise ApiError(409, "name_confusable", parameter="name", similar=similar.name)
    address = client_address(request)
    if not await state.registrations.take(address):  # checked and counted at once (accounts/throttle.py)
        raise ApiError(429, "too_many_registrations")
    hashed = await hash_password(body.password)
    try:
        user = await state.store.create_user(name, hashed, state.settings.clock.now())
    except NameTaken:
        raise ApiError(409, "name_taken", parameter="name") from None
    await start_session(request, response, user)
    return Me(id=user.user_id, name=user.name)


def check_password(password: str, name: str) -> None:
    problem = weakness(password, name)
    if problem == "bad_password":
        raise ApiError(422, "bad_password", parameter="password", least=PASSWORD_MIN, most=PASSWORD_MAX)
    if problem is not None:  # password_is_name, weak_password
        raise ApiError(422, problem, parameter="password")


@router.post(
    "/login", response_model=Me, dependencies=[Depends(same_origin_json)], summary="Entrar con tu cuenta"
)
async def login(body: Credentials, request: Request, response: Response) -> Me:
    state = server_state(request)
    limiter = state.login_limiter
    address = client_address(request)
    name = normal_form(body.name[:NAME_MAX])
    key = login_key(name)
    if not await limiter.attempt(address, key):
        raise ApiError(429, "too_many_attempts")
    user = await _authenticate(state, name, body)
    if user is None:
        raise ApiError(401, "wrong_login")
    await limiter.succeeded(address, key)
    sanction = await barred(state.store, user.user_id, state.settings.clock.now())
    if sanction is not None:  # the right password of a suspended or banned account
        raise sanction_refusal(sanction.kind, sanction.until)
    await start_session(request, response, user)
    return Me(id=user.user_id, name=user.name)


def sanction_refusal(kind: str, until: float | None) -> ApiError:
    """A suspended or banned account's login: 403, saying until when a suspension lasts."""
    if kind == "ban" or until is None:
        return ApiError(403, "account_banned")
    return ApiError(403, "account_suspended", until=utc_text(until))


async def _authenticate(state: ServerState, name: str, body: Credentials) -> UserRow | None:
    """The account, if the password is its own; an unknown name costs the same hash."""
    if len(body.password) > PASSWORD_MAX or len(body.name) > NAME_MAX:
        return None  # no such password was ever accepted: not worth a hash
    user = await state.store.find_user(name)
    if user is not None and user.is_bot:  # it plays with its token, never with a password
        raise ApiError(403, "bot_not_allowed")
    matches = await password_matches(user.password_hash if user is not None else None, body.password)
    return user if matches else None


@router.post(
    "/logout", status_code=204, dependencies=[Depends(same_origin_json)], summary="Salir de tu cuenta"
)
async def logout(request: Request) -> Response:
    await end_session(request)
    response = Response(status_code=204)
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=secure_cookies(request)
    )
    return response


@router.get("/me", response_model=MeWithRole, summary="Con qué cuenta has entrado")
async def me(request: Request, user: Annotated[UserRow, Depends(require_user)]) -> MeWithRole:
    role = await server_state(request).store.role_of(user.user_id)
    return MeWithRole(id=user.user_id, name=user.name, role=role)
