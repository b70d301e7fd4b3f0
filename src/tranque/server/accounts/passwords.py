"""Passwords: what a new one must be, and hashing and checking them.

Hashes are argon2id (argon2-cffi's defaults, RFC 9106's low-memory profile), always in a
worker thread: one hash takes tens of milliseconds of CPU and would stall every table on the
event loop.

A new password is refused when it is too short or too long, when it is the account's name, or
when zxcvbn (Dropbox's estimator: common-password and word lists, keyboard patterns, repeats,
dates, the name itself) rates it guessable in under 10⁸ tries (NIST SP 800-63B §5.1.1.2: refuse
commonly used passwords, impose no composition rules).
"""

from __future__ import annotations

import asyncio
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from zxcvbn import zxcvbn

from tranque.server.accounts.names import login_key

PASSWORD_MIN = 8
PASSWORD_MAX = 1024  # hashing a megabyte "password" is a cheap way to burn our CPU
ZXCVBN_MAX = 72  # zxcvbn refuses longer input; what follows the 72nd character only adds strength
MIN_SCORE = 3  # zxcvbn's 0–4 scale; 3 is "safely unguessable": at least 10⁸ guesses

_hasher = PasswordHasher()  # argon2id
_dummy_hash: str | None = None


def weakness(password: str, name: str) -> str | None:
    """Why `password` may not be the new password of `name` (a stable code), or None.

    >>> weakness("corta", "pedro"), weakness("Pedro_23", "pedro_23"), weakness("12345678", "ana")
    ('bad_password', 'password_is_name', 'weak_password')
    >>> weakness("una clave muy larga", "pedro") is None
    True
    """
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        return "bad_password"
    if login_key(password) == login_key(name):
        return "password_is_name"
    if zxcvbn(password[:ZXCVBN_MAX], user_inputs=[name])["score"] < MIN_SCORE:
        return "weak_password"
    return None


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hasher.hash, password)


async def password_matches(stored_hash: str | None, password: str) -> bool:
    """Verify in a worker thread; no account (None) costs the same hash, so timing says nothing."""
    global _dummy_hash
    if stored_hash is None:
        if _dummy_hash is None:
            _dummy_hash = await hash_password(secrets.token_urlsafe(16))
        await _verify(_dummy_hash, password)
        return False
    return await _verify(stored_hash, password)


async def _verify(stored_hash: str, password: str) -> bool:
    try:
        return await asyncio.to_thread(_hasher.verify, stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False
