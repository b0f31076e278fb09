// @ts-check
// The offline engine's Web Worker (served as /offline/worker.js): Pyodide, the WebAssembly build of CPython, runs
// the wheel of xeri's own core and bots (xeri.offline.worker), so the computer plays offline with the same Python
// as the server, and no rule is written here. The page talks to it through offline.js; this file only carries text.
//
// page -> worker: { id, op, args } (a call: about, new_table, open_saved, send, info, record, replay, review, verify,
//   close) answered by { id, ok, value } or { id, ok: false, error }; the bots' moves come unasked as
//   { op: "messages", table, texts } and each change as { op: "saved", table, state, summary, over, record }.

/**
 * The Python module xeri.offline.worker, as Pyodide hands it over: each function takes and gives text or numbers.
 * @typedef {{ about: () => string, new_table: (body: string, hooks: string) => string,
 *   open_saved: (state: string, delay: number) => string, handle: (table: string, message: string) => string,
 *   bot_wait: (table: string) => number, bot_move: (table: string) => string, state: (table: string) => string,
 *   record: (table: string) => string, info: (table: string) => string, replay: (record: string) => string,
 *   review: (id: string, record: string, seat: number, moves: number) => string, verify: (body: string) => string,
 *   time_level: (level: string, matches: number, seed: number) => string,
 *   close: (table: string) => void }} Engine
 */
/** @typedef {{ id?: number, op: string, args?: unknown[] }} Call */

const PACK = "/offline/";
/** @type {{ postMessage: (message: unknown) => void, onmessage: ((ev: MessageEvent<Call>) => void) | null }} */
const scope = /** @type {any} */ (self);

/** @type {Record<string, ReturnType<typeof setTimeout>>} each table's next bot move */
const botTimers = {};

/** The Cache Storage caches of the packs, this and their version (pack.js fills them, sw.js answers from them). */
const PACK_CACHES = "xeri-pack-";
/** Where a pack's cache keeps the memory snapshot this browser made of its engine, loaded (its heap, as is). */
const SNAPSHOT = `${PACK}snapshot`;

/**
 * The snapshot of this pack's engine kept by this browser, being read (Pyodide waits for it only once its own
 * files are in), or null: none yet, or no Cache Storage.
 * @param {string} version the pack's
 * @returns {Promise<Promise<Uint8Array> | null>}
 */
async function keptSnapshot(version) {
  try {
    const kept = await (await caches.open(PACK_CACHES + version)).match(SNAPSHOT);
    if (!kept || !kept.body) return null;
    return kept.arrayBuffer().then((bytes) => new Uint8Array(bytes));
  } catch {
    return null;
  }
}

/**
 * Keep the snapshot in the pack's cache, as is (gzipping it took seconds on a busy machine, and a page closed
 * meanwhile kept nothing): it goes when the pack does. After the engine is ready, in the background; a failure
 * (no room) only means the next start boots Python again.
 * @param {string} version
 * @param {Uint8Array} snapshot
 */
async function keepSnapshot(version, snapshot) {
  try {
    await (await caches.open(PACK_CACHES + version)).put(SNAPSHOT, new Response(/** @type {BlobPart} */ (snapshot)));
  } catch {
    /* the next start boots Python again */
  }
}

/** Drop a snapshot that would not load (a browser that changed under it): the next start makes a new one. */
async function dropSnapshot(/** @type {string} */ version) {
  try {
    await (await caches.open(PACK_CACHES + version)).delete(SNAPSHOT);
  } catch {
    /* nothing kept */
  }
}

/**
 * Pyodide, then the wheel named by the pack's manifest: the engine, once. Booting Python and importing the engine
 * takes seconds, so the first start in a browser snapshots the memory of the loaded engine (Pyodide's memory
 * snapshot: the WebAssembly heap, the engine's modules imported, no table opened yet) and keeps it with the pack;
 * later starts restore it instead, a fraction of the time. A snapshot that fails to load is dropped, and Python
 * boots as the first time.
 */
async function load() {
  const started = performance.now();
  /** @type {Record<string, number>} milliseconds from the start to the end of each step */
  const marks = {};
  const mark = (/** @type {string} */ step) => { marks[step] = Math.round(performance.now() - started); };
  const manifest = await (await fetch(`${PACK}pack.json`)).json();
  const version = String(manifest.version);
  mark("manifest");
  // A URL in a variable: the checker reads no module from the server's paths, Pyodide types nothing here.
  const url = `${PACK}pyodide/pyodide.mjs`;
  const wheel = fetch(PACK + manifest.wheel).then((r) => r.arrayBuffer());
  const snapshot = await keptSnapshot(version);
  const { loadPyodide } = await import(url);
  mark("import");
  const options = { indexURL: `${PACK}pyodide/`, stdout: () => {}, stderr: () => {} };
  /** @param {any} pyodide @returns {Promise<Engine>} */
  const engineOf = async (pyodide) => {
    pyodide.unpackArchive(new Uint8Array(await wheel), "wheel");
    mark("wheel");
    return pyodide.pyimport("xeri.offline.worker");
  };
  /** @type {Engine | null} */
  let engine = null;
  if (snapshot) {
    try {
      const pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot });
      mark("pyodide");
      // Every restore would start from the snapshot's generator: draw its state afresh, from the browser's entropy.
      pyodide.runPython("import random; random.seed()");
      engine = await engineOf(pyodide);
      marks.restored = 1;
    } catch (err) {
      console.warn("the offline engine's snapshot did not load, Python boots again:", err);
      await dropSnapshot(version);
    }
  }
  /** @type {Uint8Array | null} */
  let made = null;
  if (!engine) {
    const pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
    mark("pyodide");
    engine = await engineOf(pyodide);
    try {
      made = pyodide.makeMemorySnapshot();
    } catch {
      made = null; // no snapshot: the next start boots Python again
    }
  }
  mark("engine");
  scope.postMessage({ op: "loaded", ms: performance.now() - started, pack: version, marks });
  if (made) void keepSnapshot(version, made);
  return engine;
}

const ready = load();

/**
 * Tell the page what changed at a table, and what to keep of it (the page writes it to IndexedDB).
 * @param {Engine} engine
 * @param {string} table
 * @param {string} texts the messages, one a line
 */
function publish(engine, table, texts) {
  // What to keep first: the page has the finished record before it draws the end of the match.
  const saved = JSON.parse(engine.state(table));
  const record = saved.over ? engine.record(table) : null;
  scope.postMessage({ op: "saved", table, state: saved.state, summary: saved.summary, over: saved.over, record });
  if (texts) scope.postMessage({ op: "messages", table, texts: texts.split("\n") });
  schedule(engine, table);
}

/**
 * The next bot move, after the bot delay (or what is left of the round pause): a timer, as the server's.
 * @param {Engine} engine
 * @param {string} table
 */
function schedule(engine, table) {
  clearTimeout(botTimers[table]);
  const wait = engine.bot_wait(table);
  if (wait < 0) return;
  botTimers[table] = setTimeout(() => {
    const texts = engine.bot_move(table);
    if (texts) publish(engine, table, texts);
    else schedule(engine, table);
  }, wait * 1000);
}

/**
 * One call of the page.
 * @param {Engine} engine
 * @param {string} op
 * @param {unknown[]} args
 * @returns {unknown}
 */
function call(engine, op, args) {
  const [a, b, c, d] = args;
  switch (op) {
    case "about":
      return engine.about();
    case "new_table": {
      // The hooks stay text: a match seed given there is a 64-bit number, which JSON.parse would round.
      const made = JSON.parse(engine.new_table(String(a), String(b || "{}")));
      if (made.id) publish(engine, made.id, "");
      return made;
    }
    case "open_saved": {
      const opened = JSON.parse(engine.open_saved(String(a), Number(b ?? 0.4)));
      if (opened.id) schedule(engine, opened.id);
      return opened;
    }
    case "send": {
      const table = String(a);
      const texts = engine.handle(table, String(b));
      const message = JSON.parse(String(b));
      // A move, a takeback or a closed round summary changes the table: keep it, and let the bots go on.
      if (message && ["move", "ready", "takeback"].includes(message.type)) publish(engine, table, texts);
      else if (texts) scope.postMessage({ op: "messages", table, texts: texts.split("\n") });
      return null;
    }
    case "info":
      return engine.info(String(a));
    case "record":
      return engine.record(String(a));
    case "replay":
      return engine.replay(String(a));
    case "review":
      return engine.review(String(a), String(b), Number(c), Number(d ?? 1));
    case "verify":
      return engine.verify(String(a));
    case "time_level":
      return engine.time_level(String(a), Number(b ?? 3), Number(c ?? 0));
    case "close":
      clearTimeout(botTimers[String(a)]);
      engine.close(String(a));
      return null;
    default:
      throw new Error(`unknown call ${op}`);
  }
}

scope.onmessage = (ev) => {
  const { id, op, args } = ev.data;
  ready.then(
    (engine) => {
      try {
        scope.postMessage({ id, ok: true, value: call(engine, op, args || []) });
      } catch (err) {
        scope.postMessage({ id, ok: false, error: String(err instanceof Error ? err.message : err) });
      }
    },
    (err) => scope.postMessage({ id, ok: false, error: `the offline engine did not load: ${err}` }),
  );
};
