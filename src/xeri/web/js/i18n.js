// Greek and English. The default follows the browser; the player's choice is kept.

const STRINGS = {
  en: {
    title: "Xeri",
    lobby: "Lobby", history: "History", stats: "Stats", settings: "Settings",
    play_computer: "Play the computer", play_friends: "Play with friends",
    level: "Level", players: "Players", ruleset: "Rules", target: "Target", your_name: "Your name",
    start: "Start", create_table: "Create table", open_tables: "Open tables", no_tables: "No open tables.",
    join: "Join", spectate: "Watch", refresh: "Refresh", seat: "Seat", free: "free", bot: "computer", bot_name: "Computer ({level})",
    invite: "Invite link", copy: "Copy", copied: "Copied", waiting_players: "Waiting for players…",
    your_turn: "Your turn", turn_of: "{name} to play", spectating: "You are watching",
    pile: "Pile", talon: "Talon", cards: "cards", card: "card", xeri_one: "xeri", captured: "Captured", xeris: "Xeris",
    hint: "Hint", hint_text: "Try {card}: {reason}", cards_seen: "Cards seen", cards_seen_short: "Seen", four_colour: "Four-colour suits",
    language: "Language", round: "Round", score: "Score", points: "Points", total: "Total", match: "Match",
    round_over: "Round {n} over", breakdown: "Round breakdown", next: "Continue",
    match_over: "Match over", winner: "{name} wins!", winner_col: "Winner", you_win: "You win!", you_lose: "You lose",
    new_match: "New match", back_lobby: "Back to the lobby", download_record: "Download record",
    xeri: "Xeri!", jack_xeri: "Jack xeri!", xeri_by: "{name}: xeri!",
    disconnected: "Connection lost — reconnecting…", reconnected: "Reconnected",
    fairness: "Fair shuffle", verified: "verified", not_verified: "NOT verified", commitment: "commitment",
    seed: "seed", verify: "Verify", fairness_pending: "revealed after the round",
    replay: "Replay", prev: "Previous", next_move: "Next", first: "Start", last: "End", play_pause: "Play",
    review_title: "Review: where the points went", review_seat: "Seat", review_start: "Review the moves", review_progress: "The master weighs the moves: {done} of {total}",
    review_total: "{lost} points lost over {moves} moves, by the master's reckoning", review_lost_col: "Points lost", review_margin: "Round margin", review_costliest: "The costliest moves", review_none_lost: "No move lost points.",
    review_lost: "lost {lost}", review_better: "better {card} (+{lost}): it {effect}", review_best: "The master's choice", review_good: "About as good as {card}", review_forced: "The only card in hand", review_values: "Expected points per card",
    grade_inaccuracy: "Inaccuracy", grade_mistake: "Mistake", grade_blunder: "Blunder",
    eff_xeri: "makes a xeri ({points} points)", eff_capture: "takes {cards} cards ({points} points)", eff_jack: "takes the pile of {cards} cards ({points} points)", eff_lead: "leads onto the empty pile, {unseen} of its rank unseen", eff_discard: "leaves {cards} cards on the pile, {unseen} of its rank unseen",
    step: "Move {i} of {n}", no_matches: "No finished matches yet.", played_at: "Date",
    games: "Games", wins: "Wins", player: "Player", search_player: "Player name",
    error: "Error", seat_lost: "This seat is no longer yours (you left, or the link is old).", leave: "Leave", leave_confirm: "Leave the table? The computer will play your seat to the end.", you: "you", team: "Team", side: "Side",
    exposed: "Bottom card", round_wins: "Rounds won", target_is: "to {target}", rounds_of: "{n} rounds", round_one: "1 round", round_of: "Round {n} of {total}", partner: "partner",
    auto_timer: "Time is up: the computer played for you", auto_away: "The computer played for you while you were away",
    easy: "easy", medium: "medium", hard: "hard", expert: "expert", master: "master", beginner: "beginner", random: "random",
    deck_left: "left", seen_title: "Cards seen this round", seen_hint: "Crossed out: already played.",
    spectators: "spectators", loading: "Loading…", not_found: "Not found", empty: "empty",
    item: "Item", cards_count: "Cards", xeris_count: "Number of xeris", close: "Close", keys_help: "Keys: 1–9 play a card, H hint, S cards seen",
    cards_gallery: "Cards", table: "Table", turn_timer: "Turn timer (s)", none: "none",
    target_raised: "Both reached the target: play on to {target}",
    err_not_your_turn: "It is not your turn.", err_illegal_move: "That card is not in your hand.",
    err_rate_limited: "Too fast: wait a moment.", err_game_over: "The match is over.", err_not_started: "The game has not started yet.",
  },
  el: {
    title: "Ξερή",
    lobby: "Αίθουσα", history: "Ιστορικό", stats: "Στατιστικά", settings: "Ρυθμίσεις",
    play_computer: "Παίξε με τον υπολογιστή", play_friends: "Παίξε με φίλους",
    level: "Επίπεδο", players: "Παίκτες", ruleset: "Κανόνες", target: "Στόχος", your_name: "Το όνομά σου",
    start: "Έναρξη", create_table: "Νέο τραπέζι", open_tables: "Ανοιχτά τραπέζια", no_tables: "Κανένα ανοιχτό τραπέζι.",
    join: "Μπες", spectate: "Παρακολούθηση", refresh: "Ανανέωση", seat: "Θέση", free: "ελεύθερη", bot: "υπολογιστής", bot_name: "Υπολογιστής ({level})",
    invite: "Σύνδεσμος πρόσκλησης", copy: "Αντιγραφή", copied: "Αντιγράφηκε", waiting_players: "Αναμονή παικτών…",
    your_turn: "Σειρά σου", turn_of: "Παίζει ο/η {name}", spectating: "Παρακολουθείς",
    pile: "Στοίβα", talon: "Τράπουλα", cards: "φύλλα", card: "φύλλο", xeri_one: "ξερή", captured: "Μαζεμένα", xeris: "Ξερές",
    hint: "Βοήθεια", hint_text: "Δοκίμασε {card}: {reason}", cards_seen: "Φύλλα που βγήκαν", cards_seen_short: "Βγήκαν", four_colour: "Τετράχρωμα φύλλα",
    language: "Γλώσσα", round: "Γύρος", score: "Σκορ", points: "Πόντοι", total: "Σύνολο", match: "Παρτίδα",
    round_over: "Τέλος γύρου {n}", breakdown: "Ανάλυση γύρου", next: "Συνέχεια",
    match_over: "Τέλος παρτίδας", winner: "Κέρδισε ο/η {name}!", winner_col: "Νικητής", you_win: "Κέρδισες!", you_lose: "Έχασες",
    new_match: "Νέα παρτίδα", back_lobby: "Πίσω στην αίθουσα", download_record: "Λήψη καταγραφής",
    xeri: "Ξερή!", jack_xeri: "Ξερή με βαλέ!", xeri_by: "{name}: ξερή!",
    disconnected: "Χάθηκε η σύνδεση — επανασύνδεση…", reconnected: "Συνδέθηκε ξανά",
    fairness: "Τίμιο μοίρασμα", verified: "επαληθεύτηκε", not_verified: "ΔΕΝ επαληθεύτηκε", commitment: "δέσμευση",
    seed: "σπόρος", verify: "Επαλήθευση", fairness_pending: "αποκαλύπτεται μετά τον γύρο",
    replay: "Επανάληψη", prev: "Προηγούμενη", next_move: "Επόμενη", first: "Αρχή", last: "Τέλος", play_pause: "Αναπαραγωγή",
    review_title: "Ανάλυση: πού χάθηκαν οι πόντοι", review_seat: "Θέση", review_start: "Ανάλυση κινήσεων", review_progress: "Ο μαέστρος ζυγίζει τις κινήσεις: {done} από {total}",
    review_total: "Χάθηκαν {lost} πόντοι σε {moves} κινήσεις, κατά τον υπολογισμό του μαέστρου", review_lost_col: "Πόντοι που χάθηκαν", review_margin: "Διαφορά γύρου", review_costliest: "Οι πιο ακριβές κινήσεις", review_none_lost: "Καμία κίνηση δεν έχασε πόντους.",
    review_lost: "έχασε {lost}", review_better: "καλύτερο το {card} (+{lost}): {effect}", review_best: "Η επιλογή του μαέστρου", review_good: "Περίπου ισάξιο με το {card}", review_forced: "Το μόνο φύλλο στο χέρι", review_values: "Αναμενόμενοι πόντοι ανά φύλλο",
    grade_inaccuracy: "Ανακρίβεια", grade_mistake: "Λάθος", grade_blunder: "Χοντρό λάθος",
    eff_xeri: "κάνει ξερή ({points} πόντοι)", eff_capture: "μαζεύει {cards} φύλλα ({points} πόντοι)", eff_jack: "μαζεύει με τον βαλέ {cards} φύλλα ({points} πόντοι)", eff_lead: "ανοίγει την άδεια στοίβα, {unseen} ίδια φύλλα ακόμη αθέατα", eff_discard: "αφήνει {cards} φύλλα στη στοίβα, {unseen} ίδια φύλλα ακόμη αθέατα",
    step: "Κίνηση {i} από {n}", no_matches: "Δεν υπάρχουν ολοκληρωμένες παρτίδες ακόμη.", played_at: "Ημερομηνία",
    games: "Παρτίδες", wins: "Νίκες", player: "Παίκτης", search_player: "Όνομα παίκτη",
    error: "Σφάλμα", seat_lost: "Αυτή η θέση δεν είναι πια δική σου (αποχώρησες ή ο σύνδεσμος είναι παλιός).", leave: "Αποχώρηση", leave_confirm: "Να φύγεις από το τραπέζι; Ο υπολογιστής θα παίξει τη θέση σου ως το τέλος.", you: "εσύ", team: "Ομάδα", side: "Πλευρά",
    exposed: "Κάτω φύλλο", round_wins: "Γύροι που κέρδισε", target_is: "ως τους {target}", rounds_of: "{n} γύροι", round_one: "1 γύρος", round_of: "Γύρος {n} από {total}", partner: "συμπαίκτης",
    auto_timer: "Τέλος χρόνου: ο υπολογιστής έπαιξε για σένα", auto_away: "Ο υπολογιστής έπαιξε για σένα όσο έλειπες",
    easy: "εύκολο", medium: "μέτριο", hard: "δύσκολο", expert: "έμπειρο", master: "μαέστρος", beginner: "αρχάριος", random: "στην τύχη",
    deck_left: "απομένουν", seen_title: "Φύλλα που βγήκαν σε αυτόν τον γύρο", seen_hint: "Διαγραμμένα: έχουν παιχτεί.",
    spectators: "θεατές", loading: "Φόρτωση…", not_found: "Δεν βρέθηκε", empty: "άδεια",
    item: "Στοιχείο", cards_count: "Φύλλα", xeris_count: "Πλήθος ξερών", close: "Κλείσιμο", keys_help: "Πλήκτρα: 1–9 παίζουν φύλλο, H βοήθεια, S φύλλα που βγήκαν",
    cards_gallery: "Φύλλα", table: "Τραπέζι", turn_timer: "Χρόνος κίνησης (δ)", none: "κανένας",
    target_raised: "Έφτασαν όλοι τον στόχο: συνεχίζουμε ως τους {target}",
    err_not_your_turn: "Δεν είναι η σειρά σου.", err_illegal_move: "Αυτό το φύλλο δεν είναι στο χέρι σου.",
    err_rate_limited: "Πολύ γρήγορα: περίμενε λίγο.", err_game_over: "Η παρτίδα τελείωσε.", err_not_started: "Το παιχνίδι δεν έχει αρχίσει ακόμη.",
  },
};

// Score-line labels come from the server in English ("most cards (34)", "xeri x2"); a row is
// keyed by the label without its count, and these translate the keys.
const SCORE_LABELS_EL = {
  Aces: "Άσσοι", Kings: "Ρηγάδες", Queens: "Ντάμες", Jacks: "Βαλέδες", Tens: "Δεκάρια",
  "good 10 (10♦)": "καλό 10 (10♦)", "good 2 (2♣)": "καλό 2 (2♣)", "most cards": "Περισσότερα φύλλα",
  xeri: "Ξερές", "Jack xeri": "Ξερές με βαλέ",
};
const SCORE_LABELS_EN = { xeri: "Xeris", "Jack xeri": "Jack xeris", "most cards": "Most cards" };

/** A score line's row key and its count: "xeri x2" -> ["xeri", "×2"], "most cards (34)" -> ["most cards", "34"]. */
export function splitScoreLabel(label) {
  let m = /^(.*) x(\d+)$/.exec(label);
  if (m) return [m[1], `×${m[2]}`];
  m = /^(.*) \((\d+)\)$/.exec(label);
  if (m) return [m[1], m[2]];
  return [label, ""];
}

export const LANGUAGES = ["el", "en"];
let current = "en";

export function detectLanguage(saved, navigatorLanguages) {
  if (saved && LANGUAGES.includes(saved)) return saved;
  for (const lang of navigatorLanguages || []) {
    const base = String(lang).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export function setLanguage(lang) {
  current = LANGUAGES.includes(lang) ? lang : "en";
  document.documentElement.lang = current;
  document.title = STRINGS[current].title;
}

export function language() {
  return current;
}

export function t(key, params = {}) {
  const text = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in params ? String(params[k]) : `{${k}}`));
}

/** "1 card" / "5 cards", "1 φύλλο" / "5 φύλλα". */
export function cardsCount(n) {
  return `${n} ${n === 1 ? t("card") : t("cards")}`;
}

// The server's hint reasons (xeri.bots.hint.reason_for) are English sentences from a few templates.
const CARD = "(\\S+)";
const HINT_REASONS_EL = [
  [new RegExp(`^${CARD} takes the lone ${CARD}: a xeri$`), "το $1 παίρνει το μοναχικό $2: ξερή"],
  [new RegExp(`^${CARD} matches the ${CARD} and takes (\\d+) cards$`), "το $1 ταιριάζει με το $2 και παίρνει $3 φύλλα"],
  [/^the Jack takes the whole pile of (\d+) cards$/, "ο βαλές παίρνει όλη τη στοίβα, $1 φύλλα"],
  [new RegExp(`^the pile is empty; ${CARD} is a card the others are unlikely to match$`), "η στοίβα είναι άδεια· το $1 δύσκολα θα το ταιριάξουν οι άλλοι"],
  [new RegExp(`^no capture is worth it; ${CARD} gives away the least$`), "κανένα μάζεμα δεν αξίζει· το $1 δίνει τα λιγότερα"],
];

export function hintReason(reason) {
  if (current !== "el" || typeof reason !== "string") return reason;
  for (const [pattern, text] of HINT_REASONS_EL) if (pattern.test(reason)) return reason.replace(pattern, text);
  return reason;
}

/** A server error in the player's language when it is a known one, else the server's own message. */
export function errorText(code, message) {
  const key = `err_${code}`;
  return key in STRINGS[current] ? STRINGS[current][key] : message || code;
}

export function xerisCount(n) {
  return `${n} ${n === 1 ? t("xeri_one") : t("xeris").toLowerCase()}`;
}

export function roundsCount(n) {
  return n === 1 ? t("round_one") : t("rounds_of", { n });
}

export function scoreLabel(key) {
  return (current === "el" ? SCORE_LABELS_EL : SCORE_LABELS_EN)[key] ?? key;
}

/** Fill every [data-i18n] element under root with its translated text. */
export function translateTree(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
  for (const node of root.querySelectorAll("[data-i18n-placeholder]")) node.placeholder = t(node.dataset.i18nPlaceholder);
}
