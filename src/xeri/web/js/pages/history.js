// @ts-check
// Past matches, a move-by-move replay, record downloads and per-player stats.

import { api } from "../net/api.js";
import { ApiError } from "../net/http.js";
import { renderBoard } from "../table/board.js";
import { cardLabel } from "../lib/cards.js";
import { breakdownTable } from "../table/reports.js";
import { clear, h } from "../lib/dom.js";
import { botName, errorText, locale, t } from "../lib/i18n.js";
import { describeEvents } from "../table/movelog.js";
import { prefs } from "../lib/prefs.js";
import { reviewPanel } from "./review.js";
import { account } from "./account.js";
import { seats } from "../net/seats.js";

/** @typedef {import("../net/types.js").MatchSummary} MatchSummary */

/**
 * A date and time in the page's language.
 * @param {string | null | undefined} iso
 * @returns {string}
 */
export function when(iso) {
  if (!iso) return "";
  try {
    return new Date(iso).toLocaleString(locale(), {
      dateStyle: "short",
      timeStyle: "short",
    });
  } catch {
    return iso;
  }
}

/**
 * @param {HTMLElement} root
 * @param {unknown} err
 */
export function failure(root, err) {
  const text = err instanceof ApiError ? errorText(err.code, err.message) : String(err);
  clear(root).appendChild(h("div.panel", h("p", `${t("error")}: ${text}`)));
}

/**
 * A seat's server bot level (the summary's `bots` field), or null for a person.
 * @param {{ bots?: (string | null)[] | null }} m a match summary or a replay
 * @param {number} seat
 * @returns {string | null}
 */
function botOf(m, seat) {
  return (m.bots && m.bots[seat]) || null;
}

/**
 * A seat's name as shown: a bot as the table named it, by its seat and level ("Computer 2 (medium)", botName).
 * @param {{ names: string[], bots?: (string | null)[] | null }} m a match summary or a replay
 * @param {number} seat
 * @returns {string}
 */
export function shownName(m, seat) {
  const level = botOf(m, seat);
  return level ? botName(seat, level) : m.names[seat];
}

/**
 * The score as the match was decided: rounds won first where rounds decide it, then the points.
 * @param {MatchSummary} m
 * @returns {string}
 */
export function matchScore(m) {
  const points = (m.scores || []).join(" – ");
  if (m.ruleset && m.ruleset.match_end === "rounds" && m.round_wins)
    return `${t("round_wins")}: ${m.round_wins.join(" – ")} · ${t("points")}: ${points}`;
  return points;
}

/**
 * @param {MatchSummary} m
 * @returns {string}
 */
export function winnersOf(m) {
  if (m.winner == null || !m.ruleset) return (m.winners || []).join(" & ");
  const sides = m.ruleset.players === 4 ? 2 : m.ruleset.players;
  return m.names.map((_, i) => i).filter((i) => i % sides === m.winner).map((i) => shownName(m, i)).join(" & ");
}

/**
 * The finished matches (of one player, when `player` is given).
 * @param {HTMLElement} container
 * @param {string | null} [player]
 * @returns {Promise<() => void>} the unmount
 */
export async function mountHistory(container, player = null) {
  const root = h("section.history.panel");
  clear(container).appendChild(root);
  root.appendChild(h("p", t("loading")));
  let data;
  try {
    data = await api.matches(player);
  } catch (err) {
    failure(root, err);
    return () => {};
  }
  clear(root).appendChild(h("h1", t("history") + (player ? ` — ${player}` : "")));
  if (!data.matches.length) {
    root.appendChild(h("p.muted.no-matches", t("no_matches")));
    return () => {};
  }
  // Your matches first (issue 41): this browser's seats, and a signed-in account's; everyone's else below them.
  const me = account().signed_in ? account().name : null;
  const mine = player ? [] : data.matches.filter((m) => seats.get(m.id) != null || (me != null && m.names.some(
    (n, i) => n === me && !botOf(m, i))));
  const others = data.matches.filter((m) => !mine.includes(m));
  if (mine.length) {
    root.appendChild(h("p", h("a.all-matches-link", { href: "#all-matches", onclick: (/** @type {Event} */ ev) => {
      ev.preventDefault(); // the page's router owns the hash: scroll instead
      root.querySelector("#all-matches")?.scrollIntoView();
    } }, t("all_matches"))));
    root.appendChild(h("h2.your-matches", t("your_matches")));
    root.appendChild(matchesTable(mine, "your"));
  }
  if (others.length) {
    if (mine.length) root.appendChild(h("h2#all-matches", { tabIndex: -1 }, t("all_matches")));
    root.appendChild(matchesTable(others, "all"));
  }
  return () => {};
}

/**
 * A list of finished matches: when, who, the score, the winners, and the replay and record links.
 * @param {MatchSummary[]} matches
 * @param {string} kind "your" or "all", the table's class
 * @returns {HTMLElement}
 */
function matchesTable(matches, kind) {
  const rows = matches.map((m) =>
    h(
      "tr",
      { dataset: { match: m.id } },
      h("td", when(m.finished_at)),
      h(
        "td",
        m.names.map((n, i) => [
          i ? ", " : "",
          botOf(m, i) ? shownName(m, i) : h("a", { href: `#/stats/${encodeURIComponent(n)}` }, n),
        ]),
      ),
      h("td", matchScore(m)),
      h("td", winnersOf(m)),
      h(
        "td",
        h("a.replay-link", { href: `#/replay/${m.id}` }, t("replay")),
        " · ",
        h("a.record-link", { href: api.recordUrl(m.id), download: `xeri-${m.id}.json` }, t("download_record")),
      ),
    ),
  );
  return h(
    "div",
    { style: "overflow-x:auto" },
    h(
      `table.list-table.matches.${kind}-matches`,
      h(
        "thead",
        h(
          "tr",
          h("th", t("played_at")),
          h("th", t("players")),
          h("th", t("score")),
          h("th", t("winner_col")),
          h("th", h("span.sr-only", t("replay"))),
        ),
      ),
      h("tbody", rows),
    ),
  );
}

/**
 * Players by wins, or one player's stats.
 * @param {HTMLElement} container
 * @param {string | null} [name]
 * @returns {Promise<() => void>} the unmount
 */
export async function mountStats(container, name = null) {
  const root = h("section.stats.panel");
  clear(container).appendChild(root);
  const search = h("input.stats-name", {
    value: name || prefs.get("name") || "",
    placeholder: t("search_player"),
    "aria-label": t("search_player"),
  });
  const form = h(
    "form.invite",
    {
      onsubmit: (ev) => {
        ev.preventDefault();
        location.hash = `#/stats/${encodeURIComponent(search.value.trim())}`;
      },
    },
    search,
    h("button", { type: "submit" }, t("stats")),
  );
  root.append(h("h1", t("stats") + (name ? ` — ${name}` : "")), form);
  /** @type {("games" | "wins" | "points" | "xeris")[]} */
  const cols = ["games", "wins", "points", "xeris"];
  /** @param {import("../net/types.js").Stats[]} players */
  const table = (players) =>
    h(
      "table.list-table.stats-table",
      h(
        "thead",
        h(
          "tr",
          h("th", t("player")),
          cols.map((c) => h("th", t(c))),
        ),
      ),
      h(
        "tbody",
        players.map((p) =>
          h(
            "tr",
            { dataset: { player: p.name } },
            h("td", h("a", { href: `#/stats/${encodeURIComponent(p.name)}` }, p.name)),
            cols.map((c) => h("td", String(p[c] ?? 0))),
          ),
        ),
      ),
    );
  try {
    if (name) {
      const [stats, matches] = await Promise.all([api.playerStats(name), api.matches(name)]);
      const results = playerResults(matches.matches, name);
      root.append(table([stats]));
      if (results.length) {
        root.append(
          recentChart(results),
          rateTable("by_level", results, (r) => r.levels),
          rateTable("by_opponent", results, (r) => r.opponents),
        );
      }
      root.append(h("p", h("a", { href: `#/history/${encodeURIComponent(name)}` }, t("history"))));
    } else {
      const data = await api.players();
      root.append(data.players.length ? table(data.players) : h("p.muted", t("no_matches")));
    }
  } catch (err) {
    root.append(h("p", `${t("error")}: ${err instanceof Error ? err.message : String(err)}`));
  }
  return () => {};
}

/**
 * One finished match from one player's side.
 * @typedef {object} PlayerResult
 * @property {string} id
 * @property {"win" | "loss" | "draw"} result
 * @property {number} margin the player's points less the best other side's
 * @property {string[]} levels the levels of the computer opponents ("" when all were people)
 * @property {string[]} opponents the opponents' shown names
 */

/**
 * The player's matches as results, oldest first: won, lost or drawn, by how much, against which levels and whom.
 * @param {MatchSummary[]} matches newest first, as GET /api/matches gives them
 * @param {string} name
 * @returns {PlayerResult[]}
 */
export function playerResults(matches, name) {
  /** @type {PlayerResult[]} */
  const out = [];
  for (const m of matches) {
    const seat = m.names.findIndex((n, i) => n === name && !botOf(m, i));
    if (seat < 0 || !m.ruleset) continue;
    const sides = m.ruleset.players === 4 ? 2 : m.ruleset.players;
    const side = seat % sides;
    const scores = m.scores || [];
    const others = scores.filter((_, s) => s !== side);
    const otherSeats = m.names.map((_, i) => i).filter((i) => i % sides !== side);
    out.push({
      id: m.id,
      result: m.winner == null ? "draw" : m.winner === side ? "win" : "loss",
      margin: (scores[side] || 0) - (others.length ? Math.max(...others) : 0),
      levels: [...new Set(otherSeats.map((i) => botOf(m, i)).filter((l) => l != null))].map(String),
      // A bot by its kind ("Computer (medium)"): its seat number is one match's, not an opponent's across them.
      opponents: otherSeats.map((i) => (botOf(m, i) ? botName(null, botOf(m, i)) : m.names[i])),
    });
  }
  return out.reverse();
}

/**
 * Win rates by a grouping of the results: a row per group, with games, wins and the rate.
 * @param {string} titleKey
 * @param {PlayerResult[]} results
 * @param {(r: PlayerResult) => string[]} groups the groups a result counts in
 * @returns {HTMLElement}
 */
function rateTable(titleKey, results, groups) {
  /** @type {Map<string, { games: number, wins: number }>} */
  const by = new Map();
  for (const r of results) {
    for (const g of groups(r)) {
      const row = by.get(g) || { games: 0, wins: 0 };
      row.games += 1;
      if (r.result === "win") row.wins += 1;
      by.set(g, row);
    }
  }
  const levelNames = titleKey === "by_level";
  const rows = [...by.entries()].sort((a, b) => b[1].games - a[1].games);
  return h(
    "section.win-rates",
    { dataset: { by: titleKey } },
    h("h2", t(titleKey)),
    h(
      "table.list-table.rate-table",
      h(
        "thead",
        h(
          "tr",
          h("th", { scope: "col" }, t(levelNames ? "level" : "opponent")),
          h("th", { scope: "col" }, t("games")),
          h("th", { scope: "col" }, t("wins")),
          h("th", { scope: "col" }, t("win_rate")),
        ),
      ),
      h(
        "tbody",
        rows.map(([g, row]) =>
          h(
            "tr",
            { dataset: { group: g } },
            h("th", { scope: "row" }, levelNames ? t(g) : g),
            h("td", String(row.games)),
            h("td", String(row.wins)),
            h("td", `${Math.round((100 * row.wins) / row.games)}%`),
          ),
        ),
      ),
    ),
  );
}

/**
 * The recent results as a small SVG bar chart: a bar a match, up by the margin of a win, down by that of a loss.
 * @param {PlayerResult[]} results oldest first
 * @returns {HTMLElement}
 */
function recentChart(results) {
  const recent = results.slice(-20);
  const ns = "http://www.w3.org/2000/svg";
  const width = 300;
  const height = 80;
  const bar = width / recent.length;
  const top = Math.max(1, ...recent.map((r) => Math.abs(r.margin)));
  const svg = document.createElementNS(ns, "svg");
  const wins = recent.filter((r) => r.result === "win").length;
  const losses = recent.filter((r) => r.result === "loss").length;
  const summary = t("chart_summary", {
    n: recent.length, wins: t("n_won", { n: wins }), losses: t("n_lost", { n: losses }),
    draws: t("n_drawn", { n: recent.length - wins - losses }),
  });
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "recent-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", summary);
  const axis = document.createElementNS(ns, "line");
  Object.entries({ x1: 0, x2: width, y1: height / 2, y2: height / 2, class: "axis" }).forEach(([k, v]) =>
    axis.setAttribute(k, String(v)),
  );
  svg.appendChild(axis);
  recent.forEach((r, i) => {
    const size = Math.max(3, ((height / 2 - 2) * Math.abs(r.margin)) / top);
    const rect = document.createElementNS(ns, "rect");
    const up = r.result === "win" || (r.result === "draw" && r.margin >= 0);
    Object.entries({
      x: i * bar + bar * 0.15,
      width: bar * 0.7,
      y: up ? height / 2 - size : height / 2,
      height: size,
      class: `bar ${r.result}`,
    }).forEach(([k, v]) => rect.setAttribute(k, String(v)));
    rect.dataset.result = r.result;
    svg.appendChild(rect);
  });
  return h("figure.recent", h("figcaption", h("h2", t("recent_results"))), svg, h("p.muted", summary));
}

/**
 * One replay step in the move log's words (docs/web.md): who played what, what it took, each xeri.
 * @param {import("../net/types.js").Step} step
 * @param {string[]} names
 * @param {number} sides
 * @returns {string}
 */
function describeStep(step, names, sides) {
  /** @param {number} seat */
  const nameOf = (seat) => names[seat] || `${t("seat")} ${seat + 1}`;
  /** @param {number} side */
  const sideText = (side) => names.filter((_, s) => s % sides === side).join(" & ");
  const lines = describeEvents(step.events || [], nameOf, sideText).map((l) => l.text);
  if (step.takeback && step.seat != null)
    return t("took_back", { name: nameOf(step.seat), cards: step.takeback.map(cardLabel).join(" ") });
  // A deal (no card, no seat) with nothing to say is named by its round.
  if (step.card == null || step.seat == null) return lines.join(". ") || `${t("round")} ${step.round}`;
  return lines.join(". ") || `${nameOf(step.seat)}: ${cardLabel(step.card)}`;
}

/**
 * A finished match move by move, with every hand shown, and the master's review beside it.
 * @param {HTMLElement} container
 * @param {string} id
 * @param {number | null} [reviewSeat] the seat whose review to offer first (a profile's link), else the first person
 * @returns {Promise<() => void>} the unmount
 */
export async function mountReplay(container, id, reviewSeat = null) {
  const root = h("section.replay");
  clear(container).appendChild(root);
  root.appendChild(h("p", t("loading")));
  let data;
  try {
    data = await api.replay(id);
  } catch (err) {
    failure(root, err);
    return () => {};
  }
  const steps = data.steps;
  const names = data.names.map((_, seat) => shownName(data, seat));
  const review = reviewPanel(
    id,
    names,
    steps,
    (k) => go(k),
    reviewSeat != null && reviewSeat >= 0 && reviewSeat < data.names.length ? reviewSeat : Math.max(
      0,
      data.names.findIndex((_, seat) => !botOf(data, seat)),
    ),
  );
  let i = 0;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let playing;
  const slot = h("div.replay-board");
  const caption = h("span.step-caption");
  const what = h("div.step-what", { "aria-live": "polite" });
  const scores = h("div.step-scores");
  /** @param {number} k */
  const go = (k) => {
    i = Math.max(0, Math.min(steps.length - 1, k));
    show();
  };
  const stop = () => {
    clearInterval(playing);
    playing = undefined;
    playBtn.textContent = `▶ ${t("play_pause")}`;
  };
  const playBtn = h("button.replay-play", {
    type: "button",
    onclick: () => {
      if (playing) return stop();
      playBtn.textContent = "⏸";
      playing = setInterval(() => (i >= steps.length - 1 ? stop() : go(i + 1)), 700);
    },
  }, `▶ ${t("play_pause")}`);
  const controls = h(
    "div.replay-controls",
    h("button.replay-first", { type: "button", onclick: () => go(0) }, `« ${t("first")}`),
    h("button.replay-prev", { type: "button", onclick: () => go(i - 1) }, `◀ ${t("prev")}`),
    h("button.replay-next", { type: "button", onclick: () => go(i + 1) }, `${t("next_move")} ▶`),
    h("button.replay-last", { type: "button", onclick: () => go(steps.length - 1) }, `${t("last")} »`),
    playBtn,
    caption,
    h("a", { href: api.recordUrl(id), download: `xeri-${id}.json` }, t("download_record")),
  );
  function show() {
    const step = steps[i];
    /** @type {import("../net/types.js").View} */
    const view = { ...step.state, seat: null, names };
    caption.textContent = t("step", { i, n: steps.length - 1 });
    what.textContent = describeStep(step, names, view.sides);
    review.show(i);
    clear(slot).appendChild(
      renderBoard(view, { fourColour: prefs.get("fourColour"), hands: step.state.hands, replay: true }),
    );
    clear(scores);
    const scored = (step.events || []).find((e) => e.kind === "round_scored");
    if (scored) {
      const players = view.players;
      const sides = view.sides;
      scores.appendChild(breakdownTable({ round: step.round, scores: scored.scores }, names, players, sides));
    }
  }
  /** @param {KeyboardEvent} ev */
  const onKey = (ev) => {
    if (ev.target instanceof Element && ev.target.closest("input, select, textarea")) return;
    if (ev.key === "ArrowRight") go(i + 1);
    else if (ev.key === "ArrowLeft") go(i - 1);
  };
  document.addEventListener("keydown", onKey);
  clear(root).append(
    h("h1", `${t("replay")}: ${names.join(" – ")}`),
    controls,
    what,
    review.note,
    slot,
    scores,
    review.el,
  );
  show();
  return () => {
    stop();
    review.stop();
    document.removeEventListener("keydown", onKey);
  };
}
