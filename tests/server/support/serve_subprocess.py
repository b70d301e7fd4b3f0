"""Run the server in a process of its own, for tests that kill it (tests/server/cluster/test_restart.py).

    python tests/server/support/serve_subprocess.py DATABASE_URL PORT [--no-recorder]

Real clock; bots answer at once (in threads); forced moves and the pause between rounds are
long, so the scripted client is always the one that acts. `--no-recorder`: the process records
no game end (players/recorder.py), so a kill lands between a game's end and its recording.
"""

from __future__ import annotations

import os
import sys

import uvicorn

from tranque.server.app import create_app
from tranque.server.settings import Settings
from tranque.server.ws.limits import SocketLimits

OFF = ("0", "false", "no", "off")  # TRANQUE_FICHAS_ENABLED's values for off (tests/fichas_switch.py)


def main() -> None:
    database_url, port = sys.argv[1], int(sys.argv[2])
    settings = Settings(
        database_url=database_url,
        bot_processes=0,
        bot_min_seconds=0,
        between_rounds_seconds=60,
        auto_move_seconds=60,
        socket_limits=SocketLimits(burst=10**9, bot_burst=10**9),  # clients play as fast as the bots
        recorder="--no-recorder" not in sys.argv[3:],
        fairplay_sampler=False,  # no background analyses in the tests' servers
        # TRANQUE_FICHAS_ENABLED=0: the suite with fichas off (tests/fichas_switch.py)
        fichas_enabled=os.environ.get("TRANQUE_FICHAS_ENABLED", "1").strip().lower()
        not in ("0", "false", "no", "off"),
    )
    app = create_app(settings)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()
