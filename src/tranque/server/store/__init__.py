"""Persistence: the `Store` seam by area, with an in-memory store for tests and SQLAlchemy for real."""

from tranque.server.store.accounts import AccountStore, BotRow, NameTaken, TooManyBots, UserRow
from tranque.server.store.analyses import AnalysisRow, AnalysisStore
from tranque.server.store.base import Store, TableStore
from tranque.server.store.fairplay import FairPlaySample, FairPlayStore, RatedGame
from tranque.server.store.fichas import FichasShort, FichasStore
from tranque.server.store.game_results import GameResult, GameResultStore
from tranque.server.store.learning import LearnStore
from tranque.server.store.memory import MemoryStore
from tranque.server.store.penas import (
    PenaMember,
    PenaMembership,
    PenaNameTaken,
    PenaRequest,
    PenaRow,
    PenaStore,
)
from tranque.server.store.players import (
    GamePlayerRow,
    GameRow,
    Leaderboard,
    PlayedGame,
    PlayerPage,
    PlayerStat,
    PlayerStore,
    PoolRating,
    Ranked,
    RatingPoint,
    RatingRow,
    Standing,
)
from tranque.server.store.reparto import RepartoDay, RepartoEntry, RepartoStore
from tranque.server.store.seasons import SeasonInfo, SeasonOverlaps, SeasonStore
from tranque.server.store.social import FriendLink, SocialSend, SocialStore
from tranque.server.store.tables import (
    DuplicateEvent,
    DuplicateTable,
    StaleEpoch,
    StoredEvent,
    TableLog,
    TableRow,
)
from tranque.server.store.talk import TalkStore
from tranque.server.store.tournaments import TournamentRow, TournamentStore

__all__ = [
    "AccountStore",
    "AnalysisRow",
    "AnalysisStore",
    "BotRow",
    "DuplicateEvent",
    "DuplicateTable",
    "FairPlaySample",
    "FairPlayStore",
    "FichasShort",
    "FichasStore",
    "FriendLink",
    "GamePlayerRow",
    "GameResult",
    "GameResultStore",
    "GameRow",
    "Leaderboard",
    "LearnStore",
    "MemoryStore",
    "NameTaken",
    "PenaMember",
    "PenaMembership",
    "PenaNameTaken",
    "PenaRequest",
    "PenaRow",
    "PenaStore",
    "PlayedGame",
    "PlayerPage",
    "PlayerStat",
    "PlayerStore",
    "PoolRating",
    "Ranked",
    "RatedGame",
    "RatingPoint",
    "RatingRow",
    "RepartoDay",
    "RepartoEntry",
    "RepartoStore",
    "SeasonInfo",
    "SeasonOverlaps",
    "SeasonStore",
    "SocialSend",
    "SocialStore",
    "StaleEpoch",
    "Standing",
    "Store",
    "StoredEvent",
    "TableLog",
    "TableRow",
    "TableStore",
    "TalkStore",
    "TooManyBots",
    "TournamentRow",
    "TournamentStore",
    "UserRow",
]
