"""What `GET /api/games/{id}/analysis` answers: a game's analysis, as the replay viewer shows it.

The stored result is `GameAnalysis.to_json()` (tranque.bots.analysis), as `tranque analyze
--json` prints it. The viewer gets it with what it needs to draw it and nothing it would
have to work out: each decision's `step` (the replay frame that shows the position after
the move: a round's deal is a frame, then one per action), the expected worth of the move
played and of the best one, and for a flagged move whose best was a play, `ghost`: the box
the best tile would have taken on the line (table/line_layout.py, as the table lays it); and a
`chart` of each team's expected result at each of its decisions. Nothing here judges a
move: the worths, the best and the classes are the analysis's.

A stored result of an older format (`analysis.FORMAT`: before 2, the expert's weighted
reading, without `loss_points`, `reasons` or `unit`) is not shown: the body says `status`
"none", as for a game never analysed, and asking again computes it anew (http/analysis.py).
"""

from __future__ import annotations

from typing import Any

from tranque.bots.analysis import FORMAT
from tranque.engine import Rules
from tranque.server.store import AnalysisRow, GameRow
from tranque.server.table.line_layout import Snake

FLAGGED = ("inaccuracy", "error")


def analysis_body(game: GameRow, row: AnalysisRow | None) -> dict[str, Any]:
    """The body of the game's analysis: `status` none (never asked for), pending, running,
    done or failed; `progress` (decisions done of total); `result` once done."""
    if row is None or outdated(row):
        return {"game_id": game.game_id, "status": "none", "progress": None, "result": None}
    return {
        "game_id": game.game_id,
        "status": row.status,
        "progress": {"done": row.done, "total": row.total},
        "requested_at": row.created_at,
        "finished_at": row.finished_at,
        "result": None if row.status != "done" or row.result is None else shaped(row.result, game.record),
    }


def outdated(row: AnalysisRow) -> bool:
    """A done analysis stored in an older format than this version computes."""
    return row.status == "done" and row.result is not None and row.result.get("format", 1) < FORMAT


def shaped(result: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    """The stored analysis with each decision's frame, worths and ghost tile, and the chart."""
    rules = Rules.from_json(record["rules"])
    rounds = record["rounds"]
    starts = []
    frame = 0
    for round_data in rounds:
        starts.append(frame)
        frame += len(round_data["actions"]) + 2  # its deal, its actions, its end
    before = _lines_before(rounds, {(d["round"], d["move"]) for d in result["decisions"] if _flagged(d)})
    decisions = []
    chart: list[list[dict[str, Any]]] = [[] for _ in range(rules.team_count)]
    for decision in result["decisions"]:
        step = starts[decision["round"] - 1] + decision["move"]
        alternatives = decision["alternatives"]
        worth = next((a["worth"] for a in alternatives if a["action"] == decision["played"]), None)
        best_worth = alternatives[0]["worth"] if alternatives else None
        points = next((a["points"] for a in alternatives if a["action"] == decision["played"]), None)
        best_points = alternatives[0]["points"] if alternatives else None
        ghost = None
        snake = before.get((decision["round"], decision["move"]))
        best = decision["best"]
        if snake is not None and best.get("type") == "play":
            ghost = snake.copy().place(best["tile"], best["side"]).to_json()
        decisions.append(
            {
                **decision,
                "step": step,
                "worth": worth,
                "best_worth": best_worth,
                "points": points,
                "best_points": best_points,
                "ghost": ghost,
            }
        )
        if worth is not None:
            chart[rules.team_of(decision["seat"])].append({"step": step, "worth": worth, "points": points})
    return {
        **result,
        "decisions": decisions,
        "sides": [
            [s for s in range(rules.players) if rules.team_of(s) == team] for team in range(rules.team_count)
        ],
        "steps": frame,
        "chart": chart,
    }


def _flagged(decision: dict[str, Any]) -> bool:
    return decision["verdict"] in FLAGGED


def _lines_before(rounds: list[dict[str, Any]], wanted: set[tuple[int, int]]) -> dict[tuple[int, int], Snake]:
    """The line as it lay just before each (round, move) of `wanted` (both 1-based)."""
    found: dict[tuple[int, int], Snake] = {}
    for number, round_data in enumerate(rounds, start=1):
        if not any(r == number for r, _ in wanted):
            continue
        snake = Snake()
        for move, action in enumerate(round_data["actions"], start=1):
            if (number, move) in wanted:
                found[number, move] = snake.copy()
            if action.get("type") == "play":
                snake.place(action["tile"], action.get("side"))
    return found
