"""The WebSocket endpoint: one socket per client, messages as in docs/protocol.md.

Bad input never costs the connection: a malformed or refused message gets an `error`
answer naming what is wrong (in Spanish and in English), and nothing at the table changes.
"""

from __future__ import annotations

import logging
from typing import assert_never
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from tranque.server import logs, metrics
from tranque.server.accounts.bot_tokens import BAD_TOKEN_CLOSE, bearer_token, bot_of_token
from tranque.server.accounts.sessions import SESSION_COOKIE, user_from_session
from tranque.server.addresses import client_place
from tranque.server.app_state import ServerState, server_state
from tranque.server.lobby.registry import Registry
from tranque.server.moderation.standing import muted, utc_text
from tranque.server.refusals import Refusal
from tranque.server.store import UserRow
from tranque.server.store.outage import is_outage
from tranque.server.table import commands
from tranque.server.table.actor import Table, TableError
from tranque.server.talk.lines import chat_line
from tranque.server.talk.watching import may_watch
from tranque.server.ws import messages as protocol
from tranque.server.ws.connection import Connection
from tranque.server.ws.limits import TokenBucket

log = logging.getLogger(__name__)
router = APIRouter()
FOREIGN_ORIGIN_CLOSE = 4003
FLOOD_CLOSE = 4029  # kept sending after `flood_refusals` messages in a row were refused
CROWDED_CLOSE = 4031  # `Settings.sockets_per_place` sockets are open from the client's place already
UNAVAILABLE_CLOSE = 1013  # "try again later": the database is out of reach (its account unknown)

Answer = dict[str, object]  # what an `ack` carries besides its type and id
SeatCommand = (
    commands.Act
    | commands.Hint
    | commands.Ready
    | commands.Phrase
    | commands.Chat
    | commands.Vote
    | commands.ReturnToSeat
    | commands.Abandon
    | commands.Rematch
)


def _same_origin(websocket: WebSocket) -> bool:
    """No Origin (a non-browser client) or one naming this very host."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == websocket.headers.get("host")


class Client:
    """What the server knows of one socket: its connection, its account, its table."""

    def __init__(self, websocket: WebSocket, user: UserRow | None, bucket: TokenBucket, address: str) -> None:
        self.connection = Connection(websocket)
        self.user = user
        self.bucket = bucket  # the socket's message rate (Settings.socket_limits)
        self.refused_in_a_row = 0
        self.table: Table | None = None
        self.seat: int | None = None
        self.follows_lobby = False  # the registry sends it the lobby's updates
        self.address = address  # its place (addresses.client_place): one IPv6 /64 is one


@router.websocket("/ws")
async def websocket_endpoint(websocket: WebSocket) -> None:
    state = server_state(websocket)
    if not _same_origin(websocket):
        # The session cookie goes with any page's socket: only our own pages may use it.
        await websocket.close(code=FOREIGN_ORIGIN_CLOSE)
        return
    await websocket.accept()
    place = client_place(websocket, state.settings.ipv6_prefix)
    if state.sockets_by_place[place] >= state.settings.sockets_per_place:
        # Each socket costs memory and a share of the message budget: one place gets so many.
        await websocket.send_json(
            protocol.error(Refusal("too_many_sockets", most=state.settings.sockets_per_place))
        )
        await websocket.close(code=CROWDED_CLOSE, reason="too_many_sockets")
        return
    state.sockets_by_place[place] += 1
    metrics.SOCKETS.inc()
    try:
        await _serve(state, websocket, place)
    except Exception as error:
        if not is_outage(error):
            raise
        # Its account could not be read: the client reconnects, as after any closed socket.
        await websocket.send_json(protocol.error(Refusal("unavailable")))
        await websocket.close(code=UNAVAILABLE_CLOSE, reason="unavailable")
    finally:
        metrics.SOCKETS.dec()
        state.sockets_by_place[place] -= 1
        if state.sockets_by_place[place] <= 0:
            del state.sockets_by_place[place]


async def _serve(state: ServerState, websocket: WebSocket, place: str) -> None:
    """One accepted socket, from its first message to its end."""
    now = state.settings.clock.now()
    token = bearer_token(websocket.headers)
    if token is not None:  # a bot account's program (accounts/bot_tokens.py)
        user = await bot_of_token(state.store, token, now)
        if user is None:
            await websocket.close(code=BAD_TOKEN_CLOSE, reason="bad_token")
            return
        forget_socket = state.bot_sockets.add(user.user_id, websocket)
        logs.ACCOUNT.set(user.user_id)
    else:
        user = await user_from_session(state.store, websocket.cookies.get(SESSION_COOKIE), now)
        forget_session = state.session_sockets.add(websocket.cookies.get(SESSION_COOKIE), websocket)
        forget_account = (
            state.account_sockets.add(user.user_id, websocket) if user is not None else (lambda: None)
        )

        def forget_socket() -> None:
            forget_session()
            forget_account()

    limits = state.settings.socket_limits
    client = Client(websocket, user, limits.bucket(user is not None and user.is_bot, now), place)
    client.connection.start(limits.heartbeat_seconds)
    try:
        if user is not None:  # online for its friends, and deaf to whom it blocks (lobby/presence.py)
            client.connection.muted = await state.friends.muted(user.user_id)
            state.presence.add(user.user_id, client.connection)
        while True:
            # A client that sends faster than it reads waits here, instead of being cut off.
            await client.connection.wait_for_room()
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text: str | None = frame.get("text")
            with client.connection.answering():
                if not _within_rate(state, client, text):
                    if client.refused_in_a_row >= limits.flood_refusals:
                        await client.connection.close(FLOOD_CLOSE)
                        break
                    continue
                if text is None:
                    client.connection.send(protocol.error(Refusal("bad_json.binary")))
                    continue
                await _answer(state, client, text)
    except WebSocketDisconnect:
        pass
    finally:
        forget_socket()
        await _leave(state, client)


def _within_rate(state: ServerState, client: Client, text: str | None) -> bool:
    """Take one of the socket's tokens, or refuse the message before acting on it."""
    if client.bucket.take(state.settings.clock.now()):
        client.refused_in_a_row = 0
        return True
    client.refused_in_a_row += 1
    client.connection.send(protocol.error(Refusal("rate_limited"), _id_of(text)))
    return False


def _id_of(text: str | None) -> protocol.MessageId:
    """The `id` of a message, so that even a refusal can be matched to it."""
    if text is None:
        return None
    try:
        return protocol.parse(text).id
    except protocol.ProtocolError as error:
        return error.message_id


async def _answer(state: ServerState, client: Client, text: str) -> None:
    message_id: protocol.MessageId = None
    try:
        message = protocol.parse(text)
        message_id = message.id
        answer = await _handle(state, client, message)
        client.connection.send(protocol.ack(message_id, **answer))
    except protocol.ProtocolError as error:
        client.connection.send(error.frame())
    except TableError as error:
        client.connection.send(protocol.error(error, message_id))
    except Exception as error:
        if not is_outage(error):
            raise
        client.connection.send(protocol.error(TableError("unavailable"), message_id))


async def _not_muted(state: ServerState, client: Client) -> None:
    """A muted account's phrases reach nobody: refused before the table hears them."""
    if client.user is None:
        return
    mute = await muted(state.store, client.user.user_id, state.settings.clock.now())
    if mute is not None and mute.until is None:
        raise TableError("account_muted.forever")
    if mute is not None and mute.until is not None:
        raise TableError("account_muted", until=utc_text(mute.until))


async def _pena_member(state: ServerState, pena_id: int, user: UserRow) -> None:
    """A peña's table seats only the peña's members (penas/service.py)."""
    if await state.store.pena_role(pena_id, user.user_id) is None:
        pena = await state.store.pena_by_id(pena_id)
        raise TableError("pena_members_only.table", name=pena.name if pena is not None else "—")


def _table(client: Client) -> Table:
    if client.table is None:
        raise TableError("no_table")
    return client.table


def _account(client: Client) -> UserRow:
    if client.user is None:
        raise TableError("login_required.others")
    return client.user


async def _handle(state: ServerState, client: Client, message: protocol.Inbound) -> Answer:
    """Do what `message` asks; what the `ack` says, or a `TableError` for the `error`."""
    registry = state.registry
    match message:
        case protocol.Hello():
            table = await registry.find(message.table)
            # A refused hello (bad token, private table) must leave the socket where it was.
            previous = client.table
            admitted = message.token is None and await _may_watch(state, client, table, message.watch)
            seat: int | None = await table.call(
                commands.Subscribe(
                    client.connection, message.token, message.last_seq, client.address, admitted
                )
            )
            client.table, client.seat = table, seat
            logs.TABLE.set(table.table_id)  # this socket's log lines name its table
            if previous is not None and previous is not table:
                try:
                    await previous.call(commands.Unsubscribe(client.connection))
                except TableError:
                    log.debug("table %s gone before its subscriber left", previous.table_id)
            # The table's actor may be in the middle of another command's event by now: the
            # ack names the last event this socket has been sent, not one still on its way.
            return {"seat": seat, "seq": table.sent_seq}
        case protocol.Act():
            act = commands.Act(client.seat, message.action.to_json(), message.turn_id)
            with metrics.accepted_move():  # its events are sent when the table answers
                moved = await _as_seat(client, act)
            return moved or {}
        case protocol.Hint():
            return await _as_seat(client, commands.Hint(client.seat)) or {}
        case protocol.Ready():
            await _as_seat(client, commands.Ready(client.seat))
        case protocol.Phrase():
            await _not_muted(state, client)
            await _as_seat(client, commands.Phrase(client.seat, message.phrase))
        case protocol.Chat():
            await _not_muted(state, client)
            text = chat_line(message.text)
            among_friends = await _among_friends(state, client)
            await _as_seat(client, commands.Chat(client.seat, text, among_friends))
        case protocol.Vote():
            await _as_seat(client, commands.Vote(client.seat, message.agree))
        case protocol.Return():
            await _as_seat(client, commands.ReturnToSeat(client.seat))
        case protocol.Abandon():
            await _as_seat(client, commands.Abandon(client.seat))
        case protocol.Rematch():
            await _as_seat(client, commands.Rematch(client.seat))
        case protocol.Sit():
            user = _account(client)
            if message.invite is not None:
                table = registry.by_invite(message.invite)
            else:
                assert message.table is not None  # the `Sit` model asks for one or the other
                table = await registry.find(message.table)
                if table.options.kind != "public":
                    raise TableError("bad_invite.needed")
            if user.is_bot and not table.options.bots:
                raise TableError("bots_not_accepted")
            if table.options.pena_id is not None:
                await _pena_member(state, table.options.pena_id, user)
            sit = commands.Sit(user.user_id, user.name, message.seat, client.address, bot=user.is_bot)
            seated: Answer = await table.call(sit)
            return {"table": table.table_id, **seated}
        case protocol.Stand():
            await _table(client).call(commands.Stand(_account(client).user_id))
        case protocol.FillBots():
            await _table(client).call(commands.FillWithBots(_account(client).user_id, message.level))
        case protocol.Lobby():
            _follow_lobby(registry, client)
        case protocol.QuickMatch():
            user = _account(client)
            notify = client.connection.send
            quick = state.quick_for(user)  # a bot account's: the bots' own
            await quick.join(user.user_id, user.name, notify, message.with_bots, client.address)
        case protocol.CancelQuickMatch():
            user = _account(client)
            return {"cancelled": state.quick_for(user).cancel(user.user_id)}
        case protocol.Ping():
            return {"pong": True}
        case _:
            assert_never(message)
    return {}


async def _may_watch(state: ServerState, client: Client, table: Table, watch: str | None) -> bool:
    """Whether the table's spectator policy lets this socket watch (talk/watching.py): true
    where a spectator needs no leave; refused with the policy's reason at a table that
    takes none of this socket's kind."""
    if table.options.kind.watchable:
        return False  # anybody watches: nothing to admit
    user_id = None if client.user is None else client.user.user_id
    refusal = await may_watch(table.options, user_id, watch, state.are_friends, state.pena_role)
    if refusal is not None:
        raise refusal
    return True


async def _among_friends(state: ServerState, client: Client) -> bool:
    """Whether every other person seated at the socket's table is its account's friend."""
    table = _table(client)
    if client.user is None:
        return False
    me = client.user.user_id
    others = [seat for seat in table.seats if seat.is_human and seat.index != client.seat]
    for seat in others:
        if seat.user_id is None or not await state.are_friends(me, seat.user_id):
            return False
    return True


async def _as_seat(client: Client, command: SeatCommand) -> Answer | None:
    """Run a seat's command, checked by the table against the seat this socket follows now;
    only `Act` and `Hint` answer something (what the move did, the hint given)."""
    answer: Answer | None = await _table(client).call(commands.FromSocket(client.connection, command))
    return answer


def _follow_lobby(registry: Registry, client: Client) -> None:
    """The whole list now (again, if asked again), then `lobby_update` diffs (lobby/registry.py)."""
    client.follows_lobby = True
    registry.follow_lobby(client, client.connection.send_text)


async def _leave(state: ServerState, client: Client) -> None:
    if client.follows_lobby:
        state.registry.unfollow_lobby(client)
    if client.user is not None:
        state.quick_for(client.user).cancel(client.user.user_id)
        state.presence.remove(client.user.user_id, client.connection)
    if client.table is not None:
        try:
            await client.table.call(commands.Unsubscribe(client.connection))
        except TableError:
            log.debug("table %s gone before its subscriber left", client.table.table_id)
    await client.connection.stop()
