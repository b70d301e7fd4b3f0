"""Passwords: what a new one must be, and hashing and checking them.

Hashes are argon2id (argon2-cffi's defaults, RFC 9106's low-memory profile), always in a
worker thread: one hash takes tens of milliseconds of CPU and would stall every table on the
event loop.

A new password is refused when it is too short or too long, when it is the account's name, or
when zxcvbn (Dropbox's estimator: common-password and word lists, keyboard patterns, repeats,
dates, the name itself) rates it guessable in under 10⁸ tries (NIST SP 800-63B §5.1.1.2: refuse
commonly used passwords, impose no composition rules).

zxcvbn is pure Python, and its l33t matcher tries every way of reading the look-alike
characters it finds (4 @ 8 ( { [ < 3 6 9 ! | 1 7 0 $ 5 + % 2): exponential in how many
different ones there are, ~10 s for 72 characters made of all twenty. So it is shown only
`estimated_part`: at most `ESTIMATED_MAX` characters, and no further than the tenth different
look-alike (`LOOKALIKES_MAX`; a password manager's random 32 characters hold about seven). A
part scoring 3 or more makes the whole password at least as strong; a strong password whose
start alone is weak (a word, then `4@8({[<369!|`) is refused, which costs its owner a retry
and nobody a frozen server. The estimate runs in a worker process with a time budget
(`accounts/password_checks.py`), never on the event loop: `cheap_weakness` is what may run there.
"""

from __future__ import annotations

import asyncio
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from zxcvbn import zxcvbn
from zxcvbn.matching import L33T_TABLE

from tranque.server.accounts.names import login_key

PASSWORD_MIN = 8
PASSWORD_MAX = 1024  # hashing a megabyte "password" is a cheap way to burn our CPU
ESTIMATED_MAX = 32  # characters zxcvbn is shown; what follows them only adds strength
LOOKALIKES_MAX = 10  # different look-alike characters zxcvbn is shown (at most ~0.2 s of its CPU)
LOOKALIKES = frozenset(c for subs in L33T_TABLE.values() for c in subs)
MIN_SCORE = 3  # zxcvbn's 0–4 scale; 3 is "safely unguessable": at least 10⁸ guesses

_hasher = PasswordHasher()  # argon2id
_dummy_hash: str | None = None


def weakness(password: str, name: str) -> str | None:
    """Why `password` may not be the new password of `name` (a stable code), or None: the cheap
    checks, then the estimate (CPU: run it in a worker, as accounts/password_checks.py does).

    >>> weakness("corta", "pedro"), weakness("Pedro_23", "pedro_23"), weakness("12345678", "ana")
    ('bad_password', 'password_is_name', 'weak_password')
    >>> weakness("una clave muy larga", "pedro") is None
    True
    >>> weakness(("4@8({[<369!|1705$+%2" * 4)[:72], "pedro") is None  # estimated on "4@8({[<369"
    True
    """
    return cheap_weakness(password, name) or estimated_weakness(password, name)


def cheap_weakness(password: str, name: str) -> str | None:
    """What is wrong with a new password that needs no estimate: its length, being the name."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        return "bad_password"
    if login_key(password) == login_key(name):
        return "password_is_name"
    return None


def estimated_weakness(password: str, name: str) -> str | None:
    """`weak_password` if zxcvbn rates the password's `estimated_part` guessable, else None."""
    if zxcvbn(estimated_part(password), user_inputs=[name])["score"] < MIN_SCORE:
        return "weak_password"
    return None


def estimated_part(password: str) -> str:
    """The start of `password` zxcvbn is shown: `ESTIMATED_MAX` characters at most, cut before
    the first look-alike character past `LOOKALIKES_MAX` different ones.

    >>> estimated_part("4@8({[<369!|1705$+%2"), estimated_part("x" * 40) == "x" * 32
    ('4@8({[<369', True)
    """
    seen: set[str] = set()
    for index, char in enumerate(password[:ESTIMATED_MAX]):
        if char in LOOKALIKES and char not in seen:
            if len(seen) == LOOKALIKES_MAX:
                return password[:index]
            seen.add(char)
    return password[:ESTIMATED_MAX]


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
