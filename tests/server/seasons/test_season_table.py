"""The season table from a hand-made list of games (seasons/table.py): which games count under
each scope, and every row's PJ, G, P, TF, TC, DIF and PTS computed by hand."""

from __future__ import annotations

from tranque.server.seasons.table import GameRecord, SeasonRules, counts, season_table

ANA, BETO, CARO, DANI, EVA, FEDE = 1, 2, 3, 4, 9, 5
JOINED = {ANA: 0.0, BETO: 0.0, CARO: 0.0, DANI: 0.0, FEDE: 1700.0}  # EVA is no member
NAMES = {ANA: "ana", BETO: "beto", CARO: "caro", DANI: "dani", EVA: "eva", FEDE: "fede"}


def member_at(user_id: int, at: float) -> bool:
    return user_id in JOINED and JOINED[user_id] <= at


def game(
    game_id: str,
    at: float,
    seats: list[tuple[int | None, int]],
    tantos: tuple[int, ...],
    winners: tuple[int, ...],
    rated: bool = True,
    pena_id: int | None = None,
) -> GameRecord:
    named = tuple((user, team, NAMES[user] if user is not None else "Bot") for user, team in seats)
    return GameRecord(game_id, at, rated, pena_id, named, tantos, winners)


GAMES = [
    # A rated duel at a public table: ana beats beto 100 to 60.
    game("g1", 1100, [(ANA, 0), (BETO, 1)], (100, 60), (0,)),
    # Pairs at the peña's table, all four seats members: beto and dani beat ana and caro.
    game("g2", 1200, [(ANA, 0), (BETO, 1), (CARO, 0), (DANI, 1)], (150, 200), (1,), pena_id=7),
    # Against eva, no member: never counts.
    game("g3", 1300, [(ANA, 0), (EVA, 1)], (100, 0), (0,)),
    # A friendly game at the peña's table: counts for its nights, not among the rated games.
    game("g5", 1400, [(BETO, 0), (CARO, 1)], (50, 100), (1,), rated=False, pena_id=7),
    # Individual for three: ana wins 100; beto has 80, dani 30.
    game("g6", 1500, [(ANA, 0), (BETO, 1), (DANI, 2)], (100, 80, 30), (0,)),
    # fede joined the peña at 1700, after this game: it does not count.
    game("g8", 1600, [(ANA, 0), (FEDE, 1)], (100, 20), (0,)),
    # A bot in a seat: not a game between members.
    game("g7", 1650, [(ANA, 0), (None, 1), (CARO, 0), (DANI, 1)], (100, 20), (0,), pena_id=7),
    # After the season's end (2000): does not count.
    game("g4", 2500, [(CARO, 0), (DANI, 1)], (100, 0), (0,), pena_id=7),
]


def rows(scope: str, points: str) -> list[tuple[str, int, int, int, int, int, int, int]]:
    rules = SeasonRules(7, scope, points, 1000.0, 2000.0)
    return [
        (r.name, r.played, r.won, r.lost, r.tantos_for, r.tantos_against, r.difference, r.points)
        for r in season_table(rules, GAMES, member_at)
    ]


def test_rated_games_between_members_three_per_win_one_per_loss() -> None:
    # By hand: ana g1 W 100-60, g2 L 150-200, g6 W 100-80 (TC: the best other) = 3 2 1 350 340 → 3*2+1
    # beto g1 L 60-100, g2 W 200-150, g6 L 80-100 = 3 1 2 340 350 → 3+2; dani g2 W 200-150,
    # g6 L 30-100 = 2 1 1 230 250 → 4; caro g2 L 150-200 → 1.
    assert rows("rated", "tres_uno") == [
        ("ana", 3, 2, 1, 350, 340, 10, 7),
        ("beto", 3, 1, 2, 340, 350, -10, 5),
        ("dani", 2, 1, 1, 230, 250, -20, 4),
        ("caro", 1, 0, 1, 150, 200, -50, 1),
    ]


def test_the_tantos_rule_gives_the_tantos_for_as_points() -> None:
    assert [(name, pts) for name, *_, pts in rows("rated", "tantos")] == [
        ("ana", 350),
        ("beto", 340),
        ("dani", 230),
        ("caro", 150),
    ]


def test_the_pena_nights_count_only_its_tables_and_break_ties_by_dif_tf_then_name() -> None:
    # Only g2 and g5 (the peña's table 7); two points a win. dani 1 1 0 200-150 → 2 (DIF 50);
    # beto g2 W 200-150, g5 L 50-100 and caro g2 L 150-200, g5 W 100-50 tie on 2 points, DIF 0,
    # TF 250, PJ 2: by name. ana g2 L → 0.
    assert rows("nights", "dos_por_ganada") == [
        ("dani", 1, 1, 0, 200, 150, 50, 2),
        ("beto", 2, 1, 1, 250, 250, 0, 2),
        ("caro", 2, 1, 1, 250, 250, 0, 2),
        ("ana", 1, 0, 1, 150, 200, -50, 0),
    ]


def test_what_does_not_count_and_why() -> None:
    rated = SeasonRules(7, "rated", "dos_por_ganada", 1000.0, 2000.0)
    nights = SeasonRules(7, "nights", "dos_por_ganada", 1000.0, 2000.0)
    by_id = {g.game_id: g for g in GAMES}
    assert [g.game_id for g in GAMES if counts(rated, g, member_at)] == ["g1", "g2", "g6"]
    assert [g.game_id for g in GAMES if counts(nights, g, member_at)] == ["g2", "g5"]
    assert not counts(nights, by_id["g1"], member_at)  # not at the peña's table
    assert not counts(rated, by_id["g4"], member_at)  # after the season's end
    assert season_table(rated, []) == []
