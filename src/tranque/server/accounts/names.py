"""Account names: what a name may be, its normal form, and the key that tells look-alikes apart.

A name is kept in Unicode's NFKC form, so a full-width `ｐｅｄｒｏ` is the name `pedro`. Two
names are one account when they are equal casefolded (`Pedro`, `PEDRO`), and a new name is
refused when it looks like an existing one: a Cyrillic `е` in `pеdro`, a `1` for an `l`, `rn`
for `m`. Looking alike is decided by the skeleton of Unicode's UTS #39 ("Unicode Security
Mechanisms", section 4): every character is replaced by the prototype it can be confused
with, from the confusables data of the `confusable_homoglyphs` package; two names with the same
skeleton are confusable. The store keeps the skeleton in a unique column beside the casefolded
key (`schema.users`).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from confusable_homoglyphs import confusables

NAME_PATTERN = re.compile(r"[\w.-]{3,24}")  # \w: letters (ñ, á too), digits and _
SKELETON_MAX = 128  # the column's size; 24 characters never come near it
_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")  # the data wraps right-to-left glyphs


def normal_form(name: str) -> str:
    """The name as it is stored and shown: NFKC, without surrounding spaces.

    >>> normal_form(" ｐｅｄｒｏ ")
    'pedro'
    """
    return unicodedata.normalize("NFKC", name.strip())


def login_key(name: str) -> str:
    """The key that makes `Pedro` and `PEDRO` one account: the normal form, casefolded.

    >>> login_key("ＰＥＤＲＯ") == login_key("pedro")
    True
    """
    return normal_form(name).casefold()


def skeleton(name: str) -> str:
    """The look-alike key: equal for names a reader could take for each other, casefolded.

    >>> skeleton("pеdro") == skeleton("pedro")  # a Cyrillic е
    True
    >>> skeleton("ana1") == skeleton("anal") == skeleton("ANAl")
    True
    >>> skeleton("rnaria") == skeleton("maria")
    True
    >>> skeleton("peña") == skeleton("pena")  # a tilde is not a look-alike
    False
    """
    decomposed = unicodedata.normalize("NFD", normal_form(name))
    mapped = "".join(_prototype(char) for char in decomposed)
    return unicodedata.normalize("NFD", mapped).casefold()


@functools.lru_cache(maxsize=4096)
def _prototype(char: str) -> str:
    """The UTS #39 prototype of one character (itself when it has no look-alike).

    The package's data pairs each confusable character with its prototype in both directions:
    a character with several look-alikes is a prototype; one whose only look-alike is a
    sequence, or a character with several look-alikes, maps to it. A lone pair (one character
    confusable with one other) maps both to the same member of the two.
    """
    others = _homoglyphs(char)
    if len(others) != 1:
        return char
    (other,) = others
    if len(other) != 1 or len(_homoglyphs(other)) > 1:
        return other
    return min(char, other)


def _homoglyphs(char: str) -> list[str]:
    found = confusables.is_confusable(char, greedy=True)
    if not found:
        return []
    return [str(glyph["c"]).translate(_DIRECTION_MARKS) for glyph in found[0]["homoglyphs"]]
