// «Compartir» (js/share.js): the share sheet where the browser has one, else the clipboard,
// else the link shown; the player told which, in their language. `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.localStorage = globalThis.localStorage || { getItem: () => null, setItem: () => {} };
globalThis.document = globalThis.document || { documentElement: {} };
globalThis.location = { origin: "https://tranque.example" };
Object.defineProperty(globalThis, "navigator", { value: {}, writable: true, configurable: true });

const { setLang } = await import(new URL("../../../src/tranque/web/js/i18n.js", import.meta.url));
const { shareLink, shareUrl } = await import(new URL("../../../src/tranque/web/js/share.js", import.meta.url));

setLang("es");
const data = { title: "Partida", text: "¡Mira!", url: shareUrl("partida", "mesa 1.2") };

function said() {
  const toasts = [];
  return { toasts, toast: (text) => toasts.push(text) };
}

test("the share page's address, its id escaped, in English for an English reader", () => {
  setLang("es");
  assert.equal(shareUrl("partida", "mesa 1.2"), "https://tranque.example/partida/mesa%201.2");
  assert.equal(shareUrl("torneo", "t-1"), "https://tranque.example/torneo/t-1");
  setLang("en");
  assert.equal(shareUrl("torneo", "t-1"), "https://tranque.example/torneo/t-1?lang=en");
  setLang("es");
});

test("the share sheet when there is one, and nothing said", async () => {
  const shared = [];
  globalThis.navigator = { share: async (what) => shared.push(what) };
  const { toasts, toast } = said();
  assert.equal(await shareLink(data, toast), "shared");
  assert.deepEqual(shared, [data]);
  assert.deepEqual(toasts, []);
});

test("the sheet closed by the player: nothing copied, nothing said", async () => {
  const copied = [];
  globalThis.navigator = {
    share: async () => { throw Object.assign(new Error("closed"), { name: "AbortError" }); },
    clipboard: { writeText: async (text) => copied.push(text) },
  };
  const { toasts, toast } = said();
  assert.equal(await shareLink(data, toast), "cancelled");
  assert.deepEqual(copied, []);
  assert.deepEqual(toasts, []);
});

test("no share sheet: the link copied, and the player told so in their language", async () => {
  const copied = [];
  globalThis.navigator = { clipboard: { writeText: async (text) => copied.push(text) } };
  const { toasts, toast } = said();
  setLang("es");
  assert.equal(await shareLink(data, toast), "copied");
  assert.deepEqual(copied, [data.url]);
  assert.deepEqual(toasts, ["Enlace copiado: pégalo en el chat que quieras"]);
  setLang("en");
  await shareLink(data, toast);
  assert.equal(toasts[1], "Link copied: paste it into any chat");
});

test("a refused sheet and no clipboard: the link shown to copy by hand", async () => {
  globalThis.navigator = { share: async () => { throw new Error("NotAllowedError"); } };
  const { toasts, toast } = said();
  setLang("es");
  assert.equal(await shareLink(data, toast), "shown");
  assert.deepEqual(toasts, [`Copia este enlace: ${data.url}`]);
});
