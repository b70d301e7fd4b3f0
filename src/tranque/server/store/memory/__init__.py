"""An in-memory `Store`: the same behaviour as the SQL one, nothing kept after the process.

Its areas share one `MemoryData`, as the SQL store's share one database.
"""

from tranque.server.store.memory.accounts import MemoryAccounts
from tranque.server.store.memory.analyses import MemoryAnalyses
from tranque.server.store.memory.fairplay import MemoryFairPlay
from tranque.server.store.memory.fichas import MemoryFichas
from tranque.server.store.memory.game_results import MemoryGameResults
from tranque.server.store.memory.learning import MemoryLearning
from tranque.server.store.memory.moderation import MemoryModeration
from tranque.server.store.memory.outbox import MemoryOutbox
from tranque.server.store.memory.penas import MemoryPenas
from tranque.server.store.memory.reparto import MemoryReparto
from tranque.server.store.memory.seasons import MemorySeasons
from tranque.server.store.memory.social import MemorySocial
from tranque.server.store.memory.tables import MemoryTableLog
from tranque.server.store.memory.talk import MemoryTalk
from tranque.server.store.memory.tournaments import MemoryTournaments


class MemoryStore(
    MemoryTableLog,
    MemoryAccounts,
    MemoryOutbox,
    MemorySocial,
    MemoryAnalyses,
    MemoryModeration,
    MemoryFairPlay,
    MemoryTournaments,
    MemoryLearning,
    MemoryGameResults,
    MemoryPenas,
    MemoryReparto,
    MemoryTalk,
    MemorySeasons,
    MemoryFichas,
):
    """Every area of the `Store`, over one `MemoryData`."""


__all__ = ["MemoryStore"]
