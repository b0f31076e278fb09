// @ts-check
// "How to play": the rules in a few lines, what each card and each xeri is worth under every preset, the marks of
// the table, and the presets, in the page's language.

import { api } from "../net/api.js";
import { clear, h } from "../lib/dom.js";
import { rulesetName, scoreLabel, t } from "../lib/i18n.js";

const PRESETS = ["classic", "classic-points", "cardgames", "berman", "pisti"];

/**
 * "1 each", "1 το καθένα", "her biri 1": the number with the words around it in their own spans, which a phone's
 * narrow table leaves out (the note over the table says that a group's points count for each of its cards).
 * @param {number} n
 * @returns {import("../lib/dom.js").Child[]}
 */
function each(n) {
  const [before, after] = t("each", { n: "\u0000" }).split("\u0000");
  return [before ? h("span.each-word", before) : null, String(n), after ? h("span.each-word", after) : null];
}

/**
 * The points a round gives, a column per preset: a xeri, a Jack xeri, most cards, then each point card.
 * @param {import("../net/types.js").Meta["rulesets"]} rulesets
 * @returns {HTMLTableElement}
 */
function valuesTable(rulesets) {
  const shown = rulesets.filter((r) => PRESETS.includes(r.name));
  /** @type {string[]} */
  const labels = [];
  for (const r of shown) {
    for (const item of r.point_items || []) if (!labels.includes(item.label)) labels.push(item.label);
  }
  /**
   * @param {string} head
   * @param {(r: (typeof shown)[number]) => import("../lib/dom.js").Child} cell
   */
  const row = (head, cell) => h("tr", h("th", { scope: "row" }, head), shown.map((r) => h("td.num", cell(r))));
  /** @param {unknown} v */
  const num = (v) => (typeof v === "number" && v ? String(v) : "–");
  return h(
    "table.help-values",
    h(
      "thead",
      h(
        "tr",
        h("th", { scope: "col" }, t("item")),
        shown.map((r) => h("th.num", { scope: "col" }, rulesetName(r.name))),
      ),
    ),
    h(
      "tbody",
      row(t("xeri_item"), (r) => num(r.options.xeri_points)),
      row(t("jack_xeri_item"), (r) => num(r.options.jack_xeri_points)),
      row(scoreLabel("most cards"), (r) => num(r.options.most_cards_points)),
      labels.map((label) =>
        row(scoreLabel(label), (r) => {
          const item = (r.point_items || []).find((i) => i.label === label);
          if (!item) return "–";
          return item.each ? each(item.points) : String(item.points);
        }),
      ),
    ),
  );
}

/**
 * @param {HTMLElement} container
 * @returns {Promise<() => void>} the unmount
 */
export async function mountHelp(container) {
  // The page is shown at once; the table of values fills its slot when the presets come (a slot of a page the
  // player has already left is detached, so a late answer changes nothing).
  // A region the keyboard can scroll, where a phone is narrower than the table.
  const values = h("div.table-scroll", { tabindex: 0, role: "region", "aria-label": t("help_values") });
  const root = h(
    "section.panel.help",
    h("h1", t("help_title")),
    h(
      "ul",
      ["help_goal", "help_match", "help_jack", "help_xeri", "help_deal", "help_last", "help_points"].map((k) =>
        h("li", t(k)),
      ),
    ),
    h("h2", t("help_values")),
    h("p", t("help_values_note")),
    values,
    h("h2", t("help_marks")),
    h(
      "ul.help-marks",
      ["help_mark_d", "help_mark_turn", "help_mark_cross", "help_mark_away", "help_mark_seen"].map((k) =>
        h("li", t(k)),
      ),
    ),
    h("h2", t("help_presets")),
    h(
      "dl.help-presets",
      PRESETS.map((name) => [h("dt", rulesetName(name)), h("dd", t(`preset_${name.replace("-", "_")}`))]),
    ),
    h("p", t("help_keys")),
    h("p", h("a.btn.back-lobby", { href: "#/" }, t("back_lobby"))),
  );
  clear(container).appendChild(root);
  try {
    const meta = await api.meta();
    values.appendChild(valuesTable(meta.rulesets || []));
  } catch {
    // The rules stand without the table of values when the server cannot be reached.
  }
  return () => {};
}
