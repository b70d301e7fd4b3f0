"""`FichasError`: a refusal of the fichas' rules (its codes and texts are in refusals.py)."""

from __future__ import annotations

from tranque.server.refusals import Refusal


class FichasError(Refusal):
    """A refused stake, entry or read of fichas: `key` from the catalogue (refusals.py):
    ``fichas_off``, ``fichas_not_enough`` (with `need` and `have`), ``fichas_bad_stake``,
    ``fichas_stake_not_allowed``. Nothing was moved. `status`: the HTTP status to answer with.

    >>> FichasError("fichas_not_enough", need=50, have=20).code
    'fichas_not_enough'
    """

    def __init__(self, key: str, /, status: int = 409, **params: object) -> None:
        super().__init__(key, **params)
        self.status = status
