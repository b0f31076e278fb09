// The table page: one WebSocket, the seat's view, animations, dialogs, hints and the counting aid.

import { api, ApiError, seats, TableSocket } from "./api.js";
import { renderBoard, sideName } from "./board.js";
import { cardLabel } from "./cards.js";
import { breakdownTable, fairnessBlock, modal, roundsTable } from "./dialogs.js";
import { clear, h } from "./dom.js";
import { announce, fly, hideAnnouncement, rectOf } from "./fx.js";
import { errorText, hintReason, t } from "./i18n.js";
import { prefs } from "./prefs.js";

function banner(text, ok = false) {
  const node = document.getElementById("banner");
  if (!text) {
    node.hidden = true;
    return;
  }
  node.textContent = text;
  node.classList.toggle("ok", ok);
  node.hidden = false;
}

function inviteUrl(table) {
  return new URL(table.invite || `/#/t/${table.id}`, location.href).href;
}

/** Mount the table `tableId` into `container`; returns a cleanup function. */
export function mountTable(container, tableId, { watch = false } = {}) {
  const state = {
    table: null, seat: null, version: 0, view: null, history: [], timer: null, timerAt: 0,
    hint: null, pending: false, socket: null, roundDialog: null, shownMatchEnd: false, handFocus: false,
  };
  let queue = Promise.resolve();
  let disposed = false;
  let timerTick = null;
  const root = h("section.table-view", { dataset: { table: tableId } });
  clear(container).appendChild(root);

  function tools() {
    const out = [];
    if (state.seat != null && state.view && !state.view.match_over) {
      out.push(h("button.hint-btn", { type: "button", onclick: askHint, title: "H", disabled: !(state.view.turn === state.seat) }, t("hint")));
    }
    if (state.seat != null) {
      out.push(h("button.seen-btn", { type: "button", "aria-pressed": String(Boolean(prefs.get("seenAid"))), title: `${t("cards_seen")} (S)`, onclick: toggleSeen }, `${prefs.get("seenAid") ? "☑" : "☐"} ${t("cards_seen_short")}`));
    }
    if (state.history.length) out.push(h("button.rounds-btn", { type: "button", onclick: showAllRounds }, t("breakdown")));
    if (state.seat != null && state.view && !state.view.match_over) {
      out.push(h("button.leave-btn", { type: "button", onclick: leaveDuringPlay }, t("leave")));
    }
    return out;
  }

  function statusText() {
    const v = state.view;
    if (!v) return "";
    if (v.match_over) return t("match_over");
    let text;
    if (v.turn == null) text = "";
    else if (v.turn === state.seat) text = t("your_turn");
    else text = t("turn_of", { name: (v.names || [])[v.turn] || `${t("seat")} ${v.turn + 1}` });
    if (state.timer && state.timer.remaining != null) {
      const left = Math.max(0, Math.ceil(state.timer.remaining - (performance.now() - state.timerAt) / 1000));
      text += ` · ${left} s`;
    }
    return text;
  }

  function render() {
    if (disposed) return;
    // Keyboard players keep their place in the hand across re-renders.
    const active = document.activeElement;
    if (active && root.contains(active)) state.handFocus = Boolean(active.closest(".hand"));
    const focusedCard = active && active.closest && active.closest(".hand") ? active.dataset.card : null;
    clear(root);
    const table = state.table;
    if (!state.view) {
      root.appendChild(waitingPanel(table));
      return;
    }
    const away = {};
    if (table) for (const s of table.seats) away[s.seat] = s.away;
    const board = renderBoard(state.view, {
      fourColour: prefs.get("fourColour"),
      seenAid: prefs.get("seenAid"),
      tools: tools(),
      onPlay: state.pending ? null : play,
      hinted: state.hint && state.hint.card,
      hintText: state.hint ? t("hint_text", { card: cardLabel(state.hint.card), reason: hintReason(state.hint.reason) }) : "",
      status: statusText(),
      away,
      rounds: table && table.ruleset && table.ruleset.match_end === "rounds" ? table.ruleset.rounds : null,
    });
    root.appendChild(board);
    if (state.handFocus && (!document.activeElement || document.activeElement === document.body)) {
      const target = (focusedCard && root.querySelector(`.hand .card-btn[data-card="${focusedCard}"]:not([disabled])`)) || root.querySelector(".hand .card-btn:not([disabled])");
      if (target) target.focus({ preventScroll: true });
    }
    // A marker in the tab's title, for a player who is looking at another tab.
    const myTurn = state.seat != null && state.view.turn === state.seat && !state.view.match_over;
    document.title = (myTurn ? "● " : "") + t("title");
    if (state.seat == null) root.appendChild(h("p.muted.spectator-note", t("spectating")));
  }

  function waitingPanel(table) {
    const panel = h("div.panel.waiting");
    if (!table) {
      panel.appendChild(h("p", t("loading")));
      return panel;
    }
    panel.appendChild(h("h2", table.title || `${t("table")} ${table.id}`));
    panel.appendChild(h("p.waiting-text", t("waiting_players")));
    const url = inviteUrl(table);
    const input = h("input.invite-url", { value: url, readonly: true, "aria-label": t("invite") });
    const copyBtn = h("button", {
      type: "button",
      onclick: async () => {
        input.select();
        try {
          await navigator.clipboard.writeText(url);
          copyBtn.textContent = t("copied");
        } catch {
          copyBtn.textContent = t("copied");
        }
      },
    }, t("copy"));
    panel.appendChild(h("label.label", t("invite")));
    panel.appendChild(h("div.invite", input, copyBtn));
    panel.appendChild(
      h("ul.table-list.seat-list", table.seats.map((s) => h("li", `${t("seat")} ${s.seat + 1}: ${s.taken ? s.name : t("free")}` + (s.human ? "" : ` (${t("bot")})`) + (s.seat === state.seat ? ` — ${t("you")}` : "")))),
    );
    if (state.seat != null) panel.appendChild(h("p", h("button.leave-btn", { type: "button", onclick: leave }, t("leave"))));
    return panel;
  }

  function play(code) {
    if (state.pending || !state.socket) return;
    state.pending = true;
    state.hint = null;
    state.socket.send({ type: "move", card: code, version: state.version });
    render();
  }

  function askHint() {
    if (state.socket) state.socket.send({ type: "hint" });
  }

  function toggleSeen() {
    prefs.set("seenAid", !prefs.get("seenAid"));
  }

  async function leave() {
    const mine = seats.get(tableId);
    if (mine) {
      try {
        await api.leave(tableId, mine.token);
      } catch {
        /* the seat is dropped here either way */
      }
      seats.drop(tableId);
    }
    location.hash = "#/";
  }

  function showAllRounds() {
    const v = state.view;
    const table = state.table;
    const names = (v && v.names) || table.seats.map((s) => s.name);
    const players = table.players;
    const sides = v ? v.sides : players === 4 ? 2 : players;
    const body = h("div", roundsTable(state.history, names, players, sides), state.history.map((r) => h("div", h("h3", `${t("round")} ${r.round}`), breakdownTable(r, names, players, sides), fairnessBlock(r, table.ruleset))));
    modal(t("breakdown"), body, [{ label: t("close"), primary: true }], { id: "rounds-dialog" });
  }

  function showRoundOver(round) {
    const v = state.view;
    const names = v.names;
    const body = h("div", breakdownTable(round, names, v.players, v.sides), roundsTable(state.history, names, v.players, v.sides), fairnessBlock(round, state.table.ruleset));
    if (state.roundDialog) state.roundDialog();
    state.roundDialog = modal(t("round_over", { n: round.round }), body, [{ label: t("next"), primary: true }], { id: "round-dialog", onClose: () => (state.roundDialog = null) });
  }

  function showMatchOver() {
    if (state.shownMatchEnd) return;
    state.shownMatchEnd = true;
    if (state.roundDialog) state.roundDialog();
    const v = state.view;
    const winner = v.winner;
    const mySide = state.seat != null ? state.seat % v.sides : null;
    let headline = winner != null ? t("winner", { name: sideName(v, winner) }) : t("match_over");
    if (mySide != null && winner != null) headline = winner === mySide ? t("you_win") : t("you_lose");
    const last = state.history[state.history.length - 1];
    const body = h(
      "div",
      h("p.headline", h("strong", headline)),
      h("ul", Array.from({ length: v.sides }, (_, s) => h("li", `${sideName(v, s)}: ${v.match_scores[s]}`))),
      roundsTable(state.history, v.names, v.players, v.sides),
      last ? breakdownTable(last, v.names, v.players, v.sides) : null,
      last ? fairnessBlock(last, state.table.ruleset) : null,
    );
    const again = state.seat != null ? [{ label: t("new_match"), cls: "new-match", onClick: (close) => { close(); newMatch(); } }] : [];
    modal(t("match_over"), body, [
      ...again,
      { label: t("download_record"), href: api.recordUrl(tableId), download: `xeri-${tableId}.json` },
      { label: t("back_lobby"), onClick: (close) => { close(); location.hash = "#/"; } },
      { label: t("close"), primary: true },
    ], { id: "match-dialog" });
    if (state.seat != null) seats.drop(tableId);
  }

  /** The same table again: the same rules and bots, you in the same seat. */
  async function newMatch() {
    const table = state.table;
    const options = { ...table.ruleset };
    delete options.name;
    const me = table.seats[state.seat];
    try {
      const res = await api.createTable({
        ruleset: table.ruleset.name, options, turn_timer: table.turn_timer, private: table.private,
        seats: table.seats.map((s) => (s.human ? null : { bot: s.bot })), name: me.name, seat: state.seat,
      });
      seats.set(res.table_id, res.seat, res.token);
      location.hash = `#/t/${res.table_id}`;
    } catch (err) {
      announce(err.message);
    }
  }

  async function leaveDuringPlay() {
    if (window.confirm(t("leave_confirm"))) await leave();
  }

  // ---- animations: remember where cards are before a render, fly them after ----
  function sourceRect(ev) {
    if (ev.seat === state.seat) return rectOf(root.querySelector(`.hand [data-card="${ev.card}"]`));
    return rectOf(root.querySelector(`.seat-box[data-seat="${ev.seat}"] .fan`)) || rectOf(root.querySelector(`.seat-box[data-seat="${ev.seat}"]`));
  }

  async function applyUpdate(msg) {
    const events = msg.events || [];
    const before = [];
    const pileRect = rectOf(root.querySelector(".pile .top-card")) || rectOf(root.querySelector(".pile"));
    for (const ev of events) if (ev.kind === "played") before.push({ ev, from: sourceRect(ev) });
    state.view = localNames(msg.view);
    state.version = msg.version;
    state.timer = msg.timer || null;
    state.timerAt = performance.now();
    state.pending = false;
    if (msg.history) state.history = msg.history;
    render();
    const flights = [];
    const captured = events.find((e) => e.kind === "captured");
    for (const { ev, from } of before) {
      const top = root.querySelector(".pile .top-card");
      if (captured && captured.seat === ev.seat) {
        const side = ev.seat % state.view.sides;
        const stack = root.querySelector(`.captured[data-side="${side}"] .stack`);
        flights.push(fly(ev.card, from, pileRect).then(() => fly(null, pileRect, rectOf(stack))));
      } else if (top) {
        top.style.visibility = "hidden";
        flights.push(fly(ev.card, from, rectOf(top)).then(() => (top.style.visibility = "")));
      }
    }
    await Promise.all(flights);
    for (const ev of events) {
      if (ev.kind === "xeri") {
        const name = (state.view.names || [])[ev.seat] || "";
        announce(`${ev.jack ? t("jack_xeri") : t("xeri")} ${name ? "— " + name : ""}`, { big: true });
      } else if (ev.kind === "threshold_raised") {
        announce(t("target_raised", { target: ev.target }), { ms: 2500 });
      } else if (ev.kind === "auto_move" && ev.seat === state.seat) {
        announce(ev.reason === "timer" ? t("auto_timer") : t("auto_away"));
      }
    }
    if (state.view.match_over) showMatchOver();
    else if (events.some((e) => e.kind === "round_scored") && state.history.length) showRoundOver(state.history[state.history.length - 1]);
  }

  /** The server names its bots "Bot (LEVEL)"; show that name in the page's language. */
  function localNames(view) {
    if (!view || !state.table || !view.names) return view;
    const names = view.names.map((name, i) => {
      const seat = state.table.seats[i];
      const level = seat && !seat.human ? seat.bot : null;
      return level && name === `Bot (${level})` ? t("bot_name", { level: t(level) }) : name;
    });
    return { ...view, names };
  }

  function handle(msg) {
    switch (msg.type) {
      case "sync":
        state.table = msg.table;
        state.seat = msg.seat;
        state.version = msg.version;
        state.view = localNames(msg.view);
        state.history = msg.history || [];
        state.timer = msg.timer || null;
        state.timerAt = performance.now();
        state.pending = false;
        render();
        if (state.view && state.view.match_over) showMatchOver();
        return null;
      case "update":
        return applyUpdate(msg);
      case "table":
        state.table = msg.table;
        render();
        return null;
      case "hint":
        state.hint = { card: msg.card, reason: msg.reason };
        render();
        return null;
      case "error":
        state.pending = false;
        if (msg.code === "stale") state.socket.send({ type: "sync" });
        else announce(errorText(msg.code, msg.message));
        render();
        return null;
      default:
        return null;
    }
  }

  function onStatus(status, detail) {
    if (status === "open") {
      if (detail === "reconnected") {
        banner(t("reconnected"), true);
        setTimeout(() => banner(null), 1200);
      } else banner(null);
    } else if (status === "lost") {
      banner(t("disconnected"));
    } else if (status === "closed") {
      banner(null);
      if (detail === 4003) {
        seats.drop(tableId);
        clear(root).appendChild(h("div.panel", h("p", t("seat_lost")), h("a", { href: `#/t/${tableId}/watch` }, t("spectate"))));
      } else {
        clear(root).appendChild(h("div.panel", h("p", t("not_found")), h("a", { href: "#/" }, t("back_lobby"))));
      }
    }
  }

  function connect(token) {
    state.socket = new TableSocket(tableId, token, {
      onMessage: (msg) => {
        queue = queue.then(() => handle(msg)).catch((err) => announce(String(err)));
      },
      onStatus,
    });
  }

  async function joinForm(table) {
    const name = h("input.join-name", { value: prefs.get("name") || "", maxlength: 32, "aria-label": t("your_name"), placeholder: t("your_name") });
    const error = h("p.error-text");
    const form = h(
      "form.panel.join-form",
      {
        onsubmit: async (ev) => {
          ev.preventDefault();
          prefs.set("name", name.value.trim());
          try {
            const res = await api.join(tableId, name.value.trim());
            seats.set(tableId, res.seat, res.token);
            clear(root);
            connect(res.token);
          } catch (err) {
            error.textContent = err instanceof ApiError ? err.message : String(err);
          }
        },
      },
      h("h2", table.title || `${t("table")} ${table.id}`),
      h("ul.table-list", table.seats.map((s) => h("li", `${t("seat")} ${s.seat + 1}: ${s.taken ? s.name : t("free")}` + (s.human ? "" : ` (${t("bot")})`)))),
      h("div.form-grid", h("label", t("your_name")), name),
      h("button.primary.join-btn", { type: "submit" }, t("join")),
      " ",
      h("a", { href: `#/t/${tableId}/watch` }, t("spectate")),
      error,
    );
    clear(root).appendChild(form);
    name.focus();
  }

  function onKey(ev) {
    if (ev.target.closest && ev.target.closest("input, select, textarea, .modal")) return;
    if (document.querySelector(".modal-back") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (/^[1-9]$/.test(ev.key)) {
      const btn = root.querySelectorAll(".hand .card-btn")[Number(ev.key) - 1];
      if (btn && !btn.disabled) {
        ev.preventDefault();
        btn.click();
      }
    } else if (ev.key === "h" || ev.key === "H") {
      askHint();
    } else if (ev.key === "s" || ev.key === "S") {
      toggleSeen();
    }
  }

  document.addEventListener("keydown", onKey);
  const unPrefs = prefs.onChange(() => render());
  timerTick = setInterval(() => {
    if (state.timer && state.view && !state.view.match_over) {
      const node = root.querySelector(".me .status");
      if (node) node.textContent = statusText();
    }
  }, 500);

  (async () => {
    const mine = seats.get(tableId);
    if (mine && !watch) {
      connect(mine.token);
      return;
    }
    if (!watch) {
      try {
        const table = await api.table(tableId);
        state.table = table;
        if (table.status === "waiting" && table.free_seats && table.free_seats.length) {
          await joinForm(table);
          return;
        }
      } catch (err) {
        clear(root).appendChild(h("div.panel", h("p", `${t("not_found")}: ${err.message}`), h("a", { href: "#/" }, t("back_lobby"))));
        return;
      }
    }
    render();
    connect(null);
  })();

  return () => {
    disposed = true;
    document.removeEventListener("keydown", onKey);
    unPrefs();
    clearInterval(timerTick);
    if (state.socket) state.socket.close();
    if (state.roundDialog) state.roundDialog();
    banner(null);
    hideAnnouncement();
    document.title = t("title");
    for (const back of document.querySelectorAll(".modal-back")) back.remove();
  };
}
