"""`PenaError`: a refusal of the peñas' rules, with the HTTP status http/penas.py answers it with."""

from __future__ import annotations

from tranque.server.refusals import Refusal


class PenaError(Refusal):
    """A refused change or read of a peña: `key` from the catalogue (refusals.py), `status` the
    HTTP status, `parameter` the field at fault.

    >>> PenaError(409, "pena_last_leader").code
    'pena_last_leader'
    """

    def __init__(self, status: int, key: str, /, parameter: str | None = None, **params: object) -> None:
        super().__init__(key, **params)
        self.status = status
        self.parameter = parameter
