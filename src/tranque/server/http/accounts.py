"""Accounts: register, log in, log out, and who am I (OpenAPI at /docs).

Names are checked and compared as names.py says (NFKC; look-alikes of an existing name are
refused), passwords as passwords.py says (argon2id; common ones and the name are refused). A
login creates a session: a random token in the `tranque_session` cookie, of which the
database keeps only the SHA-256; logging out ends it and closes the sockets opened with it
(sessions.py). Failed logins and registrations are limited per client place (an IPv4
address, an IPv6 /64: accounts/throttle.py, addresses.py), and failed logins on one name from
anywhere get growing delays, except from a device the account logged in from before (the
`tranque_device` cookie) or with its own live session (accounts/account_delays.py).

A new password's cheap checks (length, the name) come first; the strength estimate runs last,
after the name's checks and once the place's registration quota is taken, in a worker process
(accounts/password_checks.py): a refused sign-up costs no estimate, and none runs on the loop.

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

import hashlib
import math
import secrets
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field

from tranque.server.accounts.names import NAME_PATTERN, SKELETON_MAX, login_key, normal_form, skeleton
from tranque.server.accounts.password_checks import BUSY
from tranque.server.accounts.passwords import (
    PASSWORD_MAX,
    PASSWORD_MIN,
    cheap_weakness,
    hash_password,
    password_matches,
)
from tranque.server.accounts.sessions import SESSION_COOKIE, TOKEN_MAX, user_from_session
from tranque.server.addresses import client_place, is_https
from tranque.server.app_state import ServerState, server_state
from tranque.server.http.errors import ApiError, SpanishErrors
from tranque.server.moderation.standing import barred, utc_text
from tranque.server.store import NameTaken, UserRow
from tranque.server.table.seats import token_hash

SESSION_SECONDS = 30 * 24 * 3600
DEVICE_COOKIE = "tranque_device"  # a browser's random id, set by a login (accounts/account_delays.py)
DEVICE_SECONDS = 365 * 24 * 3600
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
    # Known refusals first: they cost no estimate, no hash and no registration from the quota.
    if await state.store.find_user(name) is not None:
        raise ApiError(409, "name_taken", parameter="name")
    similar = await state.store.find_similar_user(name)
    if similar is not None:
        raise ApiError(409, "name_confusable", parameter="name", similar=similar.name)
    address = client_place(request, state.settings.ipv6_prefix)
    if not await state.registrations.take(address):  # checked and counted at once (accounts/throttle.py)
        raise ApiError(429, "too_many_registrations")
    # The estimate only now: a refused password has used one registration of the place's quota.
    problem = await state.passwords.weakness(body.password, name)
    if problem == BUSY:
        raise ApiError(503, "password_check_busy", parameter="password", retry_after=5)
    if problem is not None:  # weak_password (estimated, or past its budget)
        raise ApiError(422, problem, parameter="password")
    hashed = await hash_password(body.password)
    try:
        user = await state.store.create_user(name, hashed, state.settings.clock.now())
    except NameTaken:
        raise ApiError(409, "name_taken", parameter="name") from None
    # The new account's fichas (none when they are off; if this fails, its first balance read
    # grants them: fichas/service.py `refill`).
    await state.fichas.grant_if_new(user.user_id)
    await remember_device(request, response, login_key(name))
    await start_session(request, response, user)
    return Me(id=user.user_id, name=user.name)


def check_password(password: str, name: str) -> None:
    """The cheap checks of a new password (no estimate: that is `state.passwords`')."""
    problem = cheap_weakness(password, name)
    if problem == "bad_password":
        raise ApiError(422, "bad_password", parameter="password", least=PASSWORD_MIN, most=PASSWORD_MAX)
    if problem is not None:  # password_is_name
        raise ApiError(422, problem, parameter="password")


@router.post(
    "/login", response_model=Me, dependencies=[Depends(same_origin_json)], summary="Entrar con tu cuenta"
)
async def login(body: Credentials, request: Request, response: Response) -> Me:
    state = server_state(request)
    limiter = state.login_limiter
    address = client_place(request, state.settings.ipv6_prefix)
    name = normal_form(body.name[:NAME_MAX])
    key = login_key(name)
    if not await limiter.attempt(address, key):
        raise ApiError(429, "too_many_attempts")
    device = request.cookies.get(DEVICE_COOKIE, "")[:TOKEN_MAX]
    if not await _owners_own(request, state, key, device):
        wait = await state.account_delays.attempt(key)
        if wait > 0:
            seconds = math.ceil(wait)
            raise ApiError(429, "too_many_attempts.account", retry_after=seconds, seconds=str(seconds))
    user = await _authenticate(state, name, body)
    if user is None:
        raise ApiError(401, "wrong_login")
    await limiter.succeeded(address, key)
    sanction = await barred(state.store, user.user_id, state.settings.clock.now())
    if sanction is not None:  # the right password of a suspended or banned account
        raise sanction_refusal(sanction.kind, sanction.until)
    await state.account_delays.succeeded(key)
    await state.fichas.refill(user.user_id)  # the day's top-up to the floor, if below it (and fichas on)
    await remember_device(request, response, key)
    await start_session(request, response, user)
    return Me(id=user.user_id, name=user.name)


def sanction_refusal(kind: str, until: float | None) -> ApiError:
    """A suspended or banned account's login: 403, saying until when a suspension lasts."""
    if kind == "ban" or until is None:
        return ApiError(403, "account_banned")
    return ApiError(403, "account_suspended", until=utc_text(until))


async def remember_device(request: Request, response: Response, name_key: str) -> None:
    """The account logged in from this browser: its device cookie (a new one if it has none)
    is one of the account's known devices from now on."""
    device = request.cookies.get(DEVICE_COOKIE, "")[:TOKEN_MAX]
    if not device:
        device = secrets.token_urlsafe(32)
        response.set_cookie(
            DEVICE_COOKIE,
            device,
            max_age=DEVICE_SECONDS,
            path="/",
            httponly=True,
            samesite="lax",
            secure=secure_cookies(request),
        )
    await server_state(request).devices.remember(name_key, _device_hash(device))


async def _owners_own(request: Request, state: ServerState, name_key: str, device: str) -> bool:
    """Whether the login comes from a device the name logged in from before, or with a live
    session of that very account: no delay for failures elsewhere applies to it."""
    if device and await state.devices.known(name_key, _device_hash(device)):
        return True
    user = await current_user(request)
    return user is not None and login_key(user.name) == name_key


def _device_hash(device: str) -> str:
    return hashlib.sha256(device.encode()).hexdigest()


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
