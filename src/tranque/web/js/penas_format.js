// What the peñas' pages (penas.js) work out from a hash or the server's JSON: the route's slug
// and invitation token, a table's invitation code, the number of members as it reads, who is
// online. The server decides everything; this only reads what it sent.
//
// Pure functions, no DOM: tested by `node --test tests/web/js`.

// #/penas/<slug>[?invitacion=<token>] → {slug, invitation}; #/penas → {slug: null}.
export function penaRoute(hash) {
  const [path, query = ""] = String(hash || "").replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean);
  if (parts[0] !== "penas" || !parts[1]) return { slug: null, invitation: null };
  const invitation = new URLSearchParams(query).get("invitacion");
  return { slug: decodeURIComponent(parts[1]), invitation: invitation || null };
}

// A private table's invitation link (/mesa?invite=CODE) → CODE, for the #/unirse/CODE route.
export function tableInviteCode(url) {
  if (!url) return null;
  const query = String(url).split("?")[1] || "";
  return new URLSearchParams(query).get("invite");
}

// The message key and parameters of a count of members.
export function membersLabel(count) {
  return count === 1 ? { key: "pn_members_one", params: {} } : { key: "pn_members_n", params: { n: count } };
}

export function onlineCount(people) {
  return (people || []).filter((person) => person.online).length;
}

// The full invitation link to share, from the server's path.
export function invitationLink(origin, url) {
  return `${origin}${url}`;
}
