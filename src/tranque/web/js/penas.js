// The peñas' pages (docs/penas.md): #/penas lists and searches them (GET /api/penas) and holds
// the form that creates one (POST /api/penas); #/penas/<slug>[?invitacion=TOKEN] is one peña
// (GET /api/penas/<slug>): its crest, name and description, what the reader may do (ask to
// join, join with the link, leave), its members with who is online, and for its leaders the
// requests, the invitation link and the members' roles; its tables with «Nueva mesa de la
// peña», its recent games and its tournaments; and an empty <section class="pena-season"> that
// the season's part of the page fills. The server decides everything; every refusal is shown
// as it sent it (i18n.js serverMessage).

import { t, serverMessage, currentLang } from "./i18n.js";
import { api } from "./api.js";
import { el, button } from "./dom.js";
import { avatarUrl, AVATAR_IDS } from "./players_format.js";
import { presetTitle } from "./presets.js";
import { penaRoute, tableInviteCode, membersLabel, onlineCount, invitationLink } from "./penas_format.js";
import { penaHeadToHead } from "./pena_head_to_head.js";
import { mountSeason } from "./pena_season.js";

const NAME_MOST = 40; // server/penas/rules.py
const DESCRIPTION_MOST = 300;
const path = (slug) => `/api/penas/${encodeURIComponent(slug)}`;
const tr = (label) => t(label.key, label.params);

function failureText(error) {
  return serverMessage(error);
}

function crestImage(crest, size = "") {
  return el("img", { class: `pena-crest ${size}`.trim(), src: avatarUrl(crest), alt: "", width: 56, height: 56 });
}

function accessBadge(access) {
  return el("span", { class: `pena-badge access-${access}`, title: t(access === "open" ? "pn_open_hint" : "pn_invite_hint"), text: t(access === "open" ? "pn_open" : "pn_invite") });
}

// ---------------------------------------------------------------------------------------
// #/penas

export function penasScreen(app) {
  const page = el("div", { class: "players-page penas-page" }, el("h1", { text: t("pn_title") }), el("p", { class: "note", text: t("pn_intro") }));
  const results = el("div", { class: "profile-card pena-results", "aria-busy": "true" }, el("p", { class: "note", text: t("pn_loading") }));
  const input = el("input", { id: "pena-search", type: "search", name: "q", maxlength: 64, autocomplete: "off" });
  const search = el("form", { class: "pena-search", role: "search" },
    el("label", { for: "pena-search", text: t("pn_search") }),
    el("div", { class: "pena-search-row" }, input, el("button", { type: "submit", text: t("pn_search_button") })));
  const load = (query) => {
    results.setAttribute("aria-busy", "true");
    api(`/api/penas?q=${encodeURIComponent(query)}`).then(
      (rows) => {
        results.removeAttribute("aria-busy");
        results.replaceChildren(penaList(rows, query));
      },
      (error) => {
        results.removeAttribute("aria-busy");
        results.replaceChildren(el("p", { class: "form-error", role: "alert", text: failureText(error) }));
      },
    );
  };
  search.addEventListener("submit", (event) => {
    event.preventDefault();
    load(input.value.trim());
  });
  page.append(search, results, createSection(app));
  load("");
  return page;
}

function penaList(rows, query) {
  if (!rows.length) return el("p", { class: "note nobody", text: t(query ? "pn_none_found" : "pn_none") });
  const list = el("ul", { class: "pena-list" });
  for (const pena of rows) {
    list.append(el("li", { class: "pena-row", "data-slug": pena.slug },
      crestImage(pena.crest, "small"),
      el("div", { class: "pena-row-text" },
        el("a", { class: "pena-name", href: `#/penas/${encodeURIComponent(pena.slug)}`, text: pena.name }),
        el("span", { class: "pena-details" }, el("span", { text: tr(membersLabel(pena.members)) }), accessBadge(pena.access)))));
  }
  return list;
}

function createSection(app) {
  const box = el("section", { class: "profile-card pena-create" }, el("h2", { text: t("pn_create_title") }));
  if (!app.user) {
    box.append(el("p", { class: "note", text: t("pn_create_login") }), button(t("login"), () => app.askLogin("#/penas", "pn_create_login")));
    return box;
  }
  const name = el("input", { id: "pena-name", name: "name", maxlength: NAME_MOST, required: true, autocomplete: "off" });
  const description = el("textarea", { id: "pena-description", name: "description", maxlength: DESCRIPTION_MOST, rows: 3 });
  const crests = el("fieldset", { class: "pena-crests" }, el("legend", { text: t("pn_crest") }));
  AVATAR_IDS.forEach((crest, index) => {
    const radio = el("input", { type: "radio", name: "crest", value: crest, checked: index === 0 });
    crests.append(el("label", { class: "pena-crest-choice", title: crest }, radio, crestImage(crest, "small")));
  });
  const access = el("fieldset", { class: "pena-access" }, el("legend", { text: t("pn_access") }));
  for (const value of ["open", "invite"]) {
    access.append(el("label", { class: "tn-check" },
      el("input", { type: "radio", name: "access", value, checked: value === "open" }),
      el("span", { text: `${t(value === "open" ? "pn_open" : "pn_invite")}: ${t(value === "open" ? "pn_open_hint" : "pn_invite_hint")}` })));
  }
  const error = el("p", { class: "form-error", role: "alert" });
  const submit = el("button", { type: "submit", id: "pena-create", class: "primary", text: t("pn_create") });
  const form = el("form", { class: "pena-form" },
    el("label", { for: "pena-name", text: t("pn_name") }), name, crests,
    el("label", { for: "pena-description", text: t("pn_description") }), description,
    access, error, submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    error.textContent = "";
    const chosen = (field) => form.querySelector(`input[name=${field}]:checked`).value;
    try {
      const made = await api("/api/penas", { name: name.value, crest: chosen("crest"), description: description.value, access: chosen("access") });
      app.go(`#/penas/${encodeURIComponent(made.slug)}`);
    } catch (failure) {
      error.textContent = failureText(failure);
      submit.disabled = false;
    }
  });
  box.append(form);
  return box;
}

// ---------------------------------------------------------------------------------------
// #/penas/<slug>

export function penaScreen(app) {
  const { slug, invitation } = penaRoute(location.hash);
  const page = el("div", { class: "players-page pena-page", "data-slug": slug, "aria-busy": "true" }, el("p", { class: "note", text: t("pn_loading") }));
  const view = { app, slug, invitation, page, data: null, link: null, presets: [] };
  Promise.all([api(path(slug)), app.presets().catch(() => [])]).then(
    ([data, presets]) => {
      view.presets = presets;
      show(view, data);
    },
    (error) => {
      page.removeAttribute("aria-busy");
      page.replaceChildren(el("a", { class: "tn-back", href: "#/penas", text: `← ${t("pn_back")}` }), el("p", { class: "form-error", role: "alert", text: failureText(error) }));
    },
  );
  return page;
}

// What a change answers is the page again (or an error to show where it was asked).
async function change(view, request, errorBox) {
  errorBox.textContent = "";
  try {
    const data = await request();
    if (data && data.slug) show(view, data);
    return data;
  } catch (error) {
    errorBox.textContent = failureText(error);
    return null;
  }
}

function show(view, data) {
  view.data = data;
  const { page } = view;
  page.removeAttribute("aria-busy");
  page.dataset.role = data.role || "";
  const head = el("section", { class: "profile-card pena-head" },
    el("a", { class: "tn-back", href: "#/penas", text: `← ${t("pn_back")}` }),
    el("div", { class: "pena-title" }, crestImage(data.crest, "big"),
      el("div", {}, el("h1", { text: data.name }),
        el("p", { class: "pena-details" }, el("span", { class: "pena-count", text: tr(membersLabel(data.members)) }), accessBadge(data.access),
          data.role ? el("span", { class: "pena-badge you", text: t(data.role === "leader" ? "pn_you_leader" : "pn_you_member") }) : null))),
    data.description ? el("p", { class: "pena-description", text: data.description }) : null,
    actions(view, data));
  const parts = [head];
  if (data.role === "leader") parts.push(requestsSection(view, data));
  parts.push(peopleSection(view, data), tablesSection(view, data), gamesSection(view), tournamentsSection(view, data));
  const versus = penaHeadToHead(data, view.app.user && view.app.user.name);
  if (versus) parts.push(versus);
  // The season's table, live, the past seasons and the leader's form (pena_season.js).
  const season = el("div", { class: "pena-season-mount", "data-pena": data.id, "data-slug": data.slug });
  parts.push(season);
  mountSeason(season, data.slug, { toast: (text) => view.app.toast(text) });
  page.replaceChildren(...parts);
}

function actions(view, data) {
  const { app } = view;
  const box = el("div", { class: "pena-actions" });
  const error = el("p", { class: "form-error", role: "alert" });
  if (!app.user) {
    box.append(el("p", { class: "note", text: t("pn_join_login") }), button(t("login"), () => app.askLogin(location.hash, "pn_join_login"), "primary"));
    return box;
  }
  if (!data.role && view.invitation) {
    const join = button(t("pn_join"), () => change(view, async () => {
      const joined = await api(`${path(data.slug)}/join`, { invitation: view.invitation });
      view.invitation = null;
      app.toast(t("pn_joined", { name: joined.name }));
      history.replaceState(null, "", `#/penas/${encodeURIComponent(data.slug)}`);
      return joined;
    }, error), "primary");
    join.id = "pena-join";
    box.append(el("p", { class: "pena-invited", text: t("pn_invited") }), join);
  } else if (!data.role && data.requested) {
    const withdraw = button(t("pn_withdraw"), () => change(view, () => api(`${path(data.slug)}/requests`, {}, "DELETE"), error));
    withdraw.id = "pena-withdraw";
    box.append(el("p", { class: "note", text: t("pn_asked") }), withdraw);
  } else if (!data.role) {
    // For a peña by invitation too: the server's refusal says how to get in.
    const ask = button(t("pn_ask"), () => change(view, () => api(`${path(data.slug)}/requests`, {}), error), "primary");
    ask.id = "pena-ask";
    box.append(ask);
  } else {
    if (data.role === "leader") box.append(invitePanel(view, data));
    box.append(leavePanel(view, data, error));
  }
  box.append(error);
  return box;
}

function invitePanel(view, data) {
  const panel = el("div", { class: "pena-invite" });
  const output = el("div", { class: "pena-invite-link", hidden: !view.link });
  const draw = () => {
    if (!view.link) return;
    const input = el("input", { id: "pena-invite-url", readonly: true, value: view.link });
    const copy = button(t("pn_copy"), () => {
      input.select();
      if (navigator.clipboard) navigator.clipboard.writeText(view.link).then(() => view.app.toast(t("pn_copied")), () => {});
    });
    output.hidden = false;
    output.replaceChildren(el("label", { for: "pena-invite-url", text: t("pn_invite_ready") }), el("div", { class: "pena-search-row" }, input, copy));
  };
  const error = el("p", { class: "form-error", role: "alert" });
  const make = button(t("pn_invite_button"), async () => {
    const made = await change(view, () => api(`${path(data.slug)}/invitations`, {}), error);
    if (made) {
      view.link = invitationLink(location.origin, made.url);
      draw();
    }
  });
  make.id = "pena-invite";
  draw();
  panel.append(make, output, error);
  return panel;
}

function leavePanel(view, data, error) {
  const panel = el("div", { class: "pena-leave" });
  const leave = button(t("pn_leave"), () => {
    const alone = data.people.length === 1;
    const sure = button(t("pn_leave"), async () => {
      const done = await change(view, () => api(`${path(data.slug)}/leave`, {}), error);
      if (done) {
        view.app.toast(t(done.outcome === "dissolved" ? "pn_dissolved" : "pn_left", { name: data.name }));
        if (done.outcome === "dissolved") view.app.go("#/penas");
        else api(path(data.slug)).then((fresh) => show(view, fresh), () => {});
      }
    }, "danger");
    sure.id = "pena-leave-confirm";
    panel.replaceChildren(el("p", { text: alone ? t("pn_leave_last") : t("pn_leave_confirm", { name: data.name }) }),
      el("div", { class: "pena-buttons" }, sure, button(t("cancel"), () => panel.replaceChildren(leave))));
  });
  leave.id = "pena-leave";
  panel.append(leave);
  return panel;
}

function requestsSection(view, data) {
  const error = el("p", { class: "form-error", role: "alert" });
  const list = el("ul", { class: "friend-list pena-requests" });
  if (!data.requests.length) list.append(el("li", { class: "note", text: t("pn_no_requests") }));
  for (const asking of data.requests) {
    const who = encodeURIComponent(asking.name);
    list.append(el("li", { class: "friend-row", "data-name": asking.name },
      el("span", { class: "friend-name" }, el("img", { class: "pena-avatar", src: avatarUrl(asking.avatar), alt: "" }), el("strong", { text: asking.name })),
      el("span", { class: "friend-actions" },
        button(t("pn_approve"), () => change(view, () => api(`${path(data.slug)}/requests/${who}/approve`, {}), error), "primary"),
        button(t("pn_refuse"), () => change(view, () => api(`${path(data.slug)}/requests/${who}`, {}, "DELETE"), error)))));
  }
  return el("section", { class: "profile-card pena-part" }, el("h2", { text: t("pn_requests") }), list, error);
}

function peopleSection(view, data) {
  const error = el("p", { class: "form-error", role: "alert" });
  const list = el("ul", { class: "friend-list pena-people" });
  const me = view.app.user && view.app.user.name;
  for (const person of data.people) {
    const who = encodeURIComponent(person.name);
    const status = t(person.online ? "pn_online" : "pn_offline");
    const tools = [];
    if (data.role === "leader" && person.role !== "leader" && person.name !== me) {
      tools.push(button(t("pn_make_leader"), () => change(view, () => api(`${path(data.slug)}/leaders`, { name: person.name }), error)));
      const remove = button(t("pn_remove"), () => {
        remove.replaceWith(button(`${t("pn_remove")}: ${person.name}?`, () => change(view, () => api(`${path(data.slug)}/members/${who}`, {}, "DELETE"), error), "danger"));
      });
      tools.push(remove);
    }
    list.append(el("li", { class: "friend-row", "data-name": person.name, "data-online": person.online === null ? null : person.online ? "yes" : "no" },
      el("span", { class: "friend-name" },
        person.online === null ? null : el("span", { class: `presence-dot${person.online ? " online" : ""}`, role: "img", "aria-label": status, title: status }),
        el("img", { class: "pena-avatar", src: avatarUrl(person.avatar), alt: "" }),
        el("a", { href: `#/jugador/${who}`, text: person.name }),
        person.role === "leader" ? el("span", { class: "pena-badge leader", text: t("pn_leader") }) : null),
      el("span", { class: "friend-actions" }, ...tools)));
  }
  const online = data.role ? el("span", { class: "note", text: `· ${t("pn_online_n", { n: onlineCount(data.people) })}` }) : null;
  return el("section", { class: "profile-card pena-part" }, el("h2", {}, `${t("pn_people")} `, online), list, error);
}

function tablesSection(view, data) {
  const list = el("ul", { class: "friend-list pena-tables" });
  if (!data.tables.length) list.append(el("li", { class: "note", text: t("pn_no_tables") }));
  for (const table of data.tables) {
    const code = tableInviteCode(table.invite_url);
    const seats = table.seats.map((name) => name || t("pn_empty_seat")).join(" · ");
    const waiting = table.phase === "waiting";
    const mine = view.app.user && table.seats.includes(view.app.user.name);
    let go = null;
    if (mine) go = button(t("pn_back_to_table"), () => view.app.go(`#/mesa/${encodeURIComponent(table.table)}`), "primary");
    else if (code && waiting) go = button(t("pn_sit"), () => view.app.go(`#/unirse/${encodeURIComponent(code)}`), "primary");
    list.append(el("li", { class: "friend-row", "data-table": table.table },
      el("span", { class: "friend-name" }, el("strong", { text: t(waiting ? "pn_waiting" : "pn_playing") }), el("span", { class: "note", text: `${presetName(view, table.preset)} · ${seats}` })),
      el("span", { class: "friend-actions" }, go)));
  }
  const box = el("section", { class: "profile-card pena-part" }, el("h2", { text: t("pn_tables") }), list);
  if (data.role) {
    const create = button(t("pn_new_table"), () => view.app.go(`#/crear/pena/${encodeURIComponent(data.slug)}`), "primary");
    create.id = "pena-new-table";
    box.append(create);
  }
  return box;
}

function presetName(view, name) {
  const preset = view.presets.find((entry) => entry.name === name);
  return preset ? presetTitle(preset, currentLang()) : name;
}

function gamesSection(view) {
  const list = el("ul", { class: "friend-list pena-games" }, el("li", { class: "note", text: t("pn_loading") }));
  api(`${path(view.slug)}/games`).then((games) => {
    list.replaceChildren();
    if (!games.length) list.append(el("li", { class: "note", text: t("pn_no_games") }));
    for (const game of games) {
      const names = game.seats.map((seat) => `${seat.name} ${game.scores[seat.seat] ?? ""}`.trim()).join(" · ");
      const kind = t(game.rated ? "pn_game_rated" : "pn_game_casual");
      const preset = presetName(view, game.preset);
      list.append(el("li", { class: "friend-row", "data-game": game.game_id },
        el("span", { class: "friend-name" }, el("span", { text: names }), el("span", { class: "note", text: `${preset} · ${kind}` })),
        el("a", { class: "button", href: `#/partida/${encodeURIComponent(game.game_id)}`, text: t("pn_see_game") })));
    }
  }, (error) => list.replaceChildren(el("li", { class: "form-error", text: failureText(error) })));
  return el("section", { class: "profile-card pena-part" }, el("h2", { text: t("pn_games") }), list);
}

function tournamentsSection(view, data) {
  const list = el("ul", { class: "tn-list pena-tournaments" }, el("li", { class: "note", text: t("pn_loading") }));
  api(`${path(view.slug)}/tournaments`).then((rows) => {
    list.replaceChildren();
    if (!rows.length) list.append(el("li", { class: "note", text: t("pn_no_tournaments") }));
    for (const row of rows) {
      list.append(el("li", { class: "tn-row", "data-tournament": row.id }, el("a", { class: "tn-name", href: `#/torneo/${encodeURIComponent(row.id)}`, text: row.name })));
    }
  }, (error) => list.replaceChildren(el("li", { class: "form-error", text: failureText(error) })));
  const box = el("section", { class: "profile-card pena-part" }, el("h2", { text: t("pn_tournaments") }), list);
  if (data.role) box.append(tournamentForm(view, data));
  return box;
}

// A minitorneo of the peña (one against one, 4 or 8 players, friendly); the full form with
// every format is the tournaments' page.
// «Nuevo torneo de la peña»: the tournaments' own form (any format), for the peña's members.
function tournamentForm(view, data) {
  const box = el("div", { class: "pena-tournament-form" }, el("h3", { text: t("pn_new_tournament") }));
  const open = button(t("pn_tournament_create"), async () => {
    open.disabled = true;
    try {
      const { createForm } = await import("./tournaments.js");
      const form = createForm(view.app, { penaId: data.id });
      form.elements.namedItem("name").value = `Copa ${data.name}`.slice(0, 60);
      open.replaceWith(form);
      form.elements.namedItem("name").focus();
    } catch {
      open.disabled = false;
    }
  }, "pena-tournament-open");
  box.append(open);
  return box;
}
