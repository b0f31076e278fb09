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

/** Pyodide, then the wheel named by the pack's manifest: the engine, once. */
async function load() {
  const started = performance.now();
  const manifest = await (await fetch(`${PACK}pack.json`)).json();
  // A URL in a variable: the checker reads no module from the server's paths, Pyodide types nothing here.
  const url = `${PACK}pyodide/pyodide.mjs`;
  const { loadPyodide } = await import(url);
  const pyodide = await loadPyodide({ indexURL: `${PACK}pyodide/`, stdout: () => {}, stderr: () => {} });
  const wheel = await (await fetch(PACK + manifest.wheel)).arrayBuffer();
  pyodide.unpackArchive(new Uint8Array(wheel), "wheel");
  /** @type {Engine} */
  const engine = pyodide.pyimport("xeri.offline.worker");
  scope.postMessage({ op: "loaded", ms: performance.now() - started, pack: manifest.version });
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
