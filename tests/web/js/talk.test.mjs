// Table talk's words (src/xeri/web/js/table/talk.js): the server sends a preset's id, the page words it; free text is
// shown as it came. Run by node's own test runner (tests/web/test_web_node_units.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import { setLanguage, strings } from "../../../src/xeri/web/js/lib/i18n.js";
import { EMOTES, PHRASES, saidText } from "../../../src/xeri/web/js/table/talk.js";

// setLanguage names the page's language on <html> and in its title: a bare stand-in is enough here.
globalThis.document ??= /** @type {any} */ ({ documentElement: {}, title: "" });

test("a preset is worded in the page's language, an emote is its picture, free text is as it came", () => {
  setLanguage("el");
  assert.equal(saidText({ type: "said", seat: 0, phrase: "good_luck" }), "Καλή τύχη!");
  setLanguage("tr");
  assert.equal(saidText({ type: "said", seat: 1, phrase: "well_played" }), "İyi oynadın!");
  assert.equal(saidText({ type: "said", seat: 1, phrase: "clap" }), "👏");
  assert.equal(saidText({ type: "said", seat: 1, text: "<b>hi</b>" }), "<b>hi</b>");
  setLanguage("en");
});

test("every preset and emote has its words in el, en and tr", () => {
  for (const lang of ["el", "en", "tr"]) {
    const words = strings(lang);
    for (const id of [...PHRASES, ...Object.keys(EMOTES)]) assert.ok(words[`talk_${id}`], `${lang}: talk_${id}`);
  }
});
