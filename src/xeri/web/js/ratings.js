// @ts-check
// Ratings (docs/ratings.md): a profile's ratings with their deviation and a chart of them over time, and a
// format's leaderboard. The chart is an SVG drawn here from the points the profile gives, with a text summary
// and a table of its points for screen readers.

import { api, ApiError } from "./api.js";
import { clear, h } from "./dom.js";
import { errorText, locale, t } from "./i18n.js";

/** @typedef {import("./protocol.js").ProfileRating} ProfileRating */
/** @typedef {import("./protocol.js").RatingPoint} RatingPoint */
/** @typedef {import("./protocol.js").Leaderboard} Leaderboard */

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * @param {string} fmt a rated format, "classic-2p" or "classic-4p"
 * @returns {string}
 */
export function formatName(fmt) {
  return t(fmt === "classic-4p" ? "format_classic_4p" : "format_classic_2p");
}

/**
 * @param {string} iso
 * @returns {string}
 */
function day(iso) {
  try {
    return new Date(iso).toLocaleDateString(locale(), { dateStyle: "medium" });
  } catch {
    return iso;
  }
}

/**
 * @param {string} name
 * @param {Record<string, string | number>} attrs
 * @returns {SVGElement}
 */
function svg(name, attrs) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/**
 * The chart of one format's rating over time: a line through the ratings after each match, a band of one
 * deviation around it. Labelled by its title and a summary; its points are also a table, for screen readers.
 * @param {string} fmt
 * @param {RatingPoint[]} points oldest first
 * @returns {HTMLElement}
 */
export function ratingChart(fmt, points) {
  const width = 320;
  const height = 120;
  const pad = 6;
  const lows = points.map((p) => p.rating - p.deviation);
  const highs = points.map((p) => p.rating + p.deviation);
  const lo = Math.min(...lows);
  const hi = Math.max(...highs, lo + 1);
  const x = (/** @type {number} */ i) => pad + (points.length < 2 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (/** @type {number} */ v) => height - pad - ((v - lo) * (height - 2 * pad)) / (hi - lo);
  const id = `rating-chart-${fmt}`;
  const first = points[0];
  const last = points[points.length - 1];
  const summary = t("rating_chart_summary", {
    n: points.length,
    first: first.rating,
    last: last.rating,
    deviation: last.deviation,
    low: Math.min(...points.map((p) => p.rating)),
    high: Math.max(...points.map((p) => p.rating)),
  });
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "rating-chart",
    role: "img",
    "aria-labelledby": `${id}-title ${id}-desc`,
  });
  const title = svg("title", { id: `${id}-title` });
  title.textContent = t("rating_chart_title", { format: formatName(fmt) });
  const desc = svg("desc", { id: `${id}-desc` });
  desc.textContent = summary;
  chart.append(title, desc);
  const band = points.map((p, i) => `${x(i)},${y(p.rating + p.deviation)}`);
  const under = points.map((p, i) => `${x(i)},${y(p.rating - p.deviation)}`).reverse();
  chart.appendChild(svg("polygon", { class: "deviation", points: [...band, ...under].join(" ") }));
  chart.appendChild(
    svg("polyline", { class: "rating-line", points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ") }),
  );
  points.forEach((p, i) => {
    const dot = svg("circle", { cx: x(i), cy: y(p.rating), r: 2.5, class: p.won ? "win" : "loss" });
    dot.dataset.rating = String(p.rating);
    chart.appendChild(dot);
  });
  const table = h(
    "table.sr-only.rating-points",
    h("caption", t("rating_chart_title", { format: formatName(fmt) })),
    h("thead", h("tr", h("th", { scope: "col" }, t("rating_date")), h("th", { scope: "col" }, t("rating")),
      h("th", { scope: "col" }, t("rating_deviation")), h("th", { scope: "col" }, t("rating_result")))),
    h("tbody", points.map((p) => h("tr", h("td", day(p.at)), h("td", String(p.rating)), h("td", `±${p.deviation}`),
      h("td", t(p.won ? "rating_won" : "rating_lost"))))),
  );
  return h("figure.rating-figure", { dataset: { format: fmt } }, chart, h("figcaption.muted", summary), table);
}

/**
 * A profile's ratings: one row a format (rating ± deviation, matches, wins), and each format's chart.
 * @param {ProfileRating[]} ratings
 * @param {RatingPoint[]} history oldest first
 * @returns {HTMLElement}
 */
export function ratingsPanel(ratings, history) {
  const root = h("section.ratings-panel", { "aria-labelledby": "ratings-title" }, h("h2#ratings-title", t("ratings")));
  if (!ratings.length) {
    root.appendChild(h("p.muted.no-ratings", t("no_ratings")));
    return root;
  }
  root.appendChild(
    h(
      "table.ratings",
      h("thead", h("tr", h("th", { scope: "col" }, t("rating_format")), h("th", { scope: "col" }, t("rating")),
        h("th", { scope: "col" }, t("rated_matches")), h("th", { scope: "col" }, t("wins")))),
      h("tbody", ratings.map((r) => h("tr", { dataset: { format: r.format } },
        h("th", { scope: "row" }, h("a", { href: `#/leaderboard/${r.format}` }, formatName(r.format))),
        h("td.rating", h("span.rating-value", String(r.rating)), " ",
          h("span.rating-deviation", { "aria-label": t("deviation_is", { deviation: r.deviation }) },
            `±${r.deviation}`)),
        h("td", String(r.games)), h("td", String(r.wins))))),
    ),
  );
  for (const r of ratings) {
    const points = history.filter((p) => p.format === r.format);
    if (points.length) root.appendChild(ratingChart(r.format, points));
  }
  return root;
}

/**
 * A format's leaderboard: the players with enough rated matches and a low enough deviation.
 * @param {HTMLElement} container
 * @param {string} fmt
 * @returns {Promise<() => void>} the unmount
 */
export async function mountLeaderboard(container, fmt) {
  const root = h("section.leaderboard.panel");
  clear(container).appendChild(root);
  root.appendChild(h("p", t("loading")));
  /** @type {Leaderboard} */
  let data;
  try {
    data = await api.leaderboard(fmt);
  } catch (err) {
    const text = err instanceof ApiError ? errorText(err.code, err.message) : String(err);
    clear(root).appendChild(h("p", `${t("error")}: ${text}`));
    return () => {};
  }
  clear(root).append(
    h("h1", t("leaderboard_title", { format: formatName(data.format) })),
    h("nav.formats", { "aria-label": t("rating_formats") }, data.formats.map((f) =>
      h("a", { href: `#/leaderboard/${f}`, "aria-current": f === data.format ? "page" : null }, formatName(f)))),
    h("p.muted.leaderboard-rules", t("leaderboard_rules", { games: data.min_games, deviation: data.max_deviation })),
  );
  if (!data.players.length) {
    root.appendChild(h("p.muted.no-players", t("leaderboard_empty")));
    return () => {};
  }
  root.appendChild(
    h(
      "table.leaderboard-table",
      h("thead", h("tr", h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("player")),
        h("th", { scope: "col" }, t("rating")), h("th", { scope: "col" }, t("rated_matches")),
        h("th", { scope: "col" }, t("wins")))),
      h("tbody", data.players.map((p) => h("tr", { dataset: { player: p.name } },
        h("td", String(p.rank)),
        h("th", { scope: "row" }, h("a", { href: `#/profile/${encodeURIComponent(p.name)}` }, p.name)),
        h("td", `${p.rating} ±${p.deviation}`), h("td", String(p.games)), h("td", String(p.wins))))),
    ),
  );
  return () => {};
}
