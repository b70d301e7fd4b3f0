// The moderators' page, #/moderacion (docs/protocol.md «Moderation»): the queue of open items
// (players' reports and the server's own signals) with the game's record and replay, a form to
// mute, suspend or ban an account, an account's sanctions with «Deshacer», and the audit log.
// Only moderators and admins get anything from /api/moderation/...: anyone else reads why.

import { t, currentLang, serverMessage } from "./i18n.js";
import { api } from "./api.js";
import { el, button } from "./dom.js";

function when(at) {
  return new Date(at * 1000).toLocaleString(currentLang() === "en" ? "en-GB" : "es-CO", { dateStyle: "medium", timeStyle: "short" });
}

function failure(error) {
  return el("p", { class: "form-error", role: "alert", text: serverMessage(error) });
}

export function moderationScreen(app) {
  const page = el("div", { class: "moderation-page" }, el("h1", { text: t("md_title") }));
  const queueBox = el("section", { class: "md-queue", "aria-labelledby": "md-queue-title" });
  const actionBox = el("section", { class: "md-action", "aria-labelledby": "md-action-title" });
  const accountBox = el("section", { class: "md-account", "aria-labelledby": "md-account-title" });
  const logBox = el("section", { class: "md-log", "aria-labelledby": "md-log-title" });
  const ui = {};
  ui.reloadQueue = () => loadQueue(queueBox, ui);
  ui.reloadLog = () => loadLog(logBox);
  ui.showAccount = (name) => loadAccount(accountBox, name, ui);
  ui.fill = (name, item) => actionForm.fill(name, item);
  const actionForm = sanctionForm(actionBox, ui);
  const lookup = accountLookup(ui);
  accountBox.append(el("h2", { id: "md-account-title", text: t("md_account") }), lookup, el("div", { class: "md-account-body" }));
  page.append(queueBox, actionBox, accountBox, logBox);
  // Only a moderator's page asks the server (which refuses anyone else with 403 anyway).
  if (!app.user || !["moderator", "admin"].includes(app.user.role)) {
    page.append(el("p", { class: "form-error", role: "alert", text: t("md_forbidden") }));
    return page;
  }
  api("/api/moderation/queue").then(
    (data) => {
      renderQueue(queueBox, data.items, ui);
      ui.reloadLog();
    },
    (error) => page.replaceChildren(el("h1", { text: t("md_title") }), el("p", { class: "form-error", role: "alert", text: error && error.code ? serverMessage(error) : t("md_forbidden") })),
  );
  return page;
}

// The queue ---------------------------------------------------------------------------------

function loadQueue(box, ui) {
  return api("/api/moderation/queue").then((data) => renderQueue(box, data.items, ui), (error) => box.replaceChildren(failure(error)));
}

function renderQueue(box, items, ui) {
  box.replaceChildren(el("h2", { id: "md-queue-title", text: t("md_queue") }));
  if (!items.length) {
    box.append(el("p", { class: "note md-queue-empty", text: t("md_queue_empty") }));
    return;
  }
  box.append(el("ul", { class: "md-items" }, ...items.map((item) => itemRow(item, ui))));
}

function itemRow(item, ui) {
  const kind = item.kind === "report" ? t("md_kind_report") : item.kind;
  const head = el("p", { class: "md-item-head" }, el("strong", { text: kind }), item.reporter ? ` · ${t("md_by", { name: item.reporter })}` : "", ` · ${when(item.created_at)}`);
  const about = el("p", { class: "md-about" }, `${t("md_about")}: `);
  item.subjects.forEach((subject, index) => {
    if (index) about.append(", ");
    about.append(el("a", { href: `#/jugador/${encodeURIComponent(subject.name)}`, text: subject.name }));
  });
  const row = el("li", { class: "md-item", "data-item": item.id }, head, about);
  if (item.reason) row.append(el("p", { class: "md-reason", text: `${t("md_reason")}: ${t(`md_reason_${item.reason}`)}` }));
  if (item.note) row.append(el("blockquote", { class: "md-note", text: item.note }));
  if (item.evidence && Object.keys(item.evidence).length) {
    row.append(el("details", {}, el("summary", { text: t("md_evidence") }), el("pre", { class: "md-evidence", text: JSON.stringify(item.evidence, null, 2) })));
  }
  if (item.game) {
    row.append(el("p", { class: "md-game" }, `${t("md_game", { id: item.game.id })}: `,
      el("a", { href: item.game.record, text: t("md_record") }), " · ", el("a", { href: item.game.replay, text: t("md_replay") })));
  }
  const actions = el("div", { class: "actions" });
  for (const subject of item.subjects) actions.append(button(t("md_act_on", { name: subject.name }), () => ui.fill(subject.name, item.id)));
  const resolutionId = `md-resolution-${item.id}`;
  const resolution = el("input", { id: resolutionId, class: "md-resolution", maxlength: 500 });
  const problem = el("div", {});
  const close = button(t("md_close"), async () => {
    try {
      await api(`/api/moderation/items/${item.id}/close`, { resolution: resolution.value });
      await ui.reloadQueue();
      ui.reloadLog();
    } catch (error) {
      problem.replaceChildren(failure(error));
    }
  }, "md-close");
  row.append(actions, el("div", { class: "md-close-row" }, el("label", { for: resolutionId, text: t("md_resolution") }), resolution, close), problem);
  return row;
}

// Sanctioning an account --------------------------------------------------------------------

function sanctionForm(box, ui) {
  const player = el("input", { id: "md-player", name: "player", autocomplete: "off", maxlength: 64, required: true });
  const kind = el("select", { id: "md-kind", name: "kind" },
    ...["mute", "suspend", "ban"].map((code) => el("option", { value: code, text: t(`md_kind_${code}`) })));
  const minutes = el("input", { id: "md-minutes", name: "minutes", type: "number", min: 1, value: 60 });
  const reason = el("input", { id: "md-why", name: "reason", maxlength: 500, required: true });
  const status = el("div", { class: "md-action-status", role: "status" });
  const submit = el("button", { type: "submit", class: "primary md-apply", text: t("md_apply") });
  let item = null; // the queue item the sanction answers, when it came from one
  const form = el("form", { class: "md-form" },
    el("label", { for: "md-player", text: t("md_player") }), player,
    el("label", { for: "md-kind", text: t("md_kind") }), kind,
    el("label", { for: "md-minutes", text: t("md_minutes") }), minutes,
    el("label", { for: "md-why", text: t("md_why") }), reason,
    el("div", { class: "actions" }, submit));
  player.addEventListener("input", () => (item = null)); // another account: not the item's
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    const body = { player: player.value.trim(), kind: kind.value, reason: reason.value, minutes: kind.value === "ban" ? null : Number(minutes.value), item };
    try {
      await api("/api/moderation/sanctions", body);
      status.replaceChildren(el("p", { text: t("md_applied", { name: body.player }) }));
      reason.value = "";
      ui.showAccount(body.player);
      ui.reloadLog();
    } catch (error) {
      status.replaceChildren(failure(error));
    } finally {
      submit.disabled = false;
    }
  });
  box.append(el("h2", { id: "md-action-title", text: t("md_action") }), form, status);
  return {
    fill(name, from = null) {
      player.value = name;
      item = from;
      kind.focus();
    },
  };
}

// An account and its sanctions --------------------------------------------------------------

function accountLookup(ui) {
  const name = el("input", { id: "md-lookup", name: "lookup", autocomplete: "off", maxlength: 64 });
  const form = el("form", { class: "md-lookup" }, el("label", { for: "md-lookup", text: t("md_player") }), name, el("button", { type: "submit", text: t("md_look") }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (name.value.trim()) ui.showAccount(name.value.trim());
  });
  return form;
}

function loadAccount(box, name, ui) {
  const body = box.querySelector(".md-account-body");
  return api(`/api/moderation/accounts/${encodeURIComponent(name)}`).then(
    (account) => body.replaceChildren(...accountParts(account, ui)),
    (error) => body.replaceChildren(failure(error)),
  );
}

function accountParts(account, ui) {
  const standing = account.barred ? t(`md_barred_${account.barred}`) : t("md_free");
  const out = [
    el("h3", { class: "md-account-name", text: account.name }),
    el("p", { class: "md-standing", text: [t("md_role", { role: account.role }), standing, account.muted ? t("md_muted") : null].filter(Boolean).join(" · ") }),
  ];
  if (!account.sanctions.length) {
    out.push(el("p", { class: "note", text: t("md_no_sanctions") }));
    return out;
  }
  out.push(el("ul", { class: "md-sanctions" }, ...account.sanctions.map((row) => sanctionRow(account, row, ui))));
  return out;
}

function sanctionRow(account, row, ui) {
  const parts = [t("md_sanction_line", { kind: t(`md_action_${row.kind}`), when: when(row.created_at), by: row.by || t("md_terminal"), reason: row.reason })];
  if (row.until) parts.push(t("md_until", { date: when(row.until) }));
  if (row.lifted_at) parts.push(t("md_lifted", { by: row.lifted_by || t("md_terminal") }));
  const item = el("li", { class: "md-sanction", "data-sanction": row.id, "data-holds": String(row.holds) }, el("span", { text: parts.join(" · ") }));
  if (!row.lifted_at) {
    const why = el("input", { id: `md-undo-${row.id}`, class: "md-undo-why", maxlength: 500 });
    const problem = el("div", {});
    const undo = button(t("md_undo"), async () => {
      try {
        await api(`/api/moderation/sanctions/${row.id}/lift`, { reason: why.value });
        await ui.showAccount(account.name);
        ui.reloadLog();
      } catch (error) {
        problem.replaceChildren(failure(error));
      }
    }, "md-undo");
    item.append(el("span", { class: "md-undo-row" }, el("label", { for: `md-undo-${row.id}`, text: t("md_undo_why") }), why, undo), problem);
  }
  return item;
}

// The audit log -----------------------------------------------------------------------------

function loadLog(box) {
  return api("/api/moderation/log").then((data) => renderLog(box, data.entries), (error) => box.replaceChildren(failure(error)));
}

function renderLog(box, entries) {
  box.replaceChildren(el("h2", { id: "md-log-title", text: t("md_log") }));
  if (!entries.length) {
    box.append(el("p", { class: "note", text: t("md_log_empty") }));
    return;
  }
  const head = el("tr", {}, ...["md_col_when", "md_col_who", "md_col_what", "md_col_whom", "md_col_why"].map((key) => el("th", { scope: "col", text: t(key) })));
  const rows = entries.map((entry) => el("tr", { class: "md-log-row", "data-action": entry.action },
    el("td", { text: when(entry.at) }),
    el("td", { text: entry.moderator || t("md_terminal") }),
    el("td", { text: t(`md_action_${entry.action}`) }),
    el("td", { text: entry.player || "" }),
    el("td", { text: entry.reason })));
  box.append(el("div", { class: "scroll", tabindex: 0, role: "region", "aria-label": t("md_log") }, el("table", { class: "md-log-table" }, el("thead", {}, head), el("tbody", {}, ...rows))));
}
