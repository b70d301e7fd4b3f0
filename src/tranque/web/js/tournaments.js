// The tournaments' pages (docs/protocol.md, «Tournaments»): #/torneos[/TAB[/PAGE]] lists the
// upcoming, live and finished ones (GET /api/tournaments) and holds «Crear torneo» (POST
// /api/tournaments); #/torneo/ID[?invite=CODE] is one tournament (GET /api/tournaments/ID):
// its header, the buttons its `me` allows (register, withdraw, cancel, «Ir a mi mesa»), the
// invitation link of a private one for its creator, the standings, each round's games with
// «Ver mesa», the byes, duplicado's deals (committed before, revealed and checked here after)
// and the podium. A live page asks again every few seconds and on each tournament notice
// (friends.js); only the parts that changed are drawn again, so a field being typed in keeps
// its text and focus. tournaments_format.js arranges what the server sent.

import { t, currentLang, serverMessage, localName } from "./i18n.js";
import { api } from "./api.js";
import { el, button, arrange } from "./dom.js";
import { commitmentOf } from "./fairness.js";
import { shareButton, shareUrl } from "./share.js";
import { battleBox, penaPicker } from "./tournament_battle.js";
import {
  TOURNAMENT_TABS, tournamentsView, tournamentsHash, tournamentsQuery, tournamentRoute, tournamentHash,
  FORMATS, KNOCKOUT_SIZES, entriesOf, formatKey, entryKey, statusKey, formShape, configBody, standingsColumns,
  standingsRows, roundLabel, progressLabel, knockoutGameKey, gameView, byeNames, podiumRows, capText, startText,
  entrantsText, meActions, checkDeals, shortHash, refreshSeconds, entrantNames,
} from "./tournaments_format.js";
import { say } from "./fichas_words.js";

const INVITES = "tranque.tournament.invite."; // + id: the invitation its creator was given

const tr = (label) => t(label.key, label.params);
const path = (id) => `/api/tournaments/${encodeURIComponent(id)}`;

function failure(error) {
  return el("p", { class: "form-error", role: "alert", text: serverMessage(error) });
}

function kindText(summary) {
  return `${t(formatKey(summary.format))} · ${t(entryKey(summary.entry))}`;
}

// ---------------------------------------------------------------------------------------
// #/torneos

export function tournamentsScreen(app, parts = []) {
  const view = tournamentsView(parts[0], parts[1]);
  const page = el("div", { class: "players-page tournaments-page" }, el("h1", { text: t("tn_title") }), tabs(view));
  const body = el("div", { class: "profile-card tn-list-body", "aria-busy": "true" }, el("p", { class: "note", text: t("tn_loading") }));
  page.append(body, createSection(app));
  api(tournamentsQuery(view)).then(
    (data) => {
      body.removeAttribute("aria-busy");
      body.replaceChildren(...listBody(view, data));
    },
    (error) => {
      body.removeAttribute("aria-busy");
      body.replaceChildren(failure(error));
    },
  );
  return page;
}

function tabs(view) {
  const links = TOURNAMENT_TABS.map((entry) =>
    el("a", { class: `tab${entry.tab === view.tab ? " current" : ""}`, href: tournamentsHash(entry.tab), "aria-current": entry.tab === view.tab ? "page" : null, "data-tab": entry.tab, text: t(entry.label) }));
  return el("nav", { class: "ranking-tabs tn-tabs", "aria-label": t("tn_tabs") }, el("div", { class: "tab-row" }, ...links));
}

function listBody(view, data) {
  const rows = data.tournaments || [];
  const what = t(view.label);
  if (!rows.length) return [el("h2", { text: what }), el("p", { class: "note nobody", text: t(`tn_none_${view.status}`) })];
  const lang = currentLang();
  const list = el("ul", { class: "tn-list", "aria-label": t("tn_list_caption", { what, page: data.page || 1, pages: data.pages || 1 }) });
  for (const summary of rows) {
    const details = [
      el("span", { class: "tn-kind", text: kindText(summary) }),
      el("span", { class: "tn-entrants", title: t("tn_col_entrants"), text: `${t("tn_col_entrants")}: ${entrantsText(summary)}` }),
      el("span", { class: "tn-start", text: `${t("tn_col_start")}: ${tr(startText(summary, lang))}` }),
      el("span", { class: `tn-rated${summary.rated ? " rated" : ""}`, text: t(summary.rated ? "tn_rated" : "tn_unrated") }),
    ];
    if (summary.entry_fichas) details.push(el("span", { class: "tn-entry-fichas", text: say("fichas_entry", { n: summary.entry_fichas }) }));
    const progress = progressLabel(summary);
    if (summary.status === "running" && progress) details.push(el("span", { class: "tn-progress", text: tr(progress) }));
    list.append(el("li", { class: "tn-row", "data-tournament": summary.id },
      el("a", { class: "tn-name", href: tournamentHash(summary.id), text: summary.name }),
      el("div", { class: "tn-details" }, ...details)));
  }
  return [el("h2", { text: what }), list, pager(view, data)];
}

function pager(view, data) {
  const nav = el("nav", { class: "pager", "aria-label": t("tn_pages") });
  const page = data.page || 1;
  const pages = data.pages || 1;
  if (page > 1) nav.append(el("a", { href: tournamentsHash(view.tab, page - 1), text: t("tn_previous") }));
  if (pages > 1) nav.append(el("span", { class: "note", text: t("tn_page_n", { n: page }) }));
  if (page < pages) nav.append(el("a", { href: tournamentsHash(view.tab, page + 1), text: t("tn_next") }));
  return nav;
}

// «Crear torneo»: a button that opens the form (an account's); a guest is asked to log in.
function createSection(app) {
  const box = el("section", { class: "profile-card tn-create", "aria-labelledby": "tn-create-title" }, el("h2", { id: "tn-create-title", text: t("tn_create") }));
  if (!app.user) {
    box.append(el("p", { class: "note", text: t("tn_create_login") }), button(t("tn_login"), () => app.askLogin(location.hash, "tn_create_login"), "primary tn-login"));
    return box;
  }
  const form = createForm(app);
  form.hidden = true;
  const open = button(t("tn_create"), () => {
    form.hidden = !form.hidden;
    open.setAttribute("aria-expanded", String(!form.hidden));
    if (!form.hidden) form.elements.namedItem("name").focus();
  }, "primary tn-open-create");
  open.setAttribute("aria-expanded", "false");
  open.setAttribute("aria-controls", "tn-create-form");
  box.append(open, form);
  return box;
}

const option = (value, text, selected = false) => el("option", { value, text, selected });

function field(label, control, className = "", hint = null) {
  const id = control.id;
  return el("div", { class: `tn-field ${className}`.trim() }, el("label", { for: id, text: label }), control, hint ? el("p", { class: "note", id: `${id}-hint`, text: hint }) : null);
}

function numberInput(name, value, { min = null, max = null, step = "1", required = true } = {}) {
  return el("input", { id: `tn-${name}`, name, type: "number", inputmode: step === "1" ? "numeric" : "decimal", value: String(value), min, max, step, required });
}

function check(name, label, checked = false) {
  return el("label", { class: "check tn-check" }, el("input", { type: "checkbox", name, checked }), ` ${label}`);
}

// The form that creates a tournament; with `penaId`, one of that peña's, for its members only
// (its page shows the form: penas.js).
export function createForm(app, { penaId = null } = {}) {
  const format = el("select", { id: "tn-format", name: "format", "aria-describedby": "tn-format-hint" }, ...FORMATS.map((f) => option(f, t(formatKey(f)), f === "minitorneo")));
  const entry = el("select", { id: "tn-entry", name: "entry" });
  const sizeKnockout = el("select", { id: "tn-size-ko", name: "size_knockout" }, ...KNOCKOUT_SIZES.map((n) => option(String(n), String(n), n === 8)));
  const sizeAny = numberInput("size", 32, { min: 2, max: 1000 });
  sizeAny.id = "tn-size-any";
  const start = el("input", { id: "tn-start", name: "start", type: "datetime-local" });
  const botLevel = el("select", { id: "tn-bot-level", name: "bot_level" }, option("heuristic", "heuristic", true));
  const formatHint = el("p", { class: "note", id: "tn-format-hint" });
  const form = el("form", { id: "tn-create-form", class: "tn-form", novalidate: true },
    field(t("tn_f_name"), el("input", { id: "tn-name", name: "name", minlength: 3, maxlength: 60, required: true, autocomplete: "off" })),
    el("div", { class: "tn-field" }, el("label", { for: "tn-format", text: t("tn_f_format") }), format, formatHint),
    field(t("tn_f_entry"), entry),
    el("div", { class: "tn-field tn-size-ko" }, el("label", { for: "tn-size-ko", text: t("tn_f_size_knockout") }), sizeKnockout),
    el("div", { class: "tn-field tn-size-any" }, el("label", { for: "tn-size-any", text: t("tn_f_size") }), sizeAny),
    field(t("tn_f_rounds"), numberInput("rounds", 5, { min: 1, max: 20 }), "tn-rounds"),
    field(t("tn_f_hands"), numberInput("hands", 4, { min: 1, max: 16 }), "tn-hands"),
    field(t("tn_f_window"), numberInput("window_minutes", 60, { min: 1, max: 1440 }), "tn-window"),
    field(t("tn_f_target"), numberInput("target", 100, { min: 1, max: 1000 }), "tn-target"),
    field(t("tn_f_round_every"), numberInput("round_every_minutes", "", { min: 1, max: 1440, step: "any", required: false }), "tn-round-every", t("tn_f_round_every_hint")),
    field(t("tn_f_cap"), numberInput("cap_minutes", formShape("minitorneo").capMinutes, { min: 1, max: 120, step: "any" }), "tn-cap", t("tn_f_cap_hint")),
    el("fieldset", { class: "tn-start-choice" }, el("legend", { text: t("tn_f_start") }),
      check("when_full", t("tn_f_when_full"), true),
      el("label", { for: "tn-start", class: "visually-hidden", text: t("tn_f_start") }), start),
    el("div", { class: "tn-fill" }, check("bot_fill", t("tn_f_bot_fill"), true),
      field(t("tn_f_fill_wait"), numberInput("fill_wait_minutes", 5, { min: 0, max: 1440, step: "any" }), "tn-fill-wait")),
    field(t("tn_f_bot_level"), botLevel),
    check("rated", t("tn_f_rated"), true),
    check("private", t("tn_f_private")),
    check("requires_attendance", t("tn_f_attendance")),
    field(say("fichas_entry_field"), numberInput("entry_fichas", "", { min: 0, max: 1000000, required: false }), "tn-entry-fichas", say("fichas_entry_hint")),
    el("p", { class: "form-error", role: "alert" }),
    el("div", { class: "actions" }, el("button", { type: "submit", class: "primary", id: "tn-submit", text: t("tn_f_submit") })));
  const named = (name) => form.elements.namedItem(name);
  const show = (selector, shown) => form.querySelectorAll(selector).forEach((node) => (node.hidden = !shown));
  const shape = () => {
    const chosen = format.value;
    const keep = entry.value;
    entry.replaceChildren(...entriesOf(chosen).map((e) => option(e, t(entryKey(e)), e === keep)));
    const s = formShape(chosen);
    show(".tn-size-ko", Boolean(s.sizes));
    show(".tn-size-any", !s.sizes);
    show(".tn-rounds", s.rounds);
    show(".tn-hands", s.hands);
    show(".tn-window", s.window);
    show(".tn-fill", s.botFill);
    show(".tn-target", s.target);
    show(".tn-round-every", s.roundEvery);
    if (!capEdited) named("cap_minutes").value = String(s.capMinutes);
    formatHint.textContent = t(`tn_format_hint_${chosen}`);
  };
  const whenFull = () => {
    start.disabled = named("when_full").checked;
    start.required = !start.disabled;
  };
  let capEdited = false; // the cap follows the format until the creator types one
  named("cap_minutes").addEventListener("input", () => (capEdited = true));
  format.addEventListener("change", shape);
  named("when_full").addEventListener("change", whenFull);
  named("bot_fill").addEventListener("change", () => (named("fill_wait_minutes").disabled = !named("bot_fill").checked));
  shape();
  whenFull();
  const entryFichas = form.querySelector(".tn-entry-fichas");
  entryFichas.hidden = true; // an entry in fichas: only while fichas are on
  if (app.user) api("/api/me/fichas").then((data) => (entryFichas.hidden = !(data && data.enabled)), () => {});
  api("/api/bots").then((bots) => {
    if (!Array.isArray(bots) || !bots.length) return;
    botLevel.replaceChildren(...bots.map((b) => el("option", { value: b.name, title: localName(b, "summary"), text: localName(b, "title") })));
    botLevel.value = bots.some((b) => b.name === "heuristic") ? "heuristic" : bots[bots.length - 1].name;
  }, () => {});
  const submit = form.querySelector("#tn-submit");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (submit.disabled) return; // a double click makes one tournament
    const error = form.querySelector(".form-error");
    const s = formShape(format.value);
    const values = {
      name: named("name").value, format: format.value, entry: entry.value,
      size: s.sizes ? sizeKnockout.value : sizeAny.value, rounds: named("rounds").value, hands: named("hands").value,
      window_minutes: named("window_minutes").value, target: named("target").value, cap_minutes: named("cap_minutes").value,
      round_every_minutes: named("round_every_minutes").value,
      when_full: named("when_full").checked, start: start.value, bot_fill: named("bot_fill").checked,
      fill_wait_minutes: named("fill_wait_minutes").value, bot_level: botLevel.value, rated: named("rated").checked,
      private: named("private").checked, requires_attendance: named("requires_attendance").checked,
      entry_fichas: entryFichas.hidden ? "" : named("entry_fichas").value,
    };
    submit.disabled = true;
    error.textContent = "";
    try {
      const body = configBody(values);
      const entryFichasValue = Number(values.entry_fichas || 0); // only while fichas are on: the field shows then
      if (entryFichasValue > 0) body.entry_fichas = entryFichasValue;
      const created = await api("/api/tournaments", penaId === null ? body : { ...body, pena_id: penaId });
      const id = created.tournament.id;
      if (created.invite) localStorage.setItem(INVITES + id, created.invite);
      app.toast(t("tn_created"));
      app.go(tournamentHash(id, created.invite));
    } catch (refusal) {
      error.textContent = serverMessage(refusal);
      submit.disabled = false;
    }
  });
  return form;
}

// ---------------------------------------------------------------------------------------
// #/torneo/ID[?invite=CODE]

export function tournamentScreen(app, arg) {
  const { id, invite } = tournamentRoute(arg);
  const page = el("div", { class: "players-page tournament-page", "data-tournament": id, "aria-busy": "true" }, el("p", { class: "note", text: t("tn_loading") }));
  const parts = new Map(); // name → {signature, node}
  let timer = null;
  let asking = null;
  let given = null; // the creator's code, as `me.invite` gives it
  const known = () => invite || given || localStorage.getItem(INVITES + id);
  const draw = (detail) => {
    page.removeAttribute("aria-busy");
    if (detail.me && detail.me.invite) given = detail.me.invite;
    page.dataset.status = detail.status;
    page.dataset.round = String(detail.round || 0);
    const wanted = sections(app, detail, known(), (next) => draw(next));
    const nodes = [];
    for (const [name, signature, build] of wanted) {
      let part = parts.get(name);
      if (!part || part.signature !== signature) {
        part = { signature, node: build() };
        parts.set(name, part);
      }
      if (part.node) nodes.push(part.node);
    }
    for (const name of [...parts.keys()]) if (!wanted.some(([wantedName]) => wantedName === name)) parts.delete(name);
    arrange(page, nodes);
    schedule(detail.status);
  };
  const schedule = (status) => {
    clearTimeout(timer);
    const seconds = refreshSeconds(status);
    if (seconds) timer = setTimeout(() => page.isConnected && refresh(), seconds * 1000);
  };
  const refresh = () => {
    if (asking) return asking;
    const query = known() ? `?invite=${encodeURIComponent(known())}` : "";
    asking = api(path(id) + query).then(
      (detail) => page.isConnected && draw(detail),
      (error) => {
        if (!page.isConnected) return;
        if (!parts.size) {
          page.removeAttribute("aria-busy");
          const text = error && error.code === "tournament_not_found" ? t("tn_missing") : serverMessage(error);
          page.replaceChildren(el("h1", { text: t("tn_title") }), el("p", { class: "form-error", role: "alert", text }), el("a", { href: "#/torneos", text: t("tn_back") }));
        } else {
          schedule("running"); // a live page asks again: the link may be back
        }
      },
    ).finally(() => (asking = null));
    return asking;
  };
  page.refresh = refresh; // a notice about this tournament brings it up to date (friends.js)
  refresh();
  return page;
}

// The page's parts as [name, signature, build]: a part is built again only when its
// signature (the JSON it is drawn from) changed.
function sections(app, detail, invite, redraw) {
  const me = detail.me || null;
  const mine = app.user ? [app.user.name] : [];
  const sig = (...values) => JSON.stringify([currentLang(), ...values]);
  const out = [];
  out.push(["head", sig(detail.name, detail.status, detail.format, detail.entry, detail.round, detail.entrants, detail.size, detail.config, detail.starts_at, detail.rated, detail.private), () => header(detail, app)]);
  out.push(["actions", sig(me, detail.status, detail.entry, Boolean(app.user)), () => actionsBox(app, detail, invite, redraw)]);
  // A private event's link, for its creator (`me.invite`: the server gives the code to them
  // only), or in the browser that created it.
  const creator = detail.me && detail.me.invite;
  if (detail.private && invite && app.user && (creator || detail.creator === app.user.name || localStorage.getItem(INVITES + detail.id))) {
    out.push(["invite", sig(invite, detail.id), () => inviteBox(app, detail.id, invite)]);
  }
  if ((detail.podium || []).length) out.push(["podium", sig(detail.podium), () => podiumBox(detail)]);
  if (detail.battle) out.push(["battle", sig(detail.battle), () => battleBox(detail)]); // peña against peña
  if ((detail.standings || []).length) out.push(["standings", sig(detail.standings, mine), () => standingsBox(detail, mine)]);
  else out.push(["entrants", sig(detail.entrants), () => entrantsBox(detail)]);
  out.push(["rounds", sig(detail.rounds, detail.entrants), () => roundsBox(detail)]);
  return out;
}

function header(detail, app) {
  const lang = currentLang();
  const config = detail.config || {};
  const progress = progressLabel({ ...detail, rounds: config.rounds });
  const facts = [
    t(formatKey(detail.format)), t(entryKey(detail.entry)), `${t("tn_col_entrants")}: ${entrantsText(detail)}`,
    t(detail.rated ? "tn_rated" : "tn_unrated"),
    config.entry_fichas ? say("fichas_entry", { n: config.entry_fichas }) : null,
    config.target && formShape(detail.format).target ? t("tn_target", { n: config.target }) : null,
    detail.format === "duplicado" && config.hands ? t("tn_hands", { n: config.hands }) : null,
    tr(capText(config.game_cap_seconds)),
    config.round_every_seconds ? t("tn_round_every", { n: Math.round(config.round_every_seconds / 60) }) : null,
    detail.status === "open" ? `${t("tn_col_start")}: ${tr(startText(detail, lang))}` : null,
    detail.private ? t("tn_private") : null,
    config.requires_attendance ? t("tn_requires_attendance") : null,
  ].filter(Boolean);
  return el("header", { class: "profile-card tn-head" },
    el("a", { class: "tn-back", href: "#/torneos", text: `← ${t("tn_back")}` }),
    el("h1", { text: detail.name }),
    el("p", { class: "tn-status" },
      el("span", { class: `tn-badge status-${detail.status}`, text: t(statusKey(detail.status)) }),
      progress && detail.status === "running" ? el("span", { class: "tn-round-now", text: tr(progress) }) : null),
    el("p", { class: "tn-facts note", text: facts.join(" · ") }),
    detail.private ? null : shareBox(app, detail));
}

function actionsBox(app, detail, invite, redraw) {
  const box = el("section", { class: "profile-card tn-actions", "aria-label": t("tn_title") });
  const me = detail.me;
  if (!app.user) {
    if (detail.status === "open") box.append(el("p", { class: "note", text: t("tn_create_login") }), button(t("tn_login"), () => app.askLogin(location.hash, "tn_create_login"), "primary tn-login"));
    return detail.status === "open" ? box : null;
  }
  const actions = meActions(me, detail.status);
  if (me && me.registered) box.append(el("p", { class: "tn-registered", text: t("tn_registered") }));
  if (!actions.length) return me && me.registered ? box : null;
  const row = el("div", { class: "actions" });
  const change = async (what, body, done) => {
    row.querySelectorAll("button").forEach((b) => (b.disabled = true));
    try {
      const next = await api(`${path(detail.id)}/${what}`, body);
      app.toast(t(done, { name: detail.name }));
      redraw(next);
    } catch (error) {
      app.toast(serverMessage(error));
      row.querySelectorAll("button").forEach((b) => (b.disabled = false));
    }
  };
  let partner = null;
  for (const action of actions) {
    if (action === "go_table") row.append(button(t("tn_go_table"), () => app.playAt(me.table), "primary tn-go-table"));
    if (action === "register") {
      if (detail.entry === "pairs") {
        partner = el("input", { id: "tn-partner", name: "partner", autocomplete: "off", maxlength: 24, "aria-describedby": "tn-partner-hint" });
        box.append(el("div", { class: "tn-field" }, el("label", { for: "tn-partner", text: t("tn_partner") }), partner, el("p", { class: "note", id: "tn-partner-hint", text: t("tn_partner_hint") })));
      }
      const pena = detail.battle ? penaPicker(detail) : null; // peña against peña: the peña one plays for
      if (pena) box.append(pena.field);
      row.append(button(t("tn_register"), () => {
        const body = {};
        if (pena) body.pena = pena.value();
        if (invite) body.invite = invite;
        if (partner && partner.value.trim()) body.partner = partner.value.trim();
        change("register", body, "tn_registered_toast");
      }, "primary tn-register"));
    }
    if (action === "withdraw") row.append(button(t("tn_withdraw"), () => window.confirm(t("tn_confirm_withdraw")) && change("withdraw", {}, "tn_withdrawn_toast"), "tn-withdraw"));
    if (action === "cancel") row.append(button(t("tn_cancel"), () => window.confirm(t("tn_confirm_cancel")) && change("cancel", {}, "tn_cancelled_toast"), "danger tn-cancel"));
  }
  box.append(row);
  return box;
}

// «Compartir»: a public event's share page, whose card (its podium once over) a chat shows.
function shareBox(app, detail) {
  const data = { title: t("share_tournament_title"), text: t("share_tournament_text", { name: detail.name }), url: shareUrl("torneo", detail.id) };
  return el("p", { class: "tn-share" }, shareButton(data, (text) => app.toast(text), "tn-share-button"));
}

function inviteBox(app, id, invite) {
  const link = `${location.origin}/${tournamentHash(id, invite)}`;
  const input = el("input", { id: "tn-invite-link", class: "tn-invite-link", readonly: true, value: link });
  const copy = button(t("tn_copy"), async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      input.select();
      document.execCommand("copy");
    }
    app.toast(t("tn_copied"));
  }, "tn-copy");
  return el("section", { class: "profile-card tn-invite", "aria-labelledby": "tn-invite-title" },
    el("h2", { id: "tn-invite-title", text: t("tn_invite_title") }),
    el("p", { class: "note", text: t("tn_invite_hint") }),
    el("label", { for: "tn-invite-link", class: "visually-hidden", text: t("tn_invite_title") }),
    el("div", { class: "tn-invite-row" }, input, copy));
}

function entrantsBox(detail) {
  const lang = currentLang();
  const entrants = detail.entrants || [];
  const box = el("section", { class: "profile-card tn-entrants-box", "aria-labelledby": "tn-entrants-title" }, el("h2", { id: "tn-entrants-title", text: t("tn_entrants_title", { n: entrants.length }) }));
  if (!entrants.length) {
    box.append(el("p", { class: "note", text: t("tn_nobody") }));
    return box;
  }
  box.append(el("ul", { class: "tn-entrant-list" }, ...entrants.map((entrant) =>
    el("li", { "data-entrant": entrant.no }, entrantNames(entrant.names, lang), entrant.bot ? el("span", { class: "tn-bot note", text: ` · ${t("tn_bot")}` }) : null,
    entrant.status === "withdrawn" || entrant.status === "absent" ? el("span", { class: "tn-out note", text: ` · ${t("tn_withdrawn_mark")}` }) : null))));
  return box;
}

function podiumBox(detail) {
  const rows = podiumRows(detail.podium, currentLang());
  return el("section", { class: "profile-card tn-podium-box", "aria-labelledby": "tn-podium-title" },
    el("h2", { id: "tn-podium-title", text: t("tn_podium") }),
    el("ol", { class: "tn-podium" }, ...rows.map((row) =>
      el("li", { class: `tn-step place-${row.rank}`, "data-place": row.rank, "aria-label": `${t("tn_podium_place", { place: row.place })}: ${row.names}` },
        el("span", { class: "tn-place", "aria-hidden": "true", text: row.place }),
        el("span", { class: "tn-winner", text: row.names })))));
}

function standingsBox(detail, mine) {
  const lang = currentLang();
  const columns = standingsColumns(detail);
  const rows = standingsRows(detail.standings, lang, mine);
  const head = (key, className = "num") => el("th", { scope: "col", class: className }, el("abbr", { title: t(`${key}_long`), text: t(key) }));
  const headRow = el("tr", {},
    el("th", { scope: "col", class: "num", text: t("tn_col_place") }),
    el("th", { scope: "col", text: t("tn_col_who") }),
    columns.matchpoints ? head("tn_col_mp") : null,
    head("tn_col_played"), head("tn_col_wins"), head("tn_col_losses"), head("tn_col_eff"), head("tn_col_for"), head("tn_col_against"),
    columns.tiebreak ? head("tn_col_tiebreak") : null);
  const body = el("tbody");
  for (const row of rows) {
    body.append(el("tr", { class: row.mine ? "mine" : null, "data-entrant": row.entrant, "aria-current": row.mine ? "true" : null },
      el("td", { class: "num place", title: row.tied ? t("tn_tied") : null, text: row.tied ? `=${row.place}` : row.place }),
      el("td", { class: "who", text: row.names }),
      columns.matchpoints ? el("td", { class: "num mp", text: row.matchpoints }) : null,
      el("td", { class: "num", text: String(row.played) }),
      el("td", { class: "num wins", text: String(row.wins) }),
      el("td", { class: "num", text: String(row.losses) }),
      el("td", { class: "num eff", text: row.efectividad }),
      el("td", { class: "num", text: String(row.pointsFor) }),
      el("td", { class: "num", text: String(row.pointsAgainst) }),
      columns.tiebreak ? el("td", { class: "num", text: row.tiebreak }) : null));
  }
  return el("section", { class: "profile-card tn-standings-box", "aria-labelledby": "tn-standings-title" },
    el("h2", { id: "tn-standings-title", text: t("tn_standings") }),
    el("div", { class: "scroll", tabindex: 0, role: "region", "aria-labelledby": "tn-standings-title" },
      el("table", { class: "ranking-table tn-standings" }, el("thead", {}, headRow), body)));
}

function roundsBox(detail) {
  const box = el("section", { class: "profile-card tn-rounds", "aria-labelledby": "tn-rounds-title" }, el("h2", { id: "tn-rounds-title", text: t("tn_rounds_title") }));
  const rounds = Array.isArray(detail.rounds) ? [...detail.rounds].sort((a, b) => b.number - a.number) : [];
  if (!rounds.length) {
    box.append(el("p", { class: "note", text: t("tn_no_rounds") }));
    return box;
  }
  const withTotal = { ...detail, rounds: detail.config && detail.config.rounds, size: detail.size };
  for (const round of rounds) box.append(roundPart(detail, withTotal, round));
  return box;
}

function roundPart(detail, withTotal, round) {
  const lang = currentLang();
  const list = el("ul", { class: "tn-games" });
  for (const game of round.games || []) {
    const view = gameView(game, lang);
    const which = knockoutGameKey(detail, round, game);
    const sides = el("span", { class: "tn-sides" });
    view.sides.forEach((side, index) => {
      if (index) sides.append(el("span", { class: "tn-vs", text: ` ${t("tn_vs")} ` }));
      sides.append(el("span", { class: `tn-side${side.won ? " won" : ""}` },
        el("span", { class: "tn-side-names", text: side.names }),
        side.points === null ? null : el("span", { class: "tn-points", text: ` ${side.points}` }),
        side.won ? el("span", { class: "tn-won", title: t("tn_won_mark"), "aria-label": t("tn_won_mark"), text: " ✔" }) : null));
    });
    const names = view.sides.map((side) => side.names).join(", ");
    list.append(el("li", { class: `tn-game state-${view.state}`, "data-key": view.key, "data-table": view.table },
      which ? el("span", { class: "tn-game-kind", text: t(which) }) : null,
      sides,
      el("span", { class: "tn-game-state note", text: t(view.stateKey) }),
      view.table ? el("a", { class: "watch-table", href: `#/mesa/${encodeURIComponent(view.table)}`, "aria-label": t("tn_watch_label", { names }), text: t("tn_watch") }) : null));
  }
  for (const names of byeNames(detail, round, lang)) list.append(el("li", { class: "tn-bye", text: t("tn_bye", { names }) }));
  const part = el("section", { class: "tn-round", "data-round": round.number }, el("h3", { text: tr(roundLabel(withTotal, round.number)) }), list);
  if (round.commitments && round.commitments.length) part.append(dealsPart(round));
  return part;
}

// Duplicado: the round's commitments, published when it was paired; once it is over, its
// seeds, and «Verificar» checks each against its commitment here (fairness.js, WebCrypto).
function dealsPart(round) {
  const box = el("div", { class: "tn-deals" }, el("h4", { text: t("tn_deals") }), el("p", { class: "note", text: t("tn_commitments") }));
  box.append(el("ol", { class: "tn-commitments" }, ...round.commitments.map((hex, index) =>
    el("li", {}, `${t("tn_deal_n", { n: index + 1 })}: `, el("code", { title: hex, text: shortHash(hex) })))));
  if (!round.seeds) {
    box.append(el("p", { class: "note", text: t("tn_seeds_hidden") }));
    return box;
  }
  const verdict = el("p", { class: "tn-verdict", role: "status" });
  const verify = button(t("tn_verify"), async () => {
    verify.disabled = true;
    const result = await checkDeals(round.commitments, round.seeds, commitmentOf);
    verify.disabled = false;
    verdict.classList.toggle("ok", result.ok);
    verdict.textContent = result.ok ? t("tn_verified") : t("tn_not_verified", { deals: result.deals.filter((d) => !d.ok).map((d) => t("tn_deal_n", { n: d.deal })).join(", ") });
  }, "tn-verify");
  verify.setAttribute("aria-label", t("tn_verify_label", { n: round.number }));
  box.append(el("div", { class: "actions" }, verify), verdict);
  return box;
}
