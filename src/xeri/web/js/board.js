// @ts-check
// Draws one view of the table (docs/protocol.md's VIEW) as DOM: seats, talon, pile, hand, scores.
// It holds no state; the table controller and the replay both call it.

import { cardElement, cardLabel, RANKS, SUITS, rankValue } from "./cards.js";
import { h } from "./dom.js";
import { cardsCount, t, xerisCount } from "./i18n.js";

/** @typedef {import("./api.js").View} View */

/**
 * What renderBoard draws besides the view.
 * @typedef {object} BoardOptions
 * @property {boolean} [fourColour]
 * @property {import("./dom.js").Child} [tools] nodes for the score bar
 * @property {((code: string) => void) | null} [onPlay] makes the hand clickable
 * @property {((ev: KeyboardEvent) => void) | null} [onHandKey]
 * @property {string | null} [hinted] the hinted card
 * @property {string} [hintText]
 * @property {string} [status]
 * @property {string} [handLabel]
 * @property {(string[] | null)[] | null} [hands] every hand, for replays
 * @property {boolean} [seenAid] show the counting aid
 * @property {Record<number, boolean> | null} [away] seat -> away
 * @property {number | null} [rounds] a match's rounds
 * @property {boolean} [byRounds] rounds won decide the match
 * @property {boolean} [replay]
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
function sortHand(cards) {
  // Group by rank so matches are easy to spot; keep the suits in a fixed order.
  return [...cards].sort((a, b) => rankValue(a) - rankValue(b) || SUITS.indexOf(a[1]) - SUITS.indexOf(b[1]));
}

/**
 * @param {View} view
 * @param {number} side
 * @param {BoardOptions} opts
 */
function capturedStack(view, side, opts) {
  const count = (view.captured_counts || [])[side] || 0;
  const xeris = (view.xeris || [])[side] || [];
  const stack = h("div.stack", { dataset: { side: String(side) } });
  if (count > 0) stack.appendChild(cardElement(null));
  else stack.appendChild(h("div.empty-slot"));
  // Xeris lie crosswise on the pile, fanned so each one can be counted (the newest on top).
  const step = xeris.length > 1 ? Math.min(12, 36 / (xeris.length - 1)) : 0;
  xeris.forEach(([code, jack], i) => {
    const c = cardElement(code, opts);
    c.classList.add("crosswise");
    if (jack) c.classList.add("jack-xeri");
    c.style.top = `${-18 + i * step}%`;
    c.title = `${t(jack ? "jack_xeri" : "xeri")} ${cardLabel(code)}`;
    stack.appendChild(c);
  });
  const label = cardsCount(count) + (xeris.length ? ` · ${xerisCount(xeris.length)}` : "");
  return h(
    "div.captured",
    { title: t("captured"), dataset: { side: String(side) } },
    stack,
    h("span.count.captured-count", label),
  );
}

/**
 * @param {View} view
 * @param {number} seat
 * @param {BoardOptions} opts
 * @param {number | undefined} showPileFor the side whose captured pile this box shows
 */
function seatBox(view, seat, opts, showPileFor) {
  const name = (view.names || [])[seat] || `${t("seat")} ${seat + 1}`;
  const count = (view.hand_counts || [])[seat] || 0;
  const fan = h("div.fan");
  const revealed = opts.hands && opts.hands[seat];
  const partner =
    view.seat != null && view.seat !== seat && view.players === 4 && seat % view.sides === view.seat % view.sides;
  if (revealed) {
    for (const code of sortHand(revealed)) fan.appendChild(cardElement(code, opts));
  } else {
    for (let i = 0; i < count; i++) fan.appendChild(cardElement(null));
  }
  const box = h(
    "div.seat-box",
    { dataset: { seat: String(seat) }, role: "group", "aria-label": name },
    h(
      "div.seat-name",
      name + (partner ? ` (${t("partner")})` : ""),
      view.dealer === seat ? [" · ", h("abbr.dealer-mark", { title: t("dealer") }, t("dealer_mark"))] : null,
      opts.away && opts.away[seat]
        ? [" ", h("span.away-mark", { title: t("away_mark"), "aria-label": t("away_mark"), role: "img" }, "⚠")]
        : null,
    ),
    h(
      "div.seat-row",
      h("div.hand-wrap", fan, h("div.count.hand-count", cardsCount(count))),
      showPileFor != null ? capturedStack(view, showPileFor, opts) : null,
    ),
  );
  if (view.turn === seat && !view.over) box.classList.add("turn");
  return box;
}

/**
 * @param {View} view
 * @param {BoardOptions} opts
 */
function scorebar(view, opts) {
  const bar = h("div.scorebar");
  const n = view.round_number || 1;
  const roundText =
    opts.rounds && !view.target && n <= opts.rounds ? t("round_of", { n, total: opts.rounds }) : `${t("round")} ${n}`;
  bar.appendChild(
    h("span.chip.round-chip", roundText + (view.target ? ` · ${t("target_is", { target: view.target })}` : "")),
  );
  for (let side = 0; side < view.sides; side++) {
    const mine = view.seat != null && view.seat % view.sides === side;
    const total = (view.match_scores || [])[side] || 0;
    const now = (view.points || [])[side] || 0;
    const won = (view.round_wins || [])[side] || 0;
    // A match decided by rounds shows the rounds won first; the points follow.
    let text = `${sideName(view, side)}: `;
    if (opts.byRounds)
      text += `${won === 1 ? t("round_won_one") : t("rounds_won", { n: won })} · ${t("pts", { n: total })}`;
    else text += String(total);
    const chip = h("span.chip.score-chip", { dataset: { side: String(side) } }, text);
    // This round's points so far, until the round is scored (then they are in the total already).
    if (!view.over && !view.match_over && now)
      chip.appendChild(
        h("span.round-points", { title: t("this_round_title") }, ` (${t("this_round", { n: `+${now}` })})`),
      );
    if (mine) chip.classList.add("mine");
    bar.appendChild(chip);
  }
  bar.appendChild(h("span.spacer"));
  if (opts.tools) bar.appendChild(h("div.tools", opts.tools));
  return bar;
}

/**
 * @param {View} view
 * @param {BoardOptions} opts
 */
function pileArea(view, opts) {
  const pile = view.pile || [];
  const box = h("div.pile", { role: "group", "aria-label": `${t("pile")}: ${pile.length}` });
  if (!pile.length) box.appendChild(h("div.empty-slot"));
  const shown = pile.slice(-4);
  shown.forEach((code, i) => {
    const c = cardElement(code, opts);
    c.style.left = `${i * 12.5}%`;
    if (i === shown.length - 1) c.classList.add("top-card");
    box.appendChild(c);
  });
  return h("div.pile-area", box, h("div.label.pile-count", `${t("pile")}: ${pile.length}`));
}

/** @param {View} view */
function talonArea(view) {
  const n = view.talon_count || 0;
  const slot = n ? cardElement(null) : h("div.card", h("div.empty-slot"));
  return h("div.talon", slot, h("div.label.talon-count", `${t("talon")}: ${n}`));
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
 * The whole table for `view`. opts: fourColour, tools (nodes for the score bar),
 * onPlay(code) (makes the hand clickable), hinted (a code), status (text), hands
 * (every hand, for replays), seenAid (show the counting aid), away (seat -> bool), rounds (a match's rounds).
 * @param {View} view
 * @param {BoardOptions} [opts]
 * @returns {HTMLElement}
 */
export function renderBoard(view, opts = {}) {
  const me = view.seat;
  const others = otherSeats(view.players, me);
  const owners = new Map();
  for (let side = 0; side < view.sides; side++) owners.set(pileOwner(side, view.sides, me, others), side);

  const opponents = h(
    "div.opponents",
    others.map((s) => seatBox(view, s, opts, owners.get(s))),
  );
  const centre = h(
    "div.centre",
    talonArea(view),
    pileArea(view, opts),
    view.exposed ? h("div.exposed", cardElement(view.exposed, opts), h("div.label", t("exposed"))) : null,
  );

  let mine = null;
  if (me != null) {
    const legal = new Set(view.legal_moves || []);
    const myTurn = view.turn === me && !view.over && legal.size > 0;
    const hand = h("div.hand", {
      role: "group",
      "aria-label": opts.handLabel || t("your_turn"),
      tabindex: "-1",
      onkeydown: opts.onHandKey || null,
    });
    if (myTurn) hand.classList.add("my-turn");
    sortHand(view.hand || []).forEach((code, i) => {
      const can = myTurn && legal.has(code) && Boolean(opts.onPlay);
      // aria-disabled, not disabled: the card keeps the focus while the others play.
      const btn = h(
        "button.card-btn",
        {
          type: "button",
          "aria-disabled": can ? null : "true",
          dataset: { card: code },
          // No aria-label: the name comes from the card's own (its SVG's "2♦"), so it holds the visible text
          // (WCAG 2.5.3, axe's label-content-name-mismatch); the key number beside it is aria-hidden.
          title: `${cardLabel(code)} (${i + 1})`,
          onclick: () => can && opts.onPlay && opts.onPlay(code),
        },
        cardElement(code, opts),
        h("span.keycap", { "aria-hidden": "true" }, String(i + 1)),
      );
      if (opts.hinted === code) btn.classList.add("hinted");
      hand.appendChild(btn);
    });
    const status = h("div.status", opts.status || "");
    if (myTurn) status.classList.add("go");
    mine = h(
      "div.me",
      status,
      h(
        "div.me-row",
        h(
          "div.my-pile",
          h("span.my-name", `${(view.names || [])[me] || ""} (${t("you")})`),
          owners.has(me) ? capturedStack(view, owners.get(me), opts) : null,
        ),
        hand,
      ),
      opts.hintText ? h("div.hint-text", opts.hintText) : h("div.hint-text"),
    );
  } else if (!opts.replay) {
    mine = h("div.me", h("div.status", opts.status || t("spectating")));
  }
  return h(
    "section.board",
    scorebar(view, opts),
    opponents,
    centre,
    mine,
    opts.seenAid && me != null ? seenPanel(view) : null,
  );
}
