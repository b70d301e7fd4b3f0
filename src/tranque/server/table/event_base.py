"""What every table event is: a frozen value with its stored form, what each viewer may see
of it, and the one `apply` that folds it into a `TableState` (the kinds themselves are in
`round_events` and `table_events`).

An event is stored as the referee knows it by `to_data`, and read back by `from_data`. What
leaves the server is `project(viewer)`, a whitelist: `visible_keys` are all the keys some
viewer may get. Viewers with the same `audience(viewer)` get the same projection, so a frame
is serialised once per audience, not once per socket. `apply` refuses, with
`TransitionError`, an event the table's lifecycle does not allow at that point.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import Field, fields
from typing import Any, ClassVar, Self

from tranque.server.table.fairness import DealSecret
from tranque.server.table.state import TableState, TransitionError, Viewer


class TableEvent:
    kind: ClassVar[str]
    visible_keys: ClassVar[tuple[str, ...]]  # every key of the data some viewer may receive

    def to_data(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        raise NotImplementedError

    def audience(self, viewer: Viewer) -> Hashable:
        """Viewers with equal audiences get equal projections (default: everybody alike)."""
        return None

    def project(self, viewer: Viewer) -> dict[str, Any]:
        data = self.to_data()
        return {key: data[key] for key in self.visible_keys if key in data}

    def apply(self, state: TableState) -> None:
        raise NotImplementedError


class FieldsEvent(TableEvent):
    """An event (a dataclass) stored as its fields by name, tuples as lists; a field a
    stored event lacks takes its default (logs from before the field existed)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def to_data(self) -> dict[str, Any]:
        return {item.name: _plain(getattr(self, item.name)) for item in fields(self)}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        return cls(**{item.name: _frozen(data[item.name]) for item in fields(cls) if item.name in data})


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _frozen(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


# Checks and codecs the kinds share -----------------------------------------------------------


def in_game(state: TableState, what: str) -> None:
    if not state.phase.in_game:
        raise TransitionError(f"{what} while the table is {state.phase}")


def seat_index(state: TableState, seat: int) -> int:
    if not 0 <= seat < len(state.seats):
        raise TransitionError(f"no seat {seat}")
    return seat


def tiles(values: Any) -> tuple[str, ...]:
    return tuple(str(tile) for tile in values)


def hands(values: Any) -> tuple[tuple[str, ...], ...]:
    return tuple(tiles(hand) for hand in values)


def secret_of(data: dict[str, Any]) -> DealSecret | None:
    """The seed and salt stored in `data`, if they are there (hex)."""
    if data.get("seed") is None:
        return None
    return DealSecret(bytes.fromhex(data["seed"]), bytes.fromhex(data["salt"]))


def secret_data(secret: DealSecret | None) -> dict[str, str | None]:
    """A round's seed, salt and commitment as stored (and revealed at its end)."""
    if secret is None:
        return {"seed": None, "salt": None, "commitment": None}
    return {"seed": secret.seed.hex(), "salt": secret.salt.hex(), "commitment": secret.commitment}
