// @ts-check
// Greek, English and Turkish (for Pişti players: its terms from docs/pisti.md's Turkish sources). The default
// follows the browser; the player's choice is kept.

/** @type {Record<string, Record<string, string>>} */
const STRINGS = {
  en: {
    title: "Xeri",
    lobby: "Lobby", history: "History", stats: "Stats", settings: "Settings",
    play_computer: "Play the computer", play_friends: "Play with friends",
    level: "Level", players: "Players", ruleset: "Rules", target: "Target", your_name: "Your name",
    start: "Start", create_table: "Create table", open_tables: "Open tables", no_tables: "No open tables.",
    join: "Join", spectate: "Watch", refresh: "Refresh", seat: "Seat", free: "free", bot: "computer",
    bot_name: "Computer {n} ({level})", bot_kind: "Computer ({level})", guest_name: "Guest {n}",
    share: "Share", qr_show: "QR code for a phone",
    qr_alt: "The invite link as a QR code: scan it with a phone's camera",
    invite: "Invite link", copy: "Copy", copied: "Copied", waiting_players: "Waiting for players…",
    your_turn: "Your turn", turn_of: "{name} to play", spectating: "You are watching",
    pile: "Pile", talon: "Talon", captured: "Captured", xeris: "Xeris",
    hint: "Hint", hint_text: "Try {card}: {reason}", cards_seen: "Cards seen", cards_seen_short: "Seen",
    four_colour: "Four-colour suits",
    language: "Language", round: "Round", score: "Score", points: "Points", total: "Total", match: "Match",
    round_over: "Round {n} over", breakdown: "Round breakdown", breakdown_short: "Rounds", next: "Continue",
    match_over: "Match over", winner: "{name} wins!", winner_col: "Winner", you_win: "You win!", you_lose: "You lose",
    new_match: "New match", back_lobby: "Back to the lobby", download_record: "Download record",
    xeri: "Xeri!", jack_xeri: "Jack xeri!", xeri_by: "{name}: xeri!",
    disconnected: "Connection lost — reconnecting…", reconnected: "Reconnected",
    master_warming: "The master is warming up: until its rollouts are compiled (once, about 18 s on a new "
      + "install) it plays by the counting rules, a level below its best.",
    master_ready: "The master's rollouts are ready: the full master plays from now on.",
    strong_warming: "The strong level is warming up: until its rollouts are compiled (once, about 18 s on a new "
      + "install) it plays by the counting rules, a little below its level.",
    strong_ready: "The strong level's rollouts are ready: it plays at its full level from now on.",
    fairness: "Fair shuffle", verified: "verified", not_verified: "NOT verified", commitment: "commitment",
    seed: "seed", verify: "Verify", fairness_pending: "revealed after the round",
    replay: "Replay", prev: "Previous", next_move: "Next", first: "Start", last: "End", play_pause: "Play",
    review_title: "Review: where the points went", review_seat: "Seat", review_start: "Review the moves",
    review_progress: "The master weighs the moves: {done} of {total}",
    review_total_one: "Points lost over {n} move, by the master's reckoning: {lost}",
    review_total_other: "Points lost over {n} moves, by the master's reckoning: {lost}", review_lost_col: "Points lost",
    review_margin: "Round margin", review_costliest: "The costliest moves", review_none_lost: "No move lost points.",
    review_lost: "lost {lost}", review_better: "better {card} (+{lost}): it {effect}",
    review_best: "The master's choice", review_good: "About as good as {card}", review_forced: "The only card in hand",
    review_values: "Expected points per card",
    grade_inaccuracy: "Inaccuracy", grade_mistake: "Mistake", grade_blunder: "Blunder",
    eff_xeri: "makes a xeri ({points})", eff_capture: "takes {cards} ({points})",
    eff_jack: "takes the pile of {cards} ({points})",
    eff_lead_one: "leads onto the empty pile, {unseen} of its rank unseen",
    eff_lead_other: "leads onto the empty pile, {unseen} of its rank unseen",
    eff_discard_one: "leaves {cards} on the pile, {unseen} of its rank unseen",
    eff_discard_other: "leaves {cards} on the pile, {unseen} of its rank unseen",
    your_matches: "Your matches", all_matches: "All matches",
    step: "Move {i} of {n}", no_matches: "No finished matches yet.", played_at: "Date",
    games: "Games", wins: "Wins", player: "Player", search_player: "Player name",
    error: "Error", seat_lost: "This seat is no longer yours (you left, or the link is old).", leave: "Leave",
    leave_confirm: "Leave the table? The computer will play your seat to the end.",
    leave_confirm_rated: "Leave this rated match? You forfeit it: it counts as a loss for your rating.",
    by_forfeit: "(by forfeit)", you: "you", team: "Team",
    side: "Side",
    exposed: "Bottom card", round_wins: "Rounds won", target_is: "to {target}", rounds_of_one: "{n} round",
    rounds_of_other: "{n} rounds", round_of: "Round {n} of {total}",
    round_of_short: "Round {n}/{total}", partner: "partner",
    auto_timer: "Time is up: the computer played for you", auto_away: "The computer played for you while you were away",
    easy: "easy", medium: "medium", hard: "hard", strong: "strong", expert: "expert", master: "master",
    beginner: "beginner", random: "random",
    deck_left: "left", seen_title: "Cards seen this round", seen_hint: "Crossed out: already played.",
    spectators: "spectators", loading: "Loading…", not_found: "Not found", empty: "empty",
    item: "Item", cards_count: "Cards", xeris_count: "Number of xeris", close: "Close",
    keys_help: "Keys: 1–9 play a card, H hint, U take back, S cards seen",
    took_back: "{name} took back {cards}", takeback: "Take back",
    takeback_done: "Taken back: your card is in your hand again.",
    err_no_takebacks: "Take-backs are only for a casual game against the computer.",
    err_nothing_to_take_back: "There is no card to take back.",
    err_round_over: "That round is over: its cards stay played.",
    err_new_hand: "New cards were dealt since: the last hand's cards stay played.",
    cards_gallery: "Cards", table: "Table", turn_timer: "Turn timer (s)", none: "none",
    target_raised: "Both reached the target: play on to {target}",
    err_not_your_turn: "It is not your turn.", err_illegal_move: "That card is not in your hand.",
    err_rate_limited: "Too fast: wait a moment.", err_game_over: "The match is over.",
    err_table_closed: "The server's operator closed this table.",
    table_closed: "This table was closed by the server's operator.",
    err_not_started: "The game has not started yet.",
    skip: "Skip to the game", help: "How to play", moves: "Moves", move_log: "Move log", no_moves: "No moves yet.",
    log_deal: "Round {n}: {name} deals", log_hands: "New hands: {n} cards each, {talon} left in the talon",
    log_play: "{name} plays {card}", log_take: "{name} plays {card} and takes {cards}",
    log_take_hidden_one: "{name} plays {card} and takes {cards} and {hidden} face-down",
    log_take_hidden_other: "{name} plays {card} and takes {cards} and {hidden} face-down",
    log_sweep: "{name} plays the Jack {card} and sweeps the pile: {cards}",
    log_xeri: "Xeri for {name}: {points}", log_jack_xeri: "Jack xeri for {name}: {points}",
    log_leftover_one: "{name} made the last capture and takes the {n} card left: {cards}",
    log_leftover_other: "{name} made the last capture and takes the {n} cards left: {cards}",
    log_unclaimed_one: "Nobody captured: the {n} card left stays unclaimed",
    log_unclaimed_other: "Nobody captured: the {n} cards left stay unclaimed",
    log_redealt: "The first pile is dealt again", log_jack_slipped: "The Jack {card} slips under the pile",
    log_bottom: "The bottom card is {card}", log_scored: "Round over: {scores}",
    log_match: "Match over: {name} wins", log_auto: "The computer plays for {name}",
    hand_mine: "Your hand: your turn", hand_wait: "Your hand: {name} to play", hand_over: "Your hand",
    seen_gone: "{card}, played", seen_mine: "{card}, in your hand", seen_left: "{card}",
    copy_failed: "Copying is blocked here: the link is selected, copy it with Ctrl+C",
    not_sent: "Your move was not sent: the connection is down. It will be sent when the connection is back, if it " +
      "is still allowed.",
    sent_late: "Your move was sent now that the connection is back.",
    dropped: "Your move was not sent: the game moved on while the connection was down.",
    rounds_won_one: "{n} round won", rounds_won_other: "{n} rounds won", round_won_one: "1 round won",
    pts_one: "{n} point", pts_other: "{n} points",
    score_short_one: "{won} won · {pts} pt", score_short_other: "{won} won · {pts} pts",
    side_you: "You", side_us: "Us", side_them: "Them",
    this_round: "this round so far: {n}",
    this_round_title: "Points this round so far, before the most-cards points at the end of the round",
    rematch: "Rematch", rematch_offered_one: "{name} offers a rematch", rematch_offered_other: "{name} offer a rematch",
    accept: "Accept",
    rematch_wait: "Waiting for the others to accept…",
    match_commitment: "Match commitment",
    commitment_note: "Check the whole match later with: xeri verify --commitment {hash}",
    dealer_mark: "D", dealer: "dealer", away_mark: "away", language_label: "Language", four_label: "4 colours",
    waiting_dialog: "Waiting for {names} to close the round summary…", round_named: "Round {n}",
    last_capture: "last capture", most_cards: "Most cards", game: "game",
    hint_xeri: "{card} takes the lone {top}: a xeri", hint_match: "{card} matches the {top} and takes {cards}",
    hint_jack_sweep: "the Jack takes the whole pile of {cards}",
    hint_empty_pile: "the pile is empty; {card} is a card the others are unlikely to match",
    hint_least_given: "no capture is worth it; {card} gives away the least",
    err_bad_name: "Please type a name (at most 32 characters).", err_table_full: "The table is full.",
    err_seat_taken: "That seat was just taken.", err_not_waiting: "The game has already started.",
    err_no_such_table: "There is no such table.", err_network: "The server cannot be reached.",
    err_bad_token: "This seat is no longer yours.", err_http_error: "The server refused the request.",
    err_private_match: "This match is private: only its players see it.",
    err_stale: "The table moved on: your move was not played.",
    err_unavailable: "The move could not be stored: try again.",
    err_bad_request: "The request was refused.", err_bad_level: "Unknown level.", err_bad_ruleset: "Unknown rules.",
    err_no_such_match: "There is no such match.", err_round_pause: "Wait until everyone has closed the round summary.",
    help_title: "How to play Xeri", help_goal: "Capture cards from the pile. You play one card a turn onto the pile.",
    help_match: "Play a card of the same rank as the top card of the pile and you take the whole pile.",
    help_jack: "A Jack takes the whole pile, whatever is on top.",
    help_xeri: "A xeri: you take a pile of a single card with a matching card. It scores extra (a Jack xeri more).",
    help_deal: "Everyone gets 6 cards; when the hands are empty the dealer deals again from the talon.",
    help_last: "At the end of the round whoever made the last capture takes the cards left on the pile.",
    help_points: "Points: most cards, Aces, Kings, Queens, Jacks, Tens, the good 10♦ and the good 2♣, and xeris.",
    help_marks: "Marks at the table", help_mark_d: "D: the dealer of this round.",
    help_mark_turn: "A yellow frame: whose turn it is.",
    help_mark_cross: "Cards lying crosswise on a captured pile: its xeris.",
    help_mark_away: "⚠: that player's connection is down.",
    help_mark_seen: "Crossed-out cards in the Seen grid: already played.",
    help_presets: "Rules presets",
    help_keys: "Keys: ← → move between your cards, Enter plays, 1–9 play the n-th card, H hint, S cards seen, Esc " +
      "closes a dialog, U takes back your last card (a casual game against the computer).",
    preset_classic: "five rounds; whoever wins more rounds wins", preset_classic_points: "first to 151 points",
    preset_cardgames: "a Jack on the first pile slips under it; first to 51",
    preset_berman: "a Jack on a lone card is a xeri; 2♠ scores",
    preset_pisti: "Turkish pişti: hands of 4, three pile cards face down; first to 151",
    back: "Back",
    play_offline: "Play offline", offline_levels: "Offline: {levels}",
    offline_download: "Downloads once on the first click, then plays the computer with no network.",
    offline_ready: "Ready to play the computer with no network.",
    offline_progress: "Downloading to play offline: {pct}%",
    offline_failed: "The offline game could not be downloaded: {error}",
    offline_no_level: "{level} does not play offline",
    offline_no_tables: "No network: the open tables show when it is back.",
    update_ready: "A new version of the page is ready.", update_reload: "Reload",
    play_now: "Play now", play_now_sub: "Against the computer · {level} · {rules} · {n} players",
    play_friends_sub: "A table with free seats, and a link to invite them", options: "Options",
    table_of: "{name}'s table", n_players: "{n} players",
    public_table: "List it in the lobby: anyone may join",
    notifications: "Notifications", notify_turn: "Your turn", notify_paired: "Your game is ready",
    invited_by: "{name} invites you to play: {rules}.", invited_to: "You are invited to play: {rules}.",
    theme: "Theme", theme_auto: "As the system", theme_light: "Light", theme_dark: "Dark", sound: "Sound",
    motion: "Animations", motion_off: "Off", motion_normal: "Normal", motion_fast: "Fast", card_size: "Card size",
    motion_system: "Off: your system asks for reduced motion",
    size_small: "Small", size_medium: "Medium", size_large: "Large",
    faces: "Card faces", faces_figures: "Figures", faces_index: "Large letters",
    details_more: "Full table and fair shuffle",
    // The round's end screen (table/reports.js roundHaul).
    match_score: "Match score", to_target: "to {n}", haul_lit_note: "lit: the cards that score",
    haul_xeri_note: "a xeri",
    round_won_you: "You won round {n}, {score}", round_won_team: "Your team won round {n}, {score}",
    round_won_by: "{names} won round {n}, {score}",
    round_draw: "Round {n} is a draw, {score}",
    match_won_you: "You won the match, {score}", match_won_team: "Your team won the match, {score}",
    match_won_by: "{names} won the match, {score}",
    match_draw: "The match is a draw, {score}", and: "and",
    by_level: "Win rate by level", by_opponent: "Win rate by opponent", win_rate: "Win rate", opponent: "Opponent",
    recent_results: "Recent results",
    chart_summary_one: "The last match: {wins}, {losses}, {draws}; a bar's height is the points margin",
    chart_summary_other: "Last {n} matches: {wins}, {losses}, {draws}; a bar's height is the points margin",
    help_values: "What a round scores", xeri_item: "A xeri", jack_xeri_item: "A Jack xeri", each: "{n} each",
    help_values_note: "Points per round under each preset. A card group's points count for every card of it.",
    review_grades_col: "Errors",
    // Counts (issue 39): a key_one and a key_other form, the one Intl.PluralRules names for the count is said (tn).
    n_cards_one: "{n} card", n_cards_other: "{n} cards", n_xeris_one: "{n} xeri", n_xeris_other: "{n} xeris",
    n_won_one: "{n} won", n_won_other: "{n} won", n_lost_one: "{n} lost", n_lost_other: "{n} lost",
    n_drawn_one: "{n} drawn", n_drawn_other: "{n} drawn",
    // The felt (issue 23): a computer seat's own name, the turn mark, a move in flight, the Leave dialog's
    // other button, the fairness disclosure.
    bot_seat: "Computer {n}",
    bot_seat_short: "CPU {n}", turn_short: "to play", move_sending: "Playing your card…", stay: "Stay",
    fairness_panel: "Fairness",
    // Accounts (docs/accounts.md).
    sign_in: "Sign in", sign_up: "Create account", sign_out: "Sign out", account: "Account",
    account_of: "Account: {name}", account_name: "Name", password: "Password", new_password: "New password",
    account_note: "An account is optional: with one, your tables, matches and totals follow you to any device. "
      + "No e-mail is needed. A password has at least 10 characters.",
    account_fill: "Type a name and a password.", signed_in_as: "Signed in as {name}",
    account_claimed_one: "Signed in; this browser's match is now your account's.",
    account_claimed_other: "Signed in; this browser's {n} matches are now your account's.",
    profile: "Your profile", hide_from_leaderboards: "Hide me from the leaderboards", saved: "Saved",
    change_password: "Change the password", password_changed: "The password is changed; other devices are signed out.",
    delete_account: "Delete the account",
    delete_note: "Your matches stay, under an anonymous name; the name becomes free again. This cannot be undone.",
    my_tables: "Your tables", table_waiting: "waiting for players", table_playing: "in play",
    member_since: "Playing since {date}", recent_matches: "Recent matches", review: "Review",
    err_bad_credentials: "That name and password do not match an account.",
    err_name_taken: "That name, or one that reads the same, is taken: choose another.",
    err_bad_password: "A password has 10 to 256 characters, and is not the name.",
    err_csrf: "The request was refused: reload the page.", err_not_signed_in: "Sign in first.",
    err_tables_open: "Leave or finish your open tables first.", err_no_such_player: "There is no such player.",
    // Ratings (docs/ratings.md; the rest in ratingstrings.js).
    rated: "Rated", leaderboards: "Leaderboards",
    err_not_ratable: "Rated games are classic, with 2 players or 4 in partnerships.",
    rated_targets: "A rated match is played to {targets} points.",
    err_rated_needs_account: "This table is rated: sign in to sit at it.",
    // Table talk (table/talk.js).
    talk: "Talk", talk_title: "Table talk", talk_said: "{name}: {text}", talk_send: "Send",
    talk_text: "Your message", talk_mute: "Mute {name}",
    talk_hello: "Hello!", talk_good_luck: "Good luck!", talk_well_played: "Well played!", talk_thanks: "Thanks!",
    talk_oops: "Oops!", talk_nice_one: "Nice one!", talk_sorry: "Sorry!", talk_wow: "Wow!",
    talk_clap: "Applause", talk_laugh: "Laughing", talk_think: "Thinking", talk_heart: "Heart",
    err_talk_rate: "Too much talk: wait a moment.",
    err_talk_private_only: "Free text is for private tables: pick a phrase.",
    err_bad_text: "A message has 1 to 140 characters, with no control characters.",
    // "Play online": the pairing pools (docs/web.md).
    play_online: "Play online", play_online_sub: "Meet people who are waiting now",
    pool_xeri_2: "Xeri · 2 players", pool_xeri_4: "Xeri · 4 in partnerships",
    pool_pisti_2: "Pişti · 2 players", pool_pisti_4: "Pişti · 4 in partnerships", casual: "Casual",
    pool_waiting: "{n} waiting", online_name: "Your name at the table",
    pairing_looking: "Looking for players…", pairing_players: "Waiting now: {n}",
    pairing_typical: "Typical wait: {s} s", pairing_waited: "You have waited {s} s",
    pairing_cancel: "Cancel", pairing_nobody: "Nobody has come yet.", pairing_computer: "Play the computer now",
    err_no_such_seek: "The wait ended: press Play online again.",
    // The lobby that is alive (issue 41): the open challenges anyone may accept, and who is here.
    open_challenges: "Open challenges", no_challenges: "Nobody is waiting now: choose a game to be the first.",
    challenge_accept_label: "Accept the challenge of {name}", challenge_waited: "waiting {s} s",
    challenge_rated_guest: "Sign in to accept a rated challenge.",
    lobby_online_one: "{n} player online", lobby_online_other: "{n} players online",
    lobby_playing_one: "{n} table in play", lobby_playing_other: "{n} tables in play",
  },
  el: {
    title: "Ξερή",
    lobby: "Αίθουσα", history: "Ιστορικό", stats: "Στατιστικά", settings: "Ρυθμίσεις",
    play_computer: "Παίξε με τον υπολογιστή", play_friends: "Παίξε με φίλους",
    level: "Επίπεδο", players: "Παίκτες", ruleset: "Κανόνες", target: "Στόχος", your_name: "Το όνομά σου",
    start: "Έναρξη", create_table: "Νέο τραπέζι", open_tables: "Ανοιχτά τραπέζια", no_tables: "Κανένα ανοιχτό τραπέζι.",
    join: "Μπες", spectate: "Παρακολούθηση", refresh: "Ανανέωση", seat: "Θέση", free: "ελεύθερη", bot: "υπολογιστής",
    bot_name: "Υπολογιστής {n} ({level})", bot_kind: "Υπολογιστής ({level})", guest_name: "Επισκέπτης {n}",
    share: "Κοινοποίηση", qr_show: "Κωδικός QR για κινητό",
    qr_alt: "Ο σύνδεσμος πρόσκλησης ως κωδικός QR: σκάναρέ τον με την κάμερα ενός κινητού",
    invite: "Σύνδεσμος πρόσκλησης", copy: "Αντιγραφή", copied: "Αντιγράφηκε", waiting_players: "Αναμονή παικτών…",
    your_turn: "Σειρά σου", turn_of: "Παίζει: {name}", spectating: "Παρακολουθείς",
    pile: "Στοίβα", talon: "Τράπουλα", captured: "Μαζεμένα", xeris: "Ξερές",
    hint: "Υπόδειξη", hint_text: "Δοκίμασε {card}: {reason}", cards_seen: "Φύλλα που βγήκαν",
    cards_seen_short: "Βγήκαν", four_colour: "Τετράχρωμα φύλλα",
    language: "Γλώσσα", round: "Γύρος", score: "Σκορ", points: "Πόντοι", total: "Σύνολο", match: "Παρτίδα",
    round_over: "Τέλος γύρου {n}", breakdown: "Ανάλυση γύρου", breakdown_short: "Γύροι", next: "Συνέχεια",
    match_over: "Τέλος παρτίδας", winner: "Νίκη: {name}!", winner_col: "Νικητής", you_win: "Κέρδισες!",
    you_lose: "Έχασες",
    new_match: "Νέα παρτίδα", back_lobby: "Πίσω στην αίθουσα", download_record: "Λήψη καταγραφής",
    xeri: "Ξερή!", jack_xeri: "Ξερή με βαλέ!", xeri_by: "{name}: ξερή!",
    disconnected: "Χάθηκε η σύνδεση — επανασύνδεση…", reconnected: "Συνδέθηκε ξανά",
    master_warming: "Ο μαέστρος ζεσταίνεται: ώσπου να μεταγλωττιστούν οι προσομοιώσεις του (μία φορά, περίπου "
      + "18 δευτερόλεπτα σε νέα εγκατάσταση) παίζει με τους κανόνες μετρήματος, ένα επίπεδο κάτω "
      + "από το καλύτερό του.",
    master_ready: "Οι προσομοιώσεις του μαέστρου είναι έτοιμες: από εδώ και πέρα παίζει ο πλήρης μαέστρος.",
    strong_warming: "Το δυνατό επίπεδο ζεσταίνεται: ώσπου να μεταγλωττιστούν οι προσομοιώσεις του (μία φορά, "
      + "περίπου 18 δευτερόλεπτα σε νέα εγκατάσταση) παίζει με τους κανόνες μετρήματος, λίγο κάτω από το "
      + "επίπεδό του.",
    strong_ready: "Οι προσομοιώσεις του δυνατού επιπέδου είναι έτοιμες: από εδώ και πέρα παίζει με όλη του τη "
      + "δύναμη.",
    fairness: "Τίμιο μοίρασμα", verified: "επαληθεύτηκε", not_verified: "ΔΕΝ επαληθεύτηκε", commitment: "δέσμευση",
    seed: "σπόρος", verify: "Επαλήθευση", fairness_pending: "αποκαλύπτεται μετά τον γύρο",
    replay: "Επανάληψη", prev: "Προηγούμενη", next_move: "Επόμενη", first: "Αρχή", last: "Τέλος",
    play_pause: "Αναπαραγωγή",
    review_title: "Ανάλυση: πού χάθηκαν οι πόντοι", review_seat: "Θέση", review_start: "Ανάλυση κινήσεων",
    review_progress: "Ο μαέστρος ζυγίζει τις κινήσεις: {done} από {total}",
    review_total_one: "Πόντοι που χάθηκαν σε {n} κίνηση, κατά τον υπολογισμό του μαέστρου: {lost}",
    review_total_other: "Πόντοι που χάθηκαν σε {n} κινήσεις, κατά τον υπολογισμό του μαέστρου: {lost}",
    review_lost_col: "Πόντοι που χάθηκαν", review_margin: "Διαφορά γύρου", review_costliest: "Οι πιο ακριβές κινήσεις",
    review_none_lost: "Καμία κίνηση δεν έχασε πόντους.",
    review_lost: "έχασε {lost}", review_better: "καλύτερο το {card} (+{lost}): {effect}",
    review_best: "Η επιλογή του μαέστρου", review_good: "Περίπου ισάξιο με το {card}",
    review_forced: "Το μόνο φύλλο στο χέρι", review_values: "Αναμενόμενοι πόντοι ανά φύλλο",
    grade_inaccuracy: "Ανακρίβεια", grade_mistake: "Λάθος", grade_blunder: "Χοντρό λάθος",
    eff_xeri: "κάνει ξερή ({points})", eff_capture: "μαζεύει {cards} ({points})",
    eff_jack: "μαζεύει με τον βαλέ όλη τη στοίβα, {cards} ({points})",
    eff_lead_one: "ανοίγει την άδεια στοίβα· {unseen} φύλλο της ίδιας αξίας δεν έχει φανεί ακόμη",
    eff_lead_other: "ανοίγει την άδεια στοίβα· {unseen} φύλλα της ίδιας αξίας δεν έχουν φανεί ακόμη",
    eff_discard_one: "αφήνει {cards} στη στοίβα· {unseen} φύλλο της ίδιας αξίας δεν έχει φανεί ακόμη",
    eff_discard_other: "αφήνει {cards} στη στοίβα· {unseen} φύλλα της ίδιας αξίας δεν έχουν φανεί ακόμη",
    your_matches: "Οι παρτίδες σου", all_matches: "Όλες οι παρτίδες",
    step: "Κίνηση {i} από {n}", no_matches: "Δεν υπάρχουν ολοκληρωμένες παρτίδες ακόμη.", played_at: "Ημερομηνία",
    games: "Παρτίδες", wins: "Νίκες", player: "Παίκτης", search_player: "Όνομα παίκτη",
    error: "Σφάλμα", seat_lost: "Αυτή η θέση δεν είναι πια δική σου (αποχώρησες ή ο σύνδεσμος είναι παλιός).",
    leave: "Έξοδος",
    leave_confirm: "Θέλεις να φύγεις από το τραπέζι; Ο υπολογιστής θα παίξει στη θέση σου ως το τέλος.",
    leave_confirm_rated: "Θέλεις να φύγεις από αυτή την παρτίδα με βαθμολογία; Τη χάνεις λόγω " +
      "εγκατάλειψης: μετράει ως ήττα στη βαθμολογία σου.",
    by_forfeit: "(λόγω εγκατάλειψης)",
    you: "εσύ", team: "Ομάδα", side: "Πλευρά",
    exposed: "Κάτω φύλλο", round_wins: "Γύροι που κέρδισε", target_is: "ως τους {target}",
    rounds_of_one: "{n} γύρος", rounds_of_other: "{n} γύροι", round_of: "Γύρος {n} από {total}",
    round_of_short: "Γύρος {n}/{total}", partner: "συμπαίκτης",
    auto_timer: "Τέλος χρόνου: ο υπολογιστής έπαιξε για σένα", auto_away: "Ο υπολογιστής έπαιξε για σένα όσο έλειπες",
    easy: "εύκολο", medium: "μέτριο", hard: "δύσκολο", strong: "δυνατό", expert: "έμπειρο", master: "μαέστρος",
    beginner: "αρχάριος", random: "στην τύχη",
    deck_left: "απομένουν", seen_title: "Φύλλα που βγήκαν σε αυτόν τον γύρο", seen_hint: "Διαγραμμένα: έχουν παιχτεί.",
    spectators: "θεατές", loading: "Φόρτωση…", not_found: "Δεν βρέθηκε", empty: "άδεια",
    item: "Κατηγορία", cards_count: "Φύλλα", xeris_count: "Πλήθος ξερών", close: "Κλείσιμο",
    keys_help: "Πλήκτρα: 1–9 παίζουν φύλλο, H υπόδειξη, U πάρε πίσω, S φύλλα που βγήκαν",
    took_back: "{name}: πήρε πίσω {cards}", takeback: "Πάρε πίσω",
    takeback_done: "Το πήρες πίσω: το φύλλο είναι ξανά στο χέρι σου.",
    err_no_takebacks: "Μπορείς να πάρεις πίσω κίνηση μόνο σε φιλικό παιχνίδι με τον υπολογιστή.",
    err_nothing_to_take_back: "Δεν υπάρχει φύλλο να πάρεις πίσω.",
    err_round_over: "Αυτός ο γύρος τελείωσε: τα φύλλα του μένουν παιγμένα.",
    err_new_hand: "Μοιράστηκαν νέα φύλλα από τότε: τα φύλλα του προηγούμενου χεριού μένουν παιγμένα.",
    cards_gallery: "Φύλλα", table: "Τραπέζι", turn_timer: "Χρόνος κίνησης (δευτ.)", none: "κανένας",
    target_raised: "Έφτασαν όλοι τον στόχο: συνεχίζουμε ως τους {target}",
    err_not_your_turn: "Δεν είναι η σειρά σου.", err_illegal_move: "Αυτό το φύλλο δεν είναι στο χέρι σου.",
    err_rate_limited: "Πολύ γρήγορα: περίμενε λίγο.", err_game_over: "Η παρτίδα τελείωσε.",
    err_table_closed: "Ο διαχειριστής του διακομιστή έκλεισε αυτό το τραπέζι.",
    table_closed: "Αυτό το τραπέζι το έκλεισε ο διαχειριστής του διακομιστή.",
    err_not_started: "Το παιχνίδι δεν έχει αρχίσει ακόμη.",
    skip: "Μετάβαση στο παιχνίδι", help: "Πώς παίζεται", moves: "Κινήσεις", move_log: "Κινήσεις της παρτίδας",
    no_moves: "Καμία κίνηση ακόμη.",
    log_deal: "Γύρος {n}: μοιράζει {name}", log_hands: "Νέο μοίρασμα: {n} φύλλα ο καθένας, {talon} στην τράπουλα",
    log_play: "{name}: ρίχνει {card}", log_take: "{name}: ρίχνει {card} και μαζεύει {cards}",
    log_take_hidden_one: "{name}: ρίχνει {card} και μαζεύει {cards} και {hidden} κλειστό",
    log_take_hidden_other: "{name}: ρίχνει {card} και μαζεύει {cards} και {hidden} κλειστά",
    log_sweep: "{name}: ρίχνει τον βαλέ {card} και μαζεύει όλη τη στοίβα: {cards}",
    log_xeri: "{name}: ξερή, {points}",
    log_jack_xeri: "{name}: ξερή με βαλέ, {points}",
    log_leftover_one: "{name}: έκανε το τελευταίο μάζεμα και παίρνει το {n} φύλλο που έμεινε: {cards}",
    log_leftover_other: "{name}: έκανε το τελευταίο μάζεμα και παίρνει τα {n} φύλλα που έμειναν: {cards}",
    log_unclaimed_one: "Κανείς δεν μάζεψε: το {n} φύλλο που έμεινε δεν πάει σε κανέναν",
    log_unclaimed_other: "Κανείς δεν μάζεψε: τα {n} φύλλα που έμειναν δεν πάνε σε κανέναν",
    log_redealt: "Η πρώτη στοίβα μοιράζεται ξανά", log_jack_slipped: "Ο βαλές {card} μπαίνει κάτω από τη στοίβα",
    log_bottom: "Το κάτω φύλλο είναι {card}", log_scored: "Τέλος γύρου: {scores}",
    log_match: "Τέλος παρτίδας, νίκη: {name}", log_auto: "{name}: παίζει ο υπολογιστής",
    hand_mine: "Το χέρι σου: σειρά σου", hand_wait: "Το χέρι σου· παίζει: {name}", hand_over: "Το χέρι σου",
    seen_gone: "{card}, έχει παιχτεί", seen_mine: "{card}, στο χέρι σου", seen_left: "{card}",
    copy_failed: "Η αντιγραφή δεν επιτρέπεται εδώ: ο σύνδεσμος είναι επιλεγμένος, αντίγραψέ τον με Ctrl+C",
    not_sent: "Η κίνησή σου δεν στάλθηκε: η σύνδεση χάθηκε. Θα σταλεί όταν επανέλθει, αν επιτρέπεται ακόμη.",
    sent_late: "Η κίνησή σου στάλθηκε τώρα που επανήλθε η σύνδεση.",
    dropped: "Η κίνησή σου δεν στάλθηκε: το παιχνίδι προχώρησε όσο έλειπε η σύνδεση.",
    rounds_won_one: "{n} γύρος κερδισμένος", rounds_won_other: "{n} γύροι κερδισμένοι",
    round_won_one: "1 γύρος κερδισμένος", pts_one: "{n} πόντος", pts_other: "{n} πόντοι",
    score_short_one: "{won} νίκ. · {pts} π.", score_short_other: "{won} νίκ. · {pts} π.",
    side_you: "Εσύ", side_us: "Εμείς", side_them: "Αυτοί",
    this_round: "ως τώρα στον γύρο: {n}",
    this_round_title: "Πόντοι του γύρου ως τώρα, πριν από τους πόντους για τα περισσότερα φύλλα στο τέλος του γύρου",
    rematch: "Ρεβάνς", rematch_offered_one: "{name} προτείνει ρεβάνς",
    rematch_offered_other: "{name} προτείνουν ρεβάνς",
    accept: "Δεκτό",
    rematch_wait: "Αναμονή να δεχτούν οι άλλοι…",
    match_commitment: "Δέσμευση παρτίδας",
    commitment_note: "Έλεγξε όλη την παρτίδα αργότερα με: xeri verify --commitment {hash}",
    dealer_mark: "Μ", dealer: "μοιράζει", away_mark: "εκτός σύνδεσης", language_label: "Γλώσσα",
    four_label: "4 χρώματα",
    waiting_dialog: "Περιμένουμε να κλείσουν την ανάλυση του γύρου: {names}…", round_named: "Γύρος {n}",
    last_capture: "τελευταίο μάζεμα", most_cards: "Περισσότερα φύλλα", game: "παιχνίδι",
    hint_xeri: "το {card} παίρνει το μοναχικό {top}: ξερή",
    hint_match: "το {card} ταιριάζει με το {top} και παίρνει {cards}",
    hint_jack_sweep: "ο βαλές παίρνει όλη τη στοίβα, {cards}",
    hint_empty_pile: "η στοίβα είναι άδεια· το {card} δύσκολα θα το ταιριάξουν οι άλλοι",
    hint_least_given: "κανένα μάζεμα δεν αξίζει· το {card} χαρίζει τα λιγότερα",
    err_bad_name: "Γράψε ένα όνομα (ως 32 χαρακτήρες).", err_table_full: "Το τραπέζι είναι γεμάτο.",
    err_seat_taken: "Αυτή η θέση μόλις πιάστηκε.", err_not_waiting: "Το παιχνίδι έχει ήδη αρχίσει.",
    err_no_such_table: "Δεν υπάρχει τέτοιο τραπέζι.", err_network: "Ο διακομιστής δεν απαντά.",
    err_bad_token: "Αυτή η θέση δεν είναι πια δική σου.", err_http_error: "Ο διακομιστής αρνήθηκε το αίτημα.",
    err_private_match: "Αυτή η παρτίδα είναι ιδιωτική: τη βλέπουν μόνο οι παίκτες της.",
    err_stale: "Το τραπέζι προχώρησε: η κίνησή σου δεν παίχτηκε.",
    err_unavailable: "Η κίνηση δεν αποθηκεύτηκε: δοκίμασε ξανά.",
    err_bad_request: "Το αίτημα απορρίφθηκε.", err_bad_level: "Άγνωστο επίπεδο.", err_bad_ruleset: "Άγνωστοι κανόνες.",
    err_no_such_match: "Δεν υπάρχει τέτοια παρτίδα.",
    err_round_pause: "Περίμενε να κλείσουν όλοι την ανάλυση του γύρου.",
    help_title: "Πώς παίζεται η ξερή",
    help_goal: "Μαζεύεις φύλλα από τη στοίβα. Σε κάθε σειρά ρίχνεις ένα φύλλο στη στοίβα.",
    help_match: "Αν ρίξεις φύλλο ίδιας αξίας με το πάνω φύλλο της στοίβας, παίρνεις όλη τη στοίβα.",
    help_jack: "Ο βαλές παίρνει όλη τη στοίβα, ό,τι κι αν είναι από πάνω.",
    help_xeri: "Ξερή: παίρνεις στοίβα ενός μόνο φύλλου με φύλλο ίδιας αξίας. Δίνει επιπλέον πόντους (η ξερή με βαλέ " +
      "περισσότερους).",
    help_deal: "Ο καθένας παίρνει 6 φύλλα· όταν αδειάσουν τα χέρια, όποιος μοιράζει δίνει ξανά φύλλα από την " +
      "τράπουλα.",
    help_last: "Στο τέλος του γύρου, όποιος μάζεψε τελευταίος παίρνει τα φύλλα που έμειναν στη στοίβα.",
    help_points: "Πόντοι: τα περισσότερα φύλλα, άσσοι, ρηγάδες, ντάμες, βαλέδες, δεκάρια, το καλό 10♦, το καλό 2♣ " +
      "και οι ξερές.",
    help_marks: "Τα σημάδια στο τραπέζι", help_mark_d: "Μ: αυτός που μοιράζει σε αυτόν τον γύρο.",
    help_mark_turn: "Κίτρινο πλαίσιο: ποιος παίζει.",
    help_mark_cross: "Φύλλα βαλμένα πλάγια πάνω στα μαζεμένα ενός παίκτη: οι ξερές του.",
    help_mark_away: "⚠: η σύνδεση του παίκτη χάθηκε.",
    help_mark_seen: "Διαγραμμένα φύλλα στον πίνακα «Βγήκαν»: έχουν ήδη παιχτεί.",
    help_presets: "Παραλλαγές κανόνων",
    help_keys: "Πλήκτρα: ← → ανάμεσα στα φύλλα σου, Enter παίζει, 1–9 παίζουν το ν-οστό φύλλο, H υπόδειξη, S φύλλα " +
      "που βγήκαν, Esc κλείνει ένα παράθυρο, U παίρνει πίσω το τελευταίο σου φύλλο (φιλικό παιχνίδι με τον " +
      "υπολογιστή).",
    preset_classic: "πέντε γύροι· κερδίζει όποιος κερδίσει τους περισσότερους",
    preset_classic_points: "όποιος φτάσει πρώτος τους 151 πόντους",
    preset_cardgames: "βαλές στην πρώτη στοίβα μπαίνει από κάτω· ως τους 51",
    preset_berman: "βαλές σε μοναχικό φύλλο είναι ξερή· το 2♠ μετράει",
    preset_pisti: "τουρκικό πιστί: χέρια των 4, τρία φύλλα της στοίβας κλειστά· ως τους 151",
    back: "Πίσω",
    play_offline: "Παίξε χωρίς δίκτυο", offline_levels: "Χωρίς δίκτυο: {levels}",
    offline_download: "Κατεβαίνει μία φορά με το πρώτο πάτημα· μετά ο υπολογιστής παίζει χωρίς δίκτυο.",
    offline_ready: "Έτοιμο: ο υπολογιστής παίζει χωρίς δίκτυο.",
    offline_progress: "Λήψη για παιχνίδι χωρίς δίκτυο: {pct}%",
    offline_failed: "Η λήψη για παιχνίδι χωρίς δίκτυο απέτυχε: {error}",
    offline_no_level: "Το επίπεδο «{level}» δεν παίζει χωρίς δίκτυο",
    offline_no_tables: "Χωρίς δίκτυο: τα ανοιχτά τραπέζια φαίνονται μόλις επιστρέψει.",
    update_ready: "Μια νέα έκδοση της σελίδας είναι έτοιμη.", update_reload: "Ανανέωση",
    play_now: "Παίξε τώρα", play_now_sub: "Με τον υπολογιστή · {level} · {rules} · {n} παίκτες",
    play_friends_sub: "Τραπέζι με ελεύθερες θέσεις και σύνδεσμο πρόσκλησης", options: "Επιλογές",
    table_of: "Τραπέζι: {name}", n_players: "{n} παίκτες",
    public_table: "Να φαίνεται στην αίθουσα: μπορεί να μπει οποιοσδήποτε",
    notifications: "Ειδοποιήσεις", notify_turn: "Σειρά σου", notify_paired: "Το παιχνίδι σου είναι έτοιμο",
    invited_by: "Πρόσκληση από {name} για παιχνίδι: {rules}.", invited_to: "Πρόσκληση για παιχνίδι: {rules}.",
    theme: "Εμφάνιση", theme_auto: "Όπως το σύστημα", theme_light: "Φωτεινή", theme_dark: "Σκοτεινή", sound: "Ήχος",
    motion: "Εφέ κίνησης", motion_off: "Χωρίς", motion_normal: "Κανονικά", motion_fast: "Γρήγορα",
    motion_system: "Χωρίς: το σύστημά σου ζητά λιγότερη κίνηση",
    card_size: "Μέγεθος φύλλων", size_small: "Μικρά", size_medium: "Μεσαία", size_large: "Μεγάλα",
    faces: "Όψη φύλλων", faces_figures: "Φιγούρες", faces_index: "Μεγάλα γράμματα",
    details_more: "Πλήρης πίνακας και τίμιο μοίρασμα",
    match_score: "Σκορ παρτίδας", to_target: "στους {n}", haul_lit_note: "φωτισμένα: τα φύλλα που πιάνουν πόντους",
    haul_xeri_note: "ξερή",
    round_won_you: "Κέρδισες τον γύρο {n}, {score}", round_won_team: "Η ομάδα σου κέρδισε τον γύρο {n}, {score}",
    round_won_by: "{names}: νίκη στον γύρο {n}, {score}",
    round_draw: "Ισοπαλία στον γύρο {n}, {score}",
    match_won_you: "Κέρδισες την παρτίδα, {score}", match_won_team: "Η ομάδα σου κέρδισε την παρτίδα, {score}",
    match_won_by: "{names}: νίκη στην παρτίδα, {score}",
    match_draw: "Ισοπαλία στην παρτίδα, {score}", and: "και",
    by_level: "Ποσοστό νικών ανά επίπεδο", by_opponent: "Ποσοστό νικών ανά αντίπαλο", win_rate: "Ποσοστό νικών",
    opponent: "Αντίπαλος", recent_results: "Πρόσφατα αποτελέσματα",
    chart_summary_one: "Η τελευταία παρτίδα: {wins}, {losses}, {draws}· το ύψος κάθε στήλης είναι η διαφορά πόντων",
    chart_summary_other: "Οι τελευταίες {n} παρτίδες: {wins}, {losses}, {draws}· το ύψος κάθε στήλης είναι η " +
      "διαφορά πόντων",
    help_values: "Πόσους πόντους δίνει ένας γύρος", xeri_item: "Μια ξερή", jack_xeri_item: "Μια ξερή με βαλέ",
    each: "{n} το καθένα",
    help_values_note: "Πόντοι ανά γύρο σε κάθε παραλλαγή. Οι πόντοι μιας ομάδας φύλλων μετράνε για κάθε φύλλο της.",
    review_grades_col: "Λάθη",
    n_cards_one: "{n} φύλλο", n_cards_other: "{n} φύλλα", n_xeris_one: "{n} ξερή", n_xeris_other: "{n} ξερές",
    n_won_one: "{n} νίκη", n_won_other: "{n} νίκες", n_lost_one: "{n} ήττα", n_lost_other: "{n} ήττες",
    n_drawn_one: "{n} ισοπαλία", n_drawn_other: "{n} ισοπαλίες",
    bot_seat: "Υπολογιστής {n}",
    bot_seat_short: "Υπολ. {n}", turn_short: "παίζει", move_sending: "Παίζεται το φύλλο σου…", stay: "Μένω",
    fairness_panel: "Διαφάνεια",
    // Λογαριασμοί (docs/accounts.md).
    sign_in: "Σύνδεση", sign_up: "Νέος λογαριασμός", sign_out: "Αποσύνδεση", account: "Λογαριασμός",
    account_of: "Λογαριασμός: {name}", account_name: "Όνομα", password: "Κωδικός", new_password: "Νέος κωδικός",
    account_note: "Ο λογαριασμός είναι προαιρετικός: με αυτόν τα τραπέζια, οι παρτίδες και τα σύνολά σου σε "
      + "ακολουθούν σε κάθε συσκευή. Δεν χρειάζεται ηλεκτρονικό ταχυδρομείο. Ο κωδικός έχει τουλάχιστον 10 χαρακτήρες.",
    account_fill: "Γράψε όνομα και κωδικό.", signed_in_as: "Συνδεδεμένος ως {name}",
    account_claimed_one: "Συνδέθηκες· η παρτίδα αυτού του φυλλομετρητή είναι τώρα του λογαριασμού σου.",
    account_claimed_other: "Συνδέθηκες· οι {n} παρτίδες αυτού του φυλλομετρητή είναι τώρα του λογαριασμού σου.",
    profile: "Το προφίλ σου", hide_from_leaderboards: "Να μη φαίνομαι στις κατατάξεις", saved: "Αποθηκεύτηκε",
    change_password: "Αλλαγή κωδικού",
    password_changed: "Ο κωδικός άλλαξε· οι άλλες συσκευές αποσυνδέθηκαν.",
    delete_account: "Διαγραφή λογαριασμού",
    delete_note: "Οι παρτίδες σου μένουν, με ανώνυμο όνομα· το όνομα ελευθερώνεται. Δεν αναιρείται.",
    my_tables: "Τα τραπέζια σου", table_waiting: "περιμένει παίκτες", table_playing: "σε εξέλιξη",
    member_since: "Παίζει από {date}", recent_matches: "Πρόσφατες παρτίδες", review: "Ανάλυση",
    err_bad_credentials: "Το όνομα και ο κωδικός δεν ταιριάζουν με λογαριασμό.",
    err_name_taken: "Αυτό το όνομα, ή ένα που διαβάζεται ίδιο, είναι πιασμένο: διάλεξε άλλο.",
    err_bad_password: "Ο κωδικός έχει 10 έως 256 χαρακτήρες και δεν είναι το όνομα.",
    err_csrf: "Το αίτημα απορρίφθηκε: φόρτωσε ξανά τη σελίδα.", err_not_signed_in: "Συνδέσου πρώτα.",
    err_tables_open: "Άφησε ή τελείωσε πρώτα τα ανοιχτά σου τραπέζια.",
    err_no_such_player: "Δεν υπάρχει τέτοιος παίκτης.",
    // Βαθμολογίες (docs/ratings.md).
    rated: "Με βαθμολογία", leaderboards: "Κατατάξεις",
    err_not_ratable: "Οι παρτίδες με βαθμολογία παίζονται με τους κλασικούς κανόνες, με 2 παίκτες ή 4 σε ζευγάρια.",
    rated_targets: "Μια παρτίδα με βαθμολογία παίζεται στους {targets} πόντους.",
    err_rated_needs_account: "Αυτό το τραπέζι είναι με βαθμολογία: συνδέσου για να καθίσεις.",
    // Κουβέντα στο τραπέζι (table/talk.js).
    talk: "Κουβέντα", talk_title: "Κουβέντα στο τραπέζι", talk_said: "{name}: {text}", talk_send: "Στείλε",
    talk_text: "Το μήνυμά σου", talk_mute: "Σίγαση: {name}",
    talk_hello: "Γεια σας!", talk_good_luck: "Καλή τύχη!", talk_well_played: "Καλά έπαιξες!",
    talk_thanks: "Ευχαριστώ!", talk_oops: "Ωχ!", talk_nice_one: "Ωραίο!", talk_sorry: "Συγγνώμη!", talk_wow: "Ουάου!",
    talk_clap: "Χειροκρότημα", talk_laugh: "Γέλιο", talk_think: "Σκέψη", talk_heart: "Καρδιά",
    err_talk_rate: "Πολλά μηνύματα: περίμενε λίγο.",
    err_talk_private_only: "Ελεύθερο κείμενο μόνο σε ιδιωτικά τραπέζια: διάλεξε μια φράση.",
    err_bad_text: "Ένα μήνυμα έχει 1 έως 140 χαρακτήρες, χωρίς χαρακτήρες ελέγχου.",
    // «Παίξε διαδικτυακά» (docs/web.md).
    play_online: "Παίξε διαδικτυακά", play_online_sub: "Παίξε με όσους περιμένουν τώρα",
    pool_xeri_2: "Ξερή · 2 παίκτες", pool_xeri_4: "Ξερή · 4 σε ζευγάρια",
    pool_pisti_2: "Πιστί · 2 παίκτες", pool_pisti_4: "Πιστί · 4 σε ζευγάρια", casual: "Χωρίς βαθμολογία",
    pool_waiting: "περιμένουν: {n}", online_name: "Το όνομά σου στο τραπέζι",
    pairing_looking: "Ψάχνουμε παίκτες…", pairing_players: "Περιμένουν τώρα: {n}",
    pairing_typical: "Συνήθης αναμονή: {s} δ", pairing_waited: "Περιμένεις {s} δ",
    pairing_cancel: "Άκυρο", pairing_nobody: "Δεν ήρθε κανείς ακόμη.",
    pairing_computer: "Παίξε τώρα με τον υπολογιστή",
    err_no_such_seek: "Η αναμονή έληξε: πάτα ξανά «Παίξε διαδικτυακά».",
    open_challenges: "Ανοιχτές προκλήσεις",
    no_challenges: "Δεν περιμένει κανείς τώρα: διάλεξε παιχνίδι και γίνε ο πρώτος.",
    challenge_accept_label: "Αποδοχή πρόκλησης: {name}", challenge_waited: "περιμένει {s} δ",
    challenge_rated_guest: "Συνδέσου για να δεχτείς πρόκληση με βαθμολογία.",
    lobby_online_one: "{n} παίκτης συνδεδεμένος", lobby_online_other: "{n} παίκτες συνδεδεμένοι",
    lobby_playing_one: "{n} τραπέζι σε εξέλιξη", lobby_playing_other: "{n} τραπέζια σε εξέλιξη",
  },
  tr: {
    title: "Pişti",
    lobby: "Salon", history: "Geçmiş", stats: "İstatistik", settings: "Ayarlar",
    play_computer: "Bilgisayara karşı oyna", play_friends: "Arkadaşlarla oyna",
    level: "Seviye", players: "Oyuncular", ruleset: "Kurallar", target: "Hedef", your_name: "Adın",
    start: "Başla", create_table: "Masa aç", open_tables: "Açık masalar", no_tables: "Açık masa yok.",
    join: "Otur", spectate: "İzle", refresh: "Yenile", seat: "Yer", free: "boş", bot: "bilgisayar",
    bot_name: "Bilgisayar {n} ({level})", bot_kind: "Bilgisayar ({level})", guest_name: "Misafir {n}",
    share: "Paylaş", qr_show: "Telefon için QR kodu",
    qr_alt: "Davet bağlantısı QR kodu olarak: bir telefonun kamerasıyla tarayın",
    invite: "Davet bağlantısı", copy: "Kopyala", copied: "Kopyalandı", waiting_players: "Oyuncular bekleniyor…",
    your_turn: "Sıra sende", turn_of: "Sıra: {name}", spectating: "İzliyorsun",
    pile: "Yer", talon: "Deste", captured: "Toplanan", xeris: "Piştiler",
    hint: "İpucu", hint_text: "{card} dene: {reason}", cards_seen: "Çıkan kâğıtlar", cards_seen_short: "Çıkan",
    four_colour: "Dört renkli kâğıtlar",
    language: "Dil", round: "El", score: "Skor", points: "Puan", total: "Toplam", match: "Oyun",
    round_over: "{n}. el bitti", breakdown: "El dökümü", breakdown_short: "Eller", next: "Devam",
    match_over: "Oyun bitti", winner: "Kazanan: {name}!", winner_col: "Kazanan", you_win: "Kazandın!",
    you_lose: "Kaybettin",
    new_match: "Yeni oyun", back_lobby: "Salona dön", download_record: "Kaydı indir",
    xeri: "Pişti!", jack_xeri: "Vale piştisi!", xeri_by: "{name}: pişti!",
    disconnected: "Bağlantı koptu — yeniden bağlanılıyor…", reconnected: "Yeniden bağlandı",
    master_warming: "Usta ısınıyor: benzetimleri derlenene kadar (bir kez, yeni kurulumda yaklaşık 18 saniye) "
      + "kâğıt sayma kurallarıyla, en iyisinin bir seviye altında oynuyor.",
    master_ready: "Ustanın benzetimleri hazır: bundan sonra tam usta oynuyor.",
    strong_warming: "Güçlü seviye ısınıyor: benzetimleri derlenene kadar (bir kez, yeni kurulumda yaklaşık 18 "
      + "saniye) kâğıt sayma kurallarıyla, kendi seviyesinin biraz altında oynuyor.",
    strong_ready: "Güçlü seviyenin benzetimleri hazır: bundan sonra tam gücüyle oynuyor.",
    fairness: "Adil karıştırma", verified: "doğrulandı", not_verified: "DOĞRULANMADI", commitment: "taahhüt",
    seed: "tohum", verify: "Doğrula", fairness_pending: "el bitince açıklanır",
    replay: "Tekrar izle", prev: "Önceki", next_move: "Sonraki", first: "Baş", last: "Son", play_pause: "Oynat",
    review_title: "İnceleme: puanlar nerede kaçtı", review_seat: "Yer", review_start: "Hamleleri incele",
    review_progress: "Usta hamleleri tartıyor: {done} / {total}",
    review_total_one: "Ustanın hesabıyla {n} hamlede kaçan puan: {lost}",
    review_total_other: "Ustanın hesabıyla {n} hamlede kaçan puan: {lost}", review_lost_col: "Kaçan puan",
    review_margin: "El farkı", review_costliest: "En pahalı hamleler", review_none_lost: "Hiçbir hamle puan kaçırmadı.",
    review_lost: "{lost} kaçtı", review_better: "{card} daha iyiydi (+{lost}): {effect}",
    review_best: "Ustanın seçimi", review_good: "{card} kadar iyi", review_forced: "Eldeki tek kâğıt",
    review_values: "Kâğıt başına beklenen puan",
    grade_inaccuracy: "Küçük hata", grade_mistake: "Hata", grade_blunder: "Büyük hata",
    eff_xeri: "pişti yapar ({points})", eff_capture: "{cards} alır ({points})",
    eff_jack: "valeyle yerdeki bütün kâğıtları alır: {cards} ({points})",
    eff_lead_one: "boş yere ilk kâğıdı atar; bu sayıdan {unseen} kâğıt henüz görülmedi",
    eff_lead_other: "boş yere ilk kâğıdı atar; bu sayıdan {unseen} kâğıt henüz görülmedi",
    eff_discard_one: "yerde {cards} bırakır; bu sayıdan {unseen} kâğıt henüz görülmedi",
    eff_discard_other: "yerde {cards} bırakır; bu sayıdan {unseen} kâğıt henüz görülmedi",
    your_matches: "Oyunlarınız", all_matches: "Tüm oyunlar",
    step: "Hamle {i} / {n}", no_matches: "Henüz biten oyun yok.", played_at: "Tarih",
    games: "Oyunlar", wins: "Galibiyet", player: "Oyuncu", search_player: "Oyuncu adı",
    error: "Hata", seat_lost: "Bu yer artık senin değil (masadan kalktın ya da bağlantı eski).", leave: "Kalk",
    leave_confirm: "Masadan kalkılsın mı? Yerine oyunun sonuna kadar bilgisayar oynar.",
    leave_confirm_rated: "Bu dereceli oyundan kalkılsın mı? Oyunu hükmen kaybedersin: derecene yenilgi olarak yazılır.",
    by_forfeit: "(hükmen)", you: "sen", team: "Takım",
    side: "Taraf",
    exposed: "Alttaki kâğıt", round_wins: "Kazanılan eller", target_is: "{target} puana", rounds_of_one: "{n} el",
    rounds_of_other: "{n} el", round_of: "El {n} / {total}", round_of_short: "El {n}/{total}", partner: "eş",
    auto_timer: "Süre doldu: senin yerine bilgisayar oynadı", auto_away: "Sen yokken senin yerine bilgisayar oynadı",
    easy: "kolay", medium: "orta", hard: "zor", strong: "güçlü", expert: "uzman", master: "usta",
    beginner: "acemi", random: "rastgele",
    deck_left: "kaldı", seen_title: "Bu elde çıkan kâğıtlar", seen_hint: "Üstü çizili: oynandı.",
    spectators: "izleyici", loading: "Yükleniyor…", not_found: "Bulunamadı", empty: "boş",
    item: "Puan türü", cards_count: "Kâğıtlar", xeris_count: "Pişti sayısı", close: "Kapat",
    keys_help: "Tuşlar: 1–9 kâğıt oynar, H ipucu, U geri al, S çıkan kâğıtlar",
    took_back: "{name} geri aldı: {cards}", takeback: "Geri al", takeback_done: "Geri alındı: kâğıdın yeniden elinde.",
    err_no_takebacks: "Hamle yalnızca bilgisayara karşı dereceli olmayan oyunda geri alınabilir.",
    err_nothing_to_take_back: "Geri alınacak kâğıt yok.",
    err_round_over: "O el bitti: kâğıtları geri alınamaz.",
    err_new_hand: "O zamandan beri yeni kâğıtlar dağıtıldı: önceki dağıtımın kâğıtları geri alınamaz.",
    cards_gallery: "Kâğıtlar", table: "Masa", turn_timer: "Hamle süresi (sn)", none: "yok",
    target_raised: "İki taraf da hedefe ulaştı: oyun {target} puana kadar sürüyor",
    err_not_your_turn: "Sıra sende değil.", err_illegal_move: "Bu kâğıt elinde yok.",
    err_rate_limited: "Çok hızlı: biraz bekle.", err_game_over: "Oyun bitti.",
    err_table_closed: "Sunucunun yöneticisi bu masayı kapattı.",
    table_closed: "Bu masa sunucunun yöneticisi tarafından kapatıldı.",
    err_not_started: "Oyun henüz başlamadı.",
    skip: "Oyuna geç", help: "Nasıl oynanır", moves: "Hamleler", move_log: "Hamle listesi",
    no_moves: "Henüz hamle yok.",
    log_deal: "{n}. el: dağıtan {name}", log_hands: "Yeni dağıtım: herkese {n} kâğıt, destede {talon} kaldı",
    log_play: "{name}: {card} atar", log_take: "{name}: {card} atar ve {cards} alır",
    log_take_hidden_one: "{name}: {card} atar ve {cards} ile {hidden} kapalı kâğıt alır",
    log_take_hidden_other: "{name}: {card} atar ve {cards} ile {hidden} kapalı kâğıt alır",
    log_sweep: "{name}: vale {card} atar ve yerdeki bütün kâğıtları alır: {cards}",
    log_xeri: "{name}: pişti, {points}", log_jack_xeri: "{name}: vale piştisi, {points}",
    log_leftover_one: "{name} son alışı yaptı, yerde kalan {n} kâğıdı da alır: {cards}",
    log_leftover_other: "{name} son alışı yaptı, yerde kalan {n} kâğıdı da alır: {cards}",
    log_unclaimed_one: "Kimse almadı: yerde kalan {n} kâğıt kimseye gitmez",
    log_unclaimed_other: "Kimse almadı: yerde kalan {n} kâğıt kimseye gitmez",
    log_redealt: "Yere açılan ilk kâğıtlar yeniden dağıtılır",
    log_jack_slipped: "Vale {card} yerdeki kâğıtların altına konur",
    log_bottom: "Alttaki kâğıt {card}", log_scored: "El bitti: {scores}",
    log_match: "Oyun bitti, kazanan: {name}", log_auto: "{name}: yerine bilgisayar oynuyor",
    hand_mine: "Elin: sıra sende", hand_wait: "Elin; sıra: {name}", hand_over: "Elin",
    seen_gone: "{card}, oynandı", seen_mine: "{card}, elinde", seen_left: "{card}",
    copy_failed: "Burada kopyalama engelli: bağlantı seçildi, Ctrl+C ile kopyala",
    not_sent: "Hamlen gönderilmedi: bağlantı koptu. Bağlantı gelince, hâlâ geçerliyse gönderilecek.",
    sent_late: "Bağlantı geri geldi, hamlen şimdi gönderildi.",
    dropped: "Hamlen gönderilmedi: bağlantı yokken oyun ilerledi.",
    rounds_won_one: "{n} el kazandı", rounds_won_other: "{n} el kazandı", round_won_one: "1 el kazandı",
    pts_one: "{n} puan", pts_other: "{n} puan",
    score_short_one: "{won} el · {pts} p.", score_short_other: "{won} el · {pts} p.",
    side_you: "Sen", side_us: "Biz", side_them: "Onlar",
    this_round: "bu elde şimdiye dek: {n}",
    this_round_title: "Bu elde şimdiye kadarki puanlar, el sonundaki kâğıt çoğunluğu puanından önce",
    rematch: "Rövanş", rematch_offered_one: "{name} rövanş öneriyor", rematch_offered_other: "{name} rövanş öneriyor",
    accept: "Kabul",
    rematch_wait: "Diğerlerinin kabulü bekleniyor…",
    match_commitment: "Oyun taahhüdü",
    commitment_note: "Tüm oyunu sonra şununla denetle: xeri verify --commitment {hash}",
    dealer_mark: "D", dealer: "dağıtan", away_mark: "bağlantı yok", language_label: "Dil", four_label: "4 renk",
    waiting_dialog: "El özetini kapatmaları bekleniyor: {names}…", round_named: "{n}. el",
    last_capture: "son alış", most_cards: "Kâğıt çoğunluğu", game: "oyun",
    hint_xeri: "{card} yerdeki tek {top} kâğıdını alır: pişti",
    hint_match: "{card}, {top} ile eşleşir ve {cards} alır",
    hint_jack_sweep: "vale yerdeki bütün kâğıtları alır: {cards}",
    hint_empty_pile: "yer boş; başkalarının {card} kâğıdını alma olasılığı düşük",
    hint_least_given: "değecek bir alış yok; en az zararı {card} verir",
    err_bad_name: "Bir ad yaz (en çok 32 karakter).", err_table_full: "Masa dolu.",
    err_seat_taken: "Bu yer az önce doldu.", err_not_waiting: "Oyun çoktan başladı.",
    err_no_such_table: "Böyle bir masa yok.", err_network: "Sunucuya ulaşılamıyor.",
    err_bad_token: "Bu yer artık senin değil.", err_http_error: "Sunucu isteği reddetti.",
    err_stale: "Masa ilerledi: hamlen oynanmadı.",
    err_unavailable: "Hamle kaydedilemedi: yeniden dene.",
    err_bad_request: "İstek reddedildi.", err_bad_level: "Bilinmeyen seviye.", err_bad_ruleset: "Bilinmeyen kurallar.",
    err_private_match: "Bu oyun özeldir: onu yalnızca oyuncuları görebilir.",
    err_no_such_match: "Böyle bir oyun yok.", err_round_pause: "Herkes el özetini kapatana kadar bekle.",
    help_title: "Pişti nasıl oynanır",
    help_goal: "Yerdeki kâğıtları toplarsın. Her sırada yere bir kâğıt atarsın.",
    help_match: "Yerdeki en üst kâğıtla aynı sayıda bir kâğıt atarsan yerdeki bütün kâğıtları alırsın.",
    help_jack: "Vale, üstte ne olursa olsun yerdeki bütün kâğıtları alır.",
    help_xeri: "Pişti: yerde tek kâğıt varken aynı sayıda kâğıtla onu alırsın. Ek puan getirir (vale piştisi daha " +
      "çok).",
    help_deal: "Herkese 6 kâğıt dağıtılır (pişti kurallarında 4); eller bitince dağıtan desteden yeniden dağıtır.",
    help_last: "El sonunda yerde kalan kâğıtları son alış yapan alır.",
    help_points: "Puanlar: kâğıt çoğunluğu, aslar, papazlar, kızlar, valeler, onlular, karo onlusu, sinek ikilisi " +
      "ve piştiler.",
    help_marks: "Masadaki işaretler", help_mark_d: "D: bu elin dağıtanı.",
    help_mark_turn: "Sarı çerçeve: sıra kimde.",
    help_mark_cross: "Bir oyuncunun topladığı kâğıtların üstünde çapraz duran kâğıtlar: onun piştileri.",
    help_mark_away: "⚠: o oyuncunun bağlantısı koptu.",
    help_mark_seen: "«Çıkan» tablosunda üstü çizili kâğıtlar: oynandı.",
    help_presets: "Kural seçenekleri",
    help_keys: "Tuşlar: ← → kâğıtların arasında gezer, Enter oynar, 1–9 n'inci kâğıdı oynar, H ipucu, S çıkan " +
      "kâğıtlar, Esc pencereyi kapatır, U son kâğıdını geri alır (bilgisayara karşı dereceli olmayan oyunda).",
    preset_classic: "beş el; en çok eli kazanan kazanır", preset_classic_points: "151 puana ilk ulaşan",
    preset_cardgames: "yere açılan ilk kâğıtların üstünde vale çıkarsa altına konur; 51 puana",
    preset_berman: "tek kâğıdın üstüne vale pişti sayılır; maça ikilisi puan getirir",
    preset_pisti: "Türk piştisi: 4'er kâğıt, yerdeki 3 kâğıt kapalı; 151 puana",
    back: "Geri",
    play_offline: "Çevrimdışı oyna", offline_levels: "Çevrimdışı: {levels}",
    offline_download: "İlk tıklamada bir kez iner; sonra bilgisayar ağ olmadan oynar.",
    offline_ready: "Hazır: bilgisayar ağ olmadan oynar.", offline_progress: "Çevrimdışı oyun iniyor: %{pct}",
    offline_failed: "Çevrimdışı oyun indirilemedi: {error}", offline_no_level: "{level} çevrimdışı oynamaz",
    offline_no_tables: "Ağ yok: açık masalar ağ gelince görünür.",
    update_ready: "Sayfanın yeni bir sürümü hazır.", update_reload: "Yenile",
    play_now: "Hemen oyna", play_now_sub: "Bilgisayara karşı · {level} · {rules} · {n} oyuncu",
    play_friends_sub: "Boş yerleri olan bir masa ve davet bağlantısı", options: "Seçenekler",
    table_of: "Masa: {name}", n_players: "{n} oyuncu",
    public_table: "Salonda listelensin: herkes katılabilir",
    notifications: "Bildirimler", notify_turn: "Sıra sende", notify_paired: "Oyunun hazır",
    invited_by: "{name} sizi oynamaya davet ediyor: {rules}.", invited_to: "Oynamaya davet edildiniz: {rules}.",
    theme: "Tema", theme_auto: "Sistem gibi", theme_light: "Açık", theme_dark: "Koyu", sound: "Ses",
    motion: "Animasyonlar", motion_off: "Kapalı", motion_normal: "Normal", motion_fast: "Hızlı",
    motion_system: "Kapalı: sisteminiz daha az hareket istiyor",
    card_size: "Kâğıt boyu", size_small: "Küçük", size_medium: "Orta", size_large: "Büyük",
    faces: "Kâğıt yüzü", faces_figures: "Resimli", faces_index: "Büyük harfli",
    details_more: "Tam tablo ve adil karıştırma",
    match_score: "Oyun skoru", to_target: "hedef {n}", haul_lit_note: "parlayanlar: puan getiren kâğıtlar",
    haul_xeri_note: "pişti",
    round_won_you: "{n}. eli kazandın, {score}", round_won_team: "Takımın {n}. eli kazandı, {score}",
    round_won_by: "{n}. eli {names} kazandı, {score}",
    round_draw: "{n}. el berabere, {score}",
    match_won_you: "Oyunu kazandın, {score}", match_won_team: "Takımın oyunu kazandı, {score}",
    match_won_by: "Oyunu {names} kazandı, {score}",
    match_draw: "Oyun berabere, {score}", and: "ve",
    by_level: "Seviyeye göre kazanma oranı", by_opponent: "Rakibe göre kazanma oranı", win_rate: "Kazanma oranı",
    opponent: "Rakip", recent_results: "Son sonuçlar",
    chart_summary_one: "Son oyun: {wins}, {losses}, {draws}; çubuğun boyu puan farkı",
    chart_summary_other: "Son {n} oyun: {wins}, {losses}, {draws}; çubuğun boyu puan farkı",
    help_values: "Bir elin puanları", xeri_item: "Pişti", jack_xeri_item: "Vale piştisi", each: "her biri {n}",
    help_values_note: "Her kural seçeneğinde el başına puanlar. Bir kâğıt grubunun puanı gruptaki her kâğıt içindir.",
    review_grades_col: "Hatalar",
    n_cards_one: "{n} kâğıt", n_cards_other: "{n} kâğıt", n_xeris_one: "{n} pişti", n_xeris_other: "{n} pişti",
    n_won_one: "{n} galibiyet", n_won_other: "{n} galibiyet", n_lost_one: "{n} mağlubiyet",
    n_lost_other: "{n} mağlubiyet", n_drawn_one: "{n} beraberlik", n_drawn_other: "{n} beraberlik",
    bot_seat: "Bilgisayar {n}",
    bot_seat_short: "Bilg. {n}", turn_short: "oynuyor", move_sending: "Kâğıdın oynanıyor…", stay: "Kal",
    fairness_panel: "Adillik",
    // Hesaplar (docs/accounts.md).
    sign_in: "Giriş yap", sign_up: "Hesap aç", sign_out: "Çıkış yap", account: "Hesap",
    account_of: "Hesap: {name}", account_name: "Ad", password: "Parola", new_password: "Yeni parola",
    account_note: "Hesap isteğe bağlıdır: hesapla masaların, oyunların ve toplamların her cihazda seninle gelir. "
      + "E-posta gerekmez. Parola en az 10 karakterdir.",
    account_fill: "Bir ad ve bir parola yaz.", signed_in_as: "{name} olarak girildi",
    account_claimed_one: "Giriş yapıldı; bu tarayıcının {n} oyunu artık hesabında.",
    account_claimed_other: "Giriş yapıldı; bu tarayıcının {n} oyunu artık hesabında.",
    profile: "Profilin", hide_from_leaderboards: "Beni sıralamalarda gösterme", saved: "Kaydedildi",
    change_password: "Parolayı değiştir", password_changed: "Parola değişti; diğer cihazlarda çıkış yapıldı.",
    delete_account: "Hesabı sil",
    delete_note: "Oyunların adsız bir adla kalır; ad yeniden boşa çıkar. Geri alınamaz.",
    my_tables: "Masaların", table_waiting: "oyuncu bekliyor", table_playing: "oynanıyor",
    member_since: "{date} tarihinden beri oynuyor", recent_matches: "Son oyunlar", review: "İnceleme",
    err_bad_credentials: "Bu ad ve parola bir hesapla eşleşmiyor.",
    err_name_taken: "Bu ad, ya da aynı okunan bir ad alınmış: başka bir ad seç.",
    err_bad_password: "Parola 10 ile 256 karakter arasıdır ve ad olamaz.",
    err_csrf: "İstek reddedildi: sayfayı yeniden yükle.", err_not_signed_in: "Önce giriş yap.",
    err_tables_open: "Önce açık masalarından çık ya da onları bitir.", err_no_such_player: "Böyle bir oyuncu yok.",
    // Dereceli oyunlar (docs/ratings.md).
    rated: "Dereceli", leaderboards: "Sıralamalar",
    err_not_ratable: "Dereceli oyunlar klasik kurallarla, 2 oyuncuyla ya da eşli 4 oyuncuyla oynanır.",
    rated_targets: "Dereceli bir maç {targets} puana kadar oynanır.",
    err_rated_needs_account: "Bu masa dereceli: oturmak için giriş yap.",
    // Masa sohbeti (table/talk.js).
    talk: "Sohbet", talk_title: "Masa sohbeti", talk_said: "{name}: {text}", talk_send: "Gönder",
    talk_text: "Mesajın", talk_mute: "{name} sessize al",
    talk_hello: "Merhaba!", talk_good_luck: "İyi şanslar!", talk_well_played: "İyi oynadın!",
    talk_thanks: "Teşekkürler!", talk_oops: "Hay aksi!", talk_nice_one: "Güzel!", talk_sorry: "Pardon!",
    talk_wow: "Vay!", talk_clap: "Alkış", talk_laugh: "Kahkaha", talk_think: "Düşünüyor", talk_heart: "Kalp",
    err_talk_rate: "Çok fazla mesaj: biraz bekle.",
    err_talk_private_only: "Serbest metin yalnızca özel masalarda: bir söz seç.",
    err_bad_text: "Bir mesaj 1 ile 140 karakter arasıdır, denetim karakteri içermez.",
    // «Çevrimiçi oyna» (docs/web.md).
    play_online: "Çevrimiçi oyna", play_online_sub: "Şu an bekleyenlerle oyna",
    pool_xeri_2: "Klasik · 2 oyuncu", pool_xeri_4: "Klasik · eşli 4 oyuncu",
    pool_pisti_2: "Pişti · 2 oyuncu", pool_pisti_4: "Pişti · eşli 4 oyuncu", casual: "Dereceli olmayan",
    pool_waiting: "bekleyen: {n}", online_name: "Masadaki adınız",
    pairing_looking: "Oyuncu aranıyor…", pairing_players: "Şu an bekleyen: {n}",
    pairing_typical: "Olağan bekleme: {s} sn", pairing_waited: "{s} sn'dir bekliyorsun",
    pairing_cancel: "Vazgeç", pairing_nobody: "Henüz kimse gelmedi.",
    pairing_computer: "Şimdi bilgisayara karşı oyna",
    err_no_such_seek: "Bekleme sona erdi: yeniden «Çevrimiçi oyna»ya bas.",
    open_challenges: "Açık meydan okumalar", no_challenges: "Şu an bekleyen yok: ilk olmak için bir oyun seç.",
    challenge_accept_label: "{name} oyuncusunun meydan okumasını kabul et", challenge_waited: "{s} sn'dir bekliyor",
    challenge_rated_guest: "Dereceli bir meydan okumayı kabul etmek için giriş yap.",
    lobby_online_one: "{n} oyuncu çevrimiçi", lobby_online_other: "{n} oyuncu çevrimiçi",
    lobby_playing_one: "{n} masada oyun sürüyor", lobby_playing_other: "{n} masada oyun sürüyor",
  },
};

// Score-line labels come from the server in English ("most cards (34)", "xeri x2"); a row is
// keyed by the label without its count, and these translate the keys.
/** @type {Record<string, string>} */
const SCORE_LABELS_EL = {
  Aces: "Άσσοι", Kings: "Ρηγάδες", Queens: "Ντάμες", Jacks: "Βαλέδες", Tens: "Δεκάρια",
  "good 10 (10♦)": "καλό 10 (10♦)", "good 2 (2♣)": "καλό 2 (2♣)", "most cards": "Περισσότερα φύλλα",
  xeri: "Ξερές", "Jack xeri": "Ξερές με βαλέ",
};
/** @type {Record<string, string>} */
const SCORE_LABELS_EN = { xeri: "Xeris", "Jack xeri": "Jack xeris", "most cards": "Most cards" };
/** @type {Record<string, string>} */
const SCORE_LABELS_TR = {
  Aces: "Aslar", Kings: "Papazlar", Queens: "Kızlar", Jacks: "Valeler", Tens: "Onlular",
  "good 10 (10♦)": "karo onlusu (10♦)", "good 2 (2♣)": "sinek ikilisi (2♣)", "most cards": "Kâğıt çoğunluğu",
  xeri: "Piştiler", "Jack xeri": "Vale piştileri",
};
/** @type {Record<string, Record<string, string>>} */
const SCORE_LABELS = { en: SCORE_LABELS_EN, el: SCORE_LABELS_EL, tr: SCORE_LABELS_TR };

/** The fixed order of the breakdown's rows; keys not listed follow in the server's order. */
export const SCORE_ORDER = [
  "most cards", "Aces", "Kings", "Queens", "Jacks", "Tens", "good 10 (10♦)", "good 2 (2♣)", "10♦", "2♣", "2♠",
  "xeri", "Jack xeri",
];

/**
 * A score line's row key and its count: "xeri x2" -> ["xeri", "×2"], "most cards (34)" -> ["most cards", "34"].
 * @param {string} label
 * @returns {[string, string]}
 */
export function splitScoreLabel(label) {
  let m = /^(.*) x(\d+)$/.exec(label);
  if (m) return [m[1], `×${m[2]}`];
  m = /^(.*) \((\d+)\)$/.exec(label);
  if (m) return [m[1], m[2]];
  return [label, ""];
}

export const LANGUAGES = ["el", "en", "tr"];
let current = "en";

/**
 * The saved language if there is one, else the browser's first that the page speaks, else English.
 * @param {string | null | undefined} saved
 * @param {readonly string[]} navigatorLanguages
 * @returns {string}
 */
export function detectLanguage(saved, navigatorLanguages) {
  if (saved && LANGUAGES.includes(saved)) return saved;
  for (const lang of navigatorLanguages || []) {
    const base = String(lang).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

/** @param {string} lang */
export function setLanguage(lang) {
  current = LANGUAGES.includes(lang) ? lang : "en";
  document.documentElement.lang = current;
  document.title = STRINGS[current].title;
}

/** @returns {string} */
export function language() {
  return current;
}

/** @type {Map<string, Intl.PluralRules>} */
const pluralRules = new Map();

/**
 * The form of a counted string for `count` in the page's language: `key_one`, `key_other` (or `key_few`, ... where
 * a language has them), as Intl.PluralRules names the count's category; `key_other` where the language has no
 * string of that category; `key` itself when it has no forms.
 * @param {string} key
 * @param {number} count
 * @returns {string}
 */
function pluralKey(key, count) {
  if (!(`${key}_other` in STRINGS.en)) return key;
  let rules = pluralRules.get(current);
  if (!rules) pluralRules.set(current, (rules = new Intl.PluralRules(locale())));
  const form = `${key}_${rules.select(count)}`;
  return form in STRINGS[current] ? form : `${key}_other`;
}

/**
 * The string `key` in the page's language (else English, else the key), with its {placeholders} filled. A counted
 * string (one with `key_one` and `key_other` forms) takes the form of its `n`.
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  if (typeof params.n === "number") key = pluralKey(key, params.n);
  const text = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in params ? String(params[k]) : `{${k}}`));
}

/**
 * A counted string whose count is not its {n} (eff_discard's {unseen}, log_take_hidden's {hidden}): the form of
 * `count`.
 * @param {string} key
 * @param {number} count
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
export function tn(key, count, params = {}) {
  return t(pluralKey(key, count), params);
}

/**
 * Names joined as a person says them: "Maria and Nikos", "Ada, Maria and Nikos".
 * @param {string[]} names
 * @returns {string}
 */
export function joinNames(names) {
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")} ${t("and")} ${names[names.length - 1]}`;
}

/**
 * Every string of one language (the tests read them: every language has every key, no "/" constructions).
 * @param {string} lang
 * @returns {Record<string, string>}
 */
export function strings(lang) {
  return { ...(STRINGS[lang] || {}) };
}

/**
 * The locale the page writes dates in.
 * @returns {string}
 */
export function locale() {
  return { el: "el-GR", tr: "tr-TR" }[current] || "en-GB";
}

/**
 * "1 card" / "5 cards", "1 φύλλο" / "5 φύλλα".
 * @param {number} n
 * @returns {string}
 */
export function cardsCount(n) {
  return t("n_cards", { n });
}

/**
 * A hint's reason from its code and parameters (xeri.bots.hint); the English sentence only as a last resort.
 * @param {import("../net/types.js").Hint | null} hint
 * @param {(code: string) => string} [cardLabel]
 * @returns {string}
 */
export function hintReason(hint, cardLabel = (c) => c) {
  if (!hint) return "";
  if (hint.code && `hint_${hint.code}` in STRINGS.en) {
    /** @type {Record<string, string | number>} */
    const params = {};
    for (const [k, v] of Object.entries(hint.params || {})) {
      params[k] = k === "card" || k === "top" ? cardLabel(String(v)) : v;
    }
    // A count of cards is said with its noun, in the count's plural form: "1 card", "2 φύλλα".
    if (typeof params.count === "number") params.cards = cardsCount(params.count);
    return t(`hint_${hint.code}`, params);
  }
  return typeof hint.reason === "string" ? hint.reason : "";
}

// Preset names: proper names in English, said in the page's language on the Greek and Turkish pages.
/** @type {Record<string, Record<string, string>>} */
const RULESET_NAMES = {
  el: {
    classic: "κλασική", "classic-points": "κλασική με πόντους", cardgames: "διαδικτυακή", berman: "Μπέρμαν",
    pisti: "πιστί",
  },
  tr: {
    classic: "klasik", "classic-points": "puanlı klasik", cardgames: "çevrimiçi", berman: "Berman", pisti: "pişti",
  },
};

/**
 * @param {string} name
 * @returns {string}
 */
export function rulesetName(name) {
  return (RULESET_NAMES[current] && RULESET_NAMES[current][name]) || name;
}

/**
 * A computer seat's name, the one the table, the lobby, the history and the replay all use (issue 41: the table said
 * "Computer 2" where the history said "Computer (medium)"): "Computer 2 (medium)", numbered by seat. Without a level
 * it is "Computer 2", for the board, which says the level under the name; `short` is "CPU 2" for a small score bar.
 * A null seat is the kind of opponent across matches ("Computer (medium)"), for a win rate by opponent.
 * @param {number | null} seat the seat's index (0 is "Computer 1")
 * @param {string | null} [level] the level's key ("medium"), worded in the page's language
 * @param {boolean} [short]
 * @returns {string}
 */
export function botName(seat, level = null, short = false) {
  const lvl = level ? t(level) : "";
  if (seat == null) return t("bot_kind", { level: lvl });
  if (short) return t("bot_seat_short", { n: seat + 1 });
  return level ? t("bot_name", { n: seat + 1, level: lvl }) : t("bot_seat", { n: seat + 1 });
}

/**
 * A newcomer's name when the name field is left empty (issue 41: it was "Player" for everyone): "Guest 4821", the
 * number drawn from this browser's key (prefs.js browserKey), so one browser keeps its name and two newcomers at a
 * table are told apart.
 * @param {string} key hex digits
 * @returns {string}
 */
export function guestName(key) {
  return t("guest_name", { n: 1000 + ((parseInt(key.slice(0, 8), 16) || 0) % 9000) });
}

/** A seat's shown name: a server bot by its seat and level (botName), else the player's name. */
/**
 * @param {import("../net/types.js").Seat | null | undefined} seat
 * @param {string} [fallback]
 * @returns {string}
 */
export function seatName(seat, fallback = "") {
  if (seat && seat.human === false && seat.bot) return botName(seat.seat, seat.bot);
  return (seat && seat.name) || fallback;
}

/** A server error in the player's language when it is a known one; else the server's own message (English page). */
/**
 * @param {string} code
 * @param {string} [message]
 * @returns {string}
 */
export function errorText(code, message) {
  const key = `err_${code}`;
  if (key in STRINGS[current]) return STRINGS[current][key];
  return current === "en" ? message || code : t("err_http_error");
}

/**
 * "1 xeri" / "3 xeris".
 * @param {number} n
 * @returns {string}
 */
export function xerisCount(n) {
  return t("n_xeris", { n });
}

/**
 * @param {number} n
 * @returns {string}
 */
export function roundsCount(n) {
  return t("rounds_of", { n });
}

/**
 * A score row's name in the page's language.
 * @param {string} key
 * @returns {string}
 */
export function scoreLabel(key) {
  return SCORE_LABELS[current][key] ?? key;
}

/**
 * Fill every [data-i18n] element under root with its translated text.
 * @param {ParentNode} root
 */
export function translateTree(root) {
  /** @param {string} selector */
  const all = (selector) => /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(selector));
  for (const node of all("[data-i18n]")) node.textContent = t(node.dataset.i18n || "");
  for (const node of all("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle || "");
  for (const node of all("[data-i18n-placeholder]")) {
    node.setAttribute("placeholder", t(node.dataset.i18nPlaceholder || ""));
  }
  for (const node of all("[data-i18n-aria]")) node.setAttribute("aria-label", t(node.dataset.i18nAria || ""));
}

/**
 * Strings of a part of the page loaded when first needed (ratingstrings.js), merged into each language's table, so
 * that the first visit does not carry them.
 * @param {Record<string, Record<string, string>>} more by language
 */
export function addStrings(more) {
  for (const lang of LANGUAGES) Object.assign(STRINGS[lang], more[lang]);
}

/**
 * How a table's match ends: "to 151", "5 rounds".
 * @param {import("../net/types.js").Ruleset | null} rs
 * @returns {string}
 */
export function rulesetText(rs) {
  if (!rs) return "";
  return rs.match_end === "target" ? t("target_is", { target: rs.target }) : roundsCount(rs.rounds);
}

/**
 * A table's name as people read it: its own title, else its host's ("Ada's table"), never its id (issue 41).
 * @param {import("../net/types.js").Table} table
 * @returns {string}
 */
export function tableName(table) {
  const host = table.seats.find((s) => s.taken && s.human && s.name);
  return (table.title || "").trim() || (host ? t("table_of", { name: host.name }) : t("table"));
}

/**
 * Who invites to a table, and to what: "Ada invites you to play: Classic, to 51, 2 players." (the join page).
 * @param {import("../net/types.js").Table} table
 * @returns {string}
 */
export function invitation(table) {
  const host = table.seats.find((s) => s.taken && s.human && s.name);
  const rs = table.ruleset;
  const rules = [rs ? rulesetName(rs.name) : null, rulesetText(rs), t("n_players", { n: table.players })]
    .filter(Boolean).join(", ");
  return host ? t("invited_by", { name: host.name || "", rules }) : t("invited_to", { rules });
}

/**
 * An open table's title as people read it: its name, with the rules and the players.
 * @param {import("../net/types.js").Table} table
 * @returns {string}
 */
export function tableTitle(table) {
  const rs = table.ruleset;
  return [tableName(table), rs ? rulesetName(rs.name) : null, t("n_players", { n: table.players })]
    .filter(Boolean).join(" · ");
}
