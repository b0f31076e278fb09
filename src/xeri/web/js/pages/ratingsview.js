// @ts-check
// The ratings on the page (docs/ratings.md): a profile's rating per format with its deviation and a chart of it over
// time (inline SVG, its points also a table for screen readers), and a rated match's change at its end. Loaded when
// first needed (a profile, the end of a rated match), like leaderboard.js.

import { api } from "../net/api.js";
import { clear, h } from "../lib/dom.js";
import { when } from "./history.js";
import { t } from "../lib/i18n.js";
import "./ratingstrings.js";

/** The rated formats, in the order the page shows them (xeri.ratings.FORMATS). */
export const FORMATS = ["classic-2p", "classic-4p"];
/** A player's rating before their first rated match (xeri.ratings.model.START_MU). */
const START = 1500;

/**
 * A format's name in the page's language: "Classic, 2 players".
 * @param {string} fmt
 * @returns {string}
 */
export function formatName(fmt) {
  return t(`format_${fmt.replace(/-/g, "_")}`);
}

/**
 * A rating as the page shows it: "1612 ±143".
 * @param {{ rating: number, deviation: number }} r
 * @returns {string}
 */
export function shown(r) {
  return `${r.rating} ±${r.deviation}`;
}

const SVG = "http://www.w3.org/2000/svg";

/**
 * An SVG element with its attributes.
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @returns {SVGElement}
 */
function svg(tag, attrs) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVG, tag));
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/**
 * The rating over time in one format: the line of the ratings in the band of their deviations, a dot per rated
 * match. An image to a screen reader, named by its first and last rating; its points are the table beside it.
 * @param {string} fmt
 * @param {import("../net/types.js").RatingPoint[]} points the format's, the oldest first
 * @returns {HTMLElement}
 */
export function ratingChart(fmt, points) {
  const [width, height, left, pad] = [320, 140, 40, 10];
  const lo = Math.min(...points.map((p) => p.rating - p.deviation));
  const hi = Math.max(...points.map((p) => p.rating + p.deviation));
  const y = (/** @type {number} */ r) => pad + ((hi - r) * (height - 2 * pad)) / Math.max(hi - lo, 1);
  const x = (/** @type {number} */ i) =>
    points.length > 1 ? left + (i * (width - left - pad)) / (points.length - 1) : (left + width - pad) / 2;
  const label = t("chart_label", { format: formatName(fmt), first: shown(points[0]),
    last: shown(points[points.length - 1]) });
  const chart = svg("svg", { class: "rating-chart", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": label });
  const title = svg("title", {});
  title.textContent = label;
  const band = [...points.map((p, i) => `${x(i)},${y(p.rating + p.deviation)}`),
    ...points.map((p, i) => `${x(i)},${y(p.rating - p.deviation)}`).reverse()];
  chart.append(title, svg("polygon", { class: "band", points: band.join(" ") }),
    svg("polyline", { class: "line", points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ") }));
  for (const [i, p] of points.entries())
    chart.appendChild(svg("circle", { cx: x(i), cy: y(p.rating), r: 3.5, "data-rating": p.rating }));
  for (const r of [hi, lo]) {
    const text = svg("text", { x: left - 4, y: y(r) + (r === hi ? 8 : -2), "text-anchor": "end" });
    text.textContent = String(r);
    chart.appendChild(text);
  }
  const rows = points.map((p, i) => h("tr", h("td", String(i + 1)), h("td", when(p.at)), h("td", String(p.rating)),
    h("td", `±${p.deviation}`), h("td", t(p.won ? "result_won" : "result_lost"))));
  return h("figure.rating-figure", chart, h("table.sr-only.rating-points", h("caption", t("chart_points")),
    h("thead", h("tr", [t("match_no"), t("played_at"), t("rating"), t("deviation"), t("result")].map((c) =>
      h("th", { scope: "col" }, c)))),
    h("tbody", rows)));
}

/**
 * Fill a profile's ratings slot: each rated format's rating, its counts, a link to its leaderboard and its chart.
 * @param {HTMLElement} slot
 * @param {import("../net/types.js").Profile} profile
 */
export function fillRatings(slot, profile) {
  const ratings = profile.ratings || [];
  const history = profile.rating_history || [];
  clear(slot).appendChild(h("h2", t("ratings")));
  if (!ratings.length) slot.appendChild(h("p.muted.no-ratings", t("no_ratings")));
  for (const fmt of FORMATS) {
    const r = ratings.find((x) => x.format === fmt);
    if (!r) continue;
    const points = history.filter((p) => p.format === fmt);
    slot.appendChild(h("div.rating-format", { dataset: { format: fmt } },
      h("h3", formatName(fmt)),
      h("p.rating-value", h("strong", shown(r))),
      h("p.muted.rating-counts", `${t("rated_matches")}: ${r.games} · ${t("wins")}: ${r.wins}`),
      h("p", h("a.btn.leaderboard-link", { href: `#/leaderboard/${fmt}` }, t("leaderboard"))),
      points.length ? ratingChart(fmt, points) : null));
  }
}

/**
 * At a rated match's end: the player's rating before and after it, read from their profile (the server rates the
 * match before it tells the end, so the profile's last point in the format is this match's).
 * @param {HTMLElement} node filled with "Your rating: 1500 → 1612 (+112)"
 * @param {string} fmt
 * @param {string} name the signed-in player
 */
export async function showRatingChange(node, fmt, name) {
  try {
    const profile = await api.profile(name);
    const points = (profile.rating_history || []).filter((p) => p.format === fmt);
    const after = points[points.length - 1];
    if (!after) return;
    const before = points.length > 1 ? points[points.length - 2].rating : START;
    const delta = after.rating - before;
    node.dataset.before = String(before);
    node.dataset.after = String(after.rating);
    node.textContent = `${t("rating_change", { before, after: shown(after) })} (${delta >= 0 ? "+" : "−"}`
      + `${Math.abs(delta)})`;
  } catch {
    // The change is a courtesy: the profile shows it too.
  }
}
