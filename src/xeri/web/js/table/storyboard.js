// @ts-check
// The table's effects: the motion and the sound of each step the reducer hands back. The state never waits for
// them: the controller draws a step's state first, then plays its effects over it from where the cards were
// (a snapshot of the board before the draw), and draws the next step when they end. Motion follows the motion
// setting and prefers-reduced-motion (fx.scaled); nothing moves while a dialog is open.

import { announce, fly, rectOf, scaled } from "../lib/flight.js";
import { t } from "../lib/i18n.js";
import { motion, sound } from "../lib/sound.js";

/** @typedef {import("../lib/flight.js").Rect} Rect */
/** @typedef {import("../net/types.js").GameEvent} GameEvent */

/**
 * Where the cards were before a draw.
 * @typedef {object} Snapshot
 * @property {Map<string, Rect>} hand my cards by code
 * @property {Map<number, Rect>} seats each other seat's fan
 * @property {{ code: string | null, rect: Rect }[]} pile the pile's shown cards, bottom first
 * @property {Rect | null} pileRect
 * @property {Rect | null} talon
 */

/**
 * What the effects need to know of the table.
 * @typedef {object} EffectContext
 * @property {number | null} me
 * @property {number} sides
 * @property {(seat: number) => string} nameOf
 * @property {boolean} myTurnNow it is this page's turn after the step
 * @property {boolean} myTurnBefore it was before
 */

/**
 * @param {ParentNode} root
 * @param {string} selector
 * @returns {Rect | null}
 */
const rect = (root, selector) => rectOf(root.querySelector(selector));

/**
 * @param {ParentNode} root
 * @returns {Snapshot}
 */
export function snapshot(root) {
  /** @type {Snapshot} */
  const snap = { hand: new Map(), seats: new Map(), pile: [], pileRect: rect(root, ".pile"), talon: null };
  for (const btn of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".hand .card-btn"))) {
    const r = rectOf(btn.querySelector(".card"));
    if (r && btn.dataset.card) snap.hand.set(btn.dataset.card, r);
  }
  for (const box of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".seat-box"))) {
    const r = rectOf(box.querySelector(".fan .card:last-child")) || rectOf(box);
    if (r) snap.seats.set(Number(box.dataset.seat), r);
  }
  for (const card of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".pile .card"))) {
    const r = rectOf(card);
    if (r) snap.pile.push({ code: card.dataset.card || null, rect: r });
  }
  snap.talon = rect(root, ".talon-slot");
  return snap;
}

/** Where each side's stack and score are on the board just drawn, read once before anything moves. */
/** @type {Map<string, Rect | null>} */
let targets = new Map();

/**
 * The rect of `selector` on the board just drawn: measured once per step, before the flights start, so no
 * flight forces the browser to lay the page out again mid-animation.
 * @param {ParentNode} root
 * @param {string} selector
 */
function target(root, selector) {
  if (!targets.has(selector)) targets.set(selector, rect(root, selector));
  return targets.get(selector) || null;
}

/**
 * A side's captured stack on the board now.
 * @param {ParentNode} root
 * @param {number} side
 */
function stackRect(root, side) {
  return target(root, `.captured[data-side="${side}"] .stack`);
}

/**
 * A "+10" that rises from the pile and flies to the side's score chip.
 * @param {ParentNode} root
 * @param {number} side
 * @param {number} points
 * @param {Rect | null} from
 */
function flyPoints(root, side, points, from) {
  const layer = document.getElementById("fx");
  const to = target(root, `.score-chip[data-side="${side}"]`);
  const ms = scaled(900);
  if (!layer || !from || !to || !ms) return Promise.resolve();
  const tag = document.createElement("div");
  tag.className = "fly-points";
  tag.textContent = `+${points}`;
  tag.style.left = `${from.left + from.width / 2}px`;
  tag.style.top = `${from.top + from.height / 2}px`;
  layer.appendChild(tag);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const anim = tag.animate(
    [
      { transform: "translate(-50%, -50%) scale(0.6)", opacity: 0 },
      { transform: "translate(-50%, -90%) scale(1.4)", opacity: 1, offset: 0.35 },
      { transform: `translate(calc(${dx}px - 50%), calc(${dy}px - 50%)) scale(0.8)`, opacity: 0.9 },
    ],
    { duration: ms, easing: "ease-in-out", fill: "both" },
  );
  return anim.finished.catch(() => {}).then(() => tag.remove());
}

/**
 * The deal: a card back flies from the talon to each seat, one seat after the other, round the table.
 * @param {ParentNode} root
 * @param {Snapshot} before
 * @param {Extract<GameEvent, { kind: "dealt" }>} ev
 * @param {EffectContext} ctx
 */
async function deal(root, before, ev, ctx) {
  const from = rect(root, ".talon-slot") || before.talon;
  if (!from) return;
  /** @type {Promise<void>[]} */
  const flights = [];
  const sizes = ev.sizes || [];
  const players = sizes.length;
  let k = 0;
  const hidden = /** @type {HTMLElement[]} */ ([...root.querySelectorAll(".hand .card-btn")]);
  for (const b of hidden) b.classList.add("dealing");
  for (let n = 0; n < Math.max(0, ...sizes); n++) {
    for (let i = 0; i < players; i++) {
      const seat = (ev.dealer + 1 + i) % players;
      if (n >= sizes[seat]) continue;
      /** @type {Rect | null} */
      let to;
      /** @type {HTMLElement | null} */
      let btn = null;
      if (seat === ctx.me) {
        btn = hidden[n] || null;
        to = btn ? rectOf(btn.querySelector(".card")) : null;
      } else {
        to = rect(root, `.seat-box[data-seat="${seat}"] .fan .card:nth-child(${n + 1})`) ||
          rect(root, `.seat-box[data-seat="${seat}"]`);
      }
      const mine = btn;
      flights.push(fly(null, from, to, { ms: 260, delay: k * 35 }).then(() => {
        if (mine) mine.classList.remove("dealing");
      }));
      k++;
    }
  }
  await Promise.all(flights);
  for (const b of hidden) b.classList.remove("dealing");
}

/**
 * A sweep: the cards that were on the pile fly to the taker's stack, a little apart.
 * @param {ParentNode} root
 * @param {{ code: string | null, rect: Rect }[]} cards
 * @param {number} side
 */
function sweep(root, cards, side) {
  const to = stackRect(root, side);
  // Each card is launched in its own task, a little after the one before: small tasks, never one long one.
  const gap = scaled(40);
  return Promise.all(cards.map((c, i) => new Promise((resolve) => {
    setTimeout(() => resolve(fly(c.code, c.rect, to, { ms: 380, turn: 8 })), i * gap);
  })));
}

/**
 * Play a step's effects over the board just drawn in `root`, from where the cards were in `before`.
 * @param {ParentNode} root
 * @param {Snapshot} before
 * @param {GameEvent[]} events
 * @param {EffectContext} ctx
 * @returns {Promise<void>}
 */
export async function playEffects(root, before, events, ctx) {
  motion(true);
  try {
    await play(root, before, events, ctx);
  } finally {
    motion(false);
  }
}

/**
 * playEffects' steps, while the audio output knows that cards move.
 * @param {ParentNode} root
 * @param {Snapshot} before
 * @param {GameEvent[]} events
 * @param {EffectContext} ctx
 */
async function play(root, before, events, ctx) {
  const quiet = () => Boolean(document.querySelector(".modal-back"));
  targets = new Map();
  for (let side = 0; side < ctx.sides; side++) {
    stackRect(root, side);
    target(root, `.score-chip[data-side="${side}"]`);
  }
  /** @type {{ code: string | null, rect: Rect }[]} */
  let pile = [...before.pile];
  let landed = /** @type {Rect | null} */ (null);
  for (const ev of events) {
    switch (ev.kind) {
      case "dealt":
        if (!quiet()) await deal(root, before, ev, ctx);
        break;
      case "played": {
        sound("play");
        const from = ev.seat === ctx.me ? before.hand.get(ev.card) || null : before.seats.get(ev.seat) || null;
        const top = /** @type {HTMLElement | null} */ (root.querySelector(".pile .top-card"));
        const captured = events.some((e) => e.kind === "captured" && !e.leftover && e.seat === ev.seat);
        // Where it lands: its place on the pile, or, when it takes, on top of what it takes.
        const last = pile[pile.length - 1];
        landed = captured || !top
          ? (last ? { ...last.rect, left: last.rect.left + last.rect.width * 0.28 } : before.pileRect)
          : rectOf(top);
        if (top && !captured) top.style.opacity = "0";
        if (!quiet()) await fly(ev.card, from, landed);
        if (top) top.style.opacity = "";
        if (landed) pile = [...pile, { code: ev.card, rect: landed }];
        break;
      }
      case "captured": {
        const side = ev.seat % ctx.sides;
        sound("capture");
        if (!quiet()) {
          const cards = pile.length ? pile : before.pileRect ? [{ code: null, rect: before.pileRect }] : [];
          await sweep(root, cards, side);
        }
        pile = [];
        break;
      }
      case "xeri": {
        sound("xeri");
        const who = ctx.nameOf(ev.seat);
        announce(`${ev.jack ? t("jack_xeri") : t("xeri")}${who ? " — " + who : ""}`, { big: true, ms: 1800 });
        if (!quiet()) await flyPoints(root, ev.seat % ctx.sides, ev.points, landed || before.pileRect);
        break;
      }
      case "round_scored":
        sound("round");
        break;
      case "match_over":
        sound("match");
        break;
      default:
        break;
    }
  }
  if (ctx.myTurnNow && !ctx.myTurnBefore) sound("turn");
}
