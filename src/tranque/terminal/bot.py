"""`tranque bot run --url URL --token T --level expert [--games N]`: a built-in level plays as
a bot account on a server (docs/bots.md), over the WebSocket protocol like any program.

Exit codes: 0 once the games are played; 1 if the server closed the socket (a token it does
not know, one revoked), could not be reached, or refused to seat the bot; 2 for a bad option,
a `--url` that is not the server's WebSocket among them; 3 if the server's bot had to play
for it (its seat covered after three turns in a row ran out: R16), which stops it after that
game, abandoned and lost if the seat was still covered at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import websockets

from tranque.bots import bot_names, make_bot
from tranque.terminal.bot_client import BotClient, Closed, Outcome, Report
from tranque.terminal.catalogue import t
from tranque.terminal.command import CliError, Command, Context
from tranque.terminal.options import positive_int

TOKEN_CLOSES = (4401, 4002)  # bad_token, token_revoked: the owner must give a new token


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument("action", choices=["run"], help=t("opt_bot_action", lang))
    parser.add_argument("--url", required=True, help=t("opt_bot_url", lang))
    parser.add_argument("--token", required=True, help=t("opt_bot_token", lang))
    parser.add_argument("--level", choices=bot_names(), default="expert", help=t("opt_bot_level", lang))
    parser.add_argument("--games", type=positive_int(lang), default=1, help=t("opt_bot_games", lang))
    parser.add_argument("--seed", type=int, default=None, help=t("opt_bot_seed", lang))


def check_url(url: str, lang: str) -> None:
    """A `--url` that cannot be the server's WebSocket is refused before connecting, with the
    address to use instead (`tranque serve` prints an http:// one; the socket is ws://…/ws)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        raise CliError(t("bot_url_scheme", lang, url=url)) from None
    scheme = parts.scheme.lower()
    path = parts.path if parts.path.endswith("/ws") else parts.path.rstrip("/") + "/ws"
    if scheme in ("http", "https") and parts.hostname:
        suggestion = urlunsplit(("ws" if scheme == "http" else "wss", parts.netloc, path, parts.query, ""))
        raise CliError(t("bot_url_http", lang, suggestion=suggestion))
    if scheme not in ("ws", "wss") or not parts.hostname:
        raise CliError(t("bot_url_scheme", lang, url=url))
    if path != parts.path:
        suggestion = urlunsplit((scheme, parts.netloc, path, parts.query, ""))
        raise CliError(t("bot_url_path", lang, suggestion=suggestion))


def run(args: argparse.Namespace, ctx: Context) -> int:
    lang = ctx.lang
    check_url(args.url, lang)
    bot = make_bot(args.level, seed=args.seed)

    def connected() -> None:
        ctx.out.print(t("bot_connecting", lang, level=args.level, url=args.url))

    def game_over(number: int, data: dict[str, Any]) -> None:
        scores = json.dumps(data.get("scores"))
        key = "bot_game_annulled" if data.get("reason") == "annulled" else "bot_game_over"
        ctx.out.print(t(key, lang, number=number, games=args.games, scores=scores))

    def refused(message: dict[str, Any]) -> None:
        text = message["message_en"] if lang == "en" else message["message"]
        ctx.err.print(t("bot_refused", lang, code=message["code"], message=text))

    def covered(table: str, seat: int) -> None:
        ctx.err.print(t("bot_covered", lang, table=table, seat=seat))

    client = BotClient(bot.choose, args.games, Report(connected, game_over, refused, covered))
    try:
        outcome = asyncio.run(client.run(args.url, args.token))
    except Closed as closed:
        key = "bot_closed_token" if closed.code in TOKEN_CLOSES else "bot_closed"
        ctx.err.print(t(key, lang, code=closed.code, reason=closed.reason))
        return 1
    except websockets.InvalidStatus as refusal:
        status = refusal.response.status_code
        raise CliError(t("bot_url_status", lang, url=args.url, status=status)) from None
    except (websockets.InvalidURI, websockets.InvalidHandshake) as error:
        raise CliError(t("bot_url_handshake", lang, url=args.url, reason=error)) from None
    except OSError as error:
        ctx.err.print(t("bot_unreachable", lang, url=args.url, error=error))
        return 1
    return ended(outcome, ctx)


def ended(outcome: Outcome, ctx: Context) -> int:
    """The exit code of a run that kept its connection, and the line that says why it stopped."""
    lang = ctx.lang
    if outcome.abandoned:
        ctx.err.print(t("bot_abandoned", lang, number=outcome.abandoned[-1]))
        return 3
    if outcome.covered:
        ctx.err.print(t("bot_was_covered", lang, number=outcome.covered[-1]))
        return 3
    if outcome.stopped_by is not None:
        return 1
    return 0


COMMAND = Command("help_bot", configure, run)
