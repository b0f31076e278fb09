// @ts-check
// The court cards' figures (Adrian Kennard's public-domain deck, lib/courts.js), drawn into card faces by
// lib/cards.js. Loaded only when a table shows the "figures" faces, so the lobby's first visit carries none of it.
// Each figure becomes one <symbol> of a hidden sprite, made the first time that card is drawn; every copy of the
// card on the page is then a <use> of it, so the art is parsed once and never duplicated in the page.

import { COURTS, PIPS } from "./courts.js";

const SVG_NS = "http://www.w3.org/2000/svg";
// The figure's frame on the 60 x 84 card: narrow enough to leave the corners' indices clear, with the deck's own
// proportions (164.8 x 260.8 on its 240 x 336 card).
const FRAME = { x: 11.5, y: 12.75, w: 37, h: 58.5 };
const SCALE = FRAME.w / 164.8;

/** @type {SVGSVGElement | null} */
let sprite = null;

/**
 * A <symbol> of the sprite, made from its markup the first time it is asked for.
 * @param {string} id
 * @param {string} viewBox
 * @param {string} preserve
 * @param {() => string} markup
 */
function symbol(id, viewBox, preserve, markup) {
  if (!sprite || !sprite.isConnected) {
    sprite = /** @type {SVGSVGElement} */ (document.createElementNS(SVG_NS, "svg"));
    sprite.id = "xeri-faces";
    sprite.setAttribute("aria-hidden", "true");
    sprite.setAttribute("focusable", "false");
    sprite.setAttribute("style", "position:absolute;width:0;height:0;overflow:hidden");
    document.body.appendChild(sprite);
  }
  if (sprite.querySelector(`#${id}`)) return;
  const doc = new DOMParser().parseFromString(
    `<svg xmlns="${SVG_NS}"><symbol id="${id}" viewBox="${viewBox}" preserveAspectRatio="${preserve}">` +
      `${markup()}</symbol></svg>`, "image/svg+xml");
  const made = doc.querySelector("symbol");
  if (made) sprite.appendChild(document.importNode(made, true));
}

/**
 * @param {string} name
 * @param {Record<string, string | number>} attrs
 * @param {Element} parent
 * @returns {SVGElement}
 */
function el(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  parent.appendChild(node);
  return node;
}

/**
 * Draw a court card's framed, double-headed figure and the frame's two big pips into a face (the corners are
 * the caller's). The suit's pips take the face's `color`, so the four-colour deck tints them too.
 * @param {SVGElement} svg the card's face, 60 x 84
 * @param {string} rank "J", "Q" or "K"
 * @param {string} suit
 * @returns {boolean} false for a card that has no figure
 */
export function drawCourt(svg, rank, suit) {
  const court = COURTS[rank + suit];
  if (!court) return false;
  symbol(`xf-pip-${suit}`, "-600 -600 1200 1200", "xMinYMid", () => PIPS[suit]);
  const id = `xf-${rank}${suit}`;
  symbol(id, "0 0 1300 2000", "none",
    () => court.art.map((layer) => `<g>${layer}</g><g transform="rotate(180 650 1000)">${layer}</g>`).join(""));
  const g = el("g", { class: "figure" }, svg);
  el("rect", { x: FRAME.x, y: FRAME.y, width: FRAME.w, height: FRAME.h, fill: "#fffdf8" }, g);
  el("use", { href: `#${id}`, x: FRAME.x, y: FRAME.y, width: FRAME.w, height: FRAME.h }, g);
  el("rect", {
    x: FRAME.x, y: FRAME.y, width: FRAME.w, height: FRAME.h, fill: "none", stroke: "#44f", "stroke-width": 0.45,
  }, g);
  // The frame's big pip, in the deck's place for this figure (left or right of its head), and turned below.
  const size = 55.68 * SCALE;
  // (kept inside the frame: on the left, the deck's place would touch the corner's pip)
  const x = Math.max(FRAME.x + 0.2, FRAME.x + (court.pip + 82.4) * SCALE);
  const y = FRAME.y + (130.4 - 132.16) * SCALE;
  for (const turn of ["", "rotate(180 30 42)"]) {
    el("use", { href: `#xf-pip-${suit}`, x, y, width: size, height: size, ...(turn ? { transform: turn } : {}) }, g);
  }
  return true;
}
