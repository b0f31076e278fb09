// @ts-check
// Cards drawn as SVG by the page itself: crisp at any size, no image files.
// A card code is rank letter + suit letter, as in records: "TD" is the 10 of diamonds.
// Two faces (Settings, prefs "faces"): "figures", court cards with the figures of a public-domain deck (lib/faces.js,
// loaded only for a table: loadFaces) and aces with a large pip; and "index", court cards as a large letter.

import { prefs } from "./prefs.js";

const SVG_NS = "http://www.w3.org/2000/svg";

export const SUITS = ["C", "D", "H", "S"];
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
/** @typedef {"figures" | "index"} Faces */
/** @typedef {{ fourColour?: boolean, faces?: Faces }} CardOptions faces: the Settings' choice when left out */

/** @type {typeof import("./faces.js") | null} the court figures, once loaded */
let art = null;
/** @type {Promise<void> | null} */
let loading = null;

/**
 * Load the court figures (their own module, fetched once, when a table is shown): what "figures" needs to draw.
 * "index" needs nothing; if the load fails, court cards keep the large index until a later try.
 * @param {Faces} [faces]
 * @returns {Promise<void>}
 */
export function loadFaces(faces = prefs.get("faces")) {
  if (faces === "index" || art) return Promise.resolve();
  loading = loading || import("./faces.js").then((m) => {
    art = m;
    pictures.clear();
  }, () => {
    loading = null;
  });
  return loading;
}

/** @type {Record<string, string>} */
const RANK_LABEL = { T: "10" };
/** @type {Record<string, string>} */
const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };

// Suit shapes on a 100x100 box, so they stay sharp whatever the font.
/** @type {Record<string, string>} */
const SUIT_PATH = {
  H: "M50 92 C38 78 6 58 6 32 C6 14 20 6 31 6 C41 6 47 12 50 20 C53 12 59 6 69 6 C80 6 94 14 94 32 " +
    "C94 58 62 78 50 92 Z",
  D: "M50 4 L88 50 L50 96 L12 50 Z",
  S: "M50 4 C62 22 94 40 94 62 C94 76 84 84 73 84 C64 84 57 79 54 72 C55 82 60 90 68 96 L32 96 " +
    "C40 90 45 82 46 72 C43 79 36 84 27 84 C16 84 6 76 6 62 C6 40 38 22 50 4 Z",
  C: "M50 6 C62 6 71 15 71 27 C71 34 68 39 64 43 C68 41 72 40 76 40 C87 40 96 49 96 61 C96 73 87 82 76 82 " +
    "C66 82 58 76 55 68 C56 80 60 89 68 96 L32 96 C40 89 44 80 45 68 C42 76 34 82 24 82 C13 82 4 73 4 61 " +
    "C4 49 13 40 24 40 C28 40 32 41 36 43 C32 39 29 34 29 27 C29 15 38 6 50 6 Z",
};

/** @type {Record<string, string>} */
const TWO_COLOURS = { C: "#1b1b1b", S: "#1b1b1b", H: "#c8102e", D: "#c8102e" };
// Four-colour deck (as in online poker): clubs green, diamonds blue; tells all suits apart.
/** @type {Record<string, string>} */
const FOUR_COLOURS = { C: "#1a7f37", S: "#1b1b1b", H: "#c8102e", D: "#0b5cad" };

/**
 * @param {string} suit
 * @param {boolean} [fourColour]
 * @returns {string}
 */
export function suitColour(suit, fourColour) {
  return (fourColour ? FOUR_COLOURS : TWO_COLOURS)[suit];
}

/**
 * A card code's rank and suit letters, or null for anything that is not a card.
 * @param {unknown} code
 * @returns {{ rank: string, suit: string } | null}
 */
export function parseCode(code) {
  if (typeof code !== "string" || code.length !== 2) return null;
  const rank = code[0].toUpperCase();
  const suit = code[1].toUpperCase();
  if (!RANKS.includes(rank) || !SUITS.includes(suit)) return null;
  return { rank, suit };
}

/**
 * "10♦" for "TD"; "?" for what is not a card.
 * @param {string | null | undefined} code
 * @returns {string}
 */
export function cardLabel(code) {
  const c = parseCode(code);
  return c ? (RANK_LABEL[c.rank] || c.rank) + SUIT_SYMBOL[c.suit] : "?";
}

/**
 * The rank's place in RANKS (2 lowest, Ace highest).
 * @param {string} code
 * @returns {number}
 */
export function rankValue(code) {
  return RANKS.indexOf(code[0].toUpperCase());
}

/**
 * @param {string} name
 * @param {Record<string, string | number>} [attrs]
 * @param {Element | null} [parent]
 * @returns {SVGElement}
 */
function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * @param {Element} parent
 * @param {string} suit
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {string} colour
 * @param {boolean} [flip] upside down
 */
function suitShape(parent, suit, x, y, size, colour, flip = false) {
  const s = size / 100;
  const t = flip
    ? `translate(${x + size / 2} ${y + size / 2}) rotate(180) translate(${-size / 2} ${-size / 2})`
    : `translate(${x} ${y})`;
  el("path", { d: SUIT_PATH[suit], fill: colour, transform: `${t} scale(${s})` }, parent);
}

// Pip positions (card is 60 x 84) for 2..10: [x, y, upside-down].
/** @type {Record<number, number[][]>} */
const PIPS = (() => {
  const L = 19, C = 30, R = 41;
  const rows = [14, 27.5, 42, 56.5, 70];
  const T = rows[0], B = rows[4], M = rows[2];
  return {
    2: [[C, T], [C, B, 1]],
    3: [[C, T], [C, M], [C, B, 1]],
    4: [[L, T], [R, T], [L, B, 1], [R, B, 1]],
    5: [[L, T], [R, T], [C, M], [L, B, 1], [R, B, 1]],
    6: [[L, T], [R, T], [L, M], [R, M], [L, B, 1], [R, B, 1]],
    7: [[L, T], [R, T], [C, 28], [L, M], [R, M], [L, B, 1], [R, B, 1]],
    8: [[L, T], [R, T], [C, 28], [L, M], [R, M], [C, 56, 1], [L, B, 1], [R, B, 1]],
    9: [[L, T], [R, T], [L, 33], [R, 33], [C, M], [L, 51, 1], [R, 51, 1], [L, B, 1], [R, B, 1]],
    10: [[L, T], [R, T], [C, 22], [L, 33], [R, 33], [L, 51, 1], [R, 51, 1], [C, 62, 1], [L, B, 1], [R, B, 1]],
  };
})();

/**
 * An <svg> of one card face. `options.fourColour` picks the four-colour deck.
 * @param {string} code
 * @param {CardOptions} [options]
 * @returns {SVGElement}
 */
export function cardFace(code, options = {}) {
  const c = parseCode(code);
  if (!c) return cardBack();
  const colour = suitColour(c.suit, options.fourColour);
  const figures = (options.faces || prefs.get("faces")) !== "index" && art ? art : null;
  const svg = el("svg", {
    viewBox: "0 0 60 84", class: "card-svg", role: "img", "aria-label": cardLabel(code), color: colour,
  });
  el(
    "rect",
    { x: 0.5, y: 0.5, width: 59, height: 83, rx: 4.5, fill: "#fffdf8", stroke: "#8a8a8a", "stroke-width": 1 },
    svg,
  );
  const label = RANK_LABEL[c.rank] || c.rank;
  /** @param {boolean} flip */
  const corner = (flip) => {
    const g = el("g", flip ? { transform: "rotate(180 30 42)" } : {}, svg);
    const txt = el("text", {
      x: label.length > 1 ? 7.5 : 7, y: 13, "text-anchor": "middle", "font-size": label.length > 1 ? 10 : 11.5,
      "font-weight": 700, "font-family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif", fill: colour,
      "letter-spacing": label.length > 1 ? -1 : 0,
    }, g);
    txt.textContent = label;
    suitShape(g, c.suit, 3, 15.5, 9, colour);
  };
  corner(false);
  corner(true);
  const n = Number(label);
  if (c.rank === "A" && figures) {
    // The ace's one large pip, as on a printed deck; the spade's framed by a ring, as the deck's signature card.
    if (c.suit === "S") el("circle", { cx: 30, cy: 42, r: 21, fill: "none", stroke: colour, "stroke-width": 0.6 }, svg);
    suitShape(svg, c.suit, c.suit === "S" ? 13 : 10, c.suit === "S" ? 25 : 22, c.suit === "S" ? 34 : 40, colour);
  } else if (c.rank === "A") {
    suitShape(svg, c.suit, 15, 27, 30, colour);
  } else if (n >= 2 && n <= 10) {
    for (const [x, y, flip] of PIPS[n]) suitShape(svg, c.suit, x - 5.5, y - 5.5 + 1, 11, colour, Boolean(flip));
  } else if (figures && figures.drawCourt(svg, c.rank, c.suit)) {
    svg.classList.add("has-figure");
  } else {
    // Court cards, the large index: a framed panel with the letter and the suit.
    el(
      "rect",
      {
        class: "court-index",
        x: 13,
        y: 12,
        width: 34,
        height: 60,
        rx: 2,
        fill: options.fourColour ? "#f3f6fb" : "#fbf3e4",
        stroke: colour,
        "stroke-width": 1,
      },
      svg,
    );
    const big = el(
      "text",
      {
        x: 30,
        y: 46,
        "text-anchor": "middle",
        "font-size": 26,
        "font-weight": 700,
        "font-family": "Georgia, 'Times New Roman', serif",
        fill: colour,
      },
      svg,
    );
    big.textContent = c.rank;
    suitShape(svg, c.suit, 23.5, 51, 13, colour);
    suitShape(svg, c.suit, 23.5, 17, 9, colour, true);
  }
  return svg;
}

/**
 * An <svg> of a card back: a deep red panel with a fine lattice, a gold double rule and a rosette round a Ξ, in the
 * manner of a printed deck's back. Paths only, no ids (every back is a copy of one node, and ids would repeat).
 * @returns {SVGElement}
 */
export function cardBack() {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg card-back-svg", role: "img", "aria-hidden": "true" });
  el(
    "rect",
    { x: 0.5, y: 0.5, width: 59, height: 83, rx: 4.5, fill: "#fffdf8", stroke: "#8a8a8a", "stroke-width": 1 },
    svg,
  );
  el("rect", { x: 3.5, y: 3.5, width: 53, height: 77, rx: 3, fill: "#8c1c2b" }, svg);
  // The lattice, each line cut to the inner panel here (no clipPath, so no id: every back is the same node).
  let d = "";
  for (let i = -77; i < 60; i += 4.5) {
    for (const [x0, dx] of [[3.5 + i, 77], [56.5 - i, -77]]) {
      // x = x0 + dx * t, y = 3.5 + 77 * t, for t in [0, 1], kept where 3.5 <= x <= 56.5.
      const ta = (3.5 - x0) / dx;
      const tb = (56.5 - x0) / dx;
      const lo = Math.max(0, Math.min(ta, tb));
      const hi = Math.min(1, Math.max(ta, tb));
      if (hi <= lo) continue;
      const p = (/** @type {number} */ t) => `${(x0 + dx * t).toFixed(2)} ${(3.5 + 77 * t).toFixed(2)}`;
      d += `M${p(lo)}L${p(hi)}`;
    }
  }
  el("path", { d, stroke: "#b8414f", "stroke-width": 0.7, fill: "none" }, svg);
  const gold = "#e8c15a";
  el("rect", { x: 6.5, y: 6.5, width: 47, height: 71, rx: 2, fill: "none", stroke: gold, "stroke-width": 0.8 }, svg);
  el("rect", { x: 8.3, y: 8.3, width: 43.4, height: 67.4, rx: 1.5, fill: "none", stroke: gold, "stroke-width": 0.35 },
    svg);
  // The rosette: twelve ellipses turned round the middle, over a plain disc that quiets the lattice under it.
  el("circle", { cx: 30, cy: 42, r: 15.5, fill: "#8c1c2b" }, svg);
  let rose = "";
  for (let a = 0; a < 180; a += 15) {
    const r = (a * Math.PI) / 180;
    const [cx, cy] = [14 * Math.cos(r), 14 * Math.sin(r)];
    rose += `M${(30 - cx).toFixed(2)} ${(42 - cy).toFixed(2)}A14 4.2 ${a} 0 0 ${(30 + cx).toFixed(2)} ` +
      `${(42 + cy).toFixed(2)}A14 4.2 ${a} 0 0 ${(30 - cx).toFixed(2)} ${(42 - cy).toFixed(2)}`;
  }
  el("path", { d: rose, stroke: gold, "stroke-width": 0.45, fill: "none" }, svg);
  el("circle", { cx: 30, cy: 42, r: 6.5, fill: "#8c1c2b", stroke: gold, "stroke-width": 0.8 }, svg);
  const x = el(
    "text",
    {
      x: 30,
      y: 45.6,
      "text-anchor": "middle",
      "font-size": 10,
      "font-weight": 700,
      fill: gold,
      "font-family": "Georgia, serif",
    },
    svg,
  );
  x.textContent = "Ξ";
  return svg;
}

/** @type {Map<string, SVGElement>} each card's picture, by code and deck */
const pictures = new Map();

/**
 * A card as an HTML element: a face for a code, a back for null.
 * @param {string | null | undefined} code
 * @param {CardOptions} [options]
 * @returns {HTMLDivElement}
 */
export function cardElement(code, options = {}) {
  const div = document.createElement("div");
  const faces = (options.faces || prefs.get("faces")) === "index" || !art ? "index" : "figures";
  const key = `${code || ""}|${options.fourColour ? 4 : 2}|${faces}`;
  let picture = pictures.get(key);
  if (!picture) {
    picture = code ? cardFace(code, { ...options, faces }) : cardBack();
    pictures.set(key, picture);
  }
  div.className = "card";
  if (code) {
    div.dataset.card = code;
    const c = parseCode(code);
    if (c) div.dataset.suit = c.suit;
  } else {
    div.classList.add("back");
  }
  // A copy of the card's picture, drawn once: a board is drawn again on every move, and cloning is quicker.
  div.appendChild(picture.cloneNode(true));
  return div;
}
