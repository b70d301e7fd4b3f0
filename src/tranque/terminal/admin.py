"""`tranque admin ...`: the operator's tools (docs/deploy.md, «Admin»).

On the site's database (`--db`, else $TRANQUE_DATABASE_URL, else ./tranque.db, migrated to the
current schema first):

- `grant NAME ROLE`: give an account a role (`admin`, `moderator`, or `player` to take a role
  away), written in the moderation log with no moderator (the terminal);
- `token NAME`: a new admin API token for an admin's account, printed once (only its hash is
  kept; the old one stops working).

Against the running site over HTTP (`--site URL`, else $TRANQUE_SITE, else
http://127.0.0.1:8000), with the token of $TRANQUE_ADMIN_TOKEN (http/admin.py): `find PREFIX`,
`table ID`, `log ID`, `verify ID`, `end ID --reason`, `close NAME --reason`,
`ban NAME --reason`, `unban NAME`, `processes`, `drain NODE`.

Bad usage (an unknown name or role, no token) is one line and exit code 2; a site that does
not answer, or refuses (its message in the reader's language), one line and exit code 1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from tranque.terminal.catalogue import t
from tranque.terminal.command import CliError, Command, Context
from tranque.terminal.serve import check_database, database_url

DEFAULT_SITE = "http://127.0.0.1:8000"
TIMEOUT_SECONDS = 30.0
SITE_ACTIONS = ("find", "table", "log", "verify", "end", "close", "ban", "unban", "processes", "drain")


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", title=t("opt_admin_action", lang))
    actions.required = True

    def action(name: str, help_key: str) -> argparse.ArgumentParser:
        sub: argparse.ArgumentParser = actions.add_parser(
            name,
            help=t(help_key, lang),
            description=t(help_key, lang),
            lang=lang,  # cli.Parser, which speaks the reader's language
            allow_abbrev=False,
            add_help=False,
            formatter_class=parser.formatter_class,
        )
        sub._optionals.title = t("options_title", lang)
        sub._positionals.title = t("arguments_title", lang)
        sub.add_argument("-h", "--help", action="help", help=t("opt_help", lang))
        return sub

    def with_db(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--db", metavar="URL", help=t("opt_db", lang, default="sqlite+aiosqlite:///./tranque.db")
        )

    def with_site(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--site", metavar="URL", help=t("opt_admin_site", lang, default=DEFAULT_SITE))

    grant = action("grant", "help_admin_grant")
    grant.add_argument("name", help=t("opt_admin_name", lang))
    grant.add_argument("role", help=t("opt_admin_role", lang))
    with_db(grant)
    token = action("token", "help_admin_token")
    token.add_argument("name", help=t("opt_admin_name", lang))
    with_db(token)
    for name, argument, help_key, reason in (
        ("find", "prefix", "opt_admin_prefix", False),
        ("table", "id", "opt_admin_table", False),
        ("log", "id", "opt_admin_table", False),
        ("verify", "id", "opt_admin_table", False),
        ("end", "id", "opt_admin_table", True),
        ("close", "name", "opt_admin_name", True),
        ("ban", "name", "opt_admin_name", True),
        ("unban", "name", "opt_admin_name", False),
        ("drain", "node", "opt_admin_node", False),
    ):
        sub = action(name, f"help_admin_{name}")
        sub.add_argument(argument, help=t(help_key, lang))
        if reason:
            sub.add_argument("--reason", metavar="TEXT", required=True, help=t("opt_admin_reason", lang))
        elif name == "unban":
            sub.add_argument("--reason", metavar="TEXT", default=None, help=t("opt_admin_reason", lang))
        with_site(sub)
    with_site(action("processes", "help_admin_processes"))


# On the database ------------------------------------------------------------------------------


async def grant(url: str, name: str, role: str, now: float) -> tuple[str, str] | str:
    """Give the account `role`: (its name, its role before), or the catalogue key of a refusal."""
    from tranque.server.accounts.names import normal_form
    from tranque.server.store.factory import make_store
    from tranque.server.store.moderation import LogEntry

    store = make_store(url)
    await store.start()
    try:
        user = await store.find_user(normal_form(name))
        if user is None:
            return "admin_no_account"
        if user.is_bot:
            return "admin_bot_account"
        before = await store.role_of(user.user_id)
        entry = LogEntry(
            now, None, "grant", user.user_id, None, "tranque admin grant", {"role": role, "before": before}
        )
        await store.set_role(user.user_id, role, entry)
        return user.name, before
    finally:
        await store.close()


async def make_token(url: str, name: str) -> tuple[str, str] | str:
    """A new admin token for the account: (its name, the token), or the key of a refusal."""
    from tranque.server.accounts.admin_tokens import new_admin_token
    from tranque.server.accounts.names import normal_form
    from tranque.server.store.factory import make_store
    from tranque.server.table.seats import token_hash

    store = make_store(url)
    await store.start()
    try:
        user = await store.find_user(normal_form(name))
        if user is None:
            return "admin_no_account"
        if await store.role_of(user.user_id) != "admin":
            return "admin_not_admin"
        token = new_admin_token()
        await store.set_admin_token(user.user_id, token_hash(token))
        return user.name, token
    finally:
        await store.close()


def _database(args: argparse.Namespace, lang: str) -> str:
    from tranque.server.store.factory import MEMORY_URL

    url = database_url(args, lang)
    if url == MEMORY_URL:
        raise CliError(t("admin_memory_db", lang))
    check_database(url, lang)
    return url


def run_grant(args: argparse.Namespace, ctx: Context) -> int:
    import time

    from tranque.server.store.moderation import ROLES

    lang = ctx.lang
    if args.role not in ROLES:
        raise CliError(t("admin_bad_role", lang, role=args.role))
    url = _database(args, lang)
    done = asyncio.run(grant(url, args.name, args.role, time.time()))
    if isinstance(done, str):
        raise CliError(t(done, lang, name=args.name))
    name, before = done
    ctx.out.print(t("admin_granted", lang, name=name, role=args.role, before=before))
    return 0


def run_token(args: argparse.Namespace, ctx: Context) -> int:
    lang = ctx.lang
    url = _database(args, lang)
    done = asyncio.run(make_token(url, args.name))
    if isinstance(done, str):
        raise CliError(t(done, lang, name=args.name))
    name, token = done
    ctx.err.print(t("admin_token_made", lang, name=name))
    ctx.out.print(token, soft_wrap=True)
    return 0


# Against the running site ---------------------------------------------------------------------


class SiteError(Exception):
    """The site did not answer, or refused: the one line to print (exit code 1)."""


class Site:
    """The running site's admin API, with an admin token."""

    def __init__(self, base: str, token: str, lang: str) -> None:
        self.base = base.rstrip("/")
        self.token = token
        self.lang = lang

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            raise SiteError(self._refusal(error)) from None
        except (urllib.error.URLError, OSError, ValueError) as error:
            reason = getattr(error, "reason", error)
            raise SiteError(t("admin_unreachable", self.lang, site=self.base, why=reason)) from None

    def _refusal(self, error: urllib.error.HTTPError) -> str:
        try:
            body = json.loads(error.read())
        except ValueError:
            body = None
        if isinstance(body, dict) and "message" in body:
            text = body.get("message_en") if self.lang == "en" else body.get("message")
            return f"{text} ({body.get('code')})"
        if error.code == 404:
            return t("admin_no_endpoint", self.lang, site=self.base)
        return t("admin_http_status", self.lang, status=error.code)


def quoted(text: str) -> str:
    return urllib.parse.quote(text, safe="")


def _dump(ctx: Context, data: Any) -> None:
    ctx.out.print(json.dumps(data, ensure_ascii=False, indent=2), soft_wrap=True)


def _seat_text(seat: dict[str, Any], lang: str) -> str:
    return t("admin_seat", lang, table=seat["table"], seat=seat["seat"], phase=seat["phase"])


def _site_action(args: argparse.Namespace, site: Site, ctx: Context) -> None:
    lang, out = ctx.lang, ctx.out
    action = args.action
    if action == "find":
        found = site.call("GET", "/api/admin/players?prefix=" + quoted(args.prefix))["players"]
        if not found:
            out.print(t("admin_none_found", lang, prefix=args.prefix))
        for player in found:
            standing = player["barred"] or ("mute" if player["muted"] else "-")
            seats = ", ".join(_seat_text(seat, lang) for seat in player["seats"]) or "-"
            out.print(
                t(
                    "admin_player_line",
                    lang,
                    name=player["name"],
                    role=player["role"],
                    standing=standing,
                    seats=seats,
                )
            )
    elif action == "table":
        table = site.call("GET", f"/api/admin/tables/{quoted(args.id)}")
        players = ", ".join(f"{p['seat']}:{p['name'] or p['kind']}" for p in table["players"]) or "-"
        out.print(
            t(
                "admin_table_line",
                lang,
                table=table["table"],
                status=table["status"],
                kind=table["kind"],
                host=table["host"] or "-",
                players=players,
            )
        )
    elif action == "log":
        ctx.err.print(t("admin_log_private", lang))
        _dump(ctx, site.call("GET", f"/api/admin/tables/{quoted(args.id)}/log"))
    elif action == "verify":
        verdict = site.call("POST", f"/api/admin/tables/{quoted(args.id)}/verify?lang={lang}", {})
        out.print(
            t(
                "admin_verified" if verdict["ok"] else "admin_not_verified",
                lang,
                rounds=len(verdict["rounds"]),
            )
        )
        for number, round_ in enumerate(verdict["rounds"], 1):
            for problem in round_["problems"]:
                out.print(f"  {number}: {problem}")
        if verdict["moves"]["problem"]:
            out.print(f"  {verdict['moves']['problem']}")
        if not verdict["ok"]:
            raise SiteError(t("admin_verify_failed", lang))
    elif action == "end":
        site.call("POST", f"/api/admin/tables/{quoted(args.id)}/end", {"reason": args.reason})
        out.print(t("admin_ended", lang, table=args.id))
    elif action == "close":
        done = site.call(
            "POST", f"/api/admin/accounts/{quoted(args.name)}/close-sockets", {"reason": args.reason}
        )
        out.print(t("admin_closed", lang, name=done["name"]))
    elif action == "ban":
        done = site.call("POST", "/api/admin/ban", {"player": args.name, "reason": args.reason})
        out.print(t("admin_banned", lang, name=done["name"]))
    elif action == "unban":
        reason = args.reason or "tranque admin unban"
        done = site.call("POST", "/api/admin/unban", {"player": args.name, "reason": reason})
        out.print(t("admin_unbanned", lang, name=done["name"]))
    elif action == "processes":
        for process in site.call("GET", "/api/admin/processes")["processes"]:
            out.print(
                t(
                    "admin_process_line",
                    lang,
                    node=process["node"],
                    tables=process["tables_owned"],
                    replicas=process["replicas"],
                    sockets=process["sockets"],
                    draining=t("admin_draining" if process["draining"] else "admin_serving", lang),
                    this=" *" if process.get("this") else "",
                )
            )
    elif action == "drain":
        done = site.call("POST", f"/api/admin/processes/{quoted(args.node)}/drain", {})
        out.print(t("admin_drained", lang, node=done["node"]))


def run_site(args: argparse.Namespace, ctx: Context) -> int:
    lang = ctx.lang
    token = os.environ.get("TRANQUE_ADMIN_TOKEN", "").strip()
    if not token:
        raise CliError(t("admin_no_token", lang))
    base = args.site or os.environ.get("TRANQUE_SITE") or DEFAULT_SITE
    if urllib.parse.urlsplit(base).scheme not in ("http", "https"):
        raise CliError(t("admin_bad_site", lang, site=base))
    try:
        _site_action(args, Site(base, token, lang), ctx)
    except SiteError as error:
        ctx.err.print(t("error_line", lang, message=error))
        return 1
    return 0


def run(args: argparse.Namespace, ctx: Context) -> int:
    if args.action == "grant":
        return run_grant(args, ctx)
    if args.action == "token":
        return run_token(args, ctx)
    return run_site(args, ctx)


COMMAND = Command("help_admin", configure, run)
