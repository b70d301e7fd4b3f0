"""The drawings a player may take as their avatar (the browser has `web/avatars/<id>.svg`).

A player who chose none shows the default of their account number:

>>> default_avatar(1), avatar_of(13, None), avatar_of(13, "mango")
('sol', 'sol', 'mango')
"""

from __future__ import annotations

from typing import Final

# id → (Spanish label, English label)
AVATAR_LABELS: Final[dict[str, tuple[str, str]]] = {
    "palma": ("Palma", "Palm tree"),
    "sol": ("Sol", "Sun"),
    "mar": ("Mar", "Sea"),
    "loro": ("Loro", "Parrot"),
    "coco": ("Coco", "Coconut"),
    "tambor": ("Tambor", "Drum"),
    "guitarra": ("Guitarra", "Guitar"),
    "gallo": ("Gallo", "Rooster"),
    "iguana": ("Iguana", "Iguana"),
    "tucan": ("Tucán", "Toucan"),
    "cafe": ("Café", "Coffee"),
    "mango": ("Mango", "Mango"),
}
AVATARS: Final[tuple[str, ...]] = tuple(AVATAR_LABELS)


def default_avatar(user_id: int) -> str:
    return AVATARS[user_id % len(AVATARS)]


def avatar_of(user_id: int, chosen: str | None) -> str:
    """The avatar a player shows: the one they chose, or their default."""
    if chosen is not None and chosen in AVATAR_LABELS:
        return chosen
    return default_avatar(user_id)
