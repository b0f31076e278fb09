// @ts-check
// The round's and the match's reports: the breakdown of a round, the rounds so far, the result, the fairness check.

import { api } from "../net/api.js";
import { cardLabel, rankValue } from "../lib/cards.js";
import { h } from "../lib/dom.js";
import { cardsCount, joinNames, SCORE_ORDER, scoreLabel, splitScoreLabel, t } from "../lib/i18n.js";

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
 * The details a dialog folds below its summary: the full tables and the fairness hashes.
 * @param {import("../lib/dom.js").Child[]} children
 * @returns {HTMLDetailsElement}
 */
export function folded(...children) {
  return h("details.dialog-more", h("summary", t("details_more")), children);
}

// --- the round's end you can read: each side's captured cards, the ones that score lit --------------------------

/** The suits in the order a hand is held: black and red apart. */
const HAUL_SUITS = ["S", "H", "C", "D"];
/** @type {Record<string, string>} */
const SUIT_MARK = { S: "♠", H: "♥", C: "♣", D: "♦" };

/**
 * A small card of a side's haul: its rank over its suit, lit when it scores (`items`: the score rows it counts in).
 * @param {string} code
 * @param {string[]} items
 * @param {boolean} xeri
 * @returns {HTMLLIElement}
 */
function haulCard(code, items, xeri) {
  const label = cardLabel(code);
  const card = h(
    `li.mini-card.suit-${code[1]}`,
    { dataset: { card: code, items: items.join("|") }, title: items.length ? `${label}: ${items.join(", ")}` : label },
    h("span.mc-rank", label.slice(0, -1)),
    h("span.mc-suit", label.slice(-1)),
    items.length ? h("span.sr-only", ` (${items.join(", ")})`) : null,
  );
  if (items.length) card.classList.add("lit");
  if (xeri) card.classList.add("xeri-card");
  return card;
}

/**
 * One side's captured cards, grouped by suit, highest first, with every card a score line counts lit: the round's
 * end screen. Without the server's `captured` (a round scored before it was sent) the lit cards alone are shown.
 * @param {import("../net/types.js").Breakdown} b
 * @returns {HTMLElement}
 */
function haulCards(b) {
  /** @type {Map<string, string[]>} */
  const lit = new Map();
  const xeris = new Set();
  for (const line of b.lines) {
    const [key] = splitScoreLabel(line.label);
    for (const code of line.cards || []) {
      lit.set(code, [...(lit.get(code) || []), scoreLabel(key)]);
      if (key === "xeri" || key === "Jack xeri") xeris.add(code);
    }
  }
  const cards = b.captured && b.captured.length ? b.captured : [...lit.keys()];
  const rows = HAUL_SUITS.map((suit) => {
    const mine = cards.filter((c) => c[1] === suit).sort((x, y) => rankValue(y) - rankValue(x));
    if (!mine.length) return null;
    return h(
      "li.haul-suit",
      { dataset: { suit } },
      h(`span.suit-mark.suit-${suit}`, { "aria-hidden": "true" }, SUIT_MARK[suit]),
      h("ul.mini-cards", mine.map((c) => haulCard(c, lit.get(c) || [], xeris.has(c)))),
    );
  });
  return h("ul.haul-suits", { "aria-label": t("captured") }, rows);
}

/**
 * One side's score rows, each with its points, in the breakdown's fixed order: what the lit cards add up to.
 * @param {import("../net/types.js").Breakdown} b
 * @returns {HTMLUListElement}
 */
function haulItems(b) {
  /** @param {string} k */
  const rank = (k) => (SCORE_ORDER.includes(k) ? SCORE_ORDER.indexOf(k) : SCORE_ORDER.length);
  const lines = b.lines
    .map((l) => ({ split: splitScoreLabel(l.label), points: l.points }))
    .filter((l) => l.points)
    .sort((a, c) => rank(a.split[0]) - rank(c.split[0]));
  return h(
    "ul.haul-items",
    lines.map(({ split: [key, count], points }) =>
      h(
        "li",
        { dataset: { item: key } },
        h("span.item-name", count ? `${scoreLabel(key)} (${count})` : scoreLabel(key)),
        h("span.item-points", `+${points}`),
      ),
    ),
  );
}

/**
 * The round's end: a panel a side with its name and points, its captured cards by suit (the cards that score lit)
 * and its score rows; then the match's score.
 * @param {Round} round
 * @param {View} view
 * @param {boolean} byRounds whether rounds won decide the match
 * @returns {HTMLDivElement}
 */
export function roundHaul(round, view, byRounds) {
  const mine = view.seat != null ? view.seat % view.sides : null;
  const best = topSide(round.scores.map((b) => b.total));
  const sides = round.scores.map((b) => {
    const name = joinNames(sideNames(view, b.side));
    const panel = h(
      "li.side-haul",
      { dataset: { side: String(b.side) } },
      h(
        "div.haul-head",
        h("strong.haul-name", `${name}: `, h("span.haul-points", t("pts", { n: b.total }))),
        h("span.haul-count", cardsCount(b.cards)),
      ),
      haulCards(b),
      haulItems(b),
    );
    if (b.side === mine) panel.classList.add("mine");
    if (b.side === best) panel.classList.add("round-winner");
    return panel;
  });
  const target = view.target ? ` · ${t("to_target", { n: view.target })}` : "";
  return h(
    "div.round-haul",
    h("ul.compact-breakdown.haul-sides", sides),
    h(
      "p.haul-note",
      h("span.mini-card.lit.legend", { "aria-hidden": "true" }, "A"),
      ` ${t("haul_lit_note")} · `,
      h("span.xeri-note", h("span.xeri-mark", { "aria-hidden": "true" }, "★"), ` ${t("haul_xeri_note")}`),
    ),
    h("div.haul-match", h("h3", `${t("match_score")}${target}`), matchResult(view, byRounds)),
  );
}

/**
 * The round dialog's body: each side's captured cards and points, the match's score, then (folded) the full
 * table, the rounds and the fair shuffle.
 * @param {Round} round
 * @param {View} view
 * @param {Round[]} history
 * @param {Ruleset} ruleset
 * @returns {HTMLDivElement}
 */
export function roundOverBody(round, view, history, ruleset) {
  const names = view.names;
  const byRounds = Boolean(ruleset && ruleset.match_end === "rounds");
  return h(
    "div.round-over",
    roundHaul(round, view, byRounds),
    folded(
      breakdownTable(round, names, view.players, view.sides),
      roundsTable(history.filter((r) => r.round <= round.round), names, view.players, view.sides, view.round_wins),
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
