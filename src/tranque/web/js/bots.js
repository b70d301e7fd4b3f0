// The bots' page, #/bots (docs/bots.md): the logged-in person's bot accounts (make one, give
// it a new token, shown once, or revoke it) over /api/me/bots, and the bots' ranking by pool
// (GET /api/bots/ranking). The server decides everything; the page shows it.

import { t, currentLang, serverMessage } from "./i18n.js";
import { api } from "./api.js";
import { el, button } from "./dom.js";

const POOLS = [
  ["duel", "pl_pool_duel"],
  ["individual", "pl_pool_individual"],
  ["pairs", "pl_pool_pairs"],
];

function dateOf(at) {
  return new Date(at * 1000).toLocaleDateString(currentLang() === "en" ? "en-GB" : "es-CO", { day: "numeric", month: "short", year: "numeric" });
}

function failure(error) {
  return el("p", { class: "form-error", role: "alert", text: serverMessage(error) });
}

export function botsScreen(app) {
  const page = el("div", { class: "bots-page" });
  page.append(
    el("h1", { text: t("bt_title") }),
    el("p", { class: "note", text: t("bt_intro") }),
  );
  if (app.user) page.append(mineSection());
  else page.append(el("p", { class: "note bots-login", text: t("bt_login") }));
  page.append(rankingSection());
  return page;
}

// Your bots ------------------------------------------------------------------------------

function mineSection() {
  const section = el("section", { class: "bots-mine", "aria-labelledby": "bots-mine-title" });
  const list = el("ul", { class: "bot-list", "aria-busy": "true" });
  const shown = el("div", { class: "bot-token-box", role: "status" }); // a token, shown once
  const problem = el("div", { class: "bot-problem" });
  const reload = () =>
    api("/api/me/bots").then(
      (bots) => {
        list.removeAttribute("aria-busy");
        list.replaceChildren(...(bots.length ? bots.map((bot) => botRow(bot, show)) : [el("li", { class: "note", text: t("bt_none") })]));
      },
      (error) => {
        list.removeAttribute("aria-busy");
        list.replaceChildren(el("li", {}, failure(error)));
      },
    );
  // A token is shown once, selected for copying, and gone with the next action or page.
  const showToken = (name, token) => {
    problem.replaceChildren();
    const field = el("input", { class: "bot-token", readonly: true, value: token, "aria-label": t("bt_token_for", { name }), spellcheck: "false" });
    shown.replaceChildren(el("p", { text: t("bt_token_for", { name }) }), field, el("p", { class: "note", text: t("bt_token_once") }));
    field.focus();
    field.select();
  };
  const showProblem = (error) => {
    problem.replaceChildren(failure(error));
  };
  const showNote = (text) => {
    problem.replaceChildren();
    shown.replaceChildren(el("p", { class: "note", text }));
  };
  const show = { token: showToken, problem: showProblem, note: showNote, reload };
  section.append(el("h2", { id: "bots-mine-title", text: t("bt_mine") }), createForm(show), problem, shown, list);
  reload();
  return section;
}

function createForm(show) {
  const input = el("input", { id: "bot-name", name: "bot-name", autocomplete: "off", maxlength: 24, required: true });
  const submit = el("button", { type: "submit", class: "primary", id: "create-bot", text: t("bt_create") });
  const form = el("form", { class: "bot-form" }, el("label", { for: "bot-name", text: t("bt_name_label") }), el("div", { class: "bot-form-row" }, input, submit));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    submit.disabled = true;
    try {
      const made = await api("/api/me/bots", { name });
      input.value = "";
      show.token(made.name, made.token);
      await show.reload();
    } catch (error) {
      show.problem(error);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

// One bot: its state, «Token nuevo» (the old one stops working) and «Revocar token».
function botRow(bot, show) {
  const path = `/api/me/bots/${encodeURIComponent(bot.name)}/token`;
  const renew = button(t("bt_new_token"), async () => {
    try {
      const made = await api(path, {});
      show.token(made.name, made.token);
      await show.reload();
    } catch (error) {
      show.problem(error);
    }
  });
  renew.dataset.action = "bt_new_token";
  const revoke = button(t("bt_revoke"), async () => {
    try {
      await api(path, {}, "DELETE");
      show.note(t("bt_revoked", { name: bot.name }));
      await show.reload();
    } catch (error) {
      show.problem(error);
    }
  });
  revoke.dataset.action = "bt_revoke";
  revoke.disabled = !bot.has_token;
  const state = [t(bot.has_token ? "bt_has_token" : "bt_no_token"), bot.used_at ? t("bt_used", { date: dateOf(bot.used_at) }) : t("bt_never_used")].join(" · ");
  return el("li", { class: "bot-row", "data-name": bot.name },
    el("span", { class: "bot-name" }, el("strong", { text: bot.name }), el("span", { class: "note bot-state", text: ` · ${state}` })),
    el("span", { class: "bot-actions" }, renew, revoke));
}

// The bots' ranking ----------------------------------------------------------------------

function rankingSection() {
  const section = el("section", { class: "bots-ranking", "aria-labelledby": "bots-ranking-title" });
  const body = el("div", { class: "ranking-body" });
  const tabs = el("div", { class: "tab-row", role: "group", "aria-label": t("bt_ranking") });
  const show = (pool, page = 1) => {
    for (const tab of tabs.children) tab.setAttribute("aria-pressed", String(tab.dataset.pool === pool));
    body.setAttribute("aria-busy", "true");
    api(`/api/bots/ranking?pool=${pool}&page=${page}`).then(
      (data) => {
        body.removeAttribute("aria-busy");
        body.replaceChildren(...rankingBody(data, pool, show));
      },
      (error) => {
        body.removeAttribute("aria-busy");
        body.replaceChildren(failure(error));
      },
    );
  };
  for (const [pool, label] of POOLS) {
    const tab = button(t(label), () => show(pool), "tab");
    tab.dataset.pool = pool;
    tabs.append(tab);
  }
  section.append(el("h2", { id: "bots-ranking-title", text: t("bt_ranking") }), tabs, body);
  show("duel");
  return section;
}

function rankingBody(data, pool, show) {
  if (!data.rows.length) return [el("p", { class: "note nobody", text: t("bt_nobody") })];
  const label = t(POOLS.find(([name]) => name === pool)[1]);
  const head = el("tr", {},
    el("th", { scope: "col", class: "rank", text: t("pl_rank") }),
    el("th", { scope: "col", text: t("bt_bot") }),
    el("th", { scope: "col", class: "value", text: t("pl_rating") }),
    el("th", { scope: "col", class: "games", text: t("pl_games") }));
  const rows = data.rows.map((row) => el("tr", {},
    el("td", { class: "rank", text: String(row.rank) }),
    el("td", { class: "who", text: row.name }),
    el("td", { class: "value", text: row.provisional ? `${row.rating}?` : String(row.rating) }),
    el("td", { class: "games", text: String(row.games) })));
  const caption = t("bt_ranking_caption", { pool: label, page: data.page, pages: data.pages, total: data.total });
  const out = [el("table", { class: "ranking-table bots-table" }, el("caption", { text: caption }), el("thead", {}, head), el("tbody", {}, ...rows))];
  if (data.pages > 1) {
    const pager = el("nav", { class: "pager", "aria-label": t("pl_pages") });
    if (data.page > 1) pager.append(button(t("pl_previous"), () => show(pool, data.page - 1)));
    if (data.page < data.pages) pager.append(button(t("pl_next"), () => show(pool, data.page + 1)));
    out.push(pager);
  }
  return out;
}
