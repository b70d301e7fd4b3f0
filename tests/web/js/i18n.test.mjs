// Server refusals and names in the reader's language (js/i18n.js): `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

const items = new Map();
globalThis.localStorage = { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => items.set(key, value) };
globalThis.document = { documentElement: {} };

const { setLang, serverMessage, localName, t } = await import(new URL("../../../src/tranque/web/js/i18n.js", import.meta.url));

const refusal = { code: "wrong_login", message: "Nombre o contraseña incorrectos.", message_en: "Wrong name or password." };

test("a refusal reads in Spanish or in English, never the other", () => {
  setLang("es");
  assert.equal(serverMessage(refusal), refusal.message);
  setLang("en");
  assert.equal(serverMessage(refusal), refusal.message_en);
  assert.equal(document.documentElement.lang, "en");
});

test("a refusal without text reads as a generic failure in the reader's language", () => {
  setLang("en");
  assert.equal(serverMessage({ code: "offline", message: "" }), t("error_generic"));
  assert.equal(serverMessage(null), "Something failed. Try again.");
  setLang("es");
  assert.equal(serverMessage(undefined), "Algo falló. Inténtalo de nuevo.");
});

test("names in both languages, or one name for both", () => {
  const bot = { name: "Máquina 1", name_en: "Machine 1" };
  setLang("en");
  assert.equal(localName(bot), "Machine 1");
  assert.equal(localName("Ana"), "Ana");
  assert.equal(localName({ name: "Ana" }), "Ana");
  assert.equal(localName({ title: "Fácil", title_en: "Easy" }, "title"), "Easy");
  setLang("es");
  assert.equal(localName(bot), "Máquina 1");
  assert.equal(localName(null), "");
});

test("the language button names the other language in that language", () => {
  setLang("es");
  assert.equal(t("language"), "English");
  setLang("en");
  assert.equal(t("language"), "Español");
});

test("every message has both languages", async () => {
  const { MESSAGES } = await import(new URL("../../../src/tranque/web/js/i18n.js", import.meta.url));
  // The admin page's messages load with its module (js/admin.js), not with the home page.
  const { ADMIN_MESSAGES } = await import(new URL("../../../src/tranque/web/js/messages_admin.js", import.meta.url));
  for (const [key, entry] of Object.entries({ ...MESSAGES, ...ADMIN_MESSAGES })) {
    assert.ok(entry.es && entry.en, `${key} needs es and en`);
    for (const param of entry.es.match(/\{\w+\}/g) || []) assert.ok(entry.en.includes(param), `${key}: ${param} in en`);
  }
});
