"""A tournament's entry in fichas (`TournamentConfig.entry_fichas`) and its prize pool.

Registering moves the entry from the account to the tournament's pool (`pot:tournament:<id>`,
fichas/service.py `tournament_entry`): refused with `fichas_not_enough`, nothing changed.
Withdrawing before the start and a cancelled event give every entry back; once the event
runs, a withdrawal leaves the entry in the pool. At the end the podium is paid from the pool
less the bank's cut (`fichas_bank_cut`, as at a table): the rest shared 5:3:2 between first,
second and third (fichas/rules.py `PRIZE_SHARES`), partners splitting their place's share, the
remainder of an uneven split to the bank. Only accounts that paid an entry take a prize: a
place held by bots only is left out and the others share the rest; a podium of bots only
leaves the whole pool to the bank.

Every step is idempotent by the movements' keys, so the director and the service may call
`settle` after every save: a crash after the save is made good by the next call. With fichas
off nothing here moves or is refused: an event's entry counts as none.
"""

from __future__ import annotations

from tranque.server.fichas import ledger
from tranque.server.fichas.service import Fichas
from tranque.server.tournaments.machine import Status, Tournament


def entry_of(tournament: Tournament, fichas: Fichas | None) -> int:
    """The fichas an account pays to enter (0: none, or fichas off)."""
    if fichas is None or not fichas.enabled:
        return 0
    return tournament.config.entry_fichas


async def paid(fichas: Fichas, tournament_id: str) -> dict[int, int]:
    """What each account has in the tournament's pool (entries less refunds)."""
    movements = await fichas.store.ficha_movements_of(ledger.tournament_ref(tournament_id))
    return ledger.stakes_in(movements)


def podium_accounts(tournament: Tournament, payers: set[int]) -> list[list[int]]:
    """The podium (first, second, third) as the accounts of each place that paid an entry."""
    by_no = {entrant.no: entrant for entrant in tournament.entrants}
    places = []
    for no in tournament.podium():
        entrant = by_no.get(no)
        places.append([a for a in (entrant.accounts if entrant else ()) if a in payers])
    return places


async def settle(fichas: Fichas | None, tournament: Tournament) -> None:
    """Make the pool agree with the event's status: a cancelled event refunds every entry; a
    finished one pays its podium. Nothing for an event without entry or with fichas off."""
    if fichas is None or not fichas.enabled or tournament.config.entry_fichas <= 0:
        return
    if tournament.status is Status.CANCELLED:
        for account in await paid(fichas, tournament.id):
            await fichas.tournament_refund(account, tournament.id)
    elif tournament.status is Status.FINISHED:
        podium = podium_accounts(tournament, set(await paid(fichas, tournament.id)))
        await fichas.tournament_prizes(tournament.id, podium)
