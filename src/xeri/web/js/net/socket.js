// @ts-check
// A table's WebSocket to `xeri serve` that reconnects by itself, its pauses drawn so that pages cut off together
// do not come back together.

/** @typedef {import("./types.js").ClientMessage} ClientMessage */
/** @typedef {import("./types.js").ServerMessage} ServerMessage */
/** @typedef {import("./types.js").Transport} Transport */
/** @typedef {import("./types.js").TransportHandlers} TransportHandlers */

/** The first reconnect pause (ms), the longest, and how long a socket must live after its sync to count as good. */
export const RETRY_FIRST_MS = 300;
export const RETRY_MAX_MS = 10000;
export const STABLE_MS = 5000;

/**
 * The pause before try number `attempt` (0, 1, …): it doubles up to RETRY_MAX_MS, and is drawn between half of
 * that and all of it, so that pages cut off together (a server restarting) do not come back together.
 * @param {number} attempt
 * @param {() => number} [random]
 * @returns {number}
 */
export function retryDelay(attempt, random = Math.random) {
  const ceiling = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * One table's WebSocket that reconnects by itself (a Transport). `onMessage(msg)` gets every
 * server message; `onStatus("open"|"lost"|"closed", detail, unanswered)` the connection's state, with, when it is
 * lost, the move sent on it that the server never answered (it may or may not have been stored).
 *
 * The pause between tries grows (retryDelay) and starts small again only once a socket has synced and then lived
 * STABLE_MS: a server that accepts the socket and then closes it at once (it refuses the seat) is not hammered.
 */
export class TableSocket {
  /**
   * @param {string} tableId
   * @param {string | null} token the seat's token; null to watch
   * @param {TransportHandlers} handlers
   * @param {{ account?: boolean }} [options] account: no token, but the signed-in account's seat if it holds one
   */
  constructor(tableId, token, { onMessage, onStatus }, { account = false } = {}) {
    this.tableId = tableId;
    this.token = token;
    this.account = account;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.wasOpen = false;
    /** when the current socket got its first sync (performance.now()), 0 before */
    this.syncedAt = 0;
    /** @type {ClientMessage | null} the last move sent, until the server answers it */
    this.lastMove = null;
    /** retryable refusals in a row (the server could not store a move), for their pause */
    this.refusals = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.resyncTimer = undefined;
    this.onOnline = () => this.reconnectNow();
    window.addEventListener("online", this.onOnline);
    this.connect();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // summary=1: this page shows each round's summary, and the next round waits until it is closed.
    const q = this.token ? `?token=${encodeURIComponent(this.token)}&summary=1`
      : this.account ? "?account=1&summary=1" : "";
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${q}`;
  }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.syncedAt = 0;
    ws.onopen = () => {
      this.onStatus("open", this.wasOpen ? "reconnected" : "connected");
      this.wasOpen = true;
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = /** @type {ServerMessage} */ (JSON.parse(ev.data));
      } catch {
        return;
      }
      if (msg.type === "sync" && !this.syncedAt) this.syncedAt = performance.now();
      if (msg.type === "update") this.refusals = 0; // the server stores moves again
      if (msg.type === "sync" || msg.type === "update") this.lastMove = null;
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      // A socket that synced and lived a while was a good one: the next pause starts small again.
      if (this.syncedAt && performance.now() - this.syncedAt >= STABLE_MS) this.attempt = 0;
      if (this.closed) return;
      // 4003 bad token, 4004 no such table: retrying cannot help.
      if (ev.code === 4003 || ev.code === 4004) {
        this.closed = true;
        this.onStatus("closed", ev.code);
        return;
      }
      // A move sent on this socket and never answered: the page sends it again after the resync if the table is
      // still at that move's version (it was not stored), and forgets it if the table moved on.
      const unanswered = this.lastMove;
      this.lastMove = null;
      this.onStatus("lost", ev.code, unanswered);
      this.schedule();
    };
    ws.onerror = () => {
      /* onclose follows and does the work */
    };
  }

  schedule() {
    clearTimeout(this.timer);
    const delay = retryDelay(this.attempt);
    this.attempt += 1;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /**
   * A retryable refusal of a move (the server could not store it, or its table is changing servers): ask for a
   * sync after a growing, jittered pause, and return the refused move, for the page to send again after that
   * sync if it is still legal at the sync's version (null if no move was waiting for an answer).
   * @returns {ClientMessage | null}
   */
  retryLater() {
    const move = this.lastMove;
    this.lastMove = null;
    clearTimeout(this.resyncTimer);
    const delay = retryDelay(this.refusals);
    this.refusals += 1;
    this.resyncTimer = setTimeout(() => this.send({ type: "sync" }), delay);
    return move;
  }

  reconnectNow() {
    if (this.closed || (this.ws && this.ws.readyState <= 1)) return;
    clearTimeout(this.timer);
    this.connect();
  }

  /**
   * Send a message if the socket is open; false when it is not (the caller keeps the move).
   * @param {ClientMessage} msg
   * @returns {boolean}
   */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      if (msg.type === "move") this.lastMove = msg;
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.resyncTimer);
    window.removeEventListener("online", this.onOnline);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }
}
