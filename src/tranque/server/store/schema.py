"""The database schema, as SQLAlchemy Core tables.

`sql.SqlStore` queries these tables; the Alembic revisions in `tranque.server.migrations` create
them (explicitly, never with `create_all`), and a test checks that the two agree.
Times are seconds since the epoch as double-precision floats, like the rest of the server.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

metadata = sa.MetaData(
    naming_convention={
        "pk": "pk_%(table_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "ix": "ix_%(table_name)s_%(column_0_name)s",
    }
)

# A name's key as the leaderboards order it, by code point, as Python sorts (PostgreSQL's own
# collation may order otherwise; SQLite's is by code point already).
NAME_ORDER = sa.String(64).with_variant(postgresql.VARCHAR(64, collation="C"), "postgresql")

users = sa.Table(
    "users",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(64), nullable=False),
    # The name casefolded: the unique key, so "Pedro" and "pedro" are one account.
    sa.Column("name_key", sa.String(64), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("created_at", sa.Double, nullable=False),
    # names.skeleton(name): unique, so no name looks like another. NULL only for an account
    # made before revision 0002 whose name looked like an older account's.
    sa.Column("name_skeleton", sa.String(128), nullable=True),
    sa.Column("avatar", sa.String(32), nullable=True),  # one of the site's drawings; NULL: the default
    # Bot accounts (revision 0007): the owner's account id (NULL: a person's account), the
    # SHA-256 of its API token (NULL: none, or revoked), when a token last opened a socket.
    sa.Column("bot_owner", sa.Integer, nullable=True),
    sa.Column("bot_token_hash", sa.String(128), nullable=True),
    sa.Column("bot_used_at", sa.Double, nullable=True),
    # The SHA-256 of an admin's API token (revision 0013, accounts/admin_tokens.py); NULL: none.
    sa.Column("admin_token_hash", sa.String(128), nullable=True),
    sa.Index("ix_users_name_skeleton", "name_skeleton", unique=True),
    sa.Index("ix_users_bot_owner", "bot_owner"),
    sa.Index("ix_users_bot_token_hash", "bot_token_hash", unique=True),
    sa.Index("ix_users_admin_token_hash", "admin_token_hash", unique=True),
)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("token_hash", sa.String(128), primary_key=True),
    sa.Column(
        "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True
    ),
    sa.Column("expires_at", sa.Double, nullable=False),
)

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("config", sa.JSON, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("created_at", sa.Double, nullable=False),
    # The table's owner epoch (revision 0006): one more each time a process takes the table
    # over (`Store.claim_table`); writes carrying an older one are refused (fencing).
    sa.Column("epoch", sa.Integer, nullable=False, server_default=sa.text("0")),
)

# The primary key (table_id, seq) is the UNIQUE(table_id, seq) that stops two owners of one
# table from both writing event n.
table_events = sa.Table(
    "table_events",
    metadata,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.table_id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(64), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("at", sa.Double, nullable=False),
)

records = sa.Table(
    "records",
    metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("record", sa.JSON, nullable=False),
)

# Players (revision 0003) -----------------------------------------------------------------
# A finished game, kept for its players' history, profiles and replays. `game_id` is
# "<table_id>.<number>" (a table plays several games when its players ask for a rematch).
games = sa.Table(
    "games",
    metadata,
    sa.Column("game_id", sa.String(80), primary_key=True),
    sa.Column("table_id", sa.String(64), nullable=False, index=True),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("finished_at", sa.Double, nullable=False, index=True),
    sa.Column("preset", sa.String(32), nullable=False),
    sa.Column("format", sa.String(16), nullable=False),  # duel | individual | pairs
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("table_kind", sa.String(16), nullable=False),
    sa.Column("private", sa.Boolean, nullable=False),  # its history is only its players'
    sa.Column("competitive", sa.Boolean, nullable=False),  # chosen at creation
    sa.Column("rated", sa.Boolean, nullable=False),  # it changed ratings and XP
    sa.Column("unrated_reason", sa.String(32), nullable=True),  # why a competitive game was not
    sa.Column("summary", sa.JSON, nullable=False),  # seats (names, kinds), scores, winners
    sa.Column("record", sa.JSON, nullable=False),  # the engine's game record (tranque replay)
)

# One row per account that played a game: its history, its stats, its rating changes.
game_players = sa.Table(
    "game_players",
    metadata,
    sa.Column("game_id", sa.String(80), sa.ForeignKey("games.game_id"), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("finished_at", sa.Double, nullable=False),  # the game's, for the history's order
    sa.Column("preset", sa.String(32), nullable=False),
    sa.Column("format", sa.String(16), nullable=False),
    sa.Column("private", sa.Boolean, nullable=False),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("abandoned", sa.Boolean, nullable=False),
    sa.Column("xp", sa.Integer, nullable=False),
    sa.Column("mu_before", sa.Double, nullable=True),  # NULL: the game changed no rating
    sa.Column("sigma_before", sa.Double, nullable=True),
    sa.Column("mu_after", sa.Double, nullable=True),
    sa.Column("sigma_after", sa.Double, nullable=True),
    sa.Index("ix_game_players_user_id_finished_at", "user_id", "finished_at"),
    # A profile's rating chart (revision 0004): a pool's last ratings, from the index alone.
    sa.Index(
        "ix_game_players_user_id_format_finished_at",
        "user_id",
        "format",
        "finished_at",
        "mu_after",
        "sigma_after",
    ),
    # A profile's games and wins per preset and format, from the index alone (revision 0004).
    sa.Index("ix_game_players_user_id_preset_format_won", "user_id", "preset", "format", "won"),
)

# Each account's current rating in each pool (duel | individual | pairs).
ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("pool", sa.String(16), primary_key=True),
    sa.Column("mu", sa.Double, nullable=False),
    sa.Column("sigma", sa.Double, nullable=False),
    sa.Column("shown", sa.Double, nullable=False),  # the conservative rating on the 1500 scale
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.Double, nullable=False),
    # The player's users.name_key, copied when the row is made (names never change): ties on a
    # leaderboard are ordered by name, and a page is then one range of the index below.
    sa.Column("name_key", NAME_ORDER, nullable=False, server_default=""),
    # With user_id, a leaderboard's n-th row is found (and its ties counted) in the index alone.
    sa.Index("ix_ratings_pool_shown_user_id", "pool", "shown", "user_id"),
)
# A leaderboard's pages in their order (most first, ties by name), their players in the index.
sa.Index(
    "ix_ratings_pool_page", ratings.c.pool, ratings.c.shown.desc(), ratings.c.name_key, ratings.c.user_id
)

# XP per account and period: "all", "w2026-49" (ISO week), "m2026-12" (month), so that a
# ranking of any period is one index range.
xp = sa.Table(
    "xp",
    metadata,
    sa.Column("period", sa.String(16), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("xp", sa.Integer, nullable=False),
    sa.Column("name_key", NAME_ORDER, nullable=False, server_default=""),  # as in `ratings`
    sa.Index("ix_xp_period_xp_user_id", "period", "xp", "user_id"),
)
sa.Index("ix_xp_period_page", xp.c.period, xp.c.xp.desc(), xp.c.name_key, xp.c.user_id)

# How many players each leaderboard ranks ("rating:<pool>", "xp:<period>"): the rows of
# `ratings` and `xp` of each pool and period, kept by triggers on those tables (revision
# 0004), so that a page does not count a whole board.
board_sizes = sa.Table(
    "board_sizes",
    metadata,
    sa.Column("board", sa.String(32), primary_key=True),
    sa.Column("players", sa.Integer, nullable=False),
)

# Friendship, one row per direction: (a, b, "pending") is a request from a to b; once b
# accepts, (a, b) and (b, a) are both "accepted".
friends = sa.Table(
    "friends",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("friend_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created_at", sa.Double, nullable=False),
    sa.Index("ix_friends_friend_id", "friend_id"),
)

blocks = sa.Table(
    "blocks",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("blocked_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("created_at", sa.Double, nullable=False),
    sa.Index("ix_blocks_blocked_id", "blocked_id"),
)

# The friend requests and invitations each account sent (revision 0012), kept a day for the
# limits on them (players/social_limits.py), whatever became of the request since.
social_sends = sa.Table(
    "social_sends",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("target_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),  # friend_request | invite
    sa.Column("at", sa.Double, nullable=False),
    sa.Index("ix_social_sends_user_id_kind_at", "user_id", "kind", "at"),
    sa.Index("ix_social_sends_target_id", "target_id"),
)

# Post-game analyses (revision 0008): one per finished game, asked for on the site and
# computed by the analysis queue (analysis/queue.py). `user_id` is the account that asked.
analyses = sa.Table(
    "analyses",
    metadata,
    sa.Column("game_id", sa.String(80), sa.ForeignKey("games.game_id"), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # pending | running | done | failed
    sa.Column("done", sa.Integer, nullable=False),  # decisions evaluated so far
    sa.Column("total", sa.Integer, nullable=False),  # decisions to evaluate (0 until it starts)
    sa.Column("result", sa.JSON, nullable=True),  # the analysis, once done
    sa.Column("created_at", sa.Double, nullable=False),
    sa.Column("finished_at", sa.Double, nullable=True),
    # The queue worker (of any process) that claimed it last, and when it last said it was
    # still at it: a running row whose heartbeat is stale may be claimed by another.
    sa.Column("claimed_by", sa.String(120), nullable=True),
    sa.Column("heartbeat_at", sa.Double, nullable=True),
    # Where the request came from (revision 0012): `lobby.limits.address_key` of its address,
    # so the queue takes turns between places, and a place holds only so many of its rows.
    sa.Column("place_key", sa.String(64), nullable=True),
    # An account's requests of the last day, and those not over yet: one index range.
    sa.Index("ix_analyses_user_id_created_at", "user_id", "created_at"),
    # The claim: the oldest pending or running rows (and the site's count of them).
    sa.Index("ix_analyses_status_created_at", "status", "created_at"),
)

# The game ends recorded (revision 0009, players/recorder.py): one row per `game_ended` event
# turned into history, ratings and XP, written in the same transaction as what it kept, so a
# game end is recorded once whatever process and however many times it is tried. The partial
# index on table_events lists the game ends, by time, without reading the other events.
recorded_game_ends = sa.Table(
    "recorded_game_ends",
    metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("recorded_at", sa.Double, nullable=False),
)

sa.Index(
    "ix_table_events_game_ends",
    table_events.c.at,
    sqlite_where=table_events.c.kind == "game_ended",
    postgresql_where=table_events.c.kind == "game_ended",
)

# Moderation (revision 0010, store/moderation.py) ----------------------------------------------

# An account's role when it is not a player's: "moderator" or "admin".
account_roles = sa.Table(
    "account_roles",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("role", sa.String(16), nullable=False),
    sa.Column("granted_at", sa.Double, nullable=False),
)

# The moderators' queue: players' reports (kind "report", with reporter, reason and note) and
# the items other parts of the server raise (any other kind, with evidence). `subjects` lists
# the accounts an item is about; `subject_id` is a report's one account. `game_key` is the game's
# id, or "" for none: with the reporter and the account, one report per game and person.
review_items = sa.Table(
    "review_items",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("subjects", sa.JSON, nullable=False),
    sa.Column("evidence", sa.JSON, nullable=False),
    sa.Column("game_key", sa.String(80), nullable=False, server_default=""),
    sa.Column("reporter_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=True),
    sa.Column("subject_id", sa.Integer, nullable=True),
    sa.Column("reason", sa.String(16), nullable=True),
    sa.Column("note", sa.String(500), nullable=True),
    sa.Column("status", sa.String(16), nullable=False),  # open | closed
    sa.Column("created_at", sa.Double, nullable=False),
    sa.Column("closed_at", sa.Double, nullable=True),
    sa.Column("closed_by", sa.Integer, nullable=True),
    sa.Column("resolution", sa.String(500), nullable=True),
    sa.Index("ix_review_items_status_created_at", "status", "created_at"),
    sa.Index("ix_review_items_reporter_id_created_at", "reporter_id", "created_at"),
    sa.Index(
        "ix_review_items_reporter_id_subject_id_game_key",
        "reporter_id",
        "subject_id",
        "game_key",
        unique=True,
    ),
)

# Mutes, suspensions (until a time) and bans; lifting one keeps its row.
sanctions = sa.Table(
    "sanctions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),  # mute | suspend | ban
    sa.Column("until", sa.Double, nullable=True),  # NULL: until lifted
    sa.Column("created_at", sa.Double, nullable=False),
    sa.Column("created_by", sa.Integer, nullable=True),
    sa.Column("reason", sa.String(500), nullable=False),
    sa.Column("lifted_at", sa.Double, nullable=True),
    sa.Column("lifted_by", sa.Integer, nullable=True),
    sa.Index("ix_sanctions_user_id", "user_id"),
)

# Every moderator's action (and `tranque admin grant`'s: moderator_id NULL).
moderation_log = sa.Table(
    "moderation_log",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.Double, nullable=False),
    sa.Column("moderator_id", sa.Integer, nullable=True),
    sa.Column("action", sa.String(16), nullable=False),
    sa.Column("subject_id", sa.Integer, nullable=True),
    sa.Column("item_id", sa.Integer, nullable=True),
    sa.Column("reason", sa.String(500), nullable=False),
    sa.Column("details", sa.JSON, nullable=False),
    sa.Index("ix_moderation_log_at", "at"),
)

# A banned account's ratings and XP, off the rankings while the ban holds (as `ratings`, `xp`).
withheld_ratings = sa.Table(
    "withheld_ratings",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("pool", sa.String(16), primary_key=True),
    sa.Column("mu", sa.Double, nullable=False),
    sa.Column("sigma", sa.Double, nullable=False),
    sa.Column("shown", sa.Double, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.Double, nullable=False),
    sa.Column("name_key", NAME_ORDER, nullable=False, server_default=""),
)

withheld_xp = sa.Table(
    "withheld_xp",
    metadata,
    sa.Column("period", sa.String(16), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("xp", sa.Integer, nullable=False),
    sa.Column("name_key", NAME_ORDER, nullable=False, server_default=""),
    sa.Index("ix_withheld_xp_user_id", "user_id"),
)

# Fair-play figures (revision 0011, moderation/sampler.py): per account and per sampled rated
# game, its judged decisions against the expert at the sampler's budget, and its rating as it
# sat down, which the signals (moderation/signals.py) compare.
fairplay_samples = sa.Table(
    "fairplay_samples",
    metadata,
    sa.Column("game_id", sa.String(80), sa.ForeignKey("games.game_id"), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("finished_at", sa.Double, nullable=False),  # the game's
    sa.Column("format", sa.String(16), nullable=False),
    sa.Column("mu_before", sa.Double, nullable=False),
    sa.Column("sigma_before", sa.Double, nullable=False),
    sa.Column("decisions", sa.Integer, nullable=False),
    sa.Column("accurate", sa.Integer, nullable=False),
    sa.Column("inaccuracies", sa.Integer, nullable=False),
    sa.Column("errors", sa.Integer, nullable=False),
    sa.Column("total_loss", sa.Double, nullable=False),
    sa.Column("deals", sa.Integer, nullable=False),
    sa.Column("sampled_at", sa.Double, nullable=False),
    # The signals read a window of the latest games; a restarted sampler, the last one.
    sa.Index("ix_fairplay_samples_finished_at", "finished_at"),
)

# Tournaments (revision 0014, store/tournaments.py) --------------------------------------------

# One row per tournament: its whole state is `doc` (tournaments/machine.py's JSON), written by
# compare-and-set on `version`; the other columns are what the lists filter and sort on.
# `schedule_key` names a recurring event's occurrence (tournaments/schedule.py): unique, so two
# processes cannot both make it (NULL for the events players create).
tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False),  # open | running | finished | cancelled
    sa.Column("format", sa.String(16), nullable=False),
    sa.Column("name", sa.String(120), nullable=False),
    sa.Column("private", sa.Boolean, nullable=False),
    sa.Column("creator_id", sa.Integer, nullable=False),
    sa.Column("created_at", sa.Double, nullable=False),
    sa.Column("starts_at", sa.Double, nullable=True),
    sa.Column("finished_at", sa.Double, nullable=True),
    sa.Column("schedule_key", sa.String(120), nullable=True, unique=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("doc", sa.JSON, nullable=False),
    # The lists by status (and the director's live ones), in their order.
    sa.Index("ix_tournaments_status_starts_at", "status", "starts_at"),
    sa.Index("ix_tournaments_status_finished_at", "status", "finished_at"),
)

# The accounts entered in each tournament, and their final places: a profile's tournaments.
tournament_players = sa.Table(
    "tournament_players",
    metadata,
    sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("place", sa.Integer, nullable=True),  # NULL until the tournament finished
    sa.Index("ix_tournament_players_user_id", "user_id"),
)

# Attendance marks: an account withdrawn from a tournament for missing its games is refused by
# events requiring attendance until `barred_until`.
attendance = sa.Table(
    "attendance",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("barred_until", sa.Double, nullable=False),
)

# Aprender (revision 0015, store/learning.py): each account's best stars in each lesson.
learn_progress = sa.Table(
    "learn_progress",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("lesson", sa.String(32), primary_key=True),
    sa.Column("stars", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.Double, nullable=False),
)

# Peñas (revision 0016, store/penas.py) --------------------------------------------------------

# A peña: its name unique casefolded (`name_key`) and by look-alike key (`name_skeleton`), as
# account names are; `slug` is its page's address.
penas = sa.Table(
    "penas",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("slug", sa.String(64), nullable=False, unique=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("name_key", sa.String(64), nullable=False, unique=True),
    sa.Column("name_skeleton", sa.String(128), nullable=False, unique=True),
    sa.Column("crest", sa.String(32), nullable=False),
    sa.Column("description", sa.String(400), nullable=False),
    sa.Column("access", sa.String(16), nullable=False),  # open | invite
    sa.Column("created_by", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    sa.Column("created_at", sa.Double, nullable=False),
)

# Each member of a peña with its role (leader | member).
pena_members = sa.Table(
    "pena_members",
    metadata,
    sa.Column("pena_id", sa.Integer, sa.ForeignKey("penas.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("role", sa.String(16), nullable=False),
    sa.Column("joined_at", sa.Double, nullable=False),
    sa.Index("ix_pena_members_user_id", "user_id"),
)

# Requests to join an open peña, waiting for a leader.
pena_requests = sa.Table(
    "pena_requests",
    metadata,
    sa.Column("pena_id", sa.Integer, sa.ForeignKey("penas.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("at", sa.Double, nullable=False),
    sa.Index("ix_pena_requests_user_id", "user_id"),
)

# Invitation links a leader made: the SHA-256 of each token, live until `expires_at`.
pena_invitations = sa.Table(
    "pena_invitations",
    metadata,
    sa.Column("token_hash", sa.String(128), primary_key=True),
    sa.Column("pena_id", sa.Integer, sa.ForeignKey("penas.id", ondelete="CASCADE"), nullable=False),
    sa.Column("created_by", sa.Integer, nullable=False),
    sa.Column("created_at", sa.Double, nullable=False),
    sa.Column("expires_at", sa.Double, nullable=False),
    sa.Index("ix_pena_invitations_pena_id", "pena_id"),
)

# El reparto del día (revision 0018, store/reparto.py, server/reparto/): each day's seed and
# commitment (one row per day: the day is the key, so every process agrees on one seed), each
# mode's par, and each account's one attempt per day and mode.
reparto_days = sa.Table(
    "reparto_days",
    metadata,
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("seed", sa.String(64), nullable=False),
    sa.Column("commitment", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Double, nullable=False),
)

reparto_pars = sa.Table(
    "reparto_pars",
    metadata,
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("mode", sa.String(16), primary_key=True),
    sa.Column("par", sa.Text, nullable=False),
)

reparto_entries = sa.Table(
    "reparto_entries",
    metadata,
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("mode", sa.String(16), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("table_id", sa.String(64), nullable=False),
    sa.Column("started_at", sa.Double, nullable=False),
    sa.Column("diff", sa.Integer, nullable=True),
    sa.Column("points", sa.Text, nullable=True),
    sa.Column("finished_at", sa.Double, nullable=True),
)

# Table talk (revision 0017, store/talk.py): whom each account mutes in the table chat, and
# whether it has the chat off.
chat_mutes = sa.Table(
    "chat_mutes",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("muted_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("created_at", sa.Double, nullable=False),
)
chat_settings = sa.Table(
    "chat_settings",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("chat_off", sa.Boolean, nullable=False),
    sa.Column("updated_at", sa.Double, nullable=False),
)

# Seasons of peñas (revision 0019, store/seasons.py) ------------------------------------------

# A peña's season: its dates, what counts (`scope`) and its points rule; `final` holds the rows
# of a season that ended, frozen.
seasons = sa.Table(
    "seasons",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("pena_id", sa.Integer, sa.ForeignKey("penas.id", ondelete="CASCADE"), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("scope", sa.String(16), nullable=False),  # rated | nights
    sa.Column("points", sa.String(32), nullable=False),  # dos_por_ganada | tres_uno | tantos
    sa.Column("starts_at", sa.Double, nullable=False),
    sa.Column("ends_at", sa.Double, nullable=False),
    sa.Column("created_by", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    sa.Column("created_at", sa.Double, nullable=False),
    sa.Column("scanned_until", sa.Double, nullable=False),
    sa.Column("final", sa.JSON, nullable=True),
    sa.Column("frozen_at", sa.Double, nullable=True),
    sa.Index("ix_seasons_pena_id", "pena_id"),
)

# The games a season counted, each as its compact record (seasons/table.py GameRecord).
season_games = sa.Table(
    "season_games",
    metadata,
    sa.Column("season_id", sa.Integer, sa.ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("finished_at", sa.Double, nullable=False),
    sa.Column("record", sa.JSON, nullable=False),
)

# Fichas (revision 0020, store/fichas.py, fichas/ledger.py) ----------------------------------

# The ledger: every movement of fichas from one holder to another, appended and never changed;
# its `key` is unique, so writing a movement again (a retried game end) changes nothing. `id`
# is the order written (a history's pages).
ficha_movements = sa.Table(
    "ficha_movements",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(160), nullable=False, unique=True),
    sa.Column("source", sa.String(96), nullable=False),
    sa.Column("destination", sa.String(96), nullable=False),
    sa.Column("amount", sa.BigInteger, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),  # fichas/ledger.py Kind
    sa.Column("user_id", sa.Integer, nullable=True),  # the account it is about (none: a cut)
    sa.Column("ref", sa.String(96), nullable=False),  # the game (<table>.<game>) or tournament
    sa.Column("at", sa.Double, nullable=False),
    sa.CheckConstraint("amount > 0", name="ck_ficha_movements_amount"),
    sa.Index("ix_ficha_movements_user_id", "user_id", "id"),
    sa.Index("ix_ficha_movements_ref", "ref"),
    sa.Index("ix_ficha_movements_at", "at"),  # the fair-play sampler's window (ficha_game_movements_since)
)

# Every holder's balance (an account, a pot, the bank, the grants), changed in the same
# transaction as each movement; only the grants' goes below zero.
ficha_balances = sa.Table(
    "ficha_balances",
    metadata,
    sa.Column("holder", sa.String(96), primary_key=True),
    sa.Column("balance", sa.BigInteger, nullable=False),
    sa.CheckConstraint("balance >= 0 OR holder = 'grants'", name="ck_ficha_balances_balance"),
)
