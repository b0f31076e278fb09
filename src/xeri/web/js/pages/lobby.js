// @ts-check
// The lobby: one big "Play now" against the computer, "Play with friends", the options both use, and the open
// tables with titles people read.

import { account } from "./account.js";
import { api } from "../net/api.js";
import { ApiError } from "../net/http.js";
import { seats } from "../net/seats.js";
import { installedPack, installPack, warmEngine } from "../offline/pack.js";
import { clear, h } from "../lib/dom.js";
import {
  errorText, guestName, roundsCount, rulesetName, rulesetText, seatName, t, tableTitle, tn,
} from "../lib/i18n.js";
import { notify } from "../lib/notify.js";
import { browserKey, prefs } from "../lib/prefs.js";

/**
 * A <select> with id and class `cls`.
 * @param {string} cls
 * @param {[string | number, string][]} options value and label
 * @param {string | number | null | undefined} value the one selected
 * @returns {HTMLSelectElement}
 */
function select(cls, options, value) {
  const node = h(`select.${cls}#${cls}`, options.map(([v, label]) => h("option", { value: String(v) }, label)));
  if (value != null) node.value = String(value);
  return node;
}

/**
 * The lobby's options, shared by "Play now" and "Play with friends": name, level, players, rules, target,
 * turn timer. Each field keeps the class names the tests and docs know (vs-level, fr-timer, ...).
 * @param {import("../net/types.js").Meta} meta
 * @returns {{ rows: HTMLElement[], read: () => import("../net/types.js").NewTable & { players: number }, level: string,
 *   timer: () => number | null, summary: () => string, rated: () => boolean }}
 */
function lobbyOptions(meta) {
  const rulesets = meta.rulesets || [{ name: "classic", options: {} }];
  const levels = meta.levels && meta.levels.length ? meta.levels : ["easy"];
  // A first visit gets a level a beginner can beat sometimes (docs/web.md); the last choice is remembered.
  const saved = prefs.get("level");
  const level = select(
    "vs-level",
    levels.map((l) => [l, t(l)]),
    saved && levels.includes(saved) ? saved : levels.includes("medium") ? "medium" : levels[0],
  );
  const ruleset = select(
    "vs-ruleset",
    rulesets.map((r) => [r.name, rulesetName(r.name)]),
    prefs.get("vsRuleset") || "classic",
  );
  const players = select(
    "vs-players",
    [
      [2, "2"],
      [3, "3"],
      [4, `4 (${t("team")})`],
    ],
    prefs.get("vsPlayers") || 2,
  );
  players.classList.add("fr-players");
  ruleset.classList.add("fr-ruleset");
  // The target: the ruleset's own end, a number of rounds, or points to reach.
  /** @type {[string, string][]} */
  const targets = [
    ["", "…"],
    ...[1, 3, 5].map((n) => /** @type {[string, string]} */ ([`r${n}`, roundsCount(n)])),
    ...[51, 101, 151, 251].map((n) => /** @type {[string, string]} */ ([`p${n}`, t("target_is", { target: n })])),
  ];
  const target = select("vs-target", targets, prefs.get("vsTarget") || "");
  target.classList.add("fr-target");
  const updatePlaceholder = () => {
    const rs = rulesets.find((r) => r.name === ruleset.value);
    const o = rs && rs.options;
    const own = o && o.match_end === "target" ? t("target_is", { target: o.target }) : roundsCount(o ? o.rounds : 5);
    target.options[0].textContent = `${own} (${rulesetName(ruleset.value)})`;
  };
  ruleset.addEventListener("change", updatePlaceholder);
  updatePlaceholder();
  const timer = h("input.fr-timer#fr-timer", {
    type: "number",
    min: (meta.limits && meta.limits.turn_timer && meta.limits.turn_timer[0]) || 5,
    max: 600,
    placeholder: t("none"),
  });
  const name = h("input.vs-name.fr-name#vs-name", {
    value: prefs.get("name") || "",
    maxlength: 32,
    placeholder: t("your_name"),
    autocomplete: "nickname",
  });
  name.addEventListener("change", () => prefs.set("name", name.value.trim()));
  // Rated (docs/ratings.md): signed in only; enabled for a rated format, else the reason.
  const signedIn = account().signed_in;
  const rated = h("input.vs-rated#vs-rated", { type: "checkbox", "aria-describedby": "vs-rated-why" });
  rated.checked = prefs.get("vsRated") === true;
  const why = h("span.muted#vs-rated-why");
  // A rated match is played to a standard end (the server's rated_targets: 51 or 101; null: any end). Ticking Rated
  // moves the target to the first of them; choosing another end unticks it, and says why.
  /** @type {number[] | null} */
  const ratedTargets = meta.rated_targets ?? null;
  const standardEnd = () => !ratedTargets || ratedTargets.some((n) => target.value === `p${n}`);
  const ratable = () => {
    const ok = ruleset.value === "classic" && [2, 4].includes(Number(players.value));
    rated.disabled = !ok;
    why.textContent = !ok ? t("err_not_ratable")
      : ratedTargets && rated.checked ? t("rated_targets", { targets: ratedTargets.join(" / ") }) : "";
  };
  rated.addEventListener("change", () => {
    if (rated.checked && ratedTargets && !standardEnd()) target.value = `p${ratedTargets[0]}`;
    ratable();
  });
  target.addEventListener("change", () => {
    if (rated.checked && !standardEnd()) rated.checked = false;
    ratable();
  });
  if (rated.checked && ratedTargets && !standardEnd()) target.value = `p${ratedTargets[0]}`;
  ruleset.addEventListener("change", ratable);
  players.addEventListener("change", ratable);
  ratable();
  /**
   * @param {HTMLElement} node
   * @param {string} key
   */
  const label = (node, key) => h("label", { for: node.id }, t(key));
  const rows = [
    label(name, "your_name"),
    name,
    label(level, "level"),
    level,
    label(players, "players"),
    players,
    label(ruleset, "ruleset"),
    ruleset,
    label(target, "target"),
    target,
    label(timer, "turn_timer"),
    timer,
    ...(signedIn ? [label(rated, "rated"), h("div.rated-field", rated, " ", why)] : []),
  ];
  const read = () => {
    prefs.set("name", name.value.trim());
    prefs.set("level", level.value);
    prefs.set("vsRuleset", ruleset.value);
    prefs.set("vsPlayers", Number(players.value));
    prefs.set("vsTarget", target.value);
    if (signedIn) prefs.set("vsRated", rated.checked);
    /** @type {import("../net/types.js").NewTable & { players: number }} */
    const body = { ruleset: ruleset.value, players: Number(players.value) };
    const n = Number(target.value.slice(1));
    if (target.value.startsWith("r")) body.options = { match_end: "rounds", rounds: n };
    else if (target.value.startsWith("p")) body.target = n;
    body.name = name.value.trim() || guestName(browserKey()); // a newcomer who gives none: "Guest 4821" (issue 41)
    body.seat = 0;
    return body;
  };
  const isRated = () => signedIn && rated.checked && !rated.disabled;
  const summary = () =>
    t("play_now_sub", { level: t(level.value), rules: rulesetName(ruleset.value), n: Number(players.value) })
    + (isRated() ? ` · ${t("rated")}` : "");
  return {
    rows,
    read,
    get level() {
      return level.value;
    },
    timer: () => (timer.value ? Number(timer.value) : null),
    summary,
    rated: isRated,
  };
}

/**
 * @param {HTMLElement} container
 * @returns {Promise<() => void>} the unmount
 */
export async function mountLobby(container) {
  const root = h("section.lobby");
  clear(container).appendChild(root);
  /** @type {import("../net/types.js").Meta} */
  let meta;
  try {
    meta = await api.meta();
  } catch (err) {
    const pack = installedPack();
    if (!pack) {
      const text = err instanceof ApiError ? errorText(err.code, err.message) : String(err);
      root.appendChild(h("div.panel", h("p", `${t("error")}: ${text}`)));
      return () => {};
    }
    // No server and no kept lobby data, but the offline pack: the computer still plays, by the classic rules (the
    // engine's defaults: no options given). Only the parts the lobby reads, each of which it checks is there.
    meta = /** @type {import("../net/types.js").Meta} */ (
      { rulesets: [{ name: "classic", options: {} }], levels: pack.levels, offline: pack });
  }
  const options = lobbyOptions(meta);
  const error = h("p.error-text", { role: "alert" });
  const offline = offlinePanel(meta, options, error);
  /**
   * Create the table and sit at seat 0: against the computer, or with seats left free for friends.
   * @param {boolean} friends
   */
  const create = async (friends) => {
    // With no network, "Play now" plays the computer offline, where this browser holds the pack.
    if (!friends && !navigator.onLine && offline) return offline.play();
    const body = options.read();
    const level = options.level;
    body.seats = Array.from({ length: body.players }, (_, i) => (i === 0 || friends ? null : { bot: level }));
    const timer = options.timer();
    if (friends && timer) body.turn_timer = timer;
    if (options.rated()) body.rated = true;
    // Friends' tables open by their link only, unless listed on purpose (issue 41); a rated one is always listed.
    if (friends) body.private = !listed.checked && !options.rated();
    try {
      const res = await api.createTable(body);
      seats.set(res.table_id, res.seat, res.token);
      location.hash = `#/t/${res.table_id}`;
    } catch (err) {
      error.textContent = err instanceof ApiError ? errorText(err.code, err.message) : String(err);
    }
  };
  const listed = h("input.fr-public#fr-public", { type: "checkbox" });
  const online = onlinePanel(() => create(false));
  const sub = h("p.play-now-sub", options.summary());
  const form = h(
    "form.lobby-form",
    {
      onsubmit: (ev) => {
        ev.preventDefault();
        create(false);
      },
      onchange: () => (sub.textContent = options.summary()),
    },
    h(
      "div.panel.play-now-panel.vs-computer",
      h("button.primary.play-now.start-vs", { type: "submit" }, t("play_now")),
      sub,
      error,
    ),
    online.panel,
    h(
      "div.panel.friends-panel.vs-friends",
      h("button.play-friends.create-friends", { type: "button", onclick: () => create(true) }, t("play_friends")),
      h("p.muted", t("play_friends_sub")),
      h("label.fr-public-label", { for: "fr-public" }, listed, " ", t("public_table")),
    ),
    offline ? offline.panel : null,
    h("div.panel.lobby-options", h("h2", t("options")), h("div.form-grid", options.rows)),
  );

  // --- open tables ---
  // Busy until the first answer is drawn (a screen reader waits for it, and so do the visual baselines), with a row
  // that holds the place of "No open tables.": the panels below do not jump under a finger or a click.
  const list = h("ul.table-list.open-tables", { "aria-busy": "true" }, h("li.muted.loading", t("loading")));
  const refresh = async () => {
    try {
      await refreshTables();
    } finally {
      list.removeAttribute("aria-busy");
    }
  };
  const refreshTables = async () => {
    if (!navigator.onLine) {
      clear(list).appendChild(h("li.muted", t("offline_no_tables")));
      return;
    }
    let data;
    try {
      data = await api.tables("all");
    } catch (err) {
      const text = err instanceof ApiError ? errorText(err.code, err.message) : String(err);
      clear(list).appendChild(h("li", `${t("error")}: ${text}`));
      return;
    }
    clear(list);
    if (!data.tables.length) list.appendChild(h("li.muted", t("no_tables")));
    for (const table of data.tables) {
      const names = table.seats.map((s) => (s.taken ? seatName(s) : `(${t("free")})`)).join(", ");
      const mine = seats.get(table.id);
      /** @type {HTMLElement[]} */
      const actions = [];
      if (mine) actions.push(h("a.btn.primary.my-table", { href: `#/t/${table.id}` }, t("table")));
      else if (table.status === "waiting" && table.free_seats.length)
        actions.push(h("a.btn.primary.join-table", { href: `#/t/${table.id}` }, t("join")));
      actions.push(h("a.btn.watch-table", { href: `#/t/${table.id}/watch` }, t("spectate")));
      list.appendChild(
        h(
          "li",
          { dataset: { table: table.id } },
          h("div.desc", h("strong.table-title", tableTitle(table)), table.rated ? [" ", h("span.rated-badge",
            t("rated"))] : null, " — ", rulesetText(table.ruleset), h("br"), names),
          actions,
        ),
      );
    }
  };
  const tablesPanel = h(
    "div.panel.tables-panel",
    h("h2", t("open_tables")),
    list,
    h("p", h("button.refresh", { type: "button", onclick: refresh }, t("refresh"))),
  );
  // Signed in: the account's tables, from any device (docs/accounts.md).
  const mineList = h("ul.table-list.account-tables");
  const minePanel = h("div.panel.my-tables-panel", { hidden: true }, h("h2", t("my_tables")), mineList);
  const refreshMine = async () => {
    if (!account().signed_in || !navigator.onLine) {
      minePanel.hidden = true;
      return;
    }
    try {
      const mine = await api.myTables();
      clear(mineList);
      for (const table of mine.tables)
        mineList.appendChild(h("li", { dataset: { table: table.table_id } },
          h("div.desc", `${t("table")} ${table.table_id} — `
            + t(table.status === "waiting" ? "table_waiting" : "table_playing")),
          h("a.btn.primary.account-table", { href: `#/t/${table.table_id}` }, t("table"))));
      minePanel.hidden = !mine.tables.length;
    } catch {
      minePanel.hidden = true;
    }
  };
  const helpPanel = h(
    "div.panel.help-panel",
    h("p", t("help_goal")),
    h("a.btn.help-link", { href: "#/help" }, t("help")),
    " ",
    h("a.btn.leaderboard-link", { href: "#/leaderboard/classic-2p" }, t("leaderboards")),
  );
  root.append(h("h1.sr-only", t("title")), form, minePanel, tablesPanel, helpPanel);
  await Promise.all([refresh(), refreshMine(), online.counts()]);
  const every = setInterval(() => {
    refresh();
    refreshMine();
    void online.counts();
  }, 5000);
  return () => {
    clearInterval(every);
    online.stop();
  };
}

/** The pools of "Play online", as the server names them (server.pairing.pools), and which of them may be rated. */
/** @type {[string, boolean][]} */
const POOLS = [["xeri-2", true], ["xeri-4", true], ["pisti-2", false], ["pisti-4", false]];
/** Seconds without a pairing before the computer is offered instead. */
const OFFER_COMPUTER_AFTER = 20;

/**
 * "Play online": one tap opens the four pools (casual, or rated when signed in); choosing one waits in it, showing
 * who waits and the typical wait, with Cancel, and after a while the computer instead. Paired, the seat's token is
 * kept (seats.js) and the table opens. `stop` gives up a wait when the lobby is left. Below, the open challenges
 * (the seeks waiting now: Accept seeks in the same pool, which pairs with them) and how many are here (issue 41).
 * @param {() => void} playComputer the lobby's "Play now"
 * @returns {{ panel: HTMLElement, stop: () => void, counts: () => Promise<void> }}
 */
function onlinePanel(playComputer) {
  /** @type {string | null} */
  let seekId = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let started = 0;
  const error = h("p.error-text", { role: "alert" });
  const signedIn = account().signed_in;
  const rated = h("input.online-rated#online-rated", { type: "checkbox", onchange: () => void counts() });
  // A guest says the name the others will see (a newcomer has none yet; without one it is "Guest 4821": guestName).
  const name = h("input.online-name#online-name", { value: prefs.get("name") || "", maxLength: 24,
    placeholder: t("your_name"), autocomplete: "nickname" });
  name.addEventListener("change", () => prefs.set("name", name.value.trim()));
  /** @type {Map<string, HTMLElement>} how many wait in each pool, on its button */
  const waitingIn = new Map();
  const choices = h(
    "div.online-choices",
    { hidden: true },
    signedIn ? null : h("p", h("label.label", { for: "online-name" }, t("online_name")), name),
    h("div.pool-buttons", POOLS.map(([format, ratable]) => {
      const count = h("span.pool-waiting");
      waitingIn.set(format, count);
      return h("button.pool-choice", { type: "button", dataset: { format, ratable: String(ratable) },
        onclick: () => begin(format, ratable) }, t(`pool_${format.replace("-", "_")}`), count);
    })),
    signedIn ? h("p", h("label", { for: "online-rated" }, rated, " ", t("rated"))) : null,
  );
  const challengeList = h("ul.table-list.challenge-list");
  const pulse = h("p.lobby-pulse.muted");
  const challenges = h("div.open-challenges", h("h2", t("open_challenges")), challengeList, pulse);
  /** @param {import("../protocol.js").OpenChallenge[]} list */
  const drawChallenges = (list) => {
    clear(challengeList);
    if (!list.length) challengeList.appendChild(h("li.muted.no-challenges", t("no_challenges")));
    list.forEach((c, i) => {
      const ratable = POOLS.some(([f, r]) => f === c.format && r);
      const who = h("strong.challenge-name");
      who.textContent = c.name; // a player's own name: text, never markup
      const reason = !signedIn && c.rated
        ? h("span.challenge-reason.muted", { id: `challenge-reason-${i}` }, t("challenge_rated_guest")) : null;
      const accept = h("button.challenge-accept", { type: "button", disabled: Boolean(reason),
        "aria-label": t("challenge_accept_label", { name: c.name }),
        "aria-describedby": reason ? reason.id : null,
        onclick: () => begin(c.format, ratable, c.rated) }, t("accept"));
      challengeList.appendChild(h("li.challenge", { dataset: { format: c.format, rated: String(c.rated) } },
        h("div.desc", who, " — ", t(`pool_${c.format.replace("-", "_")}`), " ",
          c.rated ? h("span.rated-badge", t("rated")) : h("span.casual-badge", t("casual")),
          c.rating != null ? ` ${c.rating}` : null, h("br"),
          h("span.challenge-waited", t("challenge_waited", { s: Math.round(c.waited) }))),
        h("div.actions", accept, reason)));
    });
  };
  /**
   * Show how many wait in each pool now (casual, or rated when that is ticked), the open challenges and who is here:
   * a lobby that is not empty. Not while this player waits (their own seek would be listed).
   */
  const counts = async () => {
    if (seekId || !waiting.hidden) return;
    try {
      const lobby = await api.pairingPools();
      if (seekId || !waiting.hidden) return; // a seek began meanwhile
      const ratedNow = signedIn && rated.checked;
      for (const pool of lobby.pools) {
        const el = waitingIn.get(pool.format);
        if (el && pool.rated === (ratedNow && POOLS.some(([f, r]) => f === pool.format && r)))
          el.textContent = pool.waiting > 0 ? ` · ${t("pool_waiting", { n: pool.waiting })}` : "";
      }
      drawChallenges(lobby.challenges);
      pulse.textContent = `${tn("lobby_online", lobby.online, { n: lobby.online })} · `
        + tn("lobby_playing", lobby.playing, { n: lobby.playing });
      challenges.hidden = false;
    } catch {
      // The counts are a nicety: without them the buttons still work.
    }
  };
  const players = h("span.pairing-players");
  const typical = h("span.pairing-typical");
  const waited = h("span.pairing-waited");
  const computer = h("button.pairing-computer", { type: "button", hidden: true, onclick: () => {
    stop();
    playComputer();
  } }, t("pairing_computer"));
  const waiting = h(
    "div.pairing-wait",
    { hidden: true, role: "status" },
    h("p.pairing-looking", h("strong", t("pairing_looking")), " ", waited),
    h("p", players, " · ", typical),
    h("p", h("button.pairing-cancel", { type: "button", onclick: () => {
      stop();
      void counts();
    } }, t("pairing_cancel")), " ",
      computer),
  );
  const open = h("button.primary.play-online", { type: "button", "aria-expanded": "false", onclick: () => {
    choices.hidden = !choices.hidden;
    open.setAttribute("aria-expanded", String(!choices.hidden));
    void counts();
  } }, t("play_online"));
  challenges.hidden = true; // until the first answer
  const panel = h("div.panel.online-panel", open, h("p.muted", t("play_online_sub")), choices, waiting, error,
    challenges);

  /** @param {unknown} err */
  const fail = (err) => {
    error.textContent = err instanceof ApiError ? errorText(err.code, err.message) : String(err);
    stop(false);
    void counts();
  };
  /** @param {import("../net/types.js").SeekState} state */
  const show = (state) => {
    if (state.status === "paired" && state.table_id && state.token != null && state.seat != null) {
      seekId = null;
      seats.set(state.table_id, state.seat, state.token);
      // Paired while looking elsewhere (issue 41): the tab's title and a sound say so (the sounds load with a table).
      notify("notify_paired");
      if (document.hidden) void import("../lib/sound.js").then((m) => m.sound("turn"));
      location.hash = `#/t/${state.table_id}`;
      return;
    }
    const secs = Math.round((Date.now() - started) / 1000);
    waited.textContent = t("pairing_waited", { s: secs });
    players.textContent = t("pairing_players", { n: state.players ?? 1 });
    typical.textContent = state.typical_wait == null ? t("pairing_nobody")
      : t("pairing_typical", { s: Math.round(state.typical_wait) });
    computer.hidden = secs < OFFER_COMPUTER_AFTER;
    timer = setTimeout(poll, 1000);
  };
  const poll = async () => {
    if (!seekId) return;
    const id = seekId;
    try {
      const state = await api.seekState(id);
      if (seekId === id) show(state);
    } catch (err) {
      if (seekId === id) fail(err);
    }
  };
  /**
   * @param {string} format
   * @param {boolean} ratable
   * @param {boolean} [asked] rated or casual, as a challenge accepted is (the box's choice otherwise)
   */
  const begin = async (format, ratable, asked) => {
    stop();
    error.textContent = "";
    prefs.set("onlineFormat", format);
    /** @type {import("../protocol.js").Seek} */
    const body = { format, rated: signedIn && ratable && (asked ?? rated.checked), key: browserKey() };
    const given = signedIn ? "" : name.value.trim();
    if (given) prefs.set("name", given);
    if (!signedIn) body.name = given || guestName(browserKey()); // never two plain "Guest"s at one table
    choices.hidden = true;
    open.setAttribute("aria-expanded", "false");
    waiting.hidden = false;
    challenges.hidden = true;
    computer.hidden = true;
    started = Date.now();
    waited.textContent = "";
    try {
      const state = await api.seek(body);
      seekId = state.seek_id || null;
      show(state);
    } catch (err) {
      fail(err);
    }
  };
  /** Stop waiting (and give the seek up). */
  const stop = (cancel = true) => {
    clearTimeout(timer);
    if (seekId && cancel) api.cancelSeek(seekId).catch(() => {});
    seekId = null;
    waiting.hidden = true;
  };
  return { panel, stop, counts };
}

/**
 * "Play offline": the computer in this browser, with no network. The pack downloads on the first click (never on a
 * first visit), then the match is made by the offline engine with the lobby's options. The panel says which levels
 * play offline. Null when neither the server nor this browser has a pack.
 * @param {import("../net/types.js").Meta} meta
 * @param {ReturnType<typeof lobbyOptions>} options
 * @param {HTMLElement} error
 * @returns {{ panel: HTMLElement, play: () => Promise<void> } | null}
 */
function offlinePanel(meta, options, error) {
  const served = meta.offline || null;
  if (!installedPack() && !served) return null;
  const levels = (installedPack() || served || { levels: [] }).levels;
  const status = h("p.muted.offline-status", { role: "status" },
    installedPack() ? t("offline_ready") : t("offline_download"));
  warmEngine();
  const play = async () => {
    error.textContent = "";
    let pack = installedPack();
    if (!pack || (served && served.version !== pack.version && navigator.onLine)) {
      button.disabled = true;
      try {
        pack = await installPack((done, total) => {
          status.textContent = t("offline_progress", { pct: Math.floor((100 * done) / Math.max(total, 1)) });
        });
        status.textContent = t("offline_ready");
      } catch (err) {
        status.textContent = t("offline_download");
        error.textContent = t("offline_failed", { error: err instanceof Error ? err.message : String(err) });
        return;
      } finally {
        button.disabled = false;
      }
    }
    const body = options.read();
    const level = options.level;
    if (!pack.levels.includes(level)) {
      error.textContent = t("offline_no_level", { level: t(level) });
      return;
    }
    body.seats = Array.from({ length: body.players }, (_, i) => (i === 0 ? null : { bot: level }));
    body.offline = true;
    try {
      const res = await api.createTable(body);
      seats.set(res.table_id, res.seat, res.token);
      location.hash = `#/t/${res.table_id}`;
    } catch (err) {
      error.textContent = err instanceof ApiError ? errorText(err.code, err.message) : String(err);
    }
  };
  const button = h("button.play-offline", { type: "button", onclick: () => void play() }, t("play_offline"));
  const panel = h(
    "div.panel.offline-panel",
    button,
    h("p.muted.offline-levels", t("offline_levels", { levels: levels.map((l) => t(l)).join(", ") })),
    status,
  );
  return { panel, play };
}
