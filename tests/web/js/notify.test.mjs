// A word to a player who is elsewhere (src/xeri/web/js/lib/notify.js, issue 41): while the tab is hidden the title
// says it and, where allowed, a system notification; nothing while the player looks; the title comes back on return.
// Run by node's own test runner (tests/web/test_web_node_units.py), with stand-ins for the page's globals.
import assert from "node:assert/strict";
import { test } from "node:test";

/** @type {Record<string, () => void>} */
const listeners = {};
/** @type {string[]} */
const shown = [];
const page = /** @type {any} */ ({
  hidden: false, title: "Xeri", documentElement: { lang: "en" },
  addEventListener: (/** @type {string} */ name, /** @type {() => void} */ fn) => { listeners[name] = fn; },
});
globalThis.document = page;
const store = new Map();
globalThis.localStorage = /** @type {any} */ ({
  getItem: (/** @type {string} */ k) => store.get(k) ?? null, setItem: (/** @type {string} */ k, /** @type {string} */ v) => store.set(k, v),
});
globalThis.window = /** @type {any} */ ({ Notification: true, matchMedia: () => ({ matches: false }) });
globalThis.Notification = /** @type {any} */ (class {
  static permission = "granted";
  /** @param {string} text */
  constructor(text) { shown.push(text); }
});

const { notify } = await import("../../../src/xeri/web/js/lib/notify.js");
const { prefs } = await import("../../../src/xeri/web/js/lib/prefs.js");
const { setLanguage } = await import("../../../src/xeri/web/js/lib/i18n.js");

test("nothing while the player looks at the page", () => {
  setLanguage("en");
  page.title = "Xeri";
  notify("notify_turn");
  assert.equal(page.title, "Xeri");
  assert.deepEqual(shown, []);
});

test("a hidden tab's title says it, and the title comes back when the player returns", () => {
  page.hidden = true;
  notify("notify_turn");
  assert.equal(page.title, "● Your turn · Xeri");
  notify("notify_turn");
  assert.equal(page.title, "● Your turn · Xeri", "said once, not stacked");
  assert.deepEqual(shown, [], "no system notification unless the player turned them on");
  page.hidden = false;
  listeners.visibilitychange();
  assert.equal(page.title, "Xeri");
});

test("turned on in Settings and allowed by the browser: a system notification too, in the page's language", () => {
  prefs.set("notify", true);
  setLanguage("el");
  page.title = "Ξερή";
  page.hidden = true;
  notify("notify_paired");
  assert.deepEqual(shown, ["Το παιχνίδι σου είναι έτοιμο"]);
  page.hidden = false;
  listeners.visibilitychange();
  setLanguage("en");
});
