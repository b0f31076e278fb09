// @ts-check
// Table talk (docs/web.md#table-talk): the talk panel the tool bar's button opens (preset phrases and emotes, free
// text at a private table, a mute toggle per other player), and what a `said` shows: a short bubble by the speaker's
// seat and one line in the polite live region. The server knows the presets by id only; the words are the page's.
// Everything a player typed is set as textContent. Talk is not table state: the reducer never sees it.

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { say } from "./movelog.js";
import { nameOf } from "./view.js";

/** @typedef {import("../protocol.js").SaidMessage} SaidMessage */
/** @typedef {NonNullable<SaidMessage["phrase"]>} Phrase */

/** @type {Phrase[]} */
export const PHRASES = ["hello", "good_luck", "well_played", "thanks", "oops", "nice_one", "sorry", "wow"];
/** @type {Partial<Record<Phrase, string>>} */
export const EMOTES = { clap: "👏", laugh: "😄", think: "🤔", heart: "❤️" };
/** how long a bubble shows, ms */
const BUBBLE_MS = 4000;
/** the most characters of free text (the server's bound, once spaces are collapsed) */
const TEXT_MAX = 140;
const MUTED_KEY = "xeri.talk.muted";

/**
 * What a `said` says: its free text, an emote, or the preset's words in the page's language.
 * @param {SaidMessage} msg
 * @returns {string}
 */
export function saidText(msg) {
  if (msg.text != null) return msg.text;
  if (msg.phrase == null) return "";
  return EMOTES[msg.phrase] || t(`talk_${msg.phrase}`);
}

/** @returns {Set<string>} the muted "table:seat"s of this tab's session */
function mutedSet() {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(MUTED_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

/**
 * One table's talk on this page.
 */
export class TableTalk {
  /**
   * @param {{ tableId: string, state: () => import("./state.js").TableState,
   *   send: (msg: import("../net/types.js").ClientMessage) => void, root: HTMLElement, layer: HTMLElement }} ctx
   *   `layer`: where the panel lives, outside the table's drawing (a draw keeps the focus in it)
   */
  constructor(ctx) {
    this.ctx = ctx;
    /** @type {Map<number, { text: string, until: number }>} the bubbles showing, by seat */
    this.bubbles = new Map();
    /** @type {HTMLElement | null} */
    this.panel = null;
    this.muted = mutedSet();
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
  }

  get open() {
    return this.panel != null;
  }

  /**
   * @param {number} seat
   * @returns {boolean}
   */
  isMuted(seat) {
    return this.muted.has(`${this.ctx.tableId}:${seat}`);
  }

  /** @param {number} seat */
  toggleMute(seat) {
    const key = `${this.ctx.tableId}:${seat}`;
    if (!this.muted.delete(key)) this.muted.add(key);
    if (this.isMuted(seat)) this.bubbles.delete(seat);
    try {
      sessionStorage.setItem(MUTED_KEY, JSON.stringify([...this.muted]));
    } catch {
      /* storage blocked: muted for this page still */
    }
    this.decorate();
  }

  /**
   * A `said` from the server: shown and read out, unless its seat is muted here.
   * @param {SaidMessage} msg
   */
  heard(msg) {
    if (this.isMuted(msg.seat)) return;
    const text = saidText(msg);
    if (!text) return;
    this.bubbles.set(msg.seat, { text, until: performance.now() + BUBBLE_MS });
    say(t("talk_said", { name: nameOf(this.ctx.state(), msg.seat), text }));
    this.decorate();
  }

  /** Put the bubbles still showing by their seats (after every draw of the table: it draws the seats anew). */
  decorate() {
    const root = this.ctx.root;
    for (const old of root.querySelectorAll(".talk-bubble")) old.remove();
    const now = performance.now();
    let next = Infinity;
    for (const [seat, bubble] of this.bubbles) {
      if (bubble.until <= now) {
        this.bubbles.delete(seat);
        continue;
      }
      next = Math.min(next, bubble.until);
      const box = root.querySelector(`[data-seat="${seat}"]`);
      // aria-hidden: the live region has said it once already
      if (box) box.appendChild(h("div.talk-bubble", { "aria-hidden": "true", dataset: { seat: String(seat) } },
        bubble.text));
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = next < Infinity ? setTimeout(() => this.decorate(), next - now + 20) : null;
  }

  /** Open the panel, or close it. */
  toggle() {
    if (this.panel) this.close();
    else this.show();
  }

  /**
   * @param {import("../net/types.js").ClientMessage} msg
   */
  send(msg) {
    this.ctx.send(msg);
    this.close();
  }

  show() {
    const s = this.ctx.state();
    const emote = (/** @type {Phrase} */ id) => h("button.talk-emote", {
      type: "button", "aria-label": t(`talk_${id}`), title: t(`talk_${id}`),
      onclick: () => this.send({ type: "say", phrase: id, ref: "talk" }),
    }, EMOTES[id] || "");
    const speaks = s.seat != null; // a spectator only listens (the server takes talk from the seats alone)
    /** @type {HTMLElement | null} */
    let form = null;
    if (speaks && s.table && s.table.private) {
      const input = h("input.talk-text", { maxlength: TEXT_MAX, "aria-label": t("talk_text"), autocomplete: "off" });
      form = h("form.talk-form", {
        onsubmit: (/** @type {Event} */ ev) => {
          ev.preventDefault();
          const text = input.value.replace(/\s+/g, " ").trim();
          if (text) this.send({ type: "say", text, ref: "talk" });
        },
      }, input, h("button.talk-send", { type: "submit" }, t("talk_send")));
    }
    const others = (s.table ? s.table.seats : []).filter((x) => x.human && x.seat !== s.seat);
    const mutes = others.map((x) => h("button.talk-mute", {
      type: "button", "aria-pressed": String(this.isMuted(x.seat)), dataset: { seat: String(x.seat) },
      onclick: (/** @type {MouseEvent} */ ev) => {
        this.toggleMute(x.seat);
        if (ev.currentTarget instanceof HTMLElement)
          ev.currentTarget.setAttribute("aria-pressed", String(this.isMuted(x.seat)));
      },
    }, t("talk_mute", { name: nameOf(s, x.seat) })));
    this.panel = h("div.talk-panel#talk-panel", {
      role: "dialog", "aria-label": t("talk_title"),
      // The table's keys (1–9 play a card) stay out of the panel; Escape closes it.
      onkeydown: (/** @type {KeyboardEvent} */ ev) => {
        ev.stopPropagation();
        if (ev.key !== "Escape") return;
        ev.preventDefault();
        this.close();
      },
    },
    h("div.talk-head", h("h2", t("talk_title")),
      h("button.talk-close", { type: "button", "aria-label": t("close"), onclick: () => this.close() }, "×")),
    speaks ? h("div.talk-phrases", PHRASES.map((id) => h("button.talk-phrase", {
      type: "button", onclick: () => this.send({ type: "say", phrase: id, ref: "talk" }),
    }, t(`talk_${id}`)))) : null,
    speaks ? h("div.talk-emotes", /** @type {Phrase[]} */ (Object.keys(EMOTES)).map(emote)) : null,
    form,
    mutes.length ? h("div.talk-mutes", mutes) : null);
    this.ctx.layer.appendChild(this.panel);
    this.ctx.root.querySelector(".talk-btn")?.setAttribute("aria-expanded", "true");
    /** @type {HTMLElement | null} */ (this.panel.querySelector(".talk-phrase, .talk-mute"))?.focus();
  }

  /** Close the panel; the focus goes back to the talk button. */
  close() {
    if (!this.panel) return;
    const hadFocus = this.panel.contains(document.activeElement);
    this.panel.remove();
    this.panel = null;
    /** @type {HTMLElement | null} */
    const btn = this.ctx.root.querySelector(".talk-btn");
    btn?.setAttribute("aria-expanded", "false");
    if (hadFocus) btn?.focus();
  }

  dispose() {
    this.close();
    if (this.timer) clearTimeout(this.timer);
  }
}
