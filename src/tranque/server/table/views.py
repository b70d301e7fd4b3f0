"""What a viewer of a table is shown beyond its events: the full `sync` on (re)joining, the
`options` of a seat that is to act, the host's panel, and the game's record once it ends.

All of it is derived from the table's state, never stored; functions over `TableContext`
(context.py), so the actor calls them on itself without this module knowing the actor.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from tranque.engine.record import to_record
from tranque.server.table.context import TableContext
from tranque.server.table.hints import with_hints
from tranque.server.table.line_layout import line_json
from tranque.server.table.state import Phase, TableKind, TableState, Viewer


def invite_path(code: str) -> str:
    """The path of a private table's invitation link."""
    return f"/mesa?invite={quote(code)}"


def options_for(table: TableContext, seat: Viewer) -> dict[str, Any] | None:
    """The legal actions of `seat` if it is to act now (never stored: derived state)."""
    state = table.state
    turn = state.turn
    if seat is None or state.phase is not Phase.PLAYING or turn is None or turn.seat != seat:
        return None
    actions = [action.to_json() for action in state.playing_game().round.legal_actions()]
    return {"type": "options", "turn_id": turn.turn_id, "legal_actions": actions}


def send_options(table: TableContext, seat: int) -> None:
    """Tell the connections of the seat to act what it may do, so no client computes rules."""
    options = options_for(table, seat)
    if options is not None:
        for subscriber, viewer in list(table.subscribers.items()):
            if viewer == seat:
                subscriber.send(options)


def snapshot(table: TableContext, viewer: Viewer, rating: dict[str, Any]) -> dict[str, Any]:
    """The `sync` of docs/protocol.md: the whole table as `viewer` may see it; `rating` is
    what the table shows of its players' ratings."""
    state, game = table.state, table.state.game
    rules = state.rules
    turn = state.turn
    secret = state.secrets.get(game.round_number) if game else None
    shown_turn = None
    if turn is not None:
        shown_turn = {"seat": turn.seat, "turn_id": turn.turn_id, "deadline": turn.deadline}
    return {
        **tournament_json(table),
        "type": "sync",
        "seq": table.seq,
        "table": table.table_id,
        "kind": table.options.kind.value,
        "phase": state.phase.value,
        "you": viewer,
        "rules": rules.to_json(),
        "seats": [seat.public_json() for seat in state.seats],
        "view": view_json(state, viewer),
        "round": game.round_number if game else None,
        "turn": shown_turn,
        "commitment": secret.commitment if secret else None,
        "results": [result.to_json() for result in game.results] if game else [],
        "ready": sorted(state.ready),
        "votes": sorted(state.votes),
        "game": state.game_number,
        "scores": list(game.scores) if game else [0] * rules.team_count,
        "goals": list(game.goals) if game else [0] * rules.team_count,
        "rematch": rematch_json(state),
        "host": host_json(table, viewer),
        "rating": rating,
        "chat": chat_json(state, viewer),
        **table.stakes.json(table),  # a staked table's stake and pot (stakes.py)
        **hints_json(table, viewer),
        **({"deals": table.options.deals} if table.options.deals else {}),
    }


def hints_json(table: TableContext, viewer: Viewer) -> dict[str, Any]:
    """At a practice table, for a seat: how many hints a game gives (0: none, as el reparto del
    día) and how many this seat has left in this one."""
    if viewer is None or table.options.kind is not TableKind.PRACTICE:
        return {}
    most = table.options.hints_per_game
    return {"hints": {"per_game": most, "left": max(0, most - table.state.hints.get(viewer, 0))}}


def chat_json(state: TableState, viewer: Viewer) -> list[dict[str, Any]]:
    """The table's recent chat lines (`TableState.chat`) for a player; none for a spectator."""
    if viewer is None:
        return []
    return [{"seq": seq, "seat": seat, "text": text} for seq, seat, text in state.chat]


def tournament_json(table: TableContext) -> dict[str, Any]:
    """What `sync` adds at a tournament's table (and only there): the tournament and round it
    belongs to, so a client links back, and its game's time cap (`time_up_at`, null before the
    game starts; `time_called`, the round time was called in, or null)."""
    options, state = table.options, table.state
    shown: dict[str, Any] = {}
    if options.tournament is not None:
        shown["tournament"] = {"id": options.tournament, "round": options.tournament_round}
    if options.game_cap_seconds is not None:
        started, game = state.started_at, state.game
        shown["time_cap"] = {
            "seconds": options.game_cap_seconds,
            "time_up_at": None if started is None else started + options.game_cap_seconds,
            "time_called": None if game is None else game.time_called,
        }
    return shown


def rematch_json(state: TableState) -> dict[str, list[int]] | None:
    """Who has agreed to another game and whose agreement it takes, once a game is over."""
    if state.phase is not Phase.FINISHED:
        return None
    return {"agreed": sorted(state.rematch), "needed": state.rematch_needed}


def host_json(table: TableContext, viewer: Viewer) -> dict[str, Any] | None:
    """What the host's panel needs, for the seat of the account that created the table
    (so it survives a reload); null for every other viewer."""
    host = table.options.host_user_id
    state = table.state
    if viewer is None or host is None or state.seats[viewer].user_id != host:
        return None
    code, watch = table.options.invite_code, table.options.watch_token
    return {
        "invite": code,
        "invite_url": None if code is None else invite_path(code),
        "can_fill_bots": state.phase is Phase.WAITING and not state.full,
        "spectators": table.options.spectators,
        "watch_url": None if watch is None else watch_path(table.table_id, watch),
    }


def watch_path(table_id: str, token: str) -> str:
    """The path of a table's watching link (the web client's route; talk/watching.py)."""
    return f"/#/mesa/{quote(table_id)}?ver={quote(token)}"


def view_json(state: TableState, viewer: Viewer) -> dict[str, Any] | None:
    """The engine's view of `viewer`, with the line as the boxes it lies in on the table
    (`line`, left end first, and `line_ends`: docs/protocol.md), as each play's event gave them."""
    game = state.game
    if game is None:
        return None
    view = game.view(viewer).to_json()
    view.update(line_json(state.line))
    return view


def game_record(table: TableContext) -> dict[str, Any]:
    """The game's record with each finished round's revealed seed, salt and commitment."""
    return record_of(table.table_id, table.state)


def record_of(table_id: str, state: TableState) -> dict[str, Any]:
    """`game_record` of the table `table_id` whose log folds into `state` (the recorder's,
    players/recorder.py, which rebuilds a finished game's state from its log)."""
    game = state.playing_game()
    record = to_record(game)
    finished = game.round_number if game.round.is_over or game.is_over else game.round_number - 1
    for number, round_data in enumerate(record["rounds"]):
        secret = state.secrets.get(number)
        if secret is not None and number <= finished:
            revealed = {"seed": secret.seed.hex(), "salt": secret.salt.hex()}
            round_data.update(revealed, commitment=secret.commitment)
        else:
            round_data["seed"] = None
    record["table"] = table_id
    return with_hints(record, state)
