// @ts-check
// The table page's connection: the join form of a table with a free seat, the socket's state (the banner while it
// is down, a move it never answered, a seat or a table that is gone), the server's notices about the computer's
// play, and the match commitment kept in the browser to be verified later.

import { api } from "../net/api.js";
import { ApiError } from "../net/http.js";
import { seats } from "../net/seats.js";
import { clear, h } from "../lib/dom.js";
import { announce } from "../lib/flight.js";
import { errorText, guestName, invitation, t, tableName } from "../lib/i18n.js";
import { say } from "./movelog.js";
import { browserKey, prefs } from "../lib/prefs.js";
import { seatLine } from "./view.js";

const COMMITMENTS_KEY = "xeri.commitments";

/** The notices about the computer's play shown on this page so far: each is shown once. */
const noticesShown = new Set();

/**
 * A word from the server about the computer's play: the master (or the strong level, where it plays a master)
 * plays by the counting rules while its rollouts load, then at full strength. Shown over the table and read out,
 * once each.
 * @param {import("../protocol.js").NoticeMessage["notice"]} notice
 */
export function showNotice(notice) {
  if (noticesShown.has(notice)) return;
  noticesShown.add(notice);
  const text = t(notice);
  announce(text, { ms: 6000 });
  say(text);
}

/**
 * The connection banner; null hides it.
 * @param {string | null} text
 * @param {boolean} [ok] a good message (reconnected)
 */
export function banner(text, ok = false) {
  const node = document.getElementById("banner");
  if (!node) return;
  if (!text) {
    node.hidden = true;
    return;
  }
  node.textContent = text;
  node.classList.toggle("ok", ok);
  node.hidden = false;
}

/**
 * Keep each table's match commitment, so `xeri verify --commitment HASH` can be run on it later.
 * @param {string} tableId
 * @param {string | null} hash
 */
export function keepCommitment(tableId, hash) {
  if (!hash) return;
  try {
    const all = JSON.parse(localStorage.getItem(COMMITMENTS_KEY) || "{}");
    if (all[tableId] === hash) return;
    all[tableId] = hash;
    localStorage.setItem(COMMITMENTS_KEY, JSON.stringify(all));
  } catch {
    /* storage full or blocked: the commitment is still shown */
  }
}

/**
 * The panel that replaces the table when it cannot be played: the seat's token refused (a link to watch
 * instead), or no such table.
 * @param {string} tableId
 * @param {"seat_lost" | "not_found"} why
 * @param {string} [detail] the server's word, after "not found"
 * @returns {HTMLElement}
 */
export function gonePanel(tableId, why, detail) {
  if (why === "seat_lost")
    return h("div.panel", h("p", t("seat_lost")), h("a", { href: `#/t/${tableId}/watch` }, t("spectate")));
  return h("div.panel", h("p", detail != null ? `${t("not_found")}: ${detail}` : t("not_found")),
    h("a", { href: "#/" }, t("back_lobby")));
}

/**
 * The socket's state: open (connected or reconnected), lost (retrying), closed (4003 bad token, 4004 no table).
 * @param {{ root: HTMLElement, tableId: string, queue: import("./queue.js").DrawQueue }} ctx
 * @returns {(status: "open" | "lost" | "closed", detail: string | number,
 *   unanswered?: import("../net/types.js").ClientMessage | null) => void}
 */
export function connectionStatus({ root, tableId, queue }) {
  return (status, detail, unanswered) => {
    if (status === "open") {
      if (detail === "reconnected") {
        banner(t("reconnected"), true);
        setTimeout(() => banner(null), 1200);
      } else banner(null);
    } else if (status === "lost") {
      banner(t("disconnected"));
      // A move the lost socket never answered: sent again after the resync if the table is still where it was.
      if (unanswered && unanswered.type === "move" && !queue.state.outbox) {
        queue.dispatch({ type: "unsent", move: unanswered, sent: true });
      }
    } else if (status === "closed") {
      banner(null);
      if (detail === 4003) seats.drop(tableId);
      clear(root).appendChild(gonePanel(tableId, detail === 4003 ? "seat_lost" : "not_found"));
    }
  };
}

/**
 * A table waiting for players, and no seat of this browser's at it: a name, Join, or watch.
 * @param {HTMLElement} root
 * @param {string} tableId
 * @param {import("../net/types.js").Table} table
 * @param {import("./state.js").TableState} s
 * @param {(token: string) => void} onJoined connects with the new seat's token
 */
export function joinForm(root, tableId, table, s, onJoined) {
  const name = h("input.join-name#join-name", {
    value: prefs.get("name") || "",
    maxlength: 32,
    autocomplete: "nickname",
  });
  const error = h("p.error-text", { role: "alert" });
  const form = h(
    "form.panel.join-form",
    {
      onsubmit: async (ev) => {
        ev.preventDefault();
        prefs.set("name", name.value.trim());
        try {
          const res = await api.join(tableId, name.value.trim() || guestName(browserKey())); // none: "Guest 4821"
          seats.set(tableId, res.seat, res.token);
          clear(root);
          onJoined(res.token);
        } catch (err) {
          error.textContent = err instanceof ApiError ? errorText(err.code, err.message) : String(err);
        }
      },
    },
    h("h1", tableName(table)),
    h("p.invitation", invitation(table)),
    table.rated ? h("p", h("span.rated-badge", t("rated"))) : null,
    h("ul.table-list", table.seats.map((seat) => h("li", seatLine(s, seat)))),
    h("div.form-grid", h("label", { for: "join-name" }, t("your_name")), name),
    h("button.primary.join-btn", { type: "submit" }, t("join")),
    " ",
    h("a", { href: `#/t/${tableId}/watch` }, t("spectate")),
    error,
  );
  clear(root).appendChild(form);
  name.focus();
}
