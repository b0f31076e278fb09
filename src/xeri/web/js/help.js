// @ts-check
// "How to play": the rules in a few lines, the marks of the table, and the presets, in the page's language.

import { clear, h } from "./dom.js";
import { rulesetName, t } from "./i18n.js";

const PRESETS = ["classic", "classic-points", "cardgames", "berman", "pisti"];

/**
 * @param {HTMLElement} container
 * @returns {() => void} the unmount
 */
export function mountHelp(container) {
  const root = h(
    "section.panel.help",
    h("h1", t("help_title")),
    h(
      "ul",
      ["help_goal", "help_match", "help_jack", "help_xeri", "help_deal", "help_last", "help_points"].map((k) =>
        h("li", t(k)),
      ),
    ),
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
  return () => {};
}
