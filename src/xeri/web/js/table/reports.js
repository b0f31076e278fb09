// @ts-check
// The round's and the match's reports: the breakdown of a round, the rounds so far, the result, the fairness check.

import { api } from "../net/api.js";
import { cardLabel } from "../lib/cards.js";
import { h } from "../lib/dom.js";
import { joinNames, SCORE_ORDER, scoreLabel, splitScoreLabel, t } from "../lib/i18n.js";

/** @typedef {import("../net/types.js").Round} Round */
/** @typedef {import("../net/types.js").View} View */
/** @typedef {import("../net/types.js").Ruleset} Ruleset */
/**
 * The names of a side's seats: "Alice & Carol".
 * @param {string[]} names
 * @param {number} players
 * @param {number} sides
 * @param {number} side
 * @returns {string}
 */
function sideLabel(names, players, sides, side) {
  const seatsOf = [];
  for (let s = 0; s < players; s++) if (s % sides === side) seatsOf.push(names[s] || `${t("seat")} ${s + 1}`);
  return seatsOf.join(" & ");
}

/**
 * One round's score, item by item in a fixed order (each item once), a column per side; its caption names
 * the round.
 * @param {{ round: number, scores: import("../net/types.js").Breakdown[] }} round
 * @param {string[]} names
 * @param {number} players
 * @param {number} sides
 * @returns {HTMLTableElement}
 */
export function breakdownTable(round, names, players, sides) {
  /** @type {string[]} */
  const keys = [];
  for (const b of round.scores) for (const line of b.lines) {
    const [key] = splitScoreLabel(line.label);
    if (!keys.includes(key)) keys.push(key);
  }
  /** @param {string} k */
  const rank = (k) => (SCORE_ORDER.includes(k) ? SCORE_ORDER.indexOf(k) : SCORE_ORDER.length + keys.indexOf(k));
  keys.sort((a, b) => rank(a) - rank(b));
  const head = h(
    "tr",
    h("th", { scope: "col" }, t("item")),
    round.scores.map((b) => h("th.num", { scope: "col" }, sideLabel(names, players, sides, b.side))),
  );
  const rows = keys.map((key) =>
    h(
      "tr",
      { dataset: { item: key } },
      h("th", { scope: "row" }, scoreLabel(key)),
      round.scores.map((b) => {
        const line = b.lines.find((l) => splitScoreLabel(l.label)[0] === key);
        if (!line) return h("td.num", "–");
        const count = splitScoreLabel(line.label)[1];
        // The most-cards count is the Cards row below; a xeri count stays beside its points.
        const shown = count && key !== "most cards" ? `${line.points} (${count})` : String(line.points);
        return h("td.num", { title: (line.cards || []).map(cardLabel).join(" ") }, shown);
      }),
    ),
  );
  const cards = h(
    "tr.cards-row",
    h("th", { scope: "row" }, t("cards_count")),
    round.scores.map((b) => h("td.num", String(b.cards))),
  );
  const total = h(
    "tr.total",
    h("th", { scope: "row" }, t("total")),
    round.scores.map((b) => h("td.num", String(b.total))),
  );
  return h(
    "table.breakdown",
    { dataset: { round: String(round.round) } },
    h("caption", t("round_named", { n: round.round })),
    h("thead", head),
    h("tbody", rows, cards, total),
  );
}

/**
 * Every finished round's totals, with the match total, and the rounds won where the match is decided by them.
 * @param {Round[]} history
 * @param {string[]} names
 * @param {number} players
 * @param {number} sides
 * @param {number[] | null} [roundWins]
 * @returns {HTMLTableElement}
 */
export function roundsTable(history, names, players, sides, roundWins = null) {
  const head = h(
    "tr",
    h("th", { scope: "col" }, t("round")),
    Array.from({ length: sides }, (_, s) => h("th.num", { scope: "col" }, sideLabel(names, players, sides, s))),
  );
  const sums = new Array(sides).fill(0);
  const rows = history.map((r) => {
    const totals = r.totals || r.scores.map((b) => b.total);
    totals.forEach((v, i) => (sums[i] += v));
    return h("tr", h("th", { scope: "row" }, String(r.round)), totals.map((v) => h("td.num", String(v))));
  });
  const total = h(
    "tr.total",
    h("th", { scope: "row" }, t("match")),
    sums.map((v) => h("td.num", String(v))),
  );
  const wins = roundWins
    ? h(
        "tr.total.wins-row",
        h("th", { scope: "row" }, t("round_wins")),
        roundWins.map((v) => h("td.num", String(v))),
      )
    : null;
  return h("table.rounds-table", h("thead", head), h("tbody", rows, total, wins));
}

/**
 * The final result: rounds won (where they decide the match) and points, one line a side.
 * @param {View} view
 * @param {boolean} byRounds
 * @returns {HTMLUListElement}
 */
export function matchResult(view, byRounds) {
  return h(
    "ul.match-result",
    Array.from({ length: view.sides }, (_, s) => {
      const points = t("pts", { n: (view.match_scores || [])[s] || 0 });
      const won = (view.round_wins || [])[s] || 0;
      const rounds = won === 1 ? t("round_won_one") : t("rounds_won", { n: won });
      return h(
        "li",
        { dataset: { side: String(s) } },
        `${sideLabel(view.names || [], view.players, view.sides, s)}: ${byRounds ? `${rounds} · ${points}` : points}`,
      );
    }),
  );
}

/**
 * The fairness check of one finished round: the commitment, the revealed seed, and the server's verify answer.
 * @param {Round} round
 * @param {Ruleset} ruleset
 * @returns {HTMLDivElement}
 */
export function fairnessBlock(round, ruleset) {
  const status = h("span.verdict", "…");
  const box = h(
    "div.fairness",
    { dataset: { round: String(round.round) } },
    h("strong", `${t("fairness")} — ${t("round")} ${round.round}: `),
    status,
    h("div", `${t("commitment")}: ${round.commitment || "?"}`),
    h("div", `${t("seed")}: ${round.seed ?? t("fairness_pending")}`),
  );
  if (round.seed != null && round.salt && round.commitment) {
    api
      .verify({ ruleset, dealer: round.dealer, seed: round.seed, salt: round.salt, commitment: round.commitment })
      .then((res) => {
        status.textContent = res.ok ? `✓ ${t("verified")}` : `✗ ${t("not_verified")}: ${res.detail || ""}`;
        status.className = `verdict ${res.ok ? "ok" : "bad"}`;
        box.dataset.ok = res.ok ? "true" : "false";
      })
      .catch((err) => {
        status.textContent = `✗ ${t("not_verified")}: ${err.message}`;
        status.className = "verdict bad";
        box.dataset.ok = "false";
      });
  } else {
    status.textContent = t("fairness_pending");
  }
  return box;
}

/**
 * The names of a side's seats (a seat without one by its number), for a headline to join in words.
 * @param {View} view
 * @param {number} side
 * @returns {string[]}
 */
function sideNames(view, side) {
  const out = [];
  for (let s = 0; s < view.players; s++) {
    if (s % view.sides === side) out.push((view.names || [])[s] || `${t("seat")} ${s + 1}`);
  }
  return out;
}

/**
 * A result in words: "You won round 1, 48–17", "Maria and Nikos won the match, 151–98", "Round 2 is a draw, 20–20".
 * The winner's score comes first (the viewer's, when the viewer won or drew).
 * @param {View} view
 * @param {number[]} totals a total per side
 * @param {number | null} winner the winning side, or null for a draw
 * @param {number | null} round the round's number, or null for the match
 * @returns {string}
 */
export function resultHeadline(view, totals, winner, round) {
  const mine = view.seat != null ? view.seat % view.sides : null;
  const first = winner ?? mine ?? 0;
  const score = [totals[first], ...totals.filter((_, i) => i !== first)].join("–");
  const what = round == null ? "match" : "round";
  if (winner == null) return t(`${what}_draw`, { n: round, score });
  if (winner === mine) {
    const team = view.players === 4;
    return t(team ? `${what}_won_team` : `${what}_won_you`, { n: round, score });
  }
  return t(`${what}_won_by`, { names: joinNames(sideNames(view, winner)), n: round, score });
}

/**
 * The side with the highest total, or null when two or more share it.
 * @param {number[]} totals
 * @returns {number | null}
 */
function topSide(totals) {
  const best = Math.max(...totals);
  const at = totals.map((v, i) => (v === best ? i : -1)).filter((i) => i >= 0);
  return at.length === 1 ? at[0] : null;
}

/**
 * A round's headline in words, for the round dialog's title.
 * @param {Round} round
 * @param {View} view
 * @returns {string}
 */
export function roundHeadline(round, view) {
  const totals = round.scores.map((b) => b.total);
  return resultHeadline(view, totals, topSide(totals), round.round);
}

/**
 * One line a side: its total, then the items that scored, in the fixed order of the breakdown.
 * @param {Round} round
 * @param {View} view
 * @returns {HTMLUListElement}
 */
export function compactBreakdown(round, view) {
  /** @param {string} k */
  const rank = (k) => (SCORE_ORDER.includes(k) ? SCORE_ORDER.indexOf(k) : SCORE_ORDER.length);
  return h(
    "ul.compact-breakdown",
    round.scores.map((b) => {
      const items = b.lines
        .map((l) => ({ key: splitScoreLabel(l.label)[0], points: l.points }))
        .filter((l) => l.points)
        .sort((a, c) => rank(a.key) - rank(c.key))
        .map((l) => `${scoreLabel(l.key)} ${l.points}`);
      return h(
        "li",
        { dataset: { side: String(b.side) } },
        h("strong", `${joinNames(sideNames(view, b.side))}: ${t("pts", { n: b.total })}`),
        items.length ? ` — ${items.join(", ")}` : null,
      );
    }),
  );
}

/**
 * The details a dialog folds below its summary: the full tables and the fairness hashes.
 * @param {import("../lib/dom.js").Child[]} children
 * @returns {HTMLDetailsElement}
 */
export function folded(...children) {
  return h("details.dialog-more", h("summary", t("details_more")), children);
}

/**
 * The round dialog's body: the compact breakdown, then (folded) the full table, the rounds and the fair shuffle.
 * @param {Round} round
 * @param {View} view
 * @param {Round[]} history
 * @param {Ruleset} ruleset
 * @returns {HTMLDivElement}
 */
export function roundOverBody(round, view, history, ruleset) {
  const names = view.names;
  return h(
    "div.round-over",
    compactBreakdown(round, view),
    folded(
      breakdownTable(round, names, view.players, view.sides),
      roundsTable(history, names, view.players, view.sides, view.round_wins),
      fairnessBlock(round, ruleset),
    ),
  );
}

/**
 * The match's headline: the winner and the final score (in rounds won, where rounds decide the match).
 * @param {View} view
 * @param {boolean} byRounds
 * @returns {string}
 */
export function matchHeadline(view, byRounds) {
  const by = (byRounds && view.round_wins) || view.match_scores || [];
  const totals = Array.from({ length: view.sides }, (_, s) => by[s] || 0);
  return resultHeadline(view, totals, view.winner ?? topSide(totals), null);
}
