// The operator's page, #/admin (docs/deploy.md «Admin»): find players (role, sanctions in
// force, the tables they sit at) and close their connections, ban or unban them; look up a
// table or game (status, host, players), read its whole event log — private: every hand is in
// it — with its deal commitments, check its last finished game, and end it when it is stuck;
// the site's processes, and draining one. Only admins get anything from /api/admin/...

import { t, currentLang, serverMessage, addMessages } from "./i18n.js";
import { ADMIN_MESSAGES } from "./messages_admin.js";
import { api } from "./api.js";
import { el, button } from "./dom.js";
import { say } from "./fichas_words.js";

addMessages(ADMIN_MESSAGES);

function failure(error) {
  return el("p", { class: "form-error", role: "alert", text: serverMessage(error) });
}

// A table's phase as the page says it (between rounds, a game is still being played).
function statusText(status) {
  return t(`ad_status_${status === "between_rounds" ? "playing" : status}`);
}

function done(text) {
  return el("p", { class: "ad-done", text });
}

function field(id, label, attributes = {}) {
  const input = el("input", { id, autocomplete: "off", maxlength: 500, ...attributes });
  return [el("label", { for: id, text: label }), input];
}

export function adminScreen(app) {
  const page = el("div", { class: "admin-page" }, el("h1", { text: t("ad_title") }));
  if (!app.user || app.user.role !== "admin") {
    page.append(el("p", { class: "form-error", role: "alert", text: t("ad_forbidden") }));
    return page;
  }
  const playersBox = el("section", { class: "ad-players", "aria-labelledby": "ad-players-title" });
  const tableBox = el("section", { class: "ad-table", "aria-labelledby": "ad-table-title" });
  const processBox = el("section", { class: "ad-processes", "aria-labelledby": "ad-processes-title" });
  // Fichas on (GET /api/me/fichas): each account's card offers its balance and movements.
  const fichasOn = api("/api/me/fichas").then((data) => Boolean(data && data.enabled), () => false);
  const ui = { showTable: (id) => tableLookup.show(id), fichasOn };
  playersSection(playersBox, ui);
  const tableLookup = tableSection(tableBox);
  page.append(playersBox, tableBox, processBox);
  loadProcesses(processBox);
  return page;
}

// Players ------------------------------------------------------------------------------------

function playersSection(box, ui) {
  const [label, prefix] = field("ad-prefix", t("ad_prefix"), { maxlength: 64, required: true });
  const results = el("div", { class: "ad-results", "aria-live": "polite" });
  const form = el("form", { class: "ad-form" }, label, prefix, el("button", { type: "submit", text: t("ad_search") }));
  const search = async () => {
    try {
      const data = await api(`/api/admin/players?prefix=${encodeURIComponent(prefix.value.trim())}`);
      ui.fichas = await ui.fichasOn;
      results.replaceChildren(...(data.players.length ? data.players.map((player) => playerCard(player, ui, search)) : [el("p", { class: "note", text: t("ad_none") })]));
    } catch (error) {
      results.replaceChildren(failure(error));
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (prefix.value.trim()) search();
  });
  box.append(el("h2", { id: "ad-players-title", text: t("ad_players") }), form, results);
}

function playerCard(player, ui, again) {
  const standing = [t("ad_role", { role: player.role })];
  if (player.barred) standing.push(t(`ad_barred_${player.barred}`));
  if (player.muted) standing.push(t("ad_muted"));
  if (!player.barred && !player.muted) standing.push(t("ad_free"));
  const card = el("article", { class: "ad-player", "data-player": player.name },
    el("h3", { text: player.name }),
    el("p", { class: "ad-standing", text: standing.join(" · ") }));
  for (const sanction of player.sanctions) card.append(el("p", { class: "note", text: `${sanction.kind}: «${sanction.reason}»` }));
  if (player.seats.length) {
    card.append(el("ul", { class: "ad-seats", "aria-label": t("ad_seats") }, ...player.seats.map((seat) => el("li", {},
      el("span", { text: t("ad_seat", { ...seat, phase: statusText(seat.phase) }) }), " ",
      button(t("ad_open_table", { table: seat.table }), () => ui.showTable(seat.table), "link ad-open-table")))));
  } else {
    card.append(el("p", { class: "note", text: t("ad_no_seats") }));
  }
  const id = `ad-why-${player.name.replace(/[^\w-]/g, "_")}`;
  const [label, why] = field(id, t("ad_reason"));
  const status = el("div", { role: "status" });
  const act = (path, body, text) => async () => {
    try {
      const answer = await api(path, { ...body, reason: why.value });
      status.replaceChildren(done(t(text, { name: answer.name })));
      if (text !== "ad_closed") setTimeout(again, 0);
    } catch (error) {
      status.replaceChildren(failure(error));
    }
  };
  const actions = el("div", { class: "actions" },
    button(t("ad_close_sockets"), act(`/api/admin/accounts/${encodeURIComponent(player.name)}/close-sockets`, {}, "ad_closed"), "ad-close-sockets"),
    player.barred === "ban"
      ? button(t("ad_unban"), act("/api/admin/unban", { player: player.name }, "ad_unbanned"), "ad-unban")
      : button(t("ad_ban"), act("/api/admin/ban", { player: player.name }, "ad_banned"), "ad-ban danger"));
  card.append(el("div", { class: "ad-form" }, label, why), actions, status);
  if (ui.fichas) card.append(fichasBox(player.name));
  return card;
}

// An account's fichas: its balance and every movement (GET /api/admin/accounts/NAME/fichas).
function fichasBox(name) {
  const box = el("div", { class: "ad-fichas" });
  const path = `/api/admin/accounts/${encodeURIComponent(name)}/fichas?limit=100`;
  const show = async () => {
    try {
      const data = await api(path);
      const english = currentLang() === "en";
      box.replaceChildren(
        el("p", { class: "ad-fichas-balance", text: say("fichas_balance", { n: data.balance }) }),
        el("ol", { class: "ad-fichas-list" }, ...data.movements.map((m) =>
          el("li", { "data-kind": m.kind, text: `${m.amount > 0 ? "+" : "−"}${Math.abs(m.amount)} · ${english ? m.text_en : m.text}${m.game ? ` (${m.game})` : ""} · ${new Date(m.at * 1000).toISOString().slice(0, 16).replace("T", " ")}` }))));
    } catch (error) {
      box.replaceChildren(failure(error));
    }
  };
  box.append(button(say("fichas_admin_show"), show, "ad-show-fichas"));
  return box;
}

// A table ------------------------------------------------------------------------------------

function tableSection(box) {
  const [label, id] = field("ad-table-id", t("ad_table_id"), { maxlength: 64, required: true });
  const body = el("div", { class: "ad-table-body" });
  const form = el("form", { class: "ad-form" }, label, id, el("button", { type: "submit", text: t("ad_look") }));
  const show = async (tableId) => {
    id.value = tableId;
    try {
      const [table, log] = await Promise.all([
        api(`/api/admin/tables/${encodeURIComponent(tableId)}`),
        api(`/api/admin/tables/${encodeURIComponent(tableId)}/log`),
      ]);
      body.replaceChildren(...tableParts(table, log, () => show(tableId)));
    } catch (error) {
      body.replaceChildren(failure(error));
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (id.value.trim()) show(id.value.trim());
  });
  box.append(el("h2", { id: "ad-table-title", text: t("ad_table") }), form, body);
  return { show };
}

function tableParts(table, log, reload) {
  const names = table.players.map((player) => `${player.seat}: ${player.name || player.kind}`).join(", ") || "—";
  const parts = [
    el("h3", { class: "ad-table-line", "data-status": table.status, text: t("ad_table_line", { table: table.table, status: statusText(table.status), kind: t(`ad_kind_${table.kind}`) }) }),
    el("p", { text: table.host ? t("ad_host", { name: table.host }) : t("ad_no_host") }),
    el("p", { class: "ad-table-players", text: t("ad_players_at", { names }) }),
  ];
  const status = el("div", { role: "status" });
  if (!["finished", "annulled"].includes(table.status)) {
    const [label, why] = field("ad-end-why", t("ad_end_reason"), { required: true });
    const end = button(t("ad_end"), async () => {
      end.disabled = true;
      try {
        await api(`/api/admin/tables/${encodeURIComponent(table.table)}/end`, { reason: why.value });
        await reload();
        document.querySelector(".ad-table-body").prepend(done(t("ad_ended", { table: table.table })));
      } catch (error) {
        status.replaceChildren(failure(error));
        end.disabled = false;
      }
    }, "ad-end danger");
    parts.push(el("div", { class: "ad-form" }, label, why), el("div", { class: "actions" }, end));
  }
  parts.push(status);
  const verdict = el("div", { class: "ad-verdict", role: "status" });
  const verify = button(t("ad_verify"), async () => {
    try {
      const answer = await api(`/api/admin/tables/${encodeURIComponent(table.table)}/verify?lang=${currentLang()}`, {});
      const problems = answer.rounds.flatMap((round) => round.problems).concat(answer.moves.problem ? [answer.moves.problem] : []);
      verdict.replaceChildren(el("p", { text: answer.ok ? t("ad_verified", { rounds: answer.rounds.length }) : t("ad_not_verified", { problems: problems.join("; ") }) }));
    } catch (error) {
      verdict.replaceChildren(failure(error));
    }
  }, "ad-verify");
  parts.push(el("div", { class: "actions" }, verify), verdict);
  parts.push(el("h3", { text: t("ad_commitments") }));
  parts.push(el("ol", { class: "ad-commitments" }, ...log.commitments.map((c) => el("li", {},
    el("code", { text: c.commitment }), ` · ${t(c.revealed ? "ad_revealed" : "ad_not_revealed")}`))));
  parts.push(el("h3", { text: t("ad_log") }), el("p", { class: "ad-private", role: "note", text: t("ad_private") }));
  const lines = log.events.map((event) => `${event.seq} ${event.kind} ${JSON.stringify(event.data)}`).join("\n");
  parts.push(el("pre", { class: "ad-log", tabindex: 0, role: "region", "aria-label": t("ad_log"), text: lines }));
  return parts;
}

// Processes (the cluster's endpoints; absent on a site of one process) -----------------------

function loadProcesses(box) {
  box.replaceChildren(el("h2", { id: "ad-processes-title", text: t("ad_processes") }));
  // A site of one process (GET /api/cluster says no node) has no processes to list or drain.
  api("/api/cluster").then((cluster) => (cluster && cluster.node ? api("/api/admin/processes") : { processes: [] })).then(
    (data) => renderProcesses(box, data.processes || []),
    (error) => box.append(error && error.status === 404 ? el("p", { class: "note", text: t("ad_no_processes") }) : failure(error)),
  );
}

function renderProcesses(box, processes) {
  if (!processes.length) {
    box.append(el("p", { class: "note", text: t("ad_no_processes") }));
    return;
  }
  const head = el("tr", {}, ...["ad_col_node", "ad_col_tables", "ad_col_replicas", "ad_col_sockets", "ad_col_state"].map((key) => el("th", { scope: "col", text: t(key) })), el("td", {}));
  const status = el("div", { role: "status" });
  const rows = processes.map((process) => el("tr", { class: "ad-process", "data-node": process.node },
    el("td", { text: process.this ? t("ad_this", process) : process.node }),
    el("td", { text: String(process.tables_owned) }),
    el("td", { text: String(process.replicas) }),
    el("td", { text: String(process.sockets) }),
    el("td", { text: t(process.draining ? "ad_draining" : "ad_serving") }),
    el("td", {}, process.draining ? null : button(t("ad_drain", process), async () => {
      try {
        await api(`/api/admin/processes/${encodeURIComponent(process.node)}/drain`, {});
        loadProcesses(box);
      } catch (error) {
        status.replaceChildren(failure(error));
      }
    }, "ad-drain"))));
  box.append(el("div", { class: "scroll", tabindex: 0, role: "region", "aria-label": t("ad_processes") },
    el("table", { class: "ad-process-table" }, el("thead", {}, head), el("tbody", {}, ...rows))), status);
}
