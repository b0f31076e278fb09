// @ts-check
// The offline engine, loaded only when an offline table, its record or its replay is asked for (offline.js loads it):
// the Web Worker (offline-worker.js) whose Python answers a table's messages as the server does, OfflineSocket (the
// table's Transport for it, so the table view cannot tell it from the WebSocket), and the offline matches kept in
// IndexedDB, as records, to go on with.

import { ApiError } from "../net/http.js";
import { isOfflineTable } from "../net/api.js";

/** @typedef {import("../net/types.js").ServerMessage} ServerMessage */
/** @typedef {import("../net/types.js").ClientMessage} ClientMessage */
/** @typedef {import("../net/types.js").TransportHandlers} TransportHandlers */
/** @typedef {import("../net/types.js").MatchSummary} MatchSummary */

/** localStorage: the seconds between offline bot moves (the tests set 0). */
const DELAY_KEY = "xeri.offlineBotDelay";
/** IndexedDB: one entry per offline match (sw.js reads it too, to serve a record). */
const DB_NAME = "xeri-offline";
const STORE = "matches";

/**
 * An offline match as this browser keeps it: the engine's saved table (its record so far, as JSON text: 64-bit
 * seeds), the summary the history list shows, and the finished record's text (the server's bytes).
 * @typedef {{ id: string, state: string, summary: MatchSummary & { status?: string, created_at?: string },
 *   over: boolean, record: string | null, updated: number }} Saved
 */

// ---- IndexedDB: the offline matches ----

/** @returns {Promise<IDBDatabase>} */
function openDb() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "id" });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/**
 * @template T
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest<T>} act
 * @returns {Promise<T>}
 */
async function withStore(mode, act) {
  const db = await openDb();
  try {
    return await new Promise((resolve, reject) => {
      const req = act(db.transaction(STORE, mode).objectStore(STORE));
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  } finally {
    db.close();
  }
}

/** @param {Saved} entry */
const putSaved = (entry) => withStore("readwrite", (store) => store.put(entry));
/**
 * @param {string} id
 * @returns {Promise<Saved | undefined>}
 */
const getSaved = (id) => withStore("readonly", (store) => store.get(id));
/** @returns {Promise<Saved[]>} */
const allSaved = () => withStore("readonly", (store) => store.getAll());

// ---- the engine: one Web Worker for the page ----

/** @typedef {{ resolve: (value: unknown) => void, reject: (err: Error) => void }} Pending */

class Engine {
  constructor() {
    this.worker = new Worker("/offline/worker.js", { type: "module" });
    this.next = 1;
    /** @type {Map<number, Pending>} */
    this.pending = new Map();
    /** @type {Map<string, (texts: string[]) => void>} */
    this.listeners = new Map();
    /** @type {Set<string>} the tables open in the worker */
    this.open = new Set();
    /** when the worker was started, by the page's clock */
    this.started = performance.now();
    /** milliseconds from the worker's start to its engine loaded, once loaded */
    this.loadMs = 0;
    /** @type {Record<string, number>} the worker's milliseconds to the end of each step of its load */
    this.loadMarks = {};
    /** @type {Promise<void>} every write to IndexedDB, in order */
    this.saving = Promise.resolve();
    this.worker.onmessage = (ev) => this.receive(ev.data);
    this.worker.onerror = (ev) => {
      ev.preventDefault();
      const err = new Error(ev.message || "the offline engine failed to start");
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
  }

  /**
   * @param {{ id?: number, ok?: boolean, value?: unknown, error?: string, op?: string, table?: string,
   *   texts?: string[], state?: string, summary?: Saved["summary"], over?: boolean, record?: string | null,
   *   ms?: number, marks?: Record<string, number> }} data
   */
  receive(data) {
    if (data.id != null) {
      const p = this.pending.get(data.id);
      this.pending.delete(data.id);
      if (p) data.ok ? p.resolve(data.value) : p.reject(new Error(data.error || "offline engine error"));
    } else if (data.op === "messages" && data.table) {
      const listener = this.listeners.get(data.table);
      if (listener) listener(data.texts || []);
    } else if (data.op === "saved" && data.table && data.state && data.summary) {
      /** @type {Saved} */
      const entry = { id: data.table, state: data.state, summary: data.summary, over: Boolean(data.over),
        record: data.record || null, updated: Date.now() };
      this.saving = this.saving.then(() => putSaved(entry)).then(() => {}, (err) => console.error(err));
      if (entry.record) keepRecord(entry.id, entry.record);
    } else if (data.op === "loaded") {
      this.loadMs = data.ms || 0;
      this.loadMarks = data.marks || {};
    }
  }

  /**
   * @param {string} op
   * @param {...unknown} args
   * @returns {Promise<unknown>}
   */
  call(op, ...args) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, args });
    });
  }

  /**
   * The table open in the worker: replayed from this browser's store when it is not (a reload, a new visit).
   * @param {string} tableId
   */
  async ensure(tableId) {
    if (this.open.has(tableId)) return;
    const saved = await getSaved(tableId);
    if (!saved) throw new ApiError(404, "no_such_table", `there is no offline table ${tableId}`);
    const opened = /** @type {{ id?: string, code?: string, message?: string }} */ (
      await this.call("open_saved", saved.state, botDelay()));
    if (!opened.id) throw new ApiError(409, opened.code || "bad_state", opened.message);
    this.open.add(tableId);
  }
}

/** @type {Engine | null} */
let engine = null;

/** @type {Map<string, string>} each finished offline match's record, as a blob: URL to download it */
export const recordUrls = new Map();

/**
 * @param {string} id
 * @param {string} record the record's text, the server's bytes
 */
function keepRecord(id, record) {
  if (!recordUrls.has(id)) recordUrls.set(id, URL.createObjectURL(new Blob([record], { type: "application/json" })));
}

/** @returns {Engine} the page's engine, started on first use */
export function offlineEngine() {
  if (!engine) engine = new Engine();
  return engine;
}

/** @returns {number} seconds between two bot moves offline: the server's default unless set (tests: 0) */
function botDelay() {
  const set = Number(localStorage.getItem(DELAY_KEY));
  return localStorage.getItem(DELAY_KEY) != null && Number.isFinite(set) && set >= 0 ? set : 0.4;
}

/**
 * An offline table's Transport: what the page sends goes to the worker's Python, what it answers comes back as the
 * server's texts, parsed as a WebSocket frame is (64-bit seeds come as digit strings, so JSON.parse keeps them).
 */
export class OfflineSocket {
  /**
   * @param {string} tableId
   * @param {string | null} _token an offline table has one seat, this browser's
   * @param {TransportHandlers} handlers
   */
  constructor(tableId, _token, { onMessage, onStatus }) {
    this.tableId = tableId;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.opened = false;
    this.closed = false;
    this.engine = offlineEngine();
    this.engine.listeners.set(tableId, (texts) => this.deliver(texts));
    this.engine.ensure(tableId).then(
      () => {
        if (this.closed) return;
        this.opened = true;
        this.onStatus("open", "connected");
        this.send({ type: "sync" });
      },
      (err) => {
        if (this.closed) return;
        console.warn("offline table", tableId, err);
        this.onStatus("closed", 4004);
      },
    );
  }

  /** @param {string[]} texts */
  deliver(texts) {
    if (this.closed) return;
    for (const text of texts) {
      if (!text) continue;
      this.onMessage(/** @type {ServerMessage} */ (JSON.parse(text)));
    }
  }

  /**
   * @param {ClientMessage} msg
   * @returns {boolean} false until the engine has the table (the caller keeps the move)
   */
  send(msg) {
    if (!this.opened || this.closed) return false;
    this.engine.call("send", this.tableId, JSON.stringify(msg)).catch((err) => console.error(err));
    return true;
  }

  /** @returns {ClientMessage | null} the engine never refuses for its own trouble: nothing to send again */
  retryLater() {
    return null;
  }

  close() {
    this.closed = true;
    if (this.engine.listeners.get(this.tableId)) this.engine.listeners.delete(this.tableId);
  }
}

/**
 * A JSON answer of the worker, or the ApiError of its error message.
 * @template T
 * @param {unknown} text
 * @returns {T}
 */
function answer(text) {
  const data = /** @type {{ type?: string, code?: string, message?: string }} */ (JSON.parse(String(text)));
  if (data && data.type === "error") throw new ApiError(400, data.code || "error", data.message);
  return /** @type {T} */ (data);
}

/**
 * @param {string} id
 * @returns {Promise<Saved>}
 */
async function finished(id) {
  const saved = await getSaved(id);
  if (!saved) throw new ApiError(404, "no_such_match", "there is no such match");
  if (!saved.record) throw new ApiError(409, "not_finished", "the match is not finished");
  return saved;
}

/**
 * An offline table's TABLE.
 * @param {string} id
 * @returns {Promise<import("../net/types.js").Table>}
 */
async function offlineTable(id) {
  const e = offlineEngine();
  await e.ensure(id);
  return answer(await e.call("info", id));
}

/** @type {import("../net/types.js").OfflineApi} */
export const engineApi = {
  open: (tableId, token, handlers) => new OfflineSocket(tableId, token, handlers),
  createTable: async (body) => {
    const e = offlineEngine();
    const made = /** @type {{ id?: string, code?: string, message?: string }} */ (
      await e.call("new_table", JSON.stringify({ ...body, offline: undefined }),
        JSON.stringify({ bot_delay: botDelay() })));
    if (!made.id) throw new ApiError(400, made.code || "bad_request", made.message);
    e.open.add(made.id);
    await e.saving;
    const table = await offlineTable(made.id);
    return { table_id: made.id, seat: table.seats.findIndex((s) => s.human), token: "offline", table };
  },
  table: (id) => offlineTable(id),
  recordUrl: (id) => recordUrls.get(id) || null,
  matches: async (player) => {
    const all = (await allSaved()).filter((s) => s.over && isOfflineTable(s.id));
    for (const s of all) if (s.record) keepRecord(s.id, s.record);
    const mine = player ? all.filter((s) => s.summary.names.includes(player)) : all;
    return mine.map((s) => s.summary).sort((a, b) => String(b.finished_at).localeCompare(String(a.finished_at)));
  },
  replay: async (id) =>
    answer(await offlineEngine().call("replay", /** @type {string} */ ((await finished(id)).record))),
  review: async (id, seat) =>
    answer(await offlineEngine().call("review", id, /** @type {string} */ ((await finished(id)).record), seat, 2)),
  verify: async (body) => answer(await offlineEngine().call("verify", JSON.stringify(body))),
};
