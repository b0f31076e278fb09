// @ts-check
// The master's review beside a replay (docs/web.md, `xeri review`): one seat's moves coloured by the points each
// lost, the better card named, a summary per round and the costliest moves. The server weighs the moves off its
// event loop; this panel asks for it, shows the progress, and polls until it is ready.

import { api } from "../net/api.js";
import { cardLabel } from "../lib/cards.js";
import { clear, h } from "../lib/dom.js";
import { cardsCount, errorText, t, tn } from "../lib/i18n.js";

/** @typedef {import("../net/types.js").ReviewedMove} ReviewedMove */

const POLL_MS = 600;
// The colour of each grade (the same scale as `xeri review`), for the border of a move's note; the grades' text
// takes the theme's colours (.grade-* in style.css), which keep 4.5:1 on the felt.
/** @type {Record<string, string>} */
export const GRADE_COLOUR = {
  forced: "#8a8a8a", best: "#2e7d32", good: "#558b2f", inaccuracy: "#b38f00", mistake: "#e65100", blunder: "#c62828",
};

/**
 * For each replay step that is a move, its "round:move" key (the review's numbering: 1-based within the round,
 * over the moves that stand: a move taken back has none).
 * @param {{ round: number, card: string | null, takeback?: string[] }[]} steps
 * @returns {(string | null)[]}
 */
export function moveKeys(steps) {
  /** @type {(string | null)[]} */
  const keys = [];
  let round = 0;
  let k = 0;
  /** the steps of the round's moves that stand, in order: a takeback retracts the last ones */
  /** @type {number[]} */
  let standing = [];
  for (const step of steps) {
    if (step.round !== round) {
      round = step.round;
      k = 0;
      standing = [];
    }
    if (step.takeback) {
      // The retracted moves were not weighed (the review reads the moves that stand): they get no key.
      for (let n = 0; n < step.takeback.length; n++) {
        const i = standing.pop();
        if (i != null) keys[i] = null;
        k -= 1;
      }
      keys.push(null);
    } else if (step.card == null) keys.push(null);
    else {
      standing.push(keys.length);
      keys.push(`${step.round}:${++k}`);
    }
  }
  return keys;
}

/** @param {number} x */
const num = (x) => (Math.round(x * 10) / 10).toFixed(1);

/**
 * What a card does, in the page's language (the review's `*_effect`).
 * @param {import("../net/types.js").Effect} e
 * @returns {string}
 */
export function effectText(e) {
  const cards = cardsCount(e.cards || 0);
  return tn(`eff_${e.kind}`, e.unseen || 0, { cards, points: t("pts", { n: e.points || 0 }), unseen: e.unseen });
}

/**
 * One move's verdict in a line: the grade, and the better card with what it would have done.
 * @param {ReviewedMove} m
 * @returns {string}
 */
export function verdict(m) {
  if (m.grade === "forced") return t("review_forced");
  if (m.grade === "best") return t("review_best");
  if (m.grade === "good") return t("review_good", { card: cardLabel(m.best) });
  const better = t("review_better", { card: cardLabel(m.best), lost: num(m.lost), effect: effectText(m.best_effect) });
  return `${t(`grade_${m.grade}`)}: ${better}`;
}

/**
 * The review panel of a replay: `el` to place on the page, `note` to place under the step's caption,
 * `show(i)` when step i is shown, `stop()` when the page goes. `goTo(i)` moves the replay to step i.
 * @param {string} id the match
 * @param {string[]} names
 * @param {{ round: number, card: string | null }[]} steps the replay's
 * @param {(step: number) => void} goTo
 * @param {number} [seat] the seat first offered for review
 * @returns {{ el: HTMLElement, note: HTMLElement, show: (i: number) => void, stop: () => void }}
 */
export function reviewPanel(id, names, steps, goTo, seat = 0) {
  const keys = moveKeys(steps);
  /** @type {Map<string, number>} */
  const stepOf = new Map();
  keys.forEach((key, i) => key && stepOf.set(key, i));
  /** @type {Map<string | null, ReviewedMove>} */
  let byKey = new Map();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let current = 0;
  let stopped = false;
  const seatSelect = h(
    "select.review-seat",
    { "aria-label": t("review_seat") },
    names.map((n, s) => h("option", { value: String(s), selected: s === seat }, n)),
  );
  const startBtn = h("button.review-start", { type: "button", onclick: () => start() }, t("review_start"));
  const bar = h("progress.review-progress", { max: 1, value: 0, hidden: true });
  const status = h("span.review-status", { "aria-live": "polite" });
  const summary = h("div.review-summary");
  const note = h("div.review-note", { "aria-live": "polite" });
  const el = h(
    "section.review.panel",
    h("h2", t("review_title")),
    h("div.review-controls", h("label", t("review_seat"), " ", seatSelect), startBtn, bar, status),
    summary,
  );

  /** @param {number} seat */
  function poll(seat) {
    api.review(id, seat).then((data) => {
      if (stopped) return;
      if (data.state === "done" && data.review) return ready(data.review);
      bar.hidden = false;
      bar.max = Math.max(1, data.total);
      bar.value = data.done;
      status.textContent = t("review_progress", { done: data.done, total: data.total });
      timer = setTimeout(() => poll(seat), POLL_MS);
    }, (err) => {
      if (stopped) return;
      bar.hidden = true;
      startBtn.disabled = false;
      status.textContent = `${t("error")}: ${errorText(err.code, err.message)}`;
    });
  }

  function start() {
    clearTimeout(timer);
    startBtn.disabled = true;
    byKey = new Map();
    clear(summary);
    show(current);
    status.textContent = t("loading");
    poll(Number(seatSelect.value));
  }

  /** @param {ReviewedMove} m */
  function moveLink(m) {
    const i = stepOf.get(`${m.round}:${m.move}`);
    const lost = t("review_lost", { lost: num(m.lost) });
    const text = `${t("round")} ${m.round}, ${cardLabel(m.played)}: ${lost}. ${verdict(m)}`;
    return h(
      "li",
      i == null
        ? text
        : h(
            "a.review-jump",
            {
              href: "#",
              onclick: (ev) => {
                ev.preventDefault();
                goTo(i);
              },
            },
            text,
          ),
    );
  }

  /** @param {import("../net/types.js").Review} review */
  function ready(review) {
    bar.hidden = true;
    startBtn.disabled = false;
    status.textContent = "";
    const moves = review.rounds.flatMap((r) => r.moves);
    byKey = new Map(moves.map((m) => [`${m.round}:${m.move}`, m]));
    const rows = review.rounds.map((r) =>
      h("tr", { dataset: { round: String(r.number) } },
        h("td", `${t("round")} ${r.number}`),
        h("td.review-round-lost", num(r.lost)),
        h(
          "td",
          ["inaccuracy", "mistake", "blunder"].map((g) =>
            r.grades[g]
              ? h(
                  `span.grade-text.grade-${g}`,
                  { style: "margin-right:.6em" },
                  `${r.grades[g]} × ${t(`grade_${g}`)}`,
                )
              : null,
          ),
        ),
        h("td", r.margin == null ? "" : (r.margin > 0 ? "+" : "") + num(r.margin)),
      ),
    );
    const costliest = review.costliest.map((c) => byKey.get(`${c.round}:${c.move}`)).filter((m) => m !== undefined);
    clear(summary).append(
      h("p.review-total", t("review_total", { lost: num(review.lost), n: review.moves_reviewed })),
      h(
        "table.list-table.review-rounds",
        h(
          "thead",
          h(
            "tr",
            ["round", "review_lost_col", "review_grades_col", "review_margin"].map((k) => h("th", t(k))),
          ),
        ),
        h("tbody", rows),
      ),
      ...(costliest.length
        ? [h("h3", t("review_costliest")), h("ol.review-costliest", costliest.map(moveLink))]
        : [h("p", t("review_none_lost"))]),
    );
    show(current);
  }

  /** @param {number} i */
  function show(i) {
    current = i;
    clear(note);
    note.style.borderLeft = "";
    const m = byKey.get(keys[i]);
    if (!m) return;
    note.style.borderLeft = `4px solid ${GRADE_COLOUR[m.grade] || "#888"}`;
    note.style.paddingLeft = ".5em";
    note.dataset.grade = m.grade;
    const values = Object.entries(m.values).map(([c, v]) =>
      h(
        "span.review-value",
        { style: c === m.best ? "font-weight:bold;margin-right:.8em" : "margin-right:.8em" },
        `${cardLabel(c)} ${v > 0 ? "+" : ""}${num(v)}`,
      ),
    );
    note.append(
      ...[
        h(
          `div.review-verdict.grade-text.grade-${m.grade}`,
          m.grade === "forced" || m.grade === "best"
            ? verdict(m)
            : `${t("review_lost", { lost: num(m.lost) })} — ${verdict(m)}`,
        ),
        values.length ? h("div.review-values", h("span.muted", `${t("review_values")}: `), values) : null,
      ].filter((node) => node !== null),
    );
  }

  return {
    el, note, show,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
