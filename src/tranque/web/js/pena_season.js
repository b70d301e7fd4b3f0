// A peña's season (docs/penas.md, «Seasons»): the current season's table (PJ, G, P, TF, TC,
// DIF, PTS, as the server computes it), the past seasons with their frozen tables, and for a
// leader with no season open the «Abrir temporada» form. `mountSeason(element, slug)` fills
// `element` with a <section class="pena-season"> and keeps a live season's table fresh.

import { t, serverMessage } from "./i18n.js";
import { api } from "./api.js";
import { el } from "./dom.js";
import { shareButton, shareUrl } from "./share.js";

export const REFRESH_SECONDS = 10; // a live season's table is read again this often
const COLUMNS = [
  ["played", "se_col_pj"],
  ["won", "se_col_g"],
  ["lost", "se_col_p"],
  ["tantos_for", "se_col_tf"],
  ["tantos_against", "se_col_tc"],
  ["difference", "se_col_dif"],
  ["points", "se_col_pts"],
];

const signed = (n) => (n > 0 ? `+${n}` : String(n));

// A date "2027-01-31" as the reader writes it; the server's dates are Bogotá's days.
export function dayText(iso) {
  const [y, m, d] = iso.split("-");
  return `${d}/${m}/${y}`;
}

export function seasonTable(season) {
  const head = el("tr", {},
    el("th", { scope: "col", class: "num", text: t("se_col_rank") }),
    el("th", { scope: "col", text: t("se_col_who") }),
    ...COLUMNS.map(([, key]) => el("th", { scope: "col", class: "num" }, el("abbr", { title: t(`${key}_long`), text: t(key) }))));
  const body = el("tbody");
  for (const row of season.rows) {
    body.append(el("tr", { "data-name": row.name },
      el("td", { class: "num", text: String(row.rank) }),
      el("td", { class: "who", text: row.name }),
      ...COLUMNS.map(([field]) => el("td", { class: `num ${field}`, text: field === "difference" ? signed(row[field]) : String(row[field]) }))));
  }
  return el("div", { class: "scroll", tabindex: 0 }, el("table", { class: "ranking-table season-table" }, el("thead", {}, head), body));
}

function seasonCard(season, past = false) {
  const about = el("p", { class: "season-about" },
    el("span", { text: t("se_dates", { starts: dayText(season.starts), ends: dayText(season.ends) }) }),
    el("span", { class: `season-state ${season.state}`, text: t(`se_state_${season.state}`) }),
    el("span", { text: t(`se_scope_${season.scope}`) }),
    el("span", { text: t(`se_points_${season.points}`) }));
  const table = season.rows.length ? seasonTable(season) : el("p", { class: "note", text: t("se_empty") });
  const box = el(past ? "details" : "div", { class: "season", "data-season": season.id, "data-state": season.state },
    past ? el("summary", { text: season.name }) : el("h3", { text: season.name }), about, table);
  return box;
}

function isoDay(date) {
  return date.toISOString().slice(0, 10);
}

function openForm(slug, listing, done, say) {
  const today = listing.today;
  const later = new Date(`${today}T12:00:00Z`);
  later.setUTCDate(later.getUTCDate() + 30);
  const field = (id, label, input) => el("label", { for: id, class: "season-field" }, el("span", { text: label }), input);
  const name = el("input", { id: "season-name", name: "name", maxlength: 40, required: true, placeholder: t("se_name_hint") });
  const starts = el("input", { id: "season-starts", name: "starts", type: "date", required: true, min: today, value: today });
  const ends = el("input", { id: "season-ends", name: "ends", type: "date", required: true, min: today, value: isoDay(later) });
  const scope = el("select", { id: "season-scope", name: "scope" },
    ...listing.scopes.map((s) => el("option", { value: s, text: t(`se_scope_${s}_option`) })));
  const points = el("select", { id: "season-points", name: "points" },
    ...listing.points.map((p) => el("option", { value: p, text: t(`se_points_${p}`) })));
  const submit = el("button", { type: "submit", class: "primary", id: "season-open", text: t("se_open") });
  const error = el("p", { class: "season-error", role: "alert", hidden: true });
  const form = el("form", { class: "season-form" }, el("h3", { text: t("se_open_title") }),
    field("season-name", t("se_name"), name), field("season-starts", t("se_starts"), starts), field("season-ends", t("se_ends"), ends),
    field("season-scope", t("se_scope"), scope), field("season-points", t("se_points"), points), submit, error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    error.hidden = true;
    try {
      const opened = await api(`/api/penas/${encodeURIComponent(slug)}/seasons`, {
        name: name.value, starts: starts.value, ends: ends.value, scope: scope.value, points: points.value,
      });
      say(t("se_opened", { name: opened.name }));
      done();
    } catch (failure) {
      error.textContent = serverMessage(failure);
      error.hidden = false;
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

// Fill `element` with the peña's season section; `{stop}` ends its refreshing (it also stops
// by itself once the element leaves the page).
export function mountSeason(element, slug, { toast = () => {} } = {}) {
  const section = el("section", { class: "pena-season profile-card", "aria-labelledby": "pena-season-title" });
  element.replaceChildren(section);
  let timer = null;
  let stopped = false;
  let formOpen = false;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  const draw = (listing) => {
    const parts = [el("h2", { id: "pena-season-title", text: t("se_title") })];
    if (listing.current) parts.push(seasonCard(listing.current), el("p", { class: "note season-tiebreak", text: t("se_tiebreak") }));
    const shown = listing.current || listing.past[0];
    if (shown) parts.push(shareButton({ title: shown.name, text: t("se_share_text", { name: shown.name }), url: shareUrl("pena", slug) }, toast, "season-share"));
    else parts.push(el("p", { class: "note season-none", text: t(listing.may_open ? "se_none_leader" : "se_none") }));
    if (listing.may_open) parts.push(openForm(slug, listing, refresh, toast));
    formOpen = listing.may_open;
    if (listing.past.length) parts.push(el("div", { class: "season-past" }, el("h3", { text: t("se_past") }), ...listing.past.map((s) => seasonCard(s, true))));
    section.replaceChildren(...parts);
  };
  async function refresh() {
    clearTimeout(timer);
    if (stopped) return;
    if (!section.isConnected && section.dataset.loaded) return stop();
    try {
      const listing = await api(`/api/penas/${encodeURIComponent(slug)}/seasons`);
      section.dataset.loaded = "1";
      // A leader typing in the form is not interrupted: the form stays until a season opens.
      if (!(formOpen && listing.may_open && section.querySelector(".season-form"))) draw(listing);
      if (listing.current && listing.current.state !== "ended") timer = setTimeout(refresh, REFRESH_SECONDS * 1000);
    } catch (failure) {
      section.replaceChildren(el("h2", { id: "pena-season-title", text: t("se_title") }), el("p", { class: "note", text: failure.code ? serverMessage(failure) : t("se_unloaded") }));
    }
  }
  refresh();
  return { stop, refresh };
}
