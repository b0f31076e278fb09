// @ts-check
// A player's profile (#/profile/NAME, docs/accounts.md): an account's totals and its recent matches, each linked to
// its replay and its review. Its ratings and their chart fill the `.profile-ratings` slot (ratingsview.js, loaded
// when first needed).

import { api } from "../net/api.js";
import { clear, h } from "../lib/dom.js";
import { failure, matchScore, shownName, when, winnersOf } from "./history.js";
import { t } from "../lib/i18n.js";

/**
 * @param {HTMLElement} container
 * @param {string} name
 * @returns {Promise<() => void>} the unmount
 */
export async function mountProfile(container, name) {
  const root = h("section.profile.panel");
  clear(container).appendChild(root);
  root.appendChild(h("p", t("loading")));
  /** @type {import("../net/types.js").Profile} */
  let data;
  try {
    data = await api.profile(name);
  } catch (err) {
    failure(root, err);
    return () => {};
  }
  const slot = h("section.profile-ratings", { dataset: { slot: "ratings", player: data.name } });
  const s = data.stats;
  /** @type {[string, number][]} */
  const totals = [["games", s.games], ["wins", s.wins], ["points", s.points], ["xeris", s.xeris]];
  const rows = data.matches.map(({ seat, match: m }) =>
    h(
      "tr",
      { dataset: { match: m.id } },
      h("td", when(m.finished_at)),
      h("td", m.names.map((_, i) => shownName(m, i)).join(", ")),
      h("td", matchScore(m)),
      h("td", winnersOf(m)),
      h(
        "td",
        h("a.replay-link", { href: `#/replay/${m.id}` }, t("replay")),
        " · ",
        h("a.review-link", { href: `#/replay/${m.id}/review/${seat}` }, t("review")),
      ),
    ),
  );
  clear(root).append(
    h("h1.profile-name", data.name),
    h("p.muted.profile-since", t("member_since", { date: when(data.created_at) })),
    h(
      "dl.profile-totals",
      totals.map(([key, value]) => [h("dt", t(key)), h("dd", { dataset: { total: key } }, String(value))]),
    ),
    // The ratings' slot, filled below by ratingsview.js (each format's rating, deviation and chart).
    slot,
    h("h2", t("recent_matches")),
    rows.length
      ? h(
        "div",
        { style: "overflow-x:auto" },
        h(
          "table.list-table.profile-matches",
          h("thead", h("tr", h("th", t("played_at")), h("th", t("players")), h("th", t("score")),
            h("th", t("winner_col")), h("th", h("span.sr-only", t("replay"))))),
          h("tbody", rows),
        ),
      )
      : h("p.muted.no-matches", t("no_matches")),
  );
  (await import("./ratingsview.js")).fillRatings(slot, data);
  return () => {};
}
