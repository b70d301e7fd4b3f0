"""A staked game's end at a real `Table` actor on every store (tests/server/support/inprocess.py),
recorded as the app records it (players/recorder.py): the `game_ended` shows what the pot
moves (`ficha_changes`), and the recording writes exactly that, once — a duel won (the
winner takes the pot less the bank's 40%), a duel from one address (not rated: the stakes
back), a game annulled after a player abandoned it (their stake to the bank, the other's
back) and a table annulled before its game started (the stakes back)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from tests.server.support.inprocess import TableRig, play_until
from tranque.engine import Rules
from tranque.server.fichas.ledger import Books, account
from tranque.server.fichas.service import Fichas
from tranque.server.players.table_fichas import pot_number
from tranque.server.settings import Settings
from tranque.server.store import Store
from tranque.server.table import commands
from tranque.server.table.state import TableKind

pytestmark = pytest.mark.anyio

DUEL = Rules.preset("clasico", players=2, mode="individual")
STAKE = 50


@asynccontextmanager
async def staked_duel(
    store: Store, addresses: tuple[str, str] = ("10.0.0.1", "10.0.0.2"), seated: int = 2
) -> AsyncIterator[tuple[TableRig, Fichas, list[int]]]:
    """A competitive duel whose first `seated` seats are two accounts' (each granted 1000
    fichas), each with its stake of 50 in the pot."""
    users = [(await store.create_user(f"jugador{seat}", "hash", 0.0)).user_id for seat in range(2)]
    async with TableRig.opened(DUEL, TableKind.PUBLIC, store, competitive=True) as rig:
        fichas = Fichas(store, Settings(database_url=None, clock=rig.clock))
        for seat, user in enumerate(users[:seated]):
            await fichas.grant_if_new(user)
            sat = await rig.call(commands.Sit(user, f"jugador{seat}", seat, addresses[seat]))
            rig.tokens[seat] = sat["token"]
            await fichas.stake(user, rig.table_id, pot_number(rig.table.state), seat, STAKE)
            await rig.hello(seat)
        assert await fichas.pot(rig.table_id, 1) == STAKE * seated
        yield rig, fichas, users


async def ended(rig: TableRig) -> dict[str, Any]:
    data: dict[str, Any] = (await rig.log())[-1].data
    return data


async def test_a_duel_won_pays_the_winner_the_pot_less_the_banks_cut_once(store: Store) -> None:
    async with staked_duel(store) as (rig, fichas, users):
        await play_until(rig, lambda state: state.phase.is_over, humans=(0, 1))
        data = await ended(rig)
        winner = data["winners"][0]
        loser = 1 - winner
        assert data["ficha_changes"] == [
            {
                "seat": 0,
                "user_id": users[0],
                "amount": 60 if winner == 0 else -50,
                "kind": "payout" if winner == 0 else "stake",
            },
            {
                "seat": 1,
                "user_id": users[1],
                "amount": 60 if winner == 1 else -50,
                "kind": "payout" if winner == 1 else "stake",
            },
            {"seat": None, "user_id": None, "amount": 40, "kind": "cut"},
        ]
        assert await fichas.pot(rig.table_id, 1) == 100  # the table pays nothing: the recorder does
        assert await rig.record_games() == 1
        assert await rig.record_games() == 0  # a second recording pays nothing
        assert await store.ficha_balance(account(users[winner])) == 1010
        assert await store.ficha_balance(account(users[loser])) == 950
        assert await fichas.books() == Books(2000, 1960, 0, 40)


async def test_a_duel_from_one_address_is_not_rated_and_gives_the_stakes_back(store: Store) -> None:
    async with staked_duel(store, ("10.0.0.1", "10.0.0.1")) as (rig, fichas, users):
        await play_until(rig, lambda state: state.phase.is_over, humans=(0, 1))
        data = await ended(rig)
        assert [(change["amount"], change["kind"]) for change in data["ficha_changes"]] == [
            (50, "refund"),
            (50, "refund"),
        ]
        assert await rig.record_games() == 1
        assert [await store.ficha_balance(account(user)) for user in users] == [1000, 1000]
        assert await fichas.books() == Books(2000, 2000, 0, 0)


async def test_an_annulled_game_gives_back_every_stake_but_the_abandoners(store: Store) -> None:
    async with staked_duel(store) as (rig, fichas, users):
        await play_until(rig, lambda state: state.game is not None and state.turn is not None, humans=(0, 1))
        await rig.call(commands.Abandon(1))
        await rig.call(commands.EndByOperator("la mesa se trabó"))
        data = await ended(rig)
        assert data["reason"] == "annulled"
        assert data["ficha_changes"] == [
            {"seat": 0, "user_id": users[0], "amount": 50, "kind": "refund"},
            {"seat": 1, "user_id": users[1], "amount": -50, "kind": "forfeit"},
        ]
        assert await rig.record_games() == 1
        assert [await store.ficha_balance(account(user)) for user in users] == [1000, 950]
        assert await fichas.books() == Books(2000, 1950, 0, 50)


async def test_a_table_annulled_before_its_game_gives_the_stakes_back(store: Store) -> None:
    async with staked_duel(store, seated=1) as (rig, fichas, users):
        assert rig.table.state.game is None
        await rig.call(commands.EndByOperator("nadie vino"))
        data = await ended(rig)
        assert data["ficha_changes"] == [{"seat": 0, "user_id": users[0], "amount": 50, "kind": "refund"}]
        assert await rig.record_games() == 1
        assert await store.ficha_balance(account(users[0])) == 1000
        assert await fichas.books() == Books(1000, 1000, 0, 0)
