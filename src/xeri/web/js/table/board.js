// @ts-check
// Draws one view of the table (docs/reference/protocol-messages.md's VIEW) as a felt: the seats around it (you at the
// bottom), the talon and the fanned pile in the middle, the hand, the captured stacks and the score bar. It holds no
// state and starts nothing: the table's controller and the replay both call it, and draw again on every change.

import { cardElement, cardLabel, RANKS, SUITS, rankValue } from "../lib/cards.js";
import { h } from "../lib/dom.js";
import { cardsCount, t, tn, xerisCount } from "../lib/i18n.js";

/** @typedef {import("../net/types.js").View} View */

/**
 * What renderBoard draws besides the view.
 * @typedef {object} BoardOptions
 * @property {boolean} [fourColour]
 * @property {import("../lib/dom.js").Child} [tools] nodes for the tool bar
 * @property {((code: string) => void) | null} [onPlay] makes the hand clickable
 * @property {((ev: KeyboardEvent) => void) | null} [onHandKey]
 * @property {((ev: PointerEvent, code: string) => void) | null} [onCardPointer] starts a drag
 * @property {string | null} [hinted] the hinted card
 * @property {string} [hintText]
 * @property {string} [status]
 * @property {string} [handLabel]
 * @property {boolean} [myTurn] the hand may play (the controller's word, not the view's)
 * @property {(string[] | null)[] | null} [hands] every hand, for replays
 * @property {boolean} [seenAid] show the counting aid under the board (the replay; the table has a panel)
 * @property {Record<number, boolean> | null} [away] seat -> away
 * @property {(string | null)[] | null} [levels] seat -> a computer's level, said under its name
 * @property {string[]} [shortNames] seat -> its name in a word or two, for a short screen's score bar
 * @property {string | null} [timerText] the turn timer, shown at the seat whose turn it is
 * @property {number | null} [rounds] a match's rounds
 * @property {boolean} [byRounds] rounds won decide the match
 * @property {boolean} [replay]
 * @property {import("../lib/dom.js").Child} [result] shown instead of the hand once the match is over
 * @property {null | { pile: boolean }} [dealing] a deal is being shown: the hands (and the pile when `pile`) are
 *   drawn hidden, and the storyboard shows each card as its back lands (storyboard.js)
 */

/** @type {Record<string, string>} */
const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };

/**
 * Seats in the order they sit around the table, starting after `me` (everyone for a spectator).
 * @param {number} players
 * @param {number | null} me
 * @returns {number[]}
 */
export function otherSeats(players, me) {
  const out = [];
  if (me == null) {
    for (let s = 0; s < players; s++) out.push(s);
  } else {
    for (let k = 1; k < players; k++) out.push((me + k) % players);
  }
  return out;
}

/**
 * Where a seat sits on the felt, seen from `me` (seat 0 for a spectator): play goes clockwise, so the next
 * seat sits on the left. Two players: across. Three: left and right. Four: the partner across.
 * @param {number} players
 * @param {number | null} me
 * @param {number} seat
 * @returns {"south" | "west" | "north" | "east"}
 */
export function seatPlace(players, me, seat) {
  const k = (seat - (me ?? 0) + players) % players;
  if (k === 0) return "south";
  if (players === 2) return "north";
  if (players === 3) return k === 1 ? "west" : "east";
  return /** @type {const} */ (["south", "west", "north", "east"])[k];
}

/**
 * The seat whose box shows a side's captured pile: yours for your side, else the first at the table.
 * @param {number} side
 * @param {number} sides
 * @param {number | null} me
 * @param {number[]} seatsShown
 * @returns {number | undefined}
 */
export function pileOwner(side, sides, me, seatsShown) {
  if (me != null && me % sides === side) return me;
  return seatsShown.find((s) => s % sides === side);
}

/**
 * The names of a side's seats: "Alice & Carol".
 * @param {View} view
 * @param {number} side
 * @returns {string}
 */
export function sideName(view, side) {
  const names = view.names || [];
  const seatsOf = [];
  for (let s = 0; s < view.players; s++) if (s % view.sides === side) seatsOf.push(names[s] || `${t("seat")} ${s + 1}`);
  return seatsOf.join(" & ");
}

/**
 * @param {string[]} cards
 * @returns {string[]}
 */
export function sortHand(cards) {
  // Group by rank so matches are easy to spot; keep the suits in a fixed order.
  return [...cards].sort((a, b) => rankValue(a) - rankValue(b) || SUITS.indexOf(a[1]) - SUITS.indexOf(b[1]));
}

/**
 * A side's captured stack: one back for the pile, each xeri laid crosswise on it, a step apart so each one's
 * corner reads, and the count in words ("14 cards · 2 xeris").
 * @param {View} view
 * @param {number} side
 * @param {BoardOptions} opts
 */
function capturedStack(view, side, opts) {
  const count = (view.captured_counts || [])[side] || 0;
  const xeris = (view.xeris || [])[side] || [];
  const stack = h("div.stack", { dataset: { side: String(side) } });
  stack.style.setProperty("--xeris", String(xeris.length));
  stack.appendChild(count > 0 ? cardElement(null) : h("div.empty-slot"));
  xeris.forEach(([code, jack], i) => {
    const c = cardElement(code, opts);
    c.classList.add("crosswise");
    if (jack) c.classList.add("jack-xeri");
    c.style.setProperty("--i", String(i));
    c.title = `${t(jack ? "jack_xeri" : "xeri")} ${cardLabel(code)}`;
    stack.appendChild(c);
  });
  return h(
    "div.captured",
    { title: t("captured"), dataset: { side: String(side) } },
    stack,
    h(
      "span.count.captured-count",
      cardsCount(count),
      // A seat at the side has no room for both on one line: the xeris go under the cards (style.css).
      xeris.length ? h("span.xeri-count", h("span.xeri-sep", " · "), xerisCount(xeris.length)) : null,
    ),
  );
}

/**
 * A seat's name line: the name, the partner tag, the dealer mark, the away mark.
 * @param {View} view
 * @param {number} seat
 * @param {BoardOptions} opts
 * @param {boolean} mine
 */
function nameLine(view, seat, opts, mine) {
  const name = (view.names || [])[seat] || `${t("seat")} ${seat + 1}`;
  const partner =
    view.seat != null && view.seat !== seat && view.players === 4 && seat % view.sides === view.seat % view.sides;
  const level = opts.levels && opts.levels[seat];
  return h(
    mine ? "div.seat-name.my-name" : "div.seat-name",
    h("span.name-text", mine ? `${name} (${t("you")})` : name),
    partner ? h("span.partner-tag", t("partner")) : null,
    view.dealer === seat ? h("abbr.dealer-mark", { title: t("dealer") }, t("dealer_mark")) : null,
    opts.away && opts.away[seat]
      ? h("span.away-mark", { title: t("away_mark"), "aria-label": t("away_mark"), role: "img" }, "⚠")
      : null,
    level ? h("span.seat-level", level) : null,
  );
}

/**
 * @param {View} view
 * @param {number} seat
 * @param {BoardOptions} opts
 * @param {number | undefined} showPileFor the side whose captured pile this box shows
 */
function seatBox(view, seat, opts, showPileFor) {
  const count = (view.hand_counts || [])[seat] || 0;
  const fan = h("div.fan");
  const revealed = opts.hands && opts.hands[seat];
  if (revealed) {
    for (const code of sortHand(revealed)) fan.appendChild(cardElement(code, opts));
  } else {
    for (let i = 0; i < count; i++) fan.appendChild(cardElement(null));
  }
  if (opts.dealing) for (const c of fan.children) c.classList.add("dealing");
  const place = seatPlace(view.players, view.seat, seat);
  const turn = view.turn === seat && !view.over && !view.match_over;
  const name = (view.names || [])[seat] || `${t("seat")} ${seat + 1}`;
  const box = h(
    `div.seat-box.seat-${place}`,
    { dataset: { seat: String(seat) }, role: "group", "aria-label": name },
    nameLine(view, seat, opts, false),
    h(
      "div.seat-row",
      h("div.hand-wrap", fan, h("div.count.hand-count", cardsCount(count))),
      showPileFor != null ? capturedStack(view, showPileFor, opts) : null,
    ),
    turn ? h("div.seat-turn", h("span.turn-dot", { "aria-hidden": "true" }), t("turn_short"),
      opts.timerText ? h("span.seat-timer", ` · ${opts.timerText}`) : null) : null,
  );
  if (turn) box.classList.add("turn");
  return box;
}

/**
 * Mark the score chips' row with the edges that have more past them (data-more: "start", "end", "both"), for the
 * fade that says the row scrolls (style.css).
 * @param {Element} chips
 */
function markMore(chips) {
  if (!(chips instanceof HTMLElement)) return;
  const room = chips.scrollWidth - chips.clientWidth;
  const start = room > 1 && chips.scrollLeft > 1;
  const end = room > 1 && chips.scrollLeft < room - 1;
  const more = start && end ? "both" : start ? "start" : end ? "end" : "";
  if (more) chips.dataset.more = more;
  else delete chips.dataset.more;
}

// The row is drawn anew at every step: one observer follows the row on the page (its first report comes once the
// row is laid out), the one before it let go.
const chipsObserver = typeof ResizeObserver === "function"
  ? new ResizeObserver((entries) => entries.forEach((e) => markMore(e.target)))
  : null;
/** @type {HTMLElement | null} */
let observedChips = null;

/**
 * The score bar: the round, the target, each side's match score and this round's points so far. Every chip is
 * always there with the same parts, so nothing moves when a number appears.
 * @param {View} view
 * @param {BoardOptions} opts
 */
function scorebar(view, opts) {
  // Focusable: on a narrow screen the chips' line scrolls, and a keyboard must reach it too.
  const chips = h("div.chips", { tabindex: "0", role: "group", "aria-label": t("score") });
  chips.dataset.sides = String(view.sides); // a phone upright lays three sides' chips on two lines (style.css)
  chips.addEventListener("scroll", () => markMore(chips), { passive: true });
  if (chipsObserver) {
    if (observedChips) chipsObserver.unobserve(observedChips);
    chipsObserver.observe((observedChips = chips));
  }
  const n = view.round_number || 1;
  const target = view.target ? ` · ${t("target_is", { target: view.target })}` : "";
  const ofRounds = opts.rounds && !view.target && n <= opts.rounds;
  chips.appendChild(h("span.chip.round-chip", ofRounds
    ? [h("span.label-long", t("round_of", { n, total: opts.rounds })),
      h("span.label-short", t("round_of_short", { n, total: opts.rounds }))]
    : `${t("round")} ${n}${target}`));
  for (let side = 0; side < view.sides; side++) {
    const mine = view.seat != null && view.seat % view.sides === side;
    const total = (view.match_scores || [])[side] || 0;
    const now = (view.points || [])[side] || 0;
    const won = (view.round_wins || [])[side] || 0;
    // A match decided by rounds shows the rounds won first; the points follow.
    const score = opts.byRounds
      ? `${won === 1 ? t("round_won_one") : t("rounds_won", { n: won })} · ${t("pts", { n: total })}`
      : String(total);
    // The names may shorten to fit; the score never does. A short screen shows the rounds' score in short words.
    const name = sideName(view, side);
    const scoreParts = opts.byRounds
      ? [h("span.label-long", `: ${score}`),
        h("span.label-short", `: ${tn("score_short", total, { won, pts: total })}`)]
      : [`: ${score}`];
    const chip = h("span.chip.score-chip", { dataset: { side: String(side) }, title: `${name}: ${score}` },
      h("span.chip-name", h("span.label-long", name), h("span.label-short", shortSideName(view, side, opts))),
      h("span.chip-score", ...scoreParts));
    // This round's points so far, until the round is scored (then they are in the total already).
    if (!view.over && !view.match_over && now)
      chip.appendChild(h("span.round-points", { title: t("this_round_title") }, ` +${now}`));
    if (mine) chip.classList.add("mine");
    chips.appendChild(chip);
  }
  return h("div.scorebar", chips, opts.tools ? h("div.tools", opts.tools) : null);
}

/**
 * A side's name in a word, for a short screen's score bar: "You", or "Us" and "Them" in partnerships; with no seat
 * of this page on the side, its player's name (3 players, or a spectator).
 * @param {View} view
 * @param {number} side
 * @param {BoardOptions} opts
 */
function shortSideName(view, side, opts) {
  const team = view.players > view.sides;
  const short = { ...view, names: opts.shortNames || view.names };
  if (view.seat == null) return team ? `${t("team")} ${side + 1}` : sideName(short, side);
  if (view.seat % view.sides === side) return team ? t("side_us") : t("side_you");
  return team ? t("side_them") : sideName(short, side);
}

/**
 * The pile, fanned: its last cards face up, a step apart, over an edge that thickens with its size.
 * @param {View} view
 * @param {BoardOptions} opts
 */
function pileArea(view, opts) {
  const pile = view.pile || [];
  const box = h("div.pile", {
    role: "group", "aria-label": `${t("pile")}: ${pile.length}`, dataset: { size: String(pile.length) },
  });
  box.style.setProperty("--depth", String(Math.min(6, Math.ceil(pile.length / 3))));
  box.appendChild(h("div.empty-slot"));
  const shown = pile.slice(-4);
  shown.forEach((code, i) => {
    const c = cardElement(code, opts);
    c.style.setProperty("--i", String(i));
    if (i === shown.length - 1) c.classList.add("top-card");
    if (opts.dealing && opts.dealing.pile) c.classList.add("dealing");
    box.appendChild(c);
  });
  return h("div.pile-area", box, h("div.label.pile-count", `${t("pile")}: ${pile.length}`));
}

/** @param {View} view @param {BoardOptions} opts */
function talonArea(view, opts) {
  const n = view.talon_count || 0;
  const slot = h("div.talon-slot", h("div.empty-slot"), n ? cardElement(null) : null);
  slot.style.setProperty("--depth", String(Math.min(6, Math.ceil(n / 6))));
  return h(
    "div.talon",
    h("div.talon-cards", slot,
      view.exposed ? h("div.exposed", { title: t("exposed") }, cardElement(view.exposed, opts)) : null),
    h("div.label.talon-count", `${t("talon")}: ${n}`),
    view.exposed ? h("div.label.exposed-label", `${t("exposed")}: ${cardLabel(view.exposed)}`) : null,
  );
}

/**
 * The counting aid: every card of the deck, those already face up on the pile crossed out.
 * @param {View} view
 */
export function seenPanel(view) {
  const gone = new Set(view.gone || []);
  const mine = new Set(view.hand || []);
  const grid = h("div.seen-grid");
  for (const suit of ["S", "H", "D", "C"]) {
    grid.appendChild(h("span", { "aria-hidden": "true" }, SUIT_SYMBOL[suit]));
    for (const rank of RANKS) {
      const code = rank + suit;
      // Crossed-out cards are said as played, not only drawn struck through.
      const said = gone.has(code) ? "seen_gone" : mine.has(code) ? "seen_mine" : "seen_left";
      const cell = h(
        "span",
        { dataset: { card: code }, role: "img", "aria-label": t(said, { card: cardLabel(code) }) },
        rank === "T" ? "10" : rank,
      );
      if (gone.has(code)) cell.classList.add("gone");
      if (mine.has(code)) cell.classList.add("mine");
      grid.appendChild(cell);
    }
  }
  return h(
    "section.seen-panel",
    { "aria-label": t("seen_title") },
    h("div.label", `${t("seen_title")} (${gone.size}/52). ${t("seen_hint")}`),
    grid,
  );
}

/**
 * Your own seat: the status line, your name with the dealer mark and your captured stack, and the hand.
 * @param {View} view
 * @param {number} me
 * @param {BoardOptions} opts
 * @param {number | undefined} pileSide
 */
function mySeat(view, me, opts, pileSide) {
  const legal = new Set(view.legal_moves || []);
  const canPlay = Boolean(opts.myTurn ?? (view.turn === me && !view.over)) && legal.size > 0;
  const status = h("div.status", { "aria-live": "off" }, opts.status || "");
  if (canPlay) status.classList.add("go");
  const pile = h("div.my-pile", nameLine(view, me, opts, true), pileSide != null ? capturedStack(view, pileSide, opts)
    : null);
  /** @type {HTMLElement} */
  let hand;
  if (view.match_over && opts.result) {
    hand = h("div.result", opts.result);
  } else {
    hand = h("div.hand", {
      role: "group",
      "aria-label": opts.handLabel || t("your_turn"),
      tabindex: "-1",
      onkeydown: opts.onHandKey || null,
    });
    if (canPlay) hand.classList.add("my-turn");
    sortHand(view.hand || []).forEach((code, i) => {
      const can = canPlay && legal.has(code) && Boolean(opts.onPlay);
      // aria-disabled, not disabled: the card keeps the focus while the others play. The button is named by its
      // content (the card's picture says "10♦"), so its name holds what it shows (WCAG 2.5.3).
      const btn = h(
        "button.card-btn",
        {
          type: "button",
          "aria-disabled": can ? null : "true",
          dataset: { card: code },
          title: `${cardLabel(code)} (${i + 1})`,
          onclick: () => can && opts.onPlay && opts.onPlay(code),
          onpointerdown: can && opts.onCardPointer ? (/** @type {PointerEvent} */ ev) =>
            opts.onCardPointer && opts.onCardPointer(ev, code) : null,
        },
        cardElement(code, opts),
        h("span.keycap", { "aria-hidden": "true" }, String(i + 1)),
      );
      if (opts.dealing) btn.classList.add("dealing");
      if (opts.hinted === code) {
        btn.classList.add("hinted");
        btn.appendChild(h("span.hint-badge", { "aria-hidden": "true" }, t("hint")));
      }
      hand.appendChild(btn);
    });
  }
  const turnOn = view.turn === me && !view.over && !view.match_over;
  const seat = h(
    "div.me.my-seat.seat-south",
    { dataset: { seat: String(me) } },
    status,
    h("div.me-row", pile, hand),
    h("div.hint-text", opts.hintText || ""),
  );
  if (turnOn) seat.classList.add("turn");
  return seat;
}

/**
 * The whole table for `view`, as a felt with the seats around it.
 * @param {View} view
 * @param {BoardOptions} [opts]
 * @returns {HTMLElement}
 */
export function renderBoard(view, opts = {}) {
  const me = view.seat;
  const others = otherSeats(view.players, me);
  const owners = new Map();
  for (let side = 0; side < view.sides; side++) owners.set(pileOwner(side, view.sides, me, others), side);
  const centre = h("div.centre", talonArea(view, opts), pileArea(view, opts), h("div.felt-msg", { id: "felt-msg" }));
  /** @type {HTMLElement | null} */
  let mine = null;
  if (me != null) mine = mySeat(view, me, opts, owners.get(me));
  else if (!opts.replay) mine = h("div.me.watch-note", h("div.status", opts.status || t("spectating")));
  const felt = h(
    `div.felt.players-${view.players}`,
    others.map((s) => seatBox(view, s, opts, owners.get(s))),
    centre,
    mine,
  );
  if (me == null) felt.classList.add("spectator");
  return h(
    "section.board",
    scorebar(view, opts),
    felt,
    opts.seenAid && me != null ? seenPanel(view) : null,
  );
}
