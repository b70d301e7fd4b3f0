"""Record real event streams for the browser's table-state reducer tests.

Run it by hand from the repository's root whenever the protocol's events change:

    .venv/bin/python -m tests.web.record_streams

It starts a real server (`LiveServer` from tests/server/support/harness.py, real clock, bots that
answer at once), plays real games with real WebSocket clients, one for a seat and one for a
spectator, and writes what each received to tests/web/js/streams/<name>.json:

- `frames`: every `sync`, `event` and `options` frame, in the order they arrived (the socket
  said `hello` with `"last_seq": 0`, so the table's whole history from `table_created` is in
  it);
- `checks`: `sync` snapshots taken along the way by a second socket of the same viewer (a
  `hello` without `last_seq`), which tests/web/js/table_state.test.mjs compares with the fold
  of the frames up to the snapshot's `seq`.

The games cover every table event kind of docs/protocol.md: plays, draws, passes (ponce's
passes that score palitos), rounds ended by dominó and by tranque, a game ended at its
target and one annulled by vote, seats, `ready`, phrases and votes, a competitive duel
(`rating`, a rated `game_ended`), a practice game with «Pista» (`hint`), and a private table
whose players talk (`chat`).
tests/web/test_streams.py fails when a documented event kind has no recorded stream.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

import httpx
import websockets

from tests.server.support.harness import LiveServer
from tranque.server.settings import Settings

STREAMS = Path(__file__).resolve().parent / "js" / "streams"
Message = dict[str, Any]
CHECK_EVERY = 37  # events between two checkpoint snapshots


class Viewer:
    """One real WebSocket client that keeps every frame a reducer would see."""

    def __init__(self, server: LiveServer, headers: dict[str, str] | None = None) -> None:
        self.server = server
        self.headers = headers or {}
        self.frames: list[Message] = []
        self.checks: list[Message] = []
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        self.socket: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.next_id = 0

    async def __aenter__(self) -> Viewer:
        self.socket = await websockets.connect(
            self.server.ws, additional_headers=self.headers, max_size=1 << 24
        )
        self.reader = asyncio.get_running_loop().create_task(self.read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.socket.close()
        if self.reader is not None:
            await self.reader

    async def read(self) -> None:
        try:
            async for text in self.socket:
                message = json.loads(text)
                if message["type"] in ("sync", "event", "options"):
                    self.frames.append(message)
                self.inbox.put_nowait(message)
        except websockets.ConnectionClosed:
            return

    async def send(self, message: Message) -> int:
        self.next_id += 1
        await self.socket.send(json.dumps({**message, "id": self.next_id}))
        return self.next_id

    async def request(self, message: Message) -> Message:
        """Send and wait for the answer; answers of other requests go by."""
        wanted = await self.send(message)
        while True:
            answer = await asyncio.wait_for(self.inbox.get(), 30)
            if answer["type"] in ("ack", "error") and answer.get("id") == wanted:
                return answer

    def events(self, kind: str) -> list[Message]:
        return [f for f in self.frames if f["type"] == "event" and f["kind"] == kind]

    def last_seq(self) -> int:
        seqs = [f["seq"] for f in self.frames if f["type"] in ("event", "sync")]
        return max(seqs, default=0)

    async def checkpoint(self, table: str, token: str | None) -> None:
        """A snapshot from a second socket of the same viewer, as a reload would get it."""
        async with Viewer(self.server, self.headers) as other:
            hello: Message = {"type": "hello", "table": table}
            if token:
                hello["token"] = token
            await other.request(hello)
            self.checks.extend(f for f in other.frames if f["type"] == "sync")

    def save(self, name: str, **about: Any) -> None:
        STREAMS.mkdir(parents=True, exist_ok=True)
        write_stream(
            STREAMS / f"{name}.json", {"name": name, **about, "frames": self.frames, "checks": self.checks}
        )
        kinds = sorted({f["kind"] for f in self.frames if f["type"] == "event"})
        print(f"{name}: {len(self.frames)} frames, {len(self.checks)} checks, kinds {kinds}")


async def play(
    seat: Viewer,
    table: str,
    token: str,
    chooser: random.Random,
    *,
    stop: Any = None,
    phrase_at: int | None = 3,
    watchers: tuple[Viewer, ...] = (),
    hello: bool = True,
    hints: int = 0,
) -> None:
    """Play `seat` until `game_ended` (or until `stop(seat)` says so): a random legal action
    on every `options` (the «Pista»'s on the first `hints` of them), `ready` after every
    round, one phrase early on, checkpoints."""
    if hello:
        await seat.request({"type": "hello", "table": table, "token": token, "last_seq": 0})
    said = False
    checked = 0
    ended = len(seat.events("game_ended"))  # a rematch plays on after an ended game
    while True:
        if len(seat.events("game_ended")) > ended:
            break
        if stop is not None and stop(seat):
            break
        try:
            frame = await asyncio.wait_for(seat.inbox.get(), 30)
        except TimeoutError:
            raise RuntimeError(f"nothing happened at {table} for 30 s") from None
        if frame["type"] == "options" and frame["legal_actions"]:
            action = chooser.choice(frame["legal_actions"])
            if hints > 0:  # our turn: nothing else happens at the table until we act
                hints -= 1
                hinted = await seat.request({"type": "hint"})
                action = hinted["action"]
            await seat.send({"type": "act", "action": action, "turn_id": frame["turn_id"]})
        elif frame["type"] == "event" and frame["kind"] == "round_ended":
            await seat.send({"type": "ready"})
        if phrase_at is not None and not said and len(seat.events("action")) >= phrase_at:
            said = True
            await seat.send({"type": "phrase", "phrase": "buena"})
        if seat.last_seq() - checked >= CHECK_EVERY:
            checked = seat.last_seq()
            await seat.checkpoint(table, token)
            for watcher in watchers:
                await watcher.checkpoint(table, None)
    await caught_up(watchers, seat.last_seq())  # the watchers hear the last events too


async def caught_up(viewers: tuple[Viewer, ...], seq: int) -> None:
    """Until every one of `viewers` has received the table's events up to `seq`."""
    async with asyncio.timeout(30):
        while any(viewer.last_seq() < seq for viewer in viewers):
            await asyncio.sleep(0.01)


def write_stream(path: Path, body: dict[str, Any]) -> None:
    """JSON with one frame a line: small, and a re-recording diffs frame by frame."""
    lines = [
        f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
        for key, value in body.items()
        if key not in LISTS
    ]
    for key in LISTS:
        items = ",\n".join(json.dumps(item, ensure_ascii=False) for item in body[key])
        lines.append(f"{json.dumps(key)}: [\n{items}\n]")
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n")


LISTS = ("frames", "checks")


def practice(server: LiveServer, **options: Any) -> Message:
    seated: Message = server.post("/api/practice", {"name": "Ana", "bot_level": "greedy", **options})
    return seated


def round_kinds(viewer: Viewer) -> set[str]:
    return {e["data"]["result"]["kind"] for e in viewer.events("round_ended") if e["data"]["result"]}


async def record_practice(server: LiveServer, name: str, chooser: random.Random, **options: Any) -> Viewer:
    seated = practice(server, **options)
    async with Viewer(server) as seat:
        await play(seat, seated["table"], seated["token"], chooser)
        await seat.checkpoint(seated["table"], seated["token"])
    seat.save(name, viewer="seat", you=seated["seat"], options=options)
    return seat


async def record_hints(server: LiveServer, chooser: random.Random) -> None:
    """A practice game whose player asks for a «Pista» on its first three turns."""
    seated = practice(server, preset="clasico", players=2)
    async with Viewer(server) as seat:
        await play(seat, seated["table"], seated["token"], chooser, hints=3)
        await seat.checkpoint(seated["table"], seated["token"])
    assert len(seat.events("hint")) == 3
    seat.save("practice-hints-2", viewer="seat", you=seated["seat"])


async def record_tranque(server: LiveServer, chooser: random.Random) -> None:
    """Sin pozo for four until a game has a round closed by a tranque."""
    for attempt in range(12):
        seated = practice(server, preset="sin-pozo", players=4, mode="individual")
        async with Viewer(server) as seat:
            await play(
                seat, seated["table"], seated["token"], chooser, stop=lambda v: "tranque" in round_kinds(v)
            )
            await seat.checkpoint(seated["table"], seated["token"])
        if "tranque" in round_kinds(seat):
            seat.save("practice-sinpozo-4-tranque", viewer="seat", you=seated["seat"], attempt=attempt)
            return
    raise RuntimeError("no tranque in 12 games")


async def record_annulled(server: LiveServer, chooser: random.Random) -> None:
    """A practice game annulled by the one human's vote after a few moves."""
    seated = practice(server, preset="clasico", players=2)
    async with Viewer(server) as seat:
        await play(
            seat, seated["table"], seated["token"], chooser, stop=lambda v: len(v.events("action")) >= 6
        )
        await seat.request({"type": "vote", "agree": True})
        while not seat.events("game_ended"):
            await asyncio.wait_for(seat.inbox.get(), 30)
        await seat.checkpoint(seated["table"], seated["token"])
    seat.save("practice-annulled", viewer="seat", you=seated["seat"])


def moves_in_game(viewer: Viewer, game: int) -> int:
    """The actions `viewer` saw since game number `game` started (0 before it)."""
    started = [e["seq"] for e in viewer.events("game_started") if e["data"].get("game") == game]
    return sum(1 for e in viewer.events("action") if started and e["seq"] > started[0])


async def record_rematch(server: LiveServer, chooser: random.Random) -> None:
    """A practice game played out, a rematch asked for, and the new game's first moves."""
    seated = practice(server, preset="sin-pozo", players=2)
    async with Viewer(server) as seat:
        await play(seat, seated["table"], seated["token"], chooser)
        await seat.checkpoint(seated["table"], seated["token"])
        await seat.request({"type": "rematch"})
        await play(
            seat,
            seated["table"],
            seated["token"],
            chooser,
            stop=lambda v: moves_in_game(v, 2) >= 6,
            hello=False,
            phrase_at=None,
        )
        await seat.checkpoint(seated["table"], seated["token"])
    assert seat.events("rematch_vote") and seat.events("game_started")[-1]["data"]["game"] == 2
    seat.save("practice-rematch-2", viewer="seat", you=seated["seat"])


async def record_public(server: LiveServer, chooser: random.Random) -> None:
    """A host's public table of four in pairs, filled with bots, watched by a spectator."""
    http = httpx.Client(base_url=server.http, timeout=20)
    answer = http.post("/api/register", json={"name": "anfitriona", "password": "una clave muy larga"})
    answer.raise_for_status()
    cookie = {"Cookie": f"tranque_session={answer.cookies['tranque_session']}"}
    created = http.post("/api/tables", json={"preset": "clasico", "players": 4, "mode": "pairs"}).json()
    async with Viewer(server, cookie) as host, Viewer(server) as spectator:
        seated = await host.request({"type": "sit", "table": created["table"], "seat": 0})
        await host.request(
            {"type": "hello", "table": created["table"], "token": seated["token"], "last_seq": 0}
        )
        await host.checkpoint(created["table"], seated["token"])
        await spectator.request({"type": "hello", "table": created["table"], "last_seq": 0})
        await spectator.checkpoint(created["table"], None)
        await host.request({"type": "fill_bots", "level": "greedy"})
        await play(host, created["table"], seated["token"], chooser, watchers=(spectator,), hello=False)
        await host.checkpoint(created["table"], seated["token"])
        await spectator.checkpoint(created["table"], None)
    host.save("public-host-4", viewer="seat", you=seated["seat"])
    spectator.save("public-spectator-4", viewer="spectator", you=None)


async def record_competitive(server: LiveServer, chooser: random.Random) -> None:
    """A competitive duel between two accounts from two addresses (each socket says its own
    X-Forwarded-For, as behind a proxy): `rating` events before the game, the guest's seat
    opened once from a phone of its own (a third address: a `place` event, and the game still
    counts), then a rated end."""
    cookies = []
    for name in ("rival-uno", "rival-dos"):  # each from a browser of its own
        answer = httpx.post(
            f"{server.http}/api/register", json={"name": name, "password": "una clave muy larga"}, timeout=20
        )
        answer.raise_for_status()
        cookies.append(f"tranque_session={answer.cookies['tranque_session']}")
    http = httpx.Client(base_url=server.http, timeout=20)
    headers = [
        {"Cookie": cookie, "X-Forwarded-For": f"198.51.100.{n + 1}"} for n, cookie in enumerate(cookies)
    ]
    body = {"preset": "clasico", "players": 2, "competitive": True}
    created = http.post("/api/tables", json=body, headers={"Cookie": cookies[0]})
    assert created.status_code == 201, created.text
    created = created.json()
    table = created["table"]
    async with Viewer(server, headers[0]) as host, Viewer(server, headers[1]) as guest:
        seated = await host.request({"type": "sit", "table": table, "seat": 0})
        await host.request({"type": "hello", "table": table, "token": seated["token"], "last_seq": 0})
        joined = await guest.request({"type": "sit", "table": table, "seat": 1})
        async with Viewer(server, {**headers[1], "X-Forwarded-For": "198.51.100.3"}) as phone:
            await phone.request({"type": "hello", "table": table, "token": joined["token"]})
        await asyncio.gather(
            play(host, table, seated["token"], chooser, hello=False, phrase_at=None),
            play(guest, table, joined["token"], random.Random(12), phrase_at=None),
        )
        await host.checkpoint(table, seated["token"])
    assert host.events("rating") and host.events("place")
    assert "rating_changes" in host.events("game_ended")[-1]["data"]
    host.save("competitive-host-2", viewer="seat", you=seated["seat"])


async def record_chat(server: LiveServer, chooser: random.Random) -> None:
    """A casual private duel between two accounts who talk (`chat`) before and during it."""
    cookies = []
    for name in ("charla-uno", "charla-dos"):
        answer = httpx.post(
            f"{server.http}/api/register", json={"name": name, "password": "una clave muy larga"}, timeout=20
        )
        answer.raise_for_status()
        cookies.append({"Cookie": f"tranque_session={answer.cookies['tranque_session']}"})
    body = {"preset": "clasico", "players": 2, "private": True}
    created = httpx.post(f"{server.http}/api/tables", json=body, headers=cookies[0], timeout=20)
    assert created.status_code == 201, created.text
    table, invite = created.json()["table"], created.json()["invite"]
    async with Viewer(server, cookies[0]) as host, Viewer(server, cookies[1]) as guest:
        seated = await host.request({"type": "sit", "invite": invite})  # the host too
        await host.request({"type": "hello", "table": table, "token": seated["token"], "last_seq": 0})
        joined = await guest.request({"type": "sit", "invite": invite})
        await guest.request({"type": "hello", "table": table, "token": joined["token"], "last_seq": 0})
        await host.request({"type": "chat", "text": "¿Listos? Esta va en serio."})
        await guest.request({"type": "chat", "text": "¡Dale, que hoy gano yo!"})
        await asyncio.gather(
            play(host, table, seated["token"], chooser, hello=False, phrase_at=None),
            play(guest, table, joined["token"], random.Random(13), hello=False, phrase_at=None),
        )
        await host.checkpoint(table, seated["token"])
    assert len(host.events("chat")) == 2
    host.save("private-chat-2", viewer="seat", you=seated["seat"])


async def record_tournament(server: LiveServer) -> None:
    """A spectator of a tournament's table, from its first event to the game's end by the time
    cap (`time_called`): a minitorneo of four bots to 1,000 points, each game capped at a
    minute, played by the server's director (a server of its own: bots that think a moment,
    so the cap comes before the target)."""
    http = httpx.Client(base_url=server.http, timeout=20)
    http.post(
        "/api/register", json={"name": "organiza", "password": "una clave muy larga"}
    ).raise_for_status()
    config = {
        "name": "Relámpago grabado",
        "format": "minitorneo",
        "entry": "duel",
        "size": 4,
        "target": 1000,
        "game_cap_seconds": 60,
        "bot_fill": True,
        "fill_wait_seconds": 0,
        "bot_level": "random",
        "rated": False,
    }
    created = http.post("/api/tournaments", json=config)
    assert created.status_code == 201, created.text
    tournament = created.json()["tournament"]["id"]
    table = None
    async with asyncio.timeout(60):
        while table is None:
            await asyncio.sleep(0.2)
            rounds = http.get(f"/api/tournaments/{tournament}").json()["rounds"]
            table = rounds[0]["games"][0]["table"] if rounds and rounds[0]["games"] else None
    async with Viewer(server) as spectator:
        await spectator.request({"type": "hello", "table": table, "last_seq": 0})
        checked = 0
        async with asyncio.timeout(300):
            while not spectator.events("game_ended"):
                await spectator.inbox.get()
                if spectator.last_seq() - checked >= CHECK_EVERY:
                    checked = spectator.last_seq()
                    await spectator.checkpoint(table, None)
        await spectator.checkpoint(table, None)
    assert spectator.events("time_called"), "the game ended before its cap"
    spectator.save("tournament-spectator-2", viewer="spectator", you=None)


async def record_all(server: LiveServer) -> None:
    chooser = random.Random(11)
    await record_practice(server, "practice-clasico-2", chooser, preset="clasico", players=2)
    ponce = await record_practice(
        server, "practice-ponce-4", chooser, preset="ponce", players=4, mode="pairs"
    )
    assert any("scores" in e["data"] for e in ponce.events("action")), "no pass scored palitos"
    await record_tranque(server, chooser)
    await record_annulled(server, chooser)
    await record_rematch(server, chooser)
    await record_public(server, chooser)
    await record_competitive(server, chooser)
    await record_hints(server, chooser)
    await record_chat(server, chooser)


CHAT_SETTINGS = Settings(
    database_url="memory://",
    bot_processes=0,
    bot_min_seconds=0,
    auto_move_seconds=0.05,
    between_rounds_seconds=0.3,
)


def main() -> None:
    """Every stream; `python -m tests.web.record_streams tournament` records only the
    tournament table's (its server plays a minute of bots' hands), `... chat` only the
    private table's talk."""
    if sys.argv[1:] == ["chat"]:
        with LiveServer(CHAT_SETTINGS) as server:
            asyncio.run(record_chat(server, random.Random(17)))
        return
    if sys.argv[1:] != ["tournament"]:
        with LiveServer(CHAT_SETTINGS) as server:
            asyncio.run(record_all(server))
    settings = Settings(
        database_url="memory://",
        bot_processes=0,
        bot_min_seconds=0.4,
        auto_move_seconds=0.1,
        between_rounds_seconds=1.0,
        tournament_tick_seconds=0.2,
        tournament_in_processes=False,
    )
    with LiveServer(settings) as server:
        asyncio.run(record_tournament(server))


if __name__ == "__main__":
    main()
