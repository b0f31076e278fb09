// A computer seat's name (src/xeri/web/js/lib/i18n.js botName): one function names it at the table, in the lobby,
// in the history and in the replay, so it reads the same everywhere (issue 41). Run by node's own test runner
// (tests/web/test_web_node_units.py). A newcomer's generated name (guestName) is here too.
import assert from "node:assert/strict";
import { test } from "node:test";

import { botName, guestName, seatName, setLanguage } from "../../../src/xeri/web/js/lib/i18n.js";
import { shownName } from "../../../src/xeri/web/js/pages/history.js";
import { seatNames } from "../../../src/xeri/web/js/table/state.js";

// setLanguage names the page's language on <html> and in its title: a bare stand-in is enough here.
globalThis.document ??= /** @type {any} */ ({ documentElement: {}, title: "" });

const seats = [
  { seat: 0, taken: true, human: true, name: "Ada", bot: null },
  { seat: 1, taken: true, human: false, name: "bot", bot: "medium" },
];
const table = /** @type {any} */ ({ seats });
const match = { names: ["Ada", "bot"], bots: [null, "medium"] };

test("the table, the lobby, the history and the replay name a computer seat alike, by seat and level", () => {
  for (const [lang, full, bare] of [
    ["en", "Computer 2 (medium)", "Computer 2"],
    ["el", "Υπολογιστής 2 (μέτριο)", "Υπολογιστής 2"],
    ["tr", "Bilgisayar 2 (orta)", "Bilgisayar 2"],
  ]) {
    setLanguage(lang);
    assert.equal(botName(1, "medium"), full, lang);
    assert.equal(seatName(seats[1]), full, `${lang}: the lobby and the table's dialogs`);
    assert.equal(shownName(match, 1), full, `${lang}: the history and the replay`);
    // The board says the level under the name, so its name is the same words less the level.
    assert.deepEqual(seatNames(table), ["Ada", bare], lang);
    assert.ok(full.startsWith(bare), lang);
  }
  setLanguage("en");
});

test("the short name is the score bar's, and a null seat is the kind of opponent across matches", () => {
  setLanguage("en");
  assert.equal(botName(3, "easy", true), "CPU 4");
  assert.deepEqual(seatNames(table, [], true), ["Ada", "CPU 2"]);
  assert.equal(botName(null, "strong"), "Computer (strong)");
  assert.equal(shownName(match, 0), "Ada");
});

test("a newcomer's generated name is drawn from the browser's key: the same key, the same name", () => {
  setLanguage("en");
  assert.equal(guestName("00000000aa"), "Guest 1000");
  assert.equal(guestName("ffffffff00"), `Guest ${1000 + (0xffffffff % 9000)}`);
  assert.equal(guestName("3f2a9c01"), guestName("3f2a9c01ffff"));
  assert.match(guestName("not hex"), /^Guest 1000$/);
  setLanguage("el");
  assert.match(guestName("3f2a9c01"), /^Επισκέπτης \d{4}$/);
  setLanguage("tr");
  assert.match(guestName("3f2a9c01"), /^Misafir \d{4}$/);
  setLanguage("en");
});
