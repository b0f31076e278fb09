// @ts-check
// A rated format's leaderboard (#/leaderboard/FORMAT, docs/ratings.md): rank, name (to the profile), rating and
// deviation, rated matches and wins, with links between the formats. Loaded when first needed.

import { api } from "../net/api.js";
import { clear, h } from "../lib/dom.js";
import { failure } from "./history.js";
import { t, tn } from "../lib/i18n.js";
import { FORMATS, formatName } from "./ratingsview.js";

/**
 * @param {HTMLElement} container
 * @param {string} fmt
 * @returns {Promise<() => void>} the unmount
 */
export async function mountLeaderboard(container, fmt) {
  const root = h("section.leaderboard.panel");
  clear(container).appendChild(root);
  root.appendChild(h("p", t("loading")));
  /** @type {import("../net/types.js").Leaderboard} */
  let data;
  try {
    data = await api.leaderboard(fmt);
  } catch (err) {
    failure(root, err);
    return () => {};
  }
  const tabs = h("nav.leaderboard-formats", { "aria-label": t("leaderboards") },
    (data.formats.length ? data.formats : FORMATS).map((f) => h(`a.btn${f === fmt ? ".primary" : ""}`,
      { href: `#/leaderboard/${f}`, "aria-current": f === fmt ? "page" : null, dataset: { format: f } },
      formatName(f))));
  const rows = data.players.map((p) => h("tr", { dataset: { player: p.name } },
    h("td.rank", String(p.rank)),
    h("td", h("a.profile-link", { href: `#/profile/${encodeURIComponent(p.name)}` }, p.name)),
    h("td.rating", String(p.rating)),
    h("td.deviation", `±${p.deviation}`),
    h("td", String(p.games)),
    h("td", String(p.wins))));
  clear(root).append(
    h("h1", `${t("leaderboard")}: ${formatName(fmt)}`),
    tabs,
    h("p.muted.leaderboard-rule",
      tn("leaderboard_rule", data.min_games, { games: data.min_games, deviation: data.max_deviation })),
    rows.length
      ? h("div", { style: "overflow-x:auto" }, h("table.list-table.leaderboard-table",
        h("thead", h("tr", [t("rank"), t("player"), t("rating"), t("deviation"), t("rated_matches"), t("wins")]
          .map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", rows)))
      : h("p.muted.leaderboard-empty", t("leaderboard_empty")),
  );
  return () => {};
}
