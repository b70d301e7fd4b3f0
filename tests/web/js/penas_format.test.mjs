import { test } from "node:test";
import assert from "node:assert/strict";

const format = await import(new URL("../../../src/tranque/web/js/penas_format.js", import.meta.url));
const { PENAS_MESSAGES } = await import(new URL("../../../src/tranque/web/js/messages_penas.js", import.meta.url));

test("a peña's route names its slug and any invitation token", () => {
  assert.deepEqual(format.penaRoute("#/penas"), { slug: null, invitation: null });
  assert.deepEqual(format.penaRoute("#/penas/los-del-martes"), { slug: "los-del-martes", invitation: null });
  assert.deepEqual(format.penaRoute("#/penas/los-del-martes?invitacion=abc_D-1"), { slug: "los-del-martes", invitation: "abc_D-1" });
  assert.deepEqual(format.penaRoute("#/torneos/x"), { slug: null, invitation: null });
});

test("a table's invitation code is read from its link", () => {
  assert.equal(format.tableInviteCode("/mesa?invite=Zx_9"), "Zx_9");
  assert.equal(format.tableInviteCode(null), null);
});

test("members and who is online are counted as the server sent them", () => {
  assert.deepEqual(format.membersLabel(1), { key: "pn_members_one", params: {} });
  assert.deepEqual(format.membersLabel(7), { key: "pn_members_n", params: { n: 7 } });
  assert.equal(format.onlineCount([{ online: true }, { online: false }, { online: true }]), 2);
});

test("every peña message has Spanish and English", () => {
  for (const [key, entry] of Object.entries(PENAS_MESSAGES)) assert.ok(entry.es && entry.en, key);
});
