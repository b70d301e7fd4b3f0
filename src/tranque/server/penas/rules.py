"""What a peña's name, crest, description and access may be, and the slug of its page.

A name follows the account names' rules of accounts/names.py: kept in NFKC form, unique
casefolded, and refused when it looks like another peña's (the same UTS #39 skeleton). Unlike
an account's, it may have spaces between words ("Los del Martes"). The crest is one of the
site's drawings (the avatars of accounts/avatars.py).

>>> clean_name("  Los   del Martes ")
'Los del Martes'
>>> slug_of("Peña El Dominó de Ñaña")
'pena-el-domino-de-nana'
>>> slug_of("!!!")
'pena'
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from tranque.server.accounts.avatars import AVATAR_LABELS, AVATARS
from tranque.server.accounts.names import SKELETON_MAX, normal_form, skeleton
from tranque.server.penas.errors import PenaError
from tranque.server.store.penas import ACCESS

NAME_LEAST: Final = 3
NAME_MOST: Final = 40
DESCRIPTION_MOST: Final = 300
SLUG_MOST: Final = 48
CRESTS: Final[tuple[str, ...]] = AVATARS  # the site's drawings (web/avatars/<id>.svg)
CREST_LABELS: Final = AVATAR_LABELS

_WORDS = re.compile(r"[\w.'-]+( [\w.'-]+)*")  # \w: letters (ñ, á too), digits and _
_SPACES = re.compile(r"\s+")


def clean_name(name: str) -> str:
    """The name as it is kept (NFKC, one space between words), or the `pena_name` refusal."""
    cleaned = _SPACES.sub(" ", normal_form(name))
    fits = NAME_LEAST <= len(cleaned) <= NAME_MOST and _WORDS.fullmatch(cleaned) is not None
    if not fits or len(skeleton(cleaned)) > SKELETON_MAX:
        raise PenaError(422, "pena_name", parameter="name", least=str(NAME_LEAST), most=str(NAME_MOST))
    return cleaned


def check_crest(crest: str) -> str:
    if crest not in CREST_LABELS:
        raise PenaError(422, "pena_crest", parameter="crest")
    return crest


def clean_description(description: str) -> str:
    cleaned = unicodedata.normalize("NFC", description.strip())
    if len(cleaned) > DESCRIPTION_MOST:
        raise PenaError(422, "pena_description", parameter="description", most=str(DESCRIPTION_MOST))
    return cleaned


def check_access(access: str) -> str:
    if access not in ACCESS:
        raise PenaError(422, "pena_access", parameter="access")
    return access


def slug_of(name: str) -> str:
    """The page's address of a name: ASCII letters and digits joined by hyphens ("pena" when
    none is left); the store makes it unique."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    slug = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:SLUG_MOST].strip("-")
    return slug or "pena"
