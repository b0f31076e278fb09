// @ts-check
// The lobby: a table against the computer in one click, a table for friends, and the open tables.

import { api, ApiError, seats } from "./api.js";
import { clear, h } from "./dom.js";
import { errorText, roundsCount, rulesetName, seatName, t } from "./i18n.js";
import { prefs } from "./prefs.js";

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
 * @param {import("./api.js").Ruleset | null} rs
 * @returns {string}
 */
function rulesetText(rs) {
  if (!rs) return "";
  const end = rs.match_end === "target" ? t("target_is", { target: rs.target }) : roundsCount(rs.rounds);
  return `${rulesetName(rs.name)} · ${rs.players} ${t("players").toLowerCase()} · ${end}`;
}

/**
 * The shared fields of both forms: players, rules, target.
 * @param {import("./api.js").Meta} meta
 * @param {"vs" | "fr"} prefix against the computer, or with friends
 * @returns {{ rows: HTMLElement[], read: () => import("./api.js").NewTable & { players: number } }}
 */
function gameFields(meta, prefix) {
  const rulesets = meta.rulesets || [{ name: "classic", options: {} }];
  const ruleset = select(
    `${prefix}-ruleset`,
    rulesets.map((r) => [r.name, rulesetName(r.name)]),
    prefs.get(`${prefix}Ruleset`) || "classic",
  );
  const players = select(
    `${prefix}-players`,
    [
      [2, "2"],
      [3, "3"],
      [4, `4 (${t("team")})`],
    ],
    prefs.get(`${prefix}Players`) || 2,
  );
  // The target: the ruleset's own end, a number of rounds, or points to reach.
  /** @type {[string, string][]} */
  const targets = [
    ["", "…"],
    ...[1, 3, 5].map((n) => /** @type {[string, string]} */ ([`r${n}`, roundsCount(n)])),
    ...[51, 101, 151, 251].map((n) => /** @type {[string, string]} */ ([`p${n}`, t("target_is", { target: n })])),
  ];
  const target = select(`${prefix}-target`, targets, prefs.get(`${prefix}Target`) || "");
  const updatePlaceholder = () => {
    const rs = rulesets.find((r) => r.name === ruleset.value);
    const o = (rs && rs.options) || {};
    const own = o.match_end === "target" ? t("target_is", { target: o.target }) : roundsCount(o.rounds ?? 5);
    target.options[0].textContent = `${own} (${rulesetName(ruleset.value)})`;
  };
  ruleset.addEventListener("change", updatePlaceholder);
  updatePlaceholder();
  /**
   * @param {HTMLElement} node
   * @param {string} key
   */
  const label = (node, key) => h("label", { for: node.id }, t(key));
  const rows = [
    label(players, "players"),
    players,
    label(ruleset, "ruleset"),
    ruleset,
    label(target, "target"),
    target,
  ];
  const read = () => {
    prefs.set(`${prefix}Ruleset`, ruleset.value);
    prefs.set(`${prefix}Players`, Number(players.value));
    prefs.set(`${prefix}Target`, target.value);
    /** @type {import("./api.js").NewTable & { players: number }} */
    const body = { ruleset: ruleset.value, players: Number(players.value) };
    const n = Number(target.value.slice(1));
    if (target.value.startsWith("r")) body.options = { match_end: "rounds", rounds: n };
    else if (target.value.startsWith("p")) body.target = n;
    return body;
  };
  return { rows, read };
}

/**
 * @param {HTMLElement} container
 * @returns {Promise<() => void>} the unmount
 */
export async function mountLobby(container) {
  const root = h("section.lobby");
  clear(container).appendChild(root);
  let meta;
  try {
    meta = await api.meta();
  } catch (err) {
    const text = err instanceof ApiError ? errorText(err.code, err.message) : String(err);
    root.appendChild(h("div.panel", h("p", `${t("error")}: ${text}`)));
    return () => {};
  }
  const name = () =>
    (prefs.get("name") || "").trim() || (document.documentElement.lang === "el" ? "Παίκτης" : "Player");
  /** @param {string} cls */
  const nameInput = (cls) => {
    const input = h(`input.${cls}#${cls}`, {
      value: prefs.get("name") || "",
      maxlength: 32,
      placeholder: t("your_name"),
      autocomplete: "nickname",
    });
    input.addEventListener("change", () => prefs.set("name", input.value.trim()));
    return input;
  };

  // --- against the computer ---
  const levels = meta.levels && meta.levels.length ? meta.levels : ["easy"];
  // A first visit gets a level a beginner can beat sometimes (docs/web.md); the last choice is remembered.
  const saved = prefs.get("level");
  const level = select(
    "vs-level",
    levels.map((l) => [l, t(l)]),
    saved && levels.includes(saved) ? saved : levels.includes("medium") ? "medium" : levels[0],
  );
  const vs = gameFields(meta, "vs");
  const vsError = h("p.error-text");
  const vsName = nameInput("vs-name");
  const vsForm = h(
    "form.panel.vs-computer",
    {
      onsubmit: async (ev) => {
        ev.preventDefault();
        prefs.set("name", vsName.value.trim());
        prefs.set("level", level.value);
        const body = vs.read();
        body.seats = Array.from({ length: body.players }, (_, i) => (i === 0 ? null : { bot: level.value }));
        body.name = name();
        body.seat = 0;
        try {
          const res = await api.createTable(body);
          seats.set(res.table_id, res.seat, res.token);
          location.hash = `#/t/${res.table_id}`;
        } catch (err) {
          vsError.textContent = err instanceof ApiError ? errorText(err.code, err.message) : String(err);
        }
      },
    },
    h("h2", t("play_computer")),
    h(
      "div.form-grid",
      h("label", { for: "vs-name" }, t("your_name")),
      vsName,
      h("label", { for: "vs-level" }, t("level")),
      level,
      vs.rows,
    ),
    h("button.primary.start-vs", { type: "submit" }, t("start")),
    vsError,
  );

  // --- with friends ---
  const fr = gameFields(meta, "fr");
  const frError = h("p.error-text");
  const frName = nameInput("fr-name");
  const timer = h("input.fr-timer#fr-timer", {
    type: "number",
    min: (meta.limits && meta.limits.turn_timer && meta.limits.turn_timer[0]) || 5,
    max: 600,
    placeholder: t("none"),
  });
  const frForm = h(
    "form.panel.vs-friends",
    {
      onsubmit: async (ev) => {
        ev.preventDefault();
        prefs.set("name", frName.value.trim());
        const body = fr.read();
        body.seats = Array.from({ length: body.players }, () => null);
        body.name = name();
        body.seat = 0;
        if (timer.value) body.turn_timer = Number(timer.value);
        try {
          const res = await api.createTable(body);
          seats.set(res.table_id, res.seat, res.token);
          location.hash = `#/t/${res.table_id}`;
        } catch (err) {
          frError.textContent = err instanceof ApiError ? errorText(err.code, err.message) : String(err);
        }
      },
    },
    h("h2", t("play_friends")),
    h(
      "div.form-grid",
      h("label", { for: "fr-name" }, t("your_name")),
      frName,
      fr.rows,
      h("label", { for: "fr-timer" }, t("turn_timer")),
      timer,
    ),
    h("button.primary.create-friends", { type: "submit" }, t("create_table")),
    frError,
  );

  // --- open tables ---
  const list = h("ul.table-list.open-tables");
  const refresh = async () => {
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
          h("div.desc", h("strong", table.title || table.id), " — ", rulesetText(table.ruleset), h("br"), names),
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
  const helpPanel = h(
    "div.panel.help-panel",
    h("p", t("help_goal")),
    h("a.btn.help-link", { href: "#/help" }, t("help")),
  );
  root.append(h("h1.sr-only", t("title")), vsForm, frForm, tablesPanel, helpPanel);
  await refresh();
  const every = setInterval(refresh, 5000);
  return () => clearInterval(every);
}
