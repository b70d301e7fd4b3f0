"""Table talk and mirones in the browser (docs/protocol.md, «Table talk» and «Mirones»): four
people at a private table read each other's lines, a spectator who came by the watching link
sees none of them and no hand tile, and a muted player's lines disappear from the screen of
whoever muted them. The chat is photographed at the three sizes: on a phone, open, it sits
below the hand and covers neither the hand nor the line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.support.harness import LiveServer
from tests.web.conftest import ConsoleErrors
from tests.web.test_accounts import sign_up

SIZES = {"ana": (1280, 800), "beto": (360, 640), "carla": (390, 844), "dani": (1280, 800)}


def say(page: Any, text: str) -> None:
    page.fill(".chat-input", text)
    page.click(".chat-send")
    page.wait_for_selector(f".chat-log .chat-line:has-text('{text}')")


def open_chat(page: Any) -> None:
    if page.locator("details.chat[open]").count() == 0:
        page.click(".chat-summary")
    page.wait_for_selector("details.chat[open] .chat-input")


def boxes_apart(page: Any, one: str, other: str) -> bool:
    """Whether the boxes of `one` and `other` on the page do not overlap."""
    a, b = page.locator(one).first.bounding_box(), page.locator(other).first.bounding_box()
    assert a is not None and b is not None
    return bool(
        a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
        or a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
    )


def test_four_players_talk_a_spectator_reads_nothing_and_a_mute_hides(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    contexts = {
        name: browser.new_context(viewport={"width": width, "height": height})
        for name, (width, height) in SIZES.items()
    }
    pages = {name: console_errors.watch(context.new_page()) for name, context in contexts.items()}
    for name, page in pages.items():
        sign_up(page, live, name)
    ana = pages["ana"]
    ana.click("#create-table")
    ana.wait_for_selector("#start")
    ana.select_option("select[name=players]", "4")
    ana.select_option("select[name=mode]", "pairs")
    ana.check("input[name=private]")
    ana.select_option("select[name=spectators]", "link")
    ana.click("#start")
    invite = ana.locator(".invite-link").input_value()
    watch = ana.locator(".watch-link").input_value()
    assert "/#/mesa/" in watch and "?ver=" in watch
    assert "Quien tenga el enlace" in ana.locator(".spectator-policy").inner_text()
    ana.screenshot(path=screenshots / "talk-host-panel-1280.png")
    for name in ("beto", "carla", "dani"):
        pages[name].goto(invite)
        pages[name].wait_for_selector(".table-screen")
    for page in pages.values():
        page.wait_for_selector(".hand-tile")

    spectator_context = browser.new_context(viewport={"width": 360, "height": 640})
    eva = console_errors.watch(spectator_context.new_page())  # a guest with the watching link
    eva.goto(watch)
    eva.wait_for_selector(".table-screen .seats-grid")
    eva.wait_for_selector(".me .note")  # «Estás mirando»
    assert eva.locator(".hand-tile").count() == 0
    assert eva.locator("details.chat").count() == 0  # spectators neither read nor write

    open_chat(ana)
    say(ana, "¡Buenas, mesa! Hoy se tranca")
    for name in ("beto", "carla", "dani"):
        page = pages[name]
        open_chat(page)
        page.wait_for_selector(".chat-log .chat-line:has-text('Hoy se tranca')")
    say(pages["carla"], "mensaje de carla")
    pages["beto"].wait_for_selector(".chat-log .chat-line:has-text('mensaje de carla')")
    for size, name in (("1280", "ana"), ("360", "beto"), ("390", "carla")):
        page = pages[name]
        page.wait_for_selector(".chat-log .chat-line:has-text('mensaje de carla')")
        page.screenshot(path=screenshots / f"talk-chat-open-{size}.png")
        # Open, the chat covers neither the hand nor the line.
        assert boxes_apart(page, "details.chat", ".hand")
        assert boxes_apart(page, "details.chat", ".board")

    # Beto mutes carla for himself: her lines leave his screen, nobody else's.
    beto = pages["beto"]
    beto.click(".chat-line:has-text('mensaje de carla') .chat-more")
    beto.click(".chat-line:has-text('mensaje de carla') .chat-mute")
    beto.wait_for_selector(".chat-muted:has-text('carla')")
    assert beto.locator(".chat-log .chat-line:has-text('mensaje de carla')").count() == 0
    say(pages["carla"], "carla otra vez")
    say(pages["dani"], "dani contesta")
    beto.wait_for_selector(".chat-log .chat-line:has-text('dani contesta')")
    assert beto.locator(".chat-log .chat-line:has-text('carla otra vez')").count() == 0
    ana.wait_for_selector(".chat-log .chat-line:has-text('carla otra vez')")
    beto.screenshot(path=screenshots / "talk-muted-360.png")

    eva.wait_for_timeout(300)  # the lines above have long reached every socket
    shown = eva.content()
    for text in ("Hoy se tranca", "mensaje de carla", "carla otra vez", "dani contesta"):
        assert text not in shown
    assert eva.locator(".hand-tile").count() == 0
    eva.screenshot(path=screenshots / "talk-spectator-360.png")
    for context in [*contexts.values(), spectator_context]:
        context.close()
