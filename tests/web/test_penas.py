"""Peñas in the browser (js/penas.js, docs/penas.md): a peña's life with three accounts, each
on one of the three screen sizes. Ana creates a peña by invitation with the page's form;
Carla, without a link, asks to join and is shown the server's refusal; Ana makes an invitation
link; Beto opens it, joins, and appears on the page as a member, online; Ana opens a table of
the peña; Beto sees «Tus peñas» on the home page, and leaves. The peña's page is photographed
at 1280x800, 360x640 and 390x844."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.support.harness import LiveServer
from tests.web.conftest import BLOCKING, DESKTOP, PHONE, TALL_PHONE, ConsoleErrors, axe_violations
from tests.web.test_accessibility import describe
from tests.web.test_accounts import sign_up

SLUG = "los-del-martes"


def no_serious_violation(page: Any, axe_source: str) -> None:
    blocking = [rule for rule in axe_violations(page, axe_source) if rule["impact"] in BLOCKING]
    assert blocking == [], describe(blocking)


def members(page: Any) -> list[str]:
    names: list[str] = page.locator(".pena-people .friend-row").evaluate_all(
        "rows => rows.map(r => r.dataset.name)"
    )
    return names


def test_a_penas_life_create_invite_join_by_link_and_leave(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path, axe_source: str
) -> None:
    ana = console_errors.watch(browser.new_context(**DESKTOP.context_options()).new_page())
    beto = console_errors.watch(browser.new_context(**PHONE.context_options()).new_page())
    carla = console_errors.watch(browser.new_context(**TALL_PHONE.context_options()).new_page())
    sign_up(ana, live, "ana")
    sign_up(beto, live, "beto")
    sign_up(carla, live, "carla")

    # Ana creates the peña with the form of #/penas: by invitation, a crest of the site's.
    ana.click("#nav-penas")
    ana.wait_for_selector("#pena-create")
    ana.fill("#pena-name", "Los del Martes")
    ana.check("input[name=crest][value=gallo]", force=True)
    ana.fill("#pena-description", "Dominó los martes en casa de Kike.\nPareja que pierde paga el tinto.")
    ana.check("input[name=access][value=invite]")
    ana.click("#pena-create")
    ana.wait_for_selector(f".pena-page[data-slug={SLUG}][data-role=leader] h1:has-text('Los del Martes')")
    assert ana.evaluate("location.hash") == f"#/penas/{SLUG}"
    assert ana.locator(".pena-head img.pena-crest").get_attribute("src") == "/avatars/gallo.svg"
    assert members(ana) == ["ana"]
    assert ana.locator("section.pena-season").count() == 1  # the season's place, empty for now

    # Carla, without a link, is refused: the page shows the server's reason and nothing changes.
    carla.goto(f"{live.http}/#/penas/{SLUG}")
    carla.wait_for_selector("#pena-ask")
    carla.click("#pena-ask")
    alert = carla.locator(".pena-actions .form-error")
    alert.wait_for()
    carla.wait_for_function("() => document.querySelector('.pena-actions .form-error').textContent !== ''")
    assert alert.inner_text() == "A esta peña solo se entra con un enlace de invitación de sus líderes."
    assert carla.locator(".pena-page").get_attribute("data-role") == ""
    carla.screenshot(path=screenshots / "pena-refused-390x844.png", full_page=True)
    console_errors[:] = [error for error in console_errors if "status of 403" not in error]

    # Ana makes an invitation link; Beto opens it and joins.
    ana.click("#pena-invite")
    link = ana.locator("#pena-invite-url")
    link.wait_for()
    url = link.input_value()
    assert url.startswith(f"{live.http}/#/penas/{SLUG}?invitacion=")
    beto.goto(url)
    beto.wait_for_selector("#pena-join")
    assert "Te invitaron" in beto.locator(".pena-invited").inner_text()
    beto.click("#pena-join")
    beto.wait_for_selector(".pena-page[data-role=member] .pena-people .friend-row[data-name=beto]")
    assert members(beto) == ["ana", "beto"]
    assert beto.evaluate("location.hash") == f"#/penas/{SLUG}"  # the token leaves the address

    # Ana sees Beto on the page, online (his page holds a socket).
    ana.reload()
    ana.wait_for_selector(".pena-people .friend-row[data-name=beto][data-online=yes]")
    assert members(ana) == ["ana", "beto"]
    assert ana.locator(".pena-people .friend-row[data-name=beto] .presence-dot.online").count() == 1

    # Ana opens a table of the peña from its page: it is listed there, for members to sit.
    ana.click("#pena-new-table")
    ana.wait_for_selector(".pena-table-note:has-text('Los del Martes')")
    ana.wait_for_selector("#start:not([disabled])")
    ana.select_option("select[name=players]", "2")
    ana.click("#start")
    ana.wait_for_selector(".invite-link")
    ana.goto(f"{live.http}/#/penas/{SLUG}")
    ana.wait_for_selector(".pena-tables .friend-row[data-table]")
    beto.reload()
    beto.wait_for_selector(".pena-tables .friend-row[data-table] button:has-text('Sentarme')")
    carla.reload()
    carla.wait_for_selector(".pena-tables .friend-row[data-table]")
    assert carla.locator(".pena-tables button").count() == 0  # only members may sit
    assert carla.locator(".pena-people .presence-dot").count() == 0  # presence: for members only

    # A tournament of the peña, from its page, in the tournaments' own form (any format).
    ana.goto(f"{live.http}/#/penas/{SLUG}")
    ana.click(".pena-tournament-open")
    ana.wait_for_selector(".pena-tournament-form #tn-format")
    assert ana.input_value("#tn-name") == "Copa Los del Martes"
    ana.select_option("#tn-format", "arena")
    ana.click("#tn-submit")
    ana.wait_for_function("() => location.hash.startsWith('#/torneo/')")
    ana.goto(f"{live.http}/#/penas/{SLUG}")
    ana.wait_for_selector(".pena-tournaments .tn-row a:has-text('Copa Los del Martes')")

    # «Cara a cara» between two members: the reader first, then another member.
    beto.wait_for_selector(".pena-h2h select")
    assert beto.locator(".pena-h2h select").nth(0).input_value() == "beto"
    assert beto.locator(".pena-h2h select").nth(1).input_value() == "ana"
    beto.click(".pena-h2h button[type=submit]")
    beto.wait_for_selector(".pena-h2h .h2h-title:has-text('beto contra ana')")
    beto.locator(".pena-h2h select").nth(1).select_option("beto")
    beto.click(".pena-h2h button[type=submit]")
    beto.wait_for_selector(".pena-h2h .form-error:has-text('dos miembros distintos')")
    assert beto.locator(".pena-h2h .h2h-title").count() == 0  # the last answer is cleared

    # The peña's page at the three sizes.
    ana.wait_for_selector(".pena-games li")
    ana.screenshot(path=screenshots / "pena-page-1280x800.png", full_page=True)
    beto.wait_for_selector(".pena-games li")
    beto.screenshot(path=screenshots / "pena-page-360x640.png", full_page=True)
    carla.wait_for_selector(".pena-games li")
    carla.screenshot(path=screenshots / "pena-page-390x844.png", full_page=True)
    no_serious_violation(ana, axe_source)
    no_serious_violation(beto, axe_source)

    # Beto's home page lists his peñas.
    beto.goto(f"{live.http}/#/")
    beto.wait_for_selector(f".my-penas li[data-slug={SLUG}] a:has-text('Los del Martes')")
    beto.screenshot(path=screenshots / "pena-home-360x640.png", full_page=True)
    beto.click(f".my-penas li[data-slug={SLUG}] a")

    # Beto leaves; Ana's page then lists her alone.
    beto.wait_for_selector("#pena-leave")
    beto.click("#pena-leave")
    beto.click("#pena-leave-confirm")
    beto.wait_for_selector("#toast:has-text('Saliste de Los del Martes')")
    beto.wait_for_selector(".pena-page[data-role=''] #pena-ask")
    ana.reload()
    ana.wait_for_selector(".pena-people")
    assert members(ana) == ["ana"]

    # The list of #/penas finds it.
    carla.goto(f"{live.http}/#/penas")
    carla.fill("#pena-search", "martes")
    carla.click(".pena-search button[type=submit]")
    carla.wait_for_selector(f".pena-list .pena-row[data-slug={SLUG}]")
    carla.screenshot(path=screenshots / "penas-list-390x844.png", full_page=True)

    # In English, the same page in full.
    carla.click("#lang")
    carla.wait_for_selector(".pena-create h2:has-text('Create a peña')")
    carla.fill("#pena-search", "martes")
    carla.click(".pena-search button[type=submit]")
    carla.wait_for_selector(f".pena-list .pena-row[data-slug={SLUG}]:has-text('By invitation')")
    carla.goto(f"{live.http}/#/penas/{SLUG}")
    carla.wait_for_selector(".pena-part h2:has-text('Members')")
    carla.screenshot(path=screenshots / "pena-page-en-390x844.png", full_page=True)
