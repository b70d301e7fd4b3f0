// What the players' pages and the table's rating line show (js/players_format.js), from the
// JSON shapes of GET /api/rankings, GET /api/players/NAME and sync's `rating`:
// `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { test } from "node:test";

const format = await import(new URL("../../../src/tranque/web/js/players_format.js", import.meta.url));
const { AVATAR_IDS, avatarUrl, rankingView, rankingHash, rankingQuery, pageNumbers, ratingText, signed, percentages, ratingLine, chartGeometry, resultKey, formatKey, dateText, friendActions } = format;

test("every avatar id has its drawing, and nothing else is drawn", () => {
  const drawn = readdirSync(new URL("../../../src/tranque/web/avatars/", import.meta.url)).filter((name) => name.endsWith(".svg"));
  assert.deepEqual(drawn.map((name) => name.slice(0, -4)).sort(), [...AVATAR_IDS].sort());
  assert.equal(AVATAR_IDS.length, 12);
  assert.equal(avatarUrl("tucan"), "/avatars/tucan.svg");
  assert.equal(avatarUrl("../../etc/passwd"), "/avatars/palma.svg");
  assert.equal(avatarUrl(null), "/avatars/palma.svg");
});

test("a ranking's hash names its tab and page; anything unknown is the first tab, page 1", () => {
  assert.deepEqual(rankingView("parejas", "3"), { tab: "parejas", by: "rating", pool: "pairs", label: "pl_pool_pairs", page: 3 });
  assert.equal(rankingView(undefined, undefined).tab, "semana");
  assert.equal(rankingView("nada", "-2").page, 1);
  assert.equal(rankingView("mes", "1.5").page, 1);
  assert.equal(rankingView("mes", "x").tab, "mes");
  assert.equal(rankingHash("mes"), "#/clasificacion/mes");
  assert.equal(rankingHash("1contra1", 2), "#/clasificacion/1contra1/2");
});

test("each tab asks GET /api/rankings for the contract's by, period or pool", () => {
  assert.equal(rankingQuery(rankingView("semana", "2")), "/api/rankings?by=xp&period=week&page=2");
  assert.equal(rankingQuery(rankingView("siempre")), "/api/rankings?by=xp&period=all&page=1");
  assert.equal(rankingQuery(rankingView("1contra1")), "/api/rankings?by=rating&pool=duel&page=1");
  assert.equal(rankingQuery(rankingView("individual")), "/api/rankings?by=rating&pool=individual&page=1");
});

test("the pager offers the ends and two pages either side, with gaps", () => {
  assert.deepEqual(pageNumbers(1, 1), []);
  assert.deepEqual(pageNumbers(1, 3), [1, 2, 3]);
  assert.deepEqual(pageNumbers(6, 20), [1, null, 4, 5, 6, 7, 8, null, 20]);
  assert.deepEqual(pageNumbers(1, 20), [1, 2, 3, null, 20]);
  assert.deepEqual(pageNumbers(4, 7), [1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(pageNumbers(20, 20), [1, null, 18, 19, 20]);
});

test("a provisional rating reads with «?», a settled one without", () => {
  assert.equal(ratingText({ rating: 1512, provisional: false }), "1512");
  assert.equal(ratingText({ rating: 1388, provisional: true }), "1388?");
  assert.equal(ratingText(null), "—");
});

test("a rating change is signed with a real minus; an unrated game shows none", () => {
  assert.equal(signed(12), "+12");
  assert.equal(signed(-8), "−8");
  assert.equal(signed(0), "±0");
  assert.equal(signed(null), "");
  assert.equal(signed(undefined), "");
});

test("chances read as whole percentages that add up to 100", () => {
  assert.deepEqual(percentages([0.5, 0.5]), [50, 50]);
  assert.deepEqual(percentages([1 / 3, 1 / 3, 1 / 3]), [34, 33, 33]);
  assert.deepEqual(percentages([0.6666, 0.3334]), [67, 33]);
  assert.deepEqual(percentages([0.125, 0.125, 0.75]), [13, 12, 75]);
  for (const chances of [[0.2, 0.3, 0.1, 0.4], [0.011, 0.989], [0.25, 0.25, 0.25, 0.25]]) {
    assert.equal(percentages(chances).reduce((a, b) => a + b, 0), 100);
  }
  assert.deepEqual(percentages(null), []);
});

test("the table's line: rated with chances, or why it does not count", () => {
  const rated = { competitive: true, rated: true, reason: null, chances: [0.62, 0.38], seats: [] };
  assert.deepEqual(ratingLine(rated), { key: "pl_rated", chances: [62, 38] });
  assert.deepEqual(ratingLine({ ...rated, chances: null }), { key: "pl_rated", chances: [] });
  const reasons = {
    casual: "pl_unrated_casual",
    guest: "pl_unrated_guest",
    bot: "pl_unrated_bot",
    same_address: "pl_unrated_same_address",
    same_address_in_play: "pl_unrated_same_address_in_play",
    many_places: "pl_unrated_many_places",
    person_at_bots_table: "pl_unrated_person_at_bots_table",
    same_owner: "pl_unrated_same_owner",
  };
  for (const [reason, key] of Object.entries(reasons)) {
    assert.deepEqual(ratingLine({ competitive: reason !== "casual", rated: false, reason, chances: null, seats: [] }), { key, chances: [] });
  }
  assert.equal(ratingLine({ competitive: false, rated: false, reason: null }).key, "pl_unrated_casual");
  assert.equal(ratingLine({ competitive: true, rated: false, reason: "something_new" }).key, "pl_unrated");
  assert.equal(ratingLine(null), null);
});

test("the history chart spans the box: oldest left, newest right, higher up", () => {
  const history = [{ at: 1, rating: 1400 }, { at: 2, rating: 1500 }, { at: 3, rating: 1450 }];
  const shape = chartGeometry(history, { width: 220, height: 120, pad: 20 });
  assert.deepEqual(shape.dots.map((d) => d.x), [20, 110, 200]);
  assert.deepEqual(shape.dots.map((d) => d.y), [100, 20, 60]);
  assert.equal(shape.points, "20,100 110,20 200,60");
  assert.deepEqual([shape.min, shape.max], [1400, 1500]);
  assert.deepEqual(shape.levels, [{ value: 1500, y: 20 }, { value: 1400, y: 100 }]);
});

test("a flat or single-game history still draws inside the box", () => {
  const one = chartGeometry([{ at: 1, rating: 1500 }], { width: 220, height: 120, pad: 20 });
  assert.equal(one.dots.length, 1);
  assert.deepEqual(one.dots[0], { x: 110, y: 60, rating: 1500 });
  assert.equal(one.points, "20,60 110,60 200,60");
  assert.deepEqual([one.min, one.max], [1490, 1510]);
  const flat = chartGeometry([{ at: 1, rating: 1500 }, { at: 2, rating: 1505 }], { width: 220, height: 120, pad: 20 });
  for (const dot of flat.dots) assert.ok(dot.y >= 20 && dot.y <= 100, `${dot.y} outside the plot`);
  assert.ok(flat.dots[1].y < flat.dots[0].y, "the higher rating is drawn higher");
  assert.equal(chartGeometry([]), null);
  assert.equal(chartGeometry(undefined), null);
});

test("a game's result, and a format's name", () => {
  assert.equal(resultKey({ won: true, abandoned: false }), "pl_result_won");
  assert.equal(resultKey({ won: false, abandoned: false }), "pl_result_lost");
  assert.equal(resultKey({ won: false, abandoned: true }), "pl_result_abandoned");
  assert.equal(formatKey("duel"), "pl_pool_duel");
  assert.equal(formatKey("pairs"), "pl_pool_pairs");
  assert.equal(formatKey("bots:duel"), "bt_pool_duel"); // a bot account's profile
  assert.equal(formatKey("bots:pairs"), "bt_pool_pairs");
});

test("dates read in the reader's language", () => {
  const at = Date.UTC(2026, 11, 3, 15, 0) / 1000;
  assert.match(dateText(at, "es"), /diciembre de 2026/);
  assert.match(dateText(at, "en"), /December 2026/);
});

test("the friend buttons follow the server's friend and blocked state", () => {
  const keys = (friend, blocked) => friendActions(friend, blocked).map((action) => action.key);
  assert.deepEqual(keys("none", false), ["pl_add_friend", "pl_block"]);
  assert.deepEqual(keys("incoming", false), ["pl_accept_friend", "pl_block"]);
  assert.deepEqual(keys("outgoing", false), ["pl_block"]);
  assert.deepEqual(keys("friends", false), ["pl_block"]);
  assert.deepEqual(keys("none", true), ["pl_unblock"]);
  assert.deepEqual(keys(null, false), []);
  assert.deepEqual(friendActions("none", false)[0], { key: "pl_add_friend", method: "POST", path: "friends" });
  assert.deepEqual(friendActions("none", true)[0], { key: "pl_unblock", method: "DELETE", path: "blocks" });
});

test("a wider left margin moves the plot, not its right edge", () => {
  const shape = chartGeometry([{ at: 1, rating: 1400 }, { at: 2, rating: 1500 }], { width: 220, height: 120, pad: 20, left: 40 });
  assert.deepEqual(shape.dots.map((d) => d.x), [40, 200]);
  assert.deepEqual([shape.left, shape.right], [40, 200]);
});
