"""What a table is asked to do, and what it decides by itself: each is one step of its actor.

A command reads the table's state, refuses with a `TableError` or decides a list of events,
and hands them to `TableContext.record` (context.py: the table as a command sees it, which
the actor implements), which stores, applies and sends them; it never changes the state
itself. A command that would change nothing decides no event at all (a second vote, a second
`hello`, a second «listo»). After every command the table asks `follow_up` for what the
game makes happen by itself: the next turn, the end of a round, of the game.

Timers and bots post commands tagged with the turn (or round) they were started for; each
first checks that it is still the current one, so a stale timer or a late bot does nothing.

Why one module of some 560 lines: each command is a small dataclass with one `run`, and
together they are one vocabulary that the whole server names as `commands.X` (the socket
and HTTP handlers, the registry, and the cluster, which forwards a command to the table's
owner by its class name). They share the refusals at the top (`_seated`, `_on_turn`) and
`game_started`, which seating and playing both decide. Its sections follow what a table is
asked: connections, playing, talking and voting, seating, ending by itself.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from tranque.bots import bot_names
from tranque.engine import Action, Draw, IllegalAction, Pass, action_from_json
from tranque.engine.rules import FirstLead
from tranque.server.addresses import seat_address_key
from tranque.server.table.bot_names import face_for, identity
from tranque.server.table.chat_window import check_chat_open
from tranque.server.table.context import Subscriber, TableContext
from tranque.server.table.events import (
    PHRASES,
    ActionTaken,
    Annulled,
    ChatSaid,
    EndReason,
    GameEnded,
    GameStarted,
    HintGiven,
    Mover,
    PhraseSaid,
    PlaceSeen,
    ReadyGiven,
    RematchVoted,
    RoundEnded,
    RoundStarted,
    SeatChanged,
    TableEvent,
    TimeCalled,
    TurnStarted,
    Voted,
)
from tranque.server.table.hints import suggest
from tranque.server.table.seats import MAX_PLACES, Seat, SeatKind, SeatState, new_token, token_hash
from tranque.server.table.stakes import next_game
from tranque.server.table.state import Phase, TableError, TableKind, TableState, Turn, Viewer

PHRASE_INTERVAL = 2.0


def _seated(table: TableContext, seat_index: int | None) -> Seat:
    if seat_index is None:
        raise TableError("spectator")
    return table.state.seats[seat_index]


def _not_over(state: TableState) -> None:
    """After `game_ended` nothing changes at the table: no move, phrase or return."""
    if state.phase.is_over:
        raise TableError("not_playing.over")


def _on_turn(state: TableState, seat: Seat) -> Turn:
    """The turn `seat` is to act on now, or the refusal that says why there is none."""
    _not_over(state)
    if state.phase is not Phase.PLAYING:
        raise TableError("not_playing")
    turn = state.turn
    if turn is None or turn.seat != seat.index:
        raise TableError("not_your_turn")
    return turn


# What the game makes happen by itself ------------------------------------------------------


def follow_up(table: TableContext) -> TableEvent | None:
    """The event the table's state calls for now, if any: the first deal once the game has
    started, the end of a round that is over, the end of a game that is won, the next turn."""
    state = table.state
    game = state.game
    if state.phase is Phase.PLAYING:
        if game is None:
            return RoundStarted.dealt(state, table.deal_secret(0))
        if game.is_over or game.round.is_over:
            return RoundEnded.settled(state)
        if state.turn is None:
            return next_turn(state, table.clock.now())
    elif state.phase is Phase.BETWEEN_ROUNDS and game is not None and game.is_over:
        return GameEnded.closing(state, EndReason.TARGET)
    return None


def next_turn(state: TableState, now: float) -> TurnStarted:
    """A new turn for the seat to act, with a full clock."""
    round_ = state.playing_game().round
    actions = round_.legal_actions()
    forced = len(actions) == 1 and isinstance(actions[0], (Pass, Draw))
    return TurnStarted(round_.turn, state.turn_counter + 1, now + state.rules.turn_seconds, forced)


def game_started(table: TableContext) -> GameStarted:
    """The next game's start, its first starter drawn by lot where the rules say so: at a
    table of shared deals (`TableOptions.deals`) drawn from the first deal's seed, so every
    table of the ref has the same one. When the table's options count from the start (a time
    cap, a grace for the absent), the start says when it was."""
    state, options = table.state, table.options
    rules = state.rules
    first_starter = None
    if rules.first_round_lead is FirstLead.RANDOM_ANY:
        if options.deals is not None:
            digest = hashlib.sha256(b"tranque-starter:" + table.deal_secret(0).seed).digest()
            first_starter = int.from_bytes(digest, "big") % rules.players
        else:
            first_starter = secrets.randbelow(rules.players)
    timed = options.game_cap_seconds is not None or options.absent_grace_seconds is not None
    started_at = table.clock.now() if timed else None
    return GameStarted(first_starter, state.game_number + 1, started_at)


def _not_tournament(table: TableContext) -> None:
    """A tournament's seats are the tournament's: nobody takes, leaves or stands up by command."""
    if table.options.kind is TableKind.TOURNAMENT:
        raise TableError("tournament_seats")


def place_seen(table: TableContext, seat: Seat, address: str | None) -> list[TableEvent]:
    """A `place` event if a person's seat is used from a place it was not known to be used
    from, at a competitive table for people (where two seats used from one place make the
    game unrated) while its games are not over; past `MAX_PLACES` the seat is not followed
    further (and its game is not rated, players/table_rating.py)."""
    options = table.options
    if not (options.competitive and not options.bots and seat.is_human) or table.state.phase.is_over:
        return []
    key = seat_address_key(table.table_id, address)
    if key is None or key in seat.address_keys or len(seat.places) >= MAX_PLACES:
        return []
    return [PlaceSeen(seat.index, key)]


def current_turn(state: TableState, turn_id: int) -> Turn | None:
    """The turn a timer or bot was started for, if it is still the one being played."""
    turn = state.turn
    if state.phase is not Phase.PLAYING or turn is None or turn.turn_id != turn_id:
        return None
    return turn


def bot_seated(table_id: str, seats: list[Seat], index: int, level: str, name: str | None = None) -> Seat:
    """Seat `index` of `seats` given to a bot of `level`, with a name and a face no other bot
    there shows (bot_names.py): `name` when the bot has one already (a tournament's), else
    the table's own for that seat. The `seat` event keeps both: a replay reads them there."""
    taken = [seat.face for seat in seats if seat.face is not None and seat.index != index]
    if name is None:
        name, face = identity(table_id, index, taken)
    else:
        face = face_for(name, table_id, index, taken)
    return seats[index].seat_bot(level, name, face)


# Connections ---------------------------------------------------------------------------------


@dataclass
class Subscribe:
    """A socket follows the table as a seat (with its token) or a spectator, and catches up."""

    subscriber: Subscriber
    token: str | None = None
    last_seq: int | None = None
    address: str | None = None  # the socket's (addresses.client_address), kept only as a key
    admitted: bool = False  # a spectator the table's policy lets watch (talk/watching.py)

    async def run(self, table: TableContext) -> Viewer:
        state = table.state
        viewer: Viewer = None
        if self.token is not None:
            seat = state.seat_of_token(token_hash(self.token))
            if seat is None:
                raise TableError("bad_token")
            viewer = seat.index
        elif not (table.options.kind.watchable or self.admitted):
            raise TableError("private")
        if table.follows(self.subscriber) and table.subscribers[self.subscriber] != viewer:
            await Unsubscribe(self.subscriber).run(table)  # the same socket, another seat
        await table.stakes.refresh(table)  # a staked table's `sync` shows its pot as it is
        await table.follow(self.subscriber, viewer, self.last_seq)
        seat = None if viewer is None else state.seats[viewer]
        if seat is None:
            return viewer
        events: list[TableEvent] = []
        if seat.state is SeatState.AWAY and not state.phase.is_over:
            events.append(SeatChanged(seat.arrive()))
        events += place_seen(table, seat, self.address)  # applied after: the arrived seat, seen here
        if events:
            await table.record(*events)
        return viewer


@dataclass
class FromSocket:
    """A seat's command sent over a socket: refused unless the socket still follows that
    seat, so a socket whose seat was vacated (and perhaps taken by someone else) cannot
    act, vote or speak for it."""

    subscriber: Subscriber
    command: Any  # a command with a `seat`: Act, Hint, Ready, Phrase, Vote, ReturnToSeat, Rematch

    async def run(self, table: TableContext) -> Any:
        seat = self.command.seat
        if seat is not None and table.subscribers.get(self.subscriber) != seat:
            raise TableError("not_your_seat")
        return await self.command.run(table)


@dataclass
class Unsubscribe:
    subscriber: Subscriber

    async def run(self, table: TableContext) -> None:
        if not table.follows(self.subscriber):
            return
        viewer = table.unfollow(self.subscriber)
        if viewer is None:
            return
        state = table.state
        seat = state.seats[viewer]
        gone = seat.is_human and seat.state is SeatState.PRESENT and table.connections(viewer) == 0
        if gone and not state.phase.is_over:  # `game_ended` is a table's last event
            await table.record(SeatChanged(seat.leave()))


@dataclass
class Resume:
    """After a restart has replayed the log: nobody is connected yet, and whoever was to act
    gets a full new turn (the server's downtime is not theirs). After a takeover by another
    process (`keep_present`), whoever has a socket on this process is here, and nobody else
    until their process follows the new owner."""

    keep_present: bool = False

    async def run(self, table: TableContext) -> None:
        state = table.state
        events: list[TableEvent] = []
        if not state.phase.is_over:
            for seat in state.humans:
                here = self.keep_present and table.connections(seat.index) > 0
                if here and seat.state is SeatState.AWAY:
                    events.append(SeatChanged(seat.arrive()))
                elif not here and seat.state is SeatState.PRESENT:
                    events.append(SeatChanged(seat.leave()))
        game = state.game
        if state.phase is Phase.PLAYING and game is not None and not (game.is_over or game.round.is_over):
            events.append(next_turn(state, table.clock.now()))
        await table.record(*events)
        await table.store.set_table_status(table.table_id, state.phase.status, epoch=table.epoch)


# Playing -------------------------------------------------------------------------------------


@dataclass
class Act:
    seat: int | None
    action: Any
    turn_id: int | None = None

    async def run(self, table: TableContext) -> dict[str, Any]:
        seat = _seated(table, self.seat)
        state = table.state
        turn = _on_turn(state, seat)
        if self.turn_id is not None and self.turn_id != turn.turn_id:
            raise TableError("stale")
        try:
            taken = ActionTaken.tried(state, seat.index, action_from_json(self.action), Mover.HUMAN)
        except IllegalAction as error:
            raise TableError("illegal", cause=error) from None
        events: list[TableEvent] = []
        if seat.state is SeatState.COVERED:
            events.append(SeatChanged(seat.come_back()))
        elif seat.state is SeatState.AWAY:
            events.append(SeatChanged(seat.arrive()))
        await table.record(*events, taken)
        return {"seq": table.seq}


@dataclass
class Hint:
    """«Pista»: the expert's suggestion for this seat's move, at a practice table, on its
    turn. Computed from the seat's own view (`hints.suggest`, in a bot worker: the actor
    waits for it, the event loop does not), so no other command changes the turn meanwhile;
    but with several processes the table may be given up meanwhile (its lease lapsed), and
    then nothing is stored (`table_moved`). One hint a turn: asking again answers the same
    one and decides nothing; at most `hints_per_game` a game."""

    seat: int | None

    async def run(self, table: TableContext) -> dict[str, Any]:
        seat = _seated(table, self.seat)
        state = table.state
        if table.options.kind is not TableKind.PRACTICE:
            raise TableError("not_practice")
        turn = _on_turn(state, seat)
        most = table.options.hints_per_game
        given = state.last_hint.get(seat.index)
        if given is None or given[0] != turn.turn_id:
            if most == 0:  # a game that gives none (el reparto del día)
                raise TableError("too_many_hints.none")
            if state.hints.get(seat.index, 0) >= most:
                raise TableError("too_many_hints", most=most)
            epoch = table.epoch
            action = await suggest(table.bots, state.playing_game(), seat.index)
            if not table.owned or table.epoch != epoch:
                raise TableError("table_moved")  # another process owns the table now
            count = state.hints.get(seat.index, 0) + 1
            await table.record(HintGiven(seat.index, turn.turn_id, action, count))
            given = (turn.turn_id, action)
        turn_id, action = given
        left = max(0, most - state.hints.get(seat.index, 0))
        return {"turn_id": turn_id, "action": action.to_json(), "left": left, "seq": table.seq}


@dataclass
class OnTurn:
    """A command for one turn (a timer's or a bot's), ignored once that turn is over."""

    turn_id: int

    async def run(self, table: TableContext) -> None:
        turn = current_turn(table.state, self.turn_id)
        if turn is not None:
            await self.on_turn(table, table.state, turn)

    async def on_turn(self, table: TableContext, state: TableState, turn: Turn) -> None:
        raise NotImplementedError


@dataclass
class Timeout(OnTurn):
    """The turn's clock ran out: R15's move, and after enough in a row a bot covers (R16)."""

    async def on_turn(self, table: TableContext, state: TableState, turn: Turn) -> None:
        seat = state.seats[turn.seat]
        events: list[TableEvent] = []
        due = seat.timeouts + 1 >= state.rules.absent_turns_before_bot
        if seat.is_human and due and seat.state is not SeatState.COVERED:
            events.append(SeatChanged(seat.cover()))
        action = state.playing_game().round.timeout_action()
        events.append(ActionTaken.tried(state, seat.index, action, Mover.TIMEOUT))
        await table.record(*events)


@dataclass
class BotMove(OnTurn):
    action: Action

    async def on_turn(self, table: TableContext, state: TableState, turn: Turn) -> None:
        if not state.seats[turn.seat].played_by_bot:
            return
        round_ = state.playing_game().round
        action = self.action if self.action in round_.legal_actions() else round_.timeout_action()
        await table.record(ActionTaken.tried(state, turn.seat, action, Mover.BOT))


@dataclass
class AutoMove(OnTurn):
    """A forced pass or draw, played for the seat after a moment."""

    async def on_turn(self, table: TableContext, state: TableState, turn: Turn) -> None:
        (action,) = state.playing_game().round.legal_actions()
        await table.record(ActionTaken.tried(state, turn.seat, action, Mover.AUTO))


@dataclass
class NextRound:
    """The pause between rounds is over."""

    round_number: int

    async def run(self, table: TableContext) -> None:
        state = table.state
        if state.phase is Phase.BETWEEN_ROUNDS and state.playing_game().round_number == self.round_number:
            await table.record(RoundStarted.dealt(state, table.deal_secret(self.round_number + 1)))


@dataclass
class Ready:
    seat: int | None

    async def run(self, table: TableContext) -> None:
        seat = _seated(table, self.seat)
        state = table.state
        if state.phase is not Phase.BETWEEN_ROUNDS:
            raise TableError("not_between_rounds")
        if seat.index in state.ready:
            return
        events: list[TableEvent] = [ReadyGiven(seat.index)]
        if all(other.index == seat.index for other in state.waiting_for_ready):
            number = state.playing_game().round_number + 1
            events.append(RoundStarted.dealt(state, table.deal_secret(number)))
        await table.record(*events)


# Talking and voting --------------------------------------------------------------------------


@dataclass
class Phrase:
    seat: int | None
    phrase: str

    async def run(self, table: TableContext) -> None:
        seat = _seated(table, self.seat)
        if self.phrase not in PHRASES:
            raise TableError("unknown_phrase")
        _not_over(table.state)
        if not table.may_speak(seat.index, PHRASE_INTERVAL):
            raise TableError("too_fast")
        await table.record(PhraseSaid(seat.index, self.phrase))


@dataclass
class Chat:
    """A line of typed chat (server/talk/): `text` is already checked and filtered
    (talk/lines.py); `among_friends`, whether every other person seated is the writer's friend
    (the socket's side reads it from the store)."""

    seat: int | None
    text: str
    among_friends: bool = False

    async def run(self, table: TableContext) -> None:
        seat = _seated(table, self.seat)
        check_chat_open(table.options, table.state.phase, self.among_friends)
        if not table.may_chat(seat.index):
            raise TableError("chat_too_fast")
        await table.record(ChatSaid(seat.index, self.text))


@dataclass
class Vote:
    """To annul the game: every human must agree; a «no» clears the votes so far."""

    seat: int | None
    agree: bool

    async def run(self, table: TableContext) -> None:
        seat = _seated(table, self.seat)
        state = table.state
        if seat.kind is not SeatKind.HUMAN:
            raise TableError("bots_do_not_vote")
        if not state.phase.in_game:
            raise TableError("not_playing.vote")
        votes = state.votes | {seat.index} if self.agree else set()
        if votes == state.votes:
            return
        events: list[TableEvent] = [Voted(seat.index, self.agree)]
        if self.agree and all(human.index in votes for human in state.humans):
            events += [Annulled(tuple(sorted(votes))), GameEnded.closing(state, EndReason.ANNULLED)]
        await table.record(*events)


@dataclass
class Rematch:
    """After a game that reached its target, another at the same table: same seats, same
    rules, the scores from zero. Every person must agree (bots agree by themselves); the
    vote that completes it starts the game, so alone against bots one `rematch` does."""

    seat: int | None

    async def run(self, table: TableContext) -> None:
        state = table.state
        if self.seat is None or state.seats[self.seat].kind is not SeatKind.HUMAN:
            raise TableError("rematch.not_seated")
        if table.options.kind is TableKind.TOURNAMENT:
            raise TableError("rematch.tournament")
        if state.phase is Phase.ANNULLED:
            raise TableError("rematch.annulled")
        if state.phase is not Phase.FINISHED:
            raise TableError("rematch.not_over")
        if self.seat in state.rematch:
            return
        agreed = tuple(sorted(state.rematch | {self.seat}))
        needed = tuple(state.rematch_needed)
        events: list[TableEvent] = [RematchVoted(self.seat, agreed, needed)]
        starts = set(needed) <= set(agreed)
        voter = state.seats[self.seat].user_id
        if not starts and voter is not None:  # a staked table: the next game needs a new stake
            await table.stakes.check(table, voter)
        if starts:
            await table.stakes.take_all(table)  # every person's, or none and a refusal
            events += [game_started(table), *_presence(table)]
        number = state.game_number + 1
        try:
            await table.record(*events)
        except BaseException:
            if starts:
                for seat in state.humans:
                    if seat.user_id is not None:
                        await table.stakes.give_back(table, seat.user_id, seat.index, number)
            raise
        if starts:
            await table.stakes.refresh(table)
            table.stakes.tell(table)


def _presence(table: TableContext) -> list[TableEvent]:
    """Each person's seat as their connections say, at the start of a rematch: after
    `game_ended` a hello or a closed socket changed nothing; a covered seat whose person is
    here again is theirs (they asked for the game)."""
    events: list[TableEvent] = []
    for seat in table.state.humans:
        here = table.connections(seat.index) > 0
        if here and seat.state is not SeatState.PRESENT:
            events.append(SeatChanged(seat.come_back() if seat.state is SeatState.COVERED else seat.arrive()))
        elif not here and seat.state is SeatState.PRESENT:
            events.append(SeatChanged(seat.leave()))
    return events


@dataclass
class ReturnToSeat:
    """The human is back: a covered seat is theirs again, and the count of timeouts restarts."""

    seat: int | None

    async def run(self, table: TableContext) -> None:
        seat = _seated(table, self.seat)
        _not_over(table.state)
        if seat.abandoned:
            raise TableError("abandoned")
        if seat.state is SeatState.COVERED:
            await table.record(SeatChanged(seat.come_back()))
        elif seat.is_human and seat.timeouts:
            await table.record(SeatChanged(seat.reset_timeouts()))


# Seating -------------------------------------------------------------------------------------


@dataclass
class Sit:
    """An account takes a seat at a table that is waiting for players."""

    user_id: int
    name: str
    seat: int | None = None  # None: the first empty seat
    address: str | None = None  # the client's (addresses.client_address), kept only as a key
    bot: bool = False  # a bot account's program: it never stakes fichas (table/stakes.py)

    async def run(self, table: TableContext) -> dict[str, Any]:
        state = table.state
        _not_tournament(table)
        if state.phase is not Phase.WAITING:
            raise TableError("started.no_seats")
        if state.seat_of_user(self.user_id) is not None:
            raise TableError("already_seated")
        chosen = self._chosen(state)
        token = new_token()
        key = seat_address_key(table.table_id, self.address)
        seated = chosen.seat_human(self.name, self.user_id, token_hash(token), key)
        events: list[TableEvent] = [SeatChanged(seated)]
        if all(seat.kind is not SeatKind.EMPTY for seat in state.seats if seat.index != chosen.index):
            events.append(game_started(table))
        staked = not self.bot and table.stakes.on(table)
        number = next_game(state)
        if staked:  # the stake first: refused, nothing changes; the seat not taken, it comes back
            await table.stakes.take(table, self.user_id, chosen.index)
            await table.stakes.refresh(table)
        try:
            await table.record(*events)
        except BaseException:
            if staked:
                await table.stakes.give_back(table, self.user_id, chosen.index, number)
                await table.stakes.refresh(table)
            raise
        table.account_tokens[chosen.index] = token
        table.stakes.tell(table)
        return {"seat": chosen.index, "token": token}

    def _chosen(self, state: TableState) -> Seat:
        seats = state.seats
        if self.seat is None:
            empty = [seat for seat in seats if seat.kind is SeatKind.EMPTY]
            if not empty:
                raise TableError("full")
            return empty[0]
        if not 0 <= self.seat < len(seats):
            raise TableError("no_such_seat", last=len(seats) - 1)
        if seats[self.seat].kind is not SeatKind.EMPTY:
            raise TableError("seat_taken")
        return seats[self.seat]


@dataclass
class AccountSeat:
    """The seat an account holds here and its token, or None: the token as it was issued,
    or, when the server no longer has it (a restart), a new one (the old stops working)."""

    user_id: int
    address: str | None = None  # the request's (addresses.client_address), kept only as a key

    async def run(self, table: TableContext) -> tuple[int, str] | None:
        state = table.state
        seat = state.seat_of_user(self.user_id)
        if seat is None or state.phase.is_over or seat.abandoned:
            return None  # an abandoned seat is not offered back (`abandon`)
        token = table.account_tokens.get(seat.index)
        events: list[TableEvent] = []
        if token is None or token_hash(token) != seat.token_hash:
            token = new_token()
            events.append(SeatChanged(seat.rekey(token_hash(token))))
        # Whoever is handed the seat's token may play it: the seat is used from here too.
        events += place_seen(table, seat, self.address)
        if events:
            await table.record(*events)
        table.account_tokens[seat.index] = token
        return seat.index, token


@dataclass
class Stand:
    """An account leaves its seat at a table waiting for players. When the host leaves and
    nobody else sits there, the table closes (annulled before it started): it no longer
    waits, nor counts among the tables its host has waiting."""

    user_id: int

    async def run(self, table: TableContext) -> None:
        state = table.state
        _not_tournament(table)
        if state.phase is not Phase.WAITING:
            raise TableError("started.stand")
        seat = state.seat_of_user(self.user_id)
        if seat is None:
            raise TableError("not_seated")
        events: list[TableEvent] = [SeatChanged(seat.vacate())]
        others = [other for other in state.humans if other.index != seat.index]
        if table.options.host_user_id == self.user_id and not others:
            events.append(GameEnded.closing(state, EndReason.ANNULLED))  # no game yet: nothing scored
        await table.stakes.give_back(table, self.user_id, seat.index)  # before the game: stake back
        await table.stakes.refresh(table)
        await table.record(*events)
        table.stakes.tell(table)


@dataclass
class Abandon:
    """A person leaves the game being played (docs/protocol.md, «abandon»): a bot covers the
    seat to the game's end and the seat may not be taken back (`return` is refused). At a
    rated game it counts as an abandon: played and lost, no XP (the seat is still covered
    when the game ends)."""

    seat: int | None

    async def run(self, table: TableContext) -> None:
        seat = _seated(table, self.seat)
        state = table.state
        _not_over(state)
        _not_tournament(table)
        if state.phase is Phase.WAITING:
            raise TableError("not_playing.abandon")
        if not seat.is_human or seat.abandoned:
            return
        events: list[TableEvent] = [SeatChanged(seat.abandon())]
        turn = state.turn
        if state.phase is Phase.PLAYING and turn is not None and turn.seat == seat.index:
            events.append(next_turn(state, table.clock.now()))  # its bot plays now, not at the deadline
        await table.record(*events)


@dataclass
class SetAside:
    """A suspended or banned account's seat goes to the table (docs/protocol.md,
    «Moderation»): at a waiting table it is emptied; in a game a bot covers it (R16) and the
    seat gets a new token that nobody holds, so the old one no longer opens it. Whether the
    table changed; nothing at a table the account does not sit at, or one that is over."""

    user_id: int

    async def run(self, table: TableContext) -> bool:
        state = table.state
        seat = state.seat_of_user(self.user_id)
        if seat is None or state.phase.is_over:
            return False
        if state.phase is Phase.WAITING:
            await table.stakes.give_back(table, self.user_id, seat.index)
            await table.stakes.refresh(table)
            await table.record(SeatChanged(seat.vacate()))
            table.stakes.tell(table)
            return True
        covered = seat if seat.state is SeatState.COVERED else seat.cover()
        table.account_tokens.pop(seat.index, None)
        await table.record(SeatChanged(covered.rekey(token_hash(new_token()))))
        return True


@dataclass
class StartGame:
    """The table's setup starts the game: every seat is taken (the registry, quick match)."""

    async def run(self, table: TableContext) -> None:
        if table.state.phase is not Phase.WAITING:
            raise TableError("started")
        await table.record(game_started(table))


@dataclass
class FillWithBots:
    """The host fills every empty seat with bots of a level; the game starts when full."""

    user_id: int
    level: str

    async def run(self, table: TableContext) -> None:
        state = table.state
        if table.options.host_user_id != self.user_id:
            raise TableError("not_host")
        if self.level not in bot_names():
            raise TableError("unknown_bot", level=self.level)
        if state.phase is not Phase.WAITING:
            raise TableError("started")
        seats = list(state.seats)
        for seat in state.seats:
            if seat.kind is SeatKind.EMPTY:
                seats[seat.index] = bot_seated(table.table_id, seats, seat.index, self.level)
        events: list[TableEvent] = [
            SeatChanged(seats[seat.index]) for seat in state.seats if seat.kind is SeatKind.EMPTY
        ]
        await table.record(*events, game_started(table))


# A game's clock: the time cap and the grace for the absent -------------------------------------


@dataclass
class CallTime:
    """The time cap of game `game` is reached (`TableOptions.game_cap_seconds`): time is called
    (docs/rules.md G2), the hand in play is finished and the side ahead wins. A game that is
    over, or whose time was called, changes nothing."""

    game: int

    async def run(self, table: TableContext) -> None:
        state = table.state
        game = state.game
        if state.game_number != self.game or not state.phase.in_game or game is None:
            return
        if game.is_over or game.time_called is not None:
            return
        await table.record(TimeCalled(game.round_number))


@dataclass
class CoverAbsent:
    """The grace of game `game` for the absent is over (`TableOptions.absent_grace_seconds`):
    every person's seat that was never present since the game started is covered by a bot and
    marked `no_show`. They may still come back and play on, as after R16."""

    game: int

    async def run(self, table: TableContext) -> None:
        state = table.state
        if state.game_number != self.game or not state.phase.in_game:
            return
        absent = [
            seat
            for seat in state.humans
            if seat.index not in state.shown_up and seat.state is not SeatState.COVERED
        ]
        if not absent:
            return
        events: list[TableEvent] = [SeatChanged(seat.cover(), no_show=True) for seat in absent]
        turn = state.turn
        if state.phase is Phase.PLAYING and turn is not None and turn.seat in {seat.index for seat in absent}:
            events.append(next_turn(state, table.clock.now()))  # its bot plays now, not at the deadline
        await table.record(*events)


# Tables that end by themselves ---------------------------------------------------------------


@dataclass
class RatingsRecorded:
    """The recorder has recorded one of the table's games (players/recorder.py): what the
    table shows of its ratings is read again."""

    async def run(self, table: TableContext) -> None:
        await table.ratings_recorded()


@dataclass
class EndByOperator:
    """The site's operator ends a stuck table (http/admin.py): its game is annulled, and its
    players are told `reason`. Whether it ended: a table that is over already changes not."""

    reason: str

    async def run(self, table: TableContext) -> bool:
        state = table.state
        if state.phase.is_over:
            return False
        await table.record(GameEnded.closing(state, EndReason.ANNULLED, operator_reason=self.reason))
        return True


@dataclass
class Deserted:
    """Nobody came back in time: a practice or quick-match game every human left, or a table
    waiting for players that nobody follows, is annulled (its bots and clocks stop)."""

    generation: int

    async def run(self, table: TableContext) -> None:
        if table.deserted(self.generation):
            await table.record(GameEnded.closing(table.state, EndReason.ANNULLED))
