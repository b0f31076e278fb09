// Dialogs: the round breakdown, the end of a match, and the fairness check of each round.

import { api } from "./api.js";
import { cardLabel } from "./cards.js";
import { h } from "./dom.js";
import { scoreLabel, splitScoreLabel, t } from "./i18n.js";

/** Open a modal; returns a function that closes it. Escape and the backdrop close it too. */
export function modal(title, body, actions = [], { id = null, onClose = null } = {}) {
  const previous = document.activeElement;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    back.remove();
    document.removeEventListener("keydown", onKey, true);
    if (onClose) onClose();
    if (previous && previous.focus) previous.focus();
  };
  const onKey = (ev) => {
    if (ev.key === "Escape") {
      ev.stopPropagation();
      close();
    }
  };
  const buttons = actions.map(({ label, primary, onClick, href, download, cls }) => {
    if (href) return h(`a.btn${cls ? "." + cls : ""}`, { href, download: download || null }, label);
    return h(`button${primary ? ".primary" : ""}${cls ? "." + cls : ""}`, { type: "button", onclick: () => (onClick ? onClick(close) : close()) }, label);
  });
  const dialog = h("div.modal", { role: "dialog", "aria-modal": "true", "aria-label": title, id }, h("h2", title), body, h("div.actions", buttons));
  const back = h("div.modal-back", { onclick: (ev) => ev.target === back && close() }, dialog);
  document.body.appendChild(back);
  document.addEventListener("keydown", onKey, true);
  const focusable = dialog.querySelector(".actions button.primary") || dialog.querySelector(".actions button");
  if (focusable) focusable.focus();
  return close;
}

function sideLabel(names, players, sides, side) {
  const seatsOf = [];
  for (let s = 0; s < players; s++) if (s % sides === side) seatsOf.push(names[s] || `${t("seat")} ${s + 1}`);
  return seatsOf.join(" & ");
}

/** One round's score, item by item, a column per side. */
export function breakdownTable(round, names, players, sides) {
  const keys = [];
  for (const b of round.scores) for (const line of b.lines) {
    const [key] = splitScoreLabel(line.label);
    if (!keys.includes(key)) keys.push(key);
  }
  const head = h("tr", h("th", t("item")), round.scores.map((b) => h("th.num", sideLabel(names, players, sides, b.side))));
  const rows = keys.map((key) =>
    h(
      "tr",
      { dataset: { item: key } },
      h("td", scoreLabel(key)),
      round.scores.map((b) => {
        const line = b.lines.find((l) => splitScoreLabel(l.label)[0] === key);
        if (!line) return h("td.num", "–");
        const count = splitScoreLabel(line.label)[1];
        return h("td.num", { title: (line.cards || []).map(cardLabel).join(" ") }, count ? `${line.points} (${count})` : String(line.points));
      }),
    ),
  );
  const cards = h("tr", h("td", t("cards_count")), round.scores.map((b) => h("td.num", String(b.cards))));
  const xeris = h("tr", h("td", t("xeris_count")), round.scores.map((b) => h("td.num", String(b.xeris + (b.jack_xeris || 0)))));
  const total = h("tr.total", h("td", t("total")), round.scores.map((b) => h("td.num", String(b.total))));
  return h("table.breakdown", { dataset: { round: String(round.round) } }, h("thead", head), h("tbody", rows, cards, xeris, total));
}

/** Every finished round's totals, with the match total. */
export function roundsTable(history, names, players, sides) {
  const head = h("tr", h("th", t("round")), Array.from({ length: sides }, (_, s) => h("th.num", sideLabel(names, players, sides, s))));
  const sums = new Array(sides).fill(0);
  const rows = history.map((r) => {
    const totals = r.totals || r.scores.map((b) => b.total);
    totals.forEach((v, i) => (sums[i] += v));
    return h("tr", h("td", String(r.round)), totals.map((v) => h("td.num", String(v))));
  });
  const total = h("tr.total", h("td", t("match")), sums.map((v) => h("td.num", String(v))));
  return h("table.rounds-table", h("thead", head), h("tbody", rows, total));
}

/** The fairness check of one finished round: the commitment, the revealed seed, and the server's verify answer. */
export function fairnessBlock(round, ruleset) {
  const status = h("span.verdict", "…");
  const box = h(
    "div.fairness",
    { dataset: { round: String(round.round) } },
    h("strong", `${t("fairness")} — ${t("round")} ${round.round}: `),
    status,
    h("div", `${t("commitment")}: ${round.commitment || "?"}`),
    h("div", `${t("seed")}: ${round.seed ?? t("fairness_pending")}`),
  );
  if (round.seed != null && round.salt && round.commitment) {
    api
      .verify({ ruleset, dealer: round.dealer, seed: round.seed, salt: round.salt, commitment: round.commitment })
      .then((res) => {
        status.textContent = res.ok ? `✓ ${t("verified")}` : `✗ ${t("not_verified")}: ${res.detail || ""}`;
        status.className = `verdict ${res.ok ? "ok" : "bad"}`;
        box.dataset.ok = res.ok ? "true" : "false";
      })
      .catch((err) => {
        status.textContent = `✗ ${t("not_verified")}: ${err.message}`;
        status.className = "verdict bad";
        box.dataset.ok = "false";
      });
  } else {
    status.textContent = t("fairness_pending");
  }
  return box;
}
