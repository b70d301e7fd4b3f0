"""The clock speaks (js/clock.js, js/alerts.js): your ring's last seconds, a beep and a
vibration then, the line that says what the machine played when your time ran out (R15), and
a browser notification when your turn comes while the tab is hidden. Sounds, vibrations and
notifications are counted by wrapping the browser's own functions in an init script."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from tests.server.support.harness import LiveServer
from tests.web.conftest import BLOCKING, DESKTOP, SIZES, TALL_PHONE, ConsoleGuard, axe_violations
from tests.web.driver import act_once
from tests.web.test_accounts import sign_up
from tests.web.test_resilience import wait_for_my_turn

WATCH = """
window.seen = {notifications: [], vibrations: [], tones: 0};
Object.defineProperty(document, "visibilityState", {
    configurable: true, get: () => (window.hiddenTab ? "hidden" : "visible"),
});
const Shown = window.Notification;
window.Notification = class {
    constructor(title, options) {
        Object.assign(this, {title, options, onclick: null});
        window.seen.notifications.push(this);
    }
    close() {}
    static get permission() { return Shown.permission; }
    static requestPermission() { return Shown.requestPermission(); }
};
navigator.vibrate = (pattern) => { window.seen.vibrations.push(pattern); return true; };
const oscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
    window.seen.tones += 1;
    return oscillator.call(this);
};
"""


def watched_page(browser: Any, live: LiveServer) -> tuple[Any, Any]:
    context = browser.new_context(**TALL_PHONE.context_options())
    context.grant_permissions(["notifications"], origin=live.http)
    context.add_init_script(WATCH)
    return context, context.new_page()


def befriend(asker: Any, answerer: Any) -> None:
    """Two logged-in pages become friends through the API, as the friends page would."""
    post = """([path, body]) => fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify(body)}).then((answer) => answer.status)"""
    assert asker.evaluate(post, ["/api/friends", {"name": "beto"}]) == 200
    assert answerer.evaluate(post, ["/api/friends/ana/accept", {}]) == 200


def practise(page: Any, base: str, turn_seconds: str | None = None) -> None:
    page.goto(base + "/")
    page.click("#practice")
    page.wait_for_selector("#start:not([disabled])")
    page.select_option("select[name=preset]", "clasico")
    page.select_option("select[name=players]", "2")
    if turn_seconds:
        page.select_option("select[name=turn_seconds]", turn_seconds)
    page.click("#start")
    page.wait_for_selector(".hand-tile")


def shoot(page: Any, screenshots: Path, name: str) -> None:
    for size in SIZES.values():
        page.set_viewport_size({"width": size.width, "height": size.height})
        folder = screenshots / "clock" / size.name
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=folder / f"{name}.png")
    page.set_viewport_size({"width": TALL_PHONE.width, "height": TALL_PHONE.height})


def test_R15_your_last_seconds_show_and_sound_and_a_timeout_says_what_was_played(
    browser: Any, live: LiveServer, screenshots: Path, axe_source: str
) -> None:
    context, page = watched_page(browser, live)
    practise(page, live.http, turn_seconds="20")
    wait_for_my_turn(page)
    seconds = page.locator(".me .clock.counting .clock-seconds")
    assert seconds.count() == 0  # a whole turn ahead: no countdown yet
    hand = page.locator(".me .hand-tile").evaluate_all("(tiles) => tiles.map((tile) => tile.dataset.tile)")
    # The browser's idea of the server's time moves 12 s on: 8 s of the 20 are left on the ring
    # (the server's own clock still has all of them: it plays for this seat when they are out).
    page.evaluate("() => { window.tranque.table.clock.offset += 12000; }")
    seconds.wait_for(state="visible")
    assert 1 <= int(seconds.text_content() or "0") <= 10
    shoot(page, screenshots, "last-seconds")
    page.wait_for_function("() => window.seen.vibrations.length >= 1 && window.seen.tones >= 1")
    assert page.evaluate("() => window.seen.vibrations.length") == 1  # once, on reaching the last 5 s
    line = page.locator(".timeout-line")
    line.wait_for(state="visible", timeout=60_000)
    text = line.inner_text()
    played = re.search(r"Se te acabó el tiempo: la máquina jugó el (\d-\d) por ti", text)
    assert played, text
    assert played.group(1) in hand
    page.wait_for_function(
        "(tile) => ![...document.querySelectorAll('.me .hand-tile')].some((el) => el.dataset.tile === tile)",
        arg=played.group(1),
    )
    assert seconds.count() == 0  # the countdown went with the turn
    shoot(page, screenshots, "timeout-line")
    assert [rule["id"] for rule in axe_violations(page, axe_source) if rule["impact"] in BLOCKING] == []
    line.get_by_role("button", name="Cerrar").click()
    line.wait_for(state="hidden")
    context.close()


def test_your_turn_while_the_tab_is_hidden_is_notified_and_the_switches_are_kept(
    browser: Any, live: LiveServer
) -> None:
    context, page = watched_page(browser, live)
    practise(page, live.http)
    page.locator(".tools summary").click()
    page.get_by_label("Avisos del navegador").check()
    page.get_by_label("Sonido").uncheck()
    settings = page.evaluate("() => JSON.parse(localStorage.getItem('tranque.alerts'))")
    assert settings == {"sound": False, "vibration": True, "notifications": True}
    page.reload()
    page.wait_for_selector(".hand-tile")
    page.locator(".tools summary").click()
    assert page.get_by_label("Avisos del navegador").is_checked()
    assert not page.get_by_label("Sonido").is_checked()
    assert page.get_by_label("Vibración").is_checked()
    page.get_by_label("Sonido").check()
    table = page.evaluate("() => location.hash")
    wait_for_my_turn(page)
    assert page.evaluate("() => window.seen.notifications.length") == 0  # looking at the tab: no notification
    page.evaluate("() => { window.hiddenTab = true; }")
    seen: Counter[str] = Counter()
    while not act_once(page, seen):
        page.wait_for_timeout(40)
    page.wait_for_function(
        "() => window.seen.notifications.some((shown) => shown.title === '¡Te toca!')", timeout=60_000
    )
    shown = page.evaluate(
        "() => window.seen.notifications.map((n) => [n.title, n.options.body, n.options.data.hash])"
    )
    title, body, where = shown[-1]
    assert title == "¡Te toca!"
    assert re.fullmatch(r"Es tu turno en la mesa\. Tienes \d+ segundos\.", body), body
    assert where == table
    assert page.evaluate("() => window.seen.tones") >= 2  # «te toca»: two notes
    # Clicked, it brings the table back from wherever the tab went.
    page.evaluate("() => { location.hash = '#/bots'; }")
    page.locator(".hand-tile").first.wait_for(state="detached")
    page.evaluate("() => window.seen.notifications.at(-1).onclick()")
    page.locator(".hand-tile").first.wait_for(state="visible")
    assert page.evaluate("() => location.hash") == table
    context.close()


def test_a_friends_invitation_is_notified_and_clicking_it_seats_you(browser: Any, live: LiveServer) -> None:
    ana_context = browser.new_context(**DESKTOP.context_options())
    ana = ana_context.new_page()
    beto_context, beto = watched_page(browser, live)
    sign_up(ana, live, "ana")
    sign_up(beto, live, "beto")
    befriend(ana, beto)
    beto.evaluate("() => localStorage.setItem('tranque.alerts', JSON.stringify({notifications: true}))")
    beto.evaluate("() => { window.hiddenTab = true; }")
    ana.goto(live.http + "/#/crear")
    ana.wait_for_selector("#start")
    ana.select_option("select[name=players]", "2")
    ana.check("input[name=private]")
    ana.click("#start")
    ana.wait_for_selector(".invite-link")
    table = ana.evaluate("() => location.hash")
    ana.click("button.invite-friend")
    ana.click(".invite-friends-list .friend-row[data-name=beto] button")
    beto.wait_for_function("() => window.seen.notifications.length > 0")
    title, body = beto.evaluate(
        "() => [window.seen.notifications[0].title, window.seen.notifications[0].options.body]"
    )
    assert title == "Invitación a una mesa"
    assert "ana" in body
    beto.evaluate("() => window.seen.notifications[0].onclick()")  # the tab comes up and sits
    beto.wait_for_selector(".hand-tile")
    assert beto.evaluate("() => location.hash") == table
    # Ana now sits with another person: the site offers notifications, once, and remembers a no.
    offer = ana.locator(".notice-alerts")
    offer.wait_for(state="visible")
    assert "Activar avisos" in offer.inner_text()
    offer.get_by_role("button", name="Ahora no").click()
    offer.wait_for(state="detached")
    ana.reload()
    ana.wait_for_selector(".hand-tile")
    assert ana.locator(".notice-alerts").count() == 0
    ana_context.close()
    beto_context.close()


STARTING = """(id) => window.tranque.message(
    {type: "tournament", event: "starting", tournament: id, name: "Copa del patio", round: 1}
)"""


def test_your_tournament_starting_is_notified_only_when_you_look_elsewhere(
    browser: Any, live: LiveServer, console_guard: ConsoleGuard
) -> None:
    context, page = watched_page(browser, live)
    page.goto(live.http + "/")
    page.locator("#practice").wait_for(state="visible")
    page.evaluate("() => localStorage.setItem('tranque.alerts', JSON.stringify({notifications: true}))")
    # The socket's notice (docs/protocol.md, «Tournaments») while the page is looked at: its card only.
    page.evaluate(STARTING, "7")
    page.locator(".notice-tournament[data-tournament='7']").wait_for(state="visible")
    assert page.evaluate("() => window.seen.notifications.length") == 0
    page.evaluate("() => { window.hiddenTab = true; }")
    page.evaluate(STARTING, "8")
    page.wait_for_function("() => window.seen.notifications.length === 1")
    title, body = page.evaluate(
        "() => [window.seen.notifications[0].title, window.seen.notifications[0].options.body]"
    )
    assert title == "Tu torneo empieza"
    assert body == "Empieza el torneo «Copa del patio»."
    page.evaluate("() => window.seen.notifications[0].onclick()")
    page.wait_for_function("() => location.hash === '#/torneo/8'")
    assert page.locator(".notice-tournament[data-tournament='8']").count() == 0  # the card did its job
    context.close()  # every console message delivered: tournament 8 is made up, its page says so
    console_guard[:] = [error for error in console_guard if "Failed to load resource" not in error]
