// @ts-check
// The table's storyboard: the motion and the sound of each frame of a step (frames.js), in a real table's order.
// The draw queue (queue.js) draws a frame's view, then plays its motion here from where the cards were (a snapshot
// of the board before that draw): a card flies to the pile while the pile is still drawn, lands, a beat, the pile
// sweeps into the taker's stack; a deal shuffles the talon, lays the pile, then deals the hands, each card shown
// as it lands. The state never waits for any of it. Motion follows the motion setting and prefers-reduced-motion
// (flight.scaled): "off" moves nothing, and the queue then draws the step's state at once; nothing moves while a
// dialog is open. Only transforms and opacity move (the Web Animations API), so the compositor does the work.

import { cardElement } from "../lib/cards.js";
import { announce, fly, hideAnnouncement, rectOf, scaled } from "../lib/flight.js";
import { t } from "../lib/i18n.js";
import { motion, sound } from "../lib/sound.js";
import { notify } from "../lib/notify.js";

/** @typedef {import("../lib/flight.js").Rect} Rect */
/** @typedef {import("../net/types.js").GameEvent} GameEvent */
/** @typedef {import("./frames.js").Motion} Motion */

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
 * What the storyboard needs to know of the table.
 * @typedef {object} StoryContext
 * @property {number | null} me
 * @property {(seat: number) => string} nameOf
 * @property {Rect | null} [from] where this page's own card sets off (a card dropped on the felt), else its slot
 */

/**
 * @param {ParentNode} root
 * @param {string} selector
 * @returns {Rect | null}
 */
const rect = (root, selector) => rectOf(root.querySelector(selector));

/**
 * @param {number} ms
 * @returns {Promise<void>}
 */
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether nothing may move now: the motion setting is off (or the system asks for reduced motion), or a dialog
 * is open. */
export function still() {
  return !scaled(1) || Boolean(document.querySelector(".modal-back"));
}

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

/**
 * Where the next card lands on the pile: on top of its fan, one step right of the top card (the fan's last place
 * once four show), or on the empty slot.
 * @param {ParentNode} root
 * @returns {Rect | null}
 */
function pileTop(root) {
  const cards = /** @type {HTMLElement[]} */ ([...root.querySelectorAll(".pile .card")]);
  const rects = /** @type {Rect[]} */ (cards.map((c) => rectOf(c)).filter(Boolean));
  const slot = rect(root, ".pile .empty-slot");
  const box = rect(root, ".pile");
  if (!rects.length) return slot;
  const last = rects[rects.length - 1];
  if (rects.length >= 4) return last;
  const step = rects.length >= 2 ? rects[1].left - rects[0].left
    : box ? (box.width - last.width) / 3 : last.width * 0.28;
  return { ...last, left: last.left + step };
}

/**
 * A card of this page's hand, of another seat or of the pile, shown as its dealt card lands.
 * @param {Element | null} node
 */
function reveal(node) {
  if (node) node.classList.remove("dealing");
}

/**
 * The talon shuffled: its halves split apart and riffle back together, with the shuffle's sound. Resolves as the
 * halves settle, so that the first card leaves the talon as the shuffle ends: short, for the first card of a match
 * lands within a second of "Play now" (issue 39; tests/web/test_web_motion.py measures it).
 * @param {ParentNode} root
 */
async function shuffle(root) {
  const layer = document.getElementById("fx");
  const from = rect(root, ".talon-slot");
  const ms = scaled(240);
  if (!layer || !from || !ms) return;
  const halves = [-1, 1].map((dir) => {
    const c = cardElement(null);
    c.classList.add("shuffle-half");
    Object.assign(c.style, { left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px` });
    layer.appendChild(c);
    const dx = dir * from.width * 0.45;
    return c.animate([
      { transform: "translate(0, 0) rotate(0deg)" },
      { transform: `translate(${dx}px, -4px) rotate(${dir * 6}deg)`, offset: 0.45 },
      { transform: "translate(0, 0) rotate(0deg)" },
    ], { duration: ms, easing: "ease-in-out", fill: "both" }).finished.catch(() => {}).then(() => c.remove());
  });
  void Promise.all(halves);
  await pause(ms * 0.6);
}

/** The performance mark set as a deal's first card lands. */
const FIRST_CARD = "xeri:first-dealt-card";

/**
 * The deal: the pile's cards laid one by one (a jack slipped under laid last, then slid under), then the hands
 * round the table from the dealer's left, each card shown on the board as its back lands.
 * @param {ParentNode} root
 * @param {Extract<Motion, { kind: "deal" }>} m
 * @param {StoryContext} ctx
 */
async function deal(root, m, ctx) {
  const from = rect(root, ".talon-slot");
  if (!from) return;
  let first = true;
  // The deal's first card down: a mark in the page's timeline (the gate "the first dealt card lands within 1 s of
  // Play now" reads it; a browser's performance panel shows it), the last deal's only.
  const landed = () => {
    if (!first) return;
    first = false;
    performance.clearMarks(FIRST_CARD);
    performance.mark(FIRST_CARD);
  };
  if (m.pile) {
    const cards = /** @type {HTMLElement[]} */ ([...root.querySelectorAll(".pile .card")]);
    const order = [...cards.keys()].slice(m.slipped).concat([...cards.keys()].slice(0, m.slipped));
    const top = cards.length ? rectOf(cards[cards.length - 1]) : null;
    /** @type {Promise<void>[]} */
    const laid = [];
    order.forEach((i, k) => {
      const card = cards[i];
      const to = rectOf(card);
      const code = m.faceDown.includes(i) ? null : card.dataset.card || null;
      // A jack slipped under is laid on top first, then slides to the bottom of the pile.
      const under = i < m.slipped;
      const onTop = under && top ? { ...top, left: top.left + top.width * 0.28 } : to;
      laid.push(
        fly(code, from, onTop, { ms: 180, delay: k * 70, unseen: true })
          .then(() => {
            landed();
            return under ? fly(code, onTop, to, { ms: 220 }) : undefined;
          })
          .then(() => reveal(card)),
      );
    });
    await Promise.all(laid);
  }
  /** @type {Promise<void>[]} */
  const flights = [];
  const sizes = m.sizes;
  const players = sizes.length;
  const mine = /** @type {HTMLElement[]} */ ([...root.querySelectorAll(".hand .card-btn")]);
  let k = 0;
  for (let n = 0; n < Math.max(0, ...sizes); n++) {
    for (let i = 0; i < players; i++) {
      const seat = (m.dealer + 1 + i) % players;
      if (n >= sizes[seat]) continue;
      /** @type {Element | null} */
      const node = seat === ctx.me ? mine[n] || null
        : root.querySelector(`.seat-box[data-seat="${seat}"] .fan .card:nth-child(${n + 1})`);
      const to = seat === ctx.me ? rectOf(node && node.querySelector(".card"))
        : rectOf(node) || rect(root, `.seat-box[data-seat="${seat}"]`);
      const dealtCard = fly(null, from, to, { ms: 240, delay: k * 40, unseen: true });
      flights.push(dealtCard.then(() => { landed(); reveal(node); }));
      k++;
    }
  }
  await Promise.all(flights);
  for (const node of root.querySelectorAll(".dealing")) reveal(node);
}

/**
 * A sweep: the pile's cards fly to the taker's stack, a little apart; the cards under the pile's shown four go as
 * backs from under it (a few, not the whole pile).
 * @param {ParentNode} root
 * @param {Snapshot} before
 * @param {Extract<Motion, { kind: "sweep" }>} m
 */
function sweep(root, before, m) {
  const to = rect(root, `.captured[data-side="${m.side}"] .stack`);
  /** @type {{ code: string | null, rect: Rect }[]} */
  const cards = [];
  const base = before.pile.length ? before.pile[0].rect : before.pileRect;
  if (base) for (let i = before.pile.length; i < Math.min(m.count, before.pile.length + 4); i++)
    cards.push({ code: null, rect: base });
  cards.push(...before.pile);
  // Every card is in the air from the first frame on (the pile is no longer drawn), each setting off a little
  // after the one before: the delay is the compositor's, so no task waits between two launches.
  return Promise.all(cards.map((c, i) => fly(c.code, c.rect, to, { ms: 380, turn: 8, delay: i * 40 })));
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
  const to = rect(root, `.score-chip[data-side="${side}"]`);
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

const SPARK_COLOURS = ["#ffd54a", "#ff8a3d", "#fff4c2", "#ff5f6d", "#7fe0ff"];

/**
 * A burst of sparks from the centre of `at`: small dots that fly out and fade (transforms and opacity only).
 * @param {Rect | null} at
 * @param {{ sparks?: number, reach?: number, ms?: number }} [options]
 * @returns {Promise<void>}
 */
function burst(at, { sparks = 18, reach = 1.6, ms = 800 } = {}) {
  const layer = document.getElementById("fx");
  const duration = scaled(ms);
  if (!layer || !at || !duration) return Promise.resolve();
  const cx = at.left + at.width / 2;
  const cy = at.top + at.height / 2;
  const size = Math.max(at.width, at.height);
  /** @type {Promise<void>[]} */
  const done = [];
  for (let i = 0; i < sparks; i++) {
    const spark = document.createElement("div");
    spark.className = "xeri-spark";
    spark.style.left = `${cx}px`;
    spark.style.top = `${cy}px`;
    spark.style.background = SPARK_COLOURS[i % SPARK_COLOURS.length];
    layer.appendChild(spark);
    // Evenly round the circle, each a little further or nearer: the same burst every time (no Math.random).
    const angle = (i / sparks) * 2 * Math.PI + (i % 3) * 0.17;
    const dist = size * reach * (0.6 + ((i * 7) % 5) / 10);
    const dx = Math.cos(angle) * dist;
    const dy = Math.sin(angle) * dist;
    done.push(spark.animate([
      { transform: "translate(-50%, -50%) scale(0.4)", opacity: 1 },
      { transform: `translate(calc(${dx * 0.7}px - 50%), calc(${dy * 0.7}px - 50%)) scale(1)`, opacity: 1,
        offset: 0.6 },
      { transform: `translate(calc(${dx}px - 50%), calc(${dy + size * 0.15}px - 50%)) scale(0.3)`, opacity: 0 },
    ], { duration, easing: "cubic-bezier(.15,.7,.3,1)", fill: "both" }).finished.catch(() => {})
      .then(() => spark.remove()));
  }
  return Promise.all(done).then(() => {});
}

/**
 * A glow round `at` (the xeri's card on the pile), that swells and fades.
 * @param {Rect | null} at
 * @param {number} ms
 * @returns {Promise<void>}
 */
function glow(at, ms) {
  const layer = document.getElementById("fx");
  const duration = scaled(ms);
  if (!layer || !at || !duration) return Promise.resolve();
  const halo = document.createElement("div");
  halo.className = "xeri-glow";
  Object.assign(halo.style, {
    left: `${at.left}px`, top: `${at.top}px`, width: `${at.width}px`, height: `${at.height}px`,
  });
  layer.appendChild(halo);
  return halo.animate([
    { transform: "scale(0.9)", opacity: 0 },
    { transform: "scale(1.12)", opacity: 1, offset: 0.4 },
    { transform: "scale(1.05)", opacity: 0.9, offset: 0.8 },
    { transform: "scale(1.2)", opacity: 0 },
  ], { duration, easing: "ease-out", fill: "both" }).finished.catch(() => {}).then(() => halo.remove());
}

/**
 * The xeri's celebration (its banner and sound are tell()'s): a burst where the card lay and the points flying to
 * the side's score.
 * @param {ParentNode} root
 * @param {Snapshot} before
 * @param {Extract<Motion, { kind: "xeri" }>} m
 */
async function celebrate(root, before, m) {
  const at = before.pileRect;
  await Promise.all([burst(at), flyPoints(root, m.side, m.points, at)]);
}

/**
 * The match's win: a burst of sparks over the felt and from the winner's score; resolves when it ends. For the
 * match's result (dialogs.js), once the last card has landed. Nothing when motion is off.
 * @param {ParentNode} root the table's element
 * @param {number | null} [side] the winning side, whose score chip the sparks also burst from
 * @returns {Promise<void>}
 */
export function celebrateWin(root, side = null) {
  const felt = rect(root, ".felt") || rect(root, ".board");
  const chip = side == null ? null : rect(root, `.score-chip[data-side="${side}"]`);
  /** @type {Promise<void>[]} */
  const all = [burst(felt && { ...felt, height: felt.height * 0.6 }, { sparks: 36, reach: 0.45, ms: 1400 })];
  if (chip) all.push(burst(chip, { sparks: 14, reach: 1.2, ms: 1000 }));
  if (felt) all.push(pause(scaled(250)).then(() => burst(felt, { sparks: 24, reach: 0.35, ms: 1200 })));
  return Promise.all(all).then(() => {});
}

/**
 * Every frame's motion the page played, newest last, with when it started and ended (for the tests, which read
 * the order from it, and for a curious player: the same idea as sound.js's `played`).
 * @type {{ kind: string, start: number, end: number }[]}
 */
export const frameLog = [];

/**
 * Cards start moving (`true`) or stop (`false`) for a whole step: the audio output, whose first start is a long
 * task, waits for the step's end rather than starting between two of its frames.
 * @param {boolean} on
 */
export function moving(on) {
  motion(on);
}

/**
 * Play one frame's motion over the board just drawn in `root`, from where the cards were in `before`.
 * @param {ParentNode} root
 * @param {Snapshot} before
 * @param {Motion} m
 * @param {StoryContext} ctx
 * @returns {Promise<void>}
 */
export async function playFrame(root, before, m, ctx) {
  const entry = { kind: m.kind, start: performance.now(), end: 0 };
  frameLog.push(entry);
  if (frameLog.length > 200) frameLog.shift();
  motion(true);
  try {
    await frame(root, before, m, ctx);
  } finally {
    motion(false);
    entry.end = performance.now();
  }
}

/**
 * What a frame says, moving or not: its sound, and a xeri's banner (said once: the move log's line says it to a
 * screen reader, the banner is for the eyes). With motion off the queue plays only this, and draws at once.
 * @param {Motion} m
 * @param {StoryContext} ctx
 */
export function tell(m, ctx) {
  switch (m.kind) {
    case "play":
      sound("play");
      break;
    case "sweep":
      sound("capture");
      break;
    case "xeri":
      sound("xeri");
      announce(m.jack ? t("jack_xeri") : t("xeri"), { big: true, ms: 1800, sub: ctx.nameOf(m.seat), quiet: true });
      break;
    case "shuffle":
      sound("shuffle");
      break;
    case "round":
      hideAnnouncement();
      sound("round");
      break;
    default:
      break;
  }
}

/**
 * playFrame's motions, while the audio output knows that cards move.
 * @param {ParentNode} root
 * @param {Snapshot} before
 * @param {Motion} m
 * @param {StoryContext} ctx
 */
async function frame(root, before, m, ctx) {
  tell(m, ctx);
  switch (m.kind) {
    case "play": {
      const from = m.seat === ctx.me ? ctx.from || before.hand.get(m.card) || null : before.seats.get(m.seat) || null;
      await fly(m.card, from, pileTop(root));
      return;
    }
    case "hold":
      // The card lies on what it takes a beat; a xeri's card glows.
      if (m.glow) await glow(rect(root, ".pile .top-card"), 440);
      else await pause(scaled(240));
      return;
    case "sweep":
      await sweep(root, before, m);
      return;
    case "xeri":
      await celebrate(root, before, m);
      return;
    case "shuffle":
      await shuffle(root);
      return;
    case "deal":
      await deal(root, m, ctx);
      return;
    default:
      return;
  }
}

/**
 * What follows a step's last frame once its state is drawn: the match's sound, and the turn's when it has just
 * come to this page.
 * @param {GameEvent[]} events
 * @param {{ myTurnNow: boolean, myTurnBefore: boolean }} turn
 */
export function settle(events, { myTurnNow, myTurnBefore }) {
  if (events.some((ev) => ev.kind === "match_over")) {
    hideAnnouncement();
    sound("match");
  }
  if (myTurnNow && !myTurnBefore) {
    sound("turn");
    notify("notify_turn");
  }
}
