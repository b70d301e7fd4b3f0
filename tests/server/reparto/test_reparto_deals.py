"""El reparto del día's deals, pure: the day's commitment verifies against its seed and
parameters, one day's deals are the same for every table of it (the duplicado's mechanism),
other days' differ, the par is the expert's own game on those deals, and Bogotá's days."""

from __future__ import annotations

import hashlib

from tranque.engine.deal import deal_from_seed
from tranque.engine.rules import FirstLead
from tranque.server.reparto import deals
from tranque.server.reparto.days import day_end, day_of, day_start, parse_day, shifted
from tranque.server.reparto.par import play_par
from tranque.server.tournaments.deals import deal_secret

SEED = bytes(range(32))


def test_the_commitment_is_sha256_of_the_seed_and_the_days_parameters() -> None:
    day = "2026-12-07"
    expected = hashlib.sha256(SEED + b"tranque-reparto:2026-12-07:clasico:4").hexdigest()
    assert deals.commitment(SEED, day, 4) == expected
    assert deals.commitment(SEED, "2026-12-08", 4) != expected  # bound to the day
    assert deals.commitment(SEED, day, 3) != expected  # and to the hands
    assert deals.commitment(bytes(32), day, 4) != expected


def test_every_deal_is_the_duplicado_deal_of_the_days_seed() -> None:
    for mode, (_, _, round_number) in deals.MODES.items():
        source = deals.source(SEED, mode)
        for number in range(4):
            assert source(number) == deal_secret(SEED, round_number, number)
        listed = deals.deal_commitments(SEED, mode, 4)
        assert listed == [source(number).commitment for number in range(4)]


def test_the_same_day_deals_the_same_hands_and_other_days_other_ones() -> None:
    rules = deals.mode_rules("individual", 4)
    once = [deal_from_seed(rules, deals.source(SEED, "individual")(k).seed) for k in range(4)]
    again = [deal_from_seed(rules, deals.source(SEED, "individual")(k).seed) for k in range(4)]
    other = [deal_from_seed(rules, deals.source(bytes(32), "individual")(k).seed) for k in range(4)]
    assert once == again
    assert once != other
    assert len({str(hands) for hands, _ in once}) == 4  # each hand of the game its own deal


def test_the_revealed_deals_are_what_the_seed_deals() -> None:
    shown = deals.revealed_deals(SEED, "pairs", 2)
    rules = deals.mode_rules("pairs", 2)
    for number, deal in enumerate(shown):
        secret = deals.source(SEED, "pairs")(number)
        assert deal["seed"] == secret.seed.hex() and deal["salt"] == secret.salt.hex()
        assert deal["commitment"] == hashlib.sha256(secret.seed + secret.salt).hexdigest()
        assert len(deal["hands"]) == 4 and all(len(hand) == 7 for hand in deal["hands"])
        hands, _ = deal_from_seed(rules, secret.seed)
        assert len(hands) == 4


def test_refs_name_a_day_and_a_mode() -> None:
    assert deals.parse_ref(deals.ref("2026-12-07", "pairs")) == ("2026-12-07", "pairs")
    assert deals.is_reparto("reparto:2026-12-07:individual")
    assert not deals.is_reparto("t1:2")
    for bad in ("t1:2", "reparto:2026-12-07:trios"):
        try:
            deals.parse_ref(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_the_first_hand_is_led_by_the_deal() -> None:
    for mode in deals.MODES:
        assert deals.mode_rules(mode, 4).first_round_lead is FirstLead.HIGHEST_DOUBLE
        assert deals.mode_rules(mode, 4).hands == 4


def test_the_par_is_one_repeatable_game_of_the_days_deals() -> None:
    par = play_par(SEED, "individual", 2, "heuristic")
    assert par == play_par(SEED, "individual", 2, "heuristic")
    assert len(par["points"]) == 2
    assert par["diff"] == par["scores"][0] - par["scores"][1]
    assert par["scores"] == [sum(hand[0] for hand in par["points"]), sum(hand[1] for hand in par["points"])]


def test_the_day_is_bogotas() -> None:
    # 2026-12-08 03:00 UTC is still the 7th in Bogotá (UTC−5), 05:00 UTC is the 8th.
    assert day_of(1_796_698_800.0) == "2026-12-07"
    assert day_of(1_796_706_000.0) == "2026-12-08"
    assert day_start("2026-12-08") == 1_796_706_000.0
    assert day_end("2026-12-07") == day_start("2026-12-08")
    assert shifted("2026-12-31", 1) == "2027-01-01"
    assert parse_day("2026-12-07") == "2026-12-07"
    for bad in ("2026-13-01", "7/12/2026", "2026-12-7", ""):
        try:
            parse_day(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_the_documented_python_check_verifies_a_revealed_day() -> None:
    """docs/reparto.md's standard-library check, run on a day the server revealed (the vector
    the browser's check is tested on): true as it is, false with the seed or a hash changed."""
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    text = (root / "docs" / "reparto.md").read_text(encoding="utf-8")
    start = text.index("```python\nimport hashlib")
    code = text[start + len("```python\n") : text.index("```", start + 10)]
    namespace: dict[str, object] = {}
    exec(compile(code, "reparto.md", "exec"), namespace)
    check_day = namespace["check_day"]
    assert callable(check_day)
    day = json.loads((root / "tests" / "web" / "js" / "vectors" / "reparto_day.json").read_text())
    assert check_day(day) is True
    assert check_day({**day, "seed": "00" + day["seed"][2:]}) is False
    changed = json.loads(json.dumps(day))
    changed["modes"]["pairs"]["commitments"][1] = "0" * 64
    assert check_day(changed) is False


def test_the_service_works_the_par_out_in_a_worker_process_once() -> None:
    """The par is played in a spawned worker process (nothing on the event loop), kept, and
    the same game `play_par` plays."""
    import asyncio

    from tranque.server.reparto.service import Reparto
    from tranque.server.store import MemoryStore
    from tranque.server.table.clock import FakeClock

    async def scenario() -> tuple[dict[str, object], dict[str, object] | None, bytes]:
        store = MemoryStore()
        reparto = Reparto(
            store, FakeClock(1_796_700_000.0), hands=2, bot_level="heuristic", in_processes=True
        )
        try:
            row = await reparto.open_today()
            par = await reparto.wait_par(row.day, "pairs")
            return par, await store.reparto_par(row.day, "pairs"), row.seed
        finally:
            await reparto.close()

    par, kept, seed = asyncio.run(scenario())
    assert par == kept == play_par(seed, "pairs", 2, "heuristic")
