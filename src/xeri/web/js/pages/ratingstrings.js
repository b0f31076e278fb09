// @ts-check
// The ratings' strings (docs/ratings.md): the profile's ratings and chart, the leaderboards, a rated match's change.
// Greek, English and Turkish like i18n.js, loaded with the views that use them, so the first visit does not carry
// them (tests/web/test_web_static.py checks every language has every key here too).

import { addStrings } from "../lib/i18n.js";

addStrings({
  en: {
    ratings: "Ratings", format_classic_2p: "Classic, 2 players", format_classic_4p: "Classic, 4 in partnerships",
    rated_matches: "Rated matches", rating: "Rating", deviation: "Deviation", no_ratings: "No rated matches yet.",
    chart_label: "Rating in {format}, match by match: first {first}, last {last}",
    chart_points: "The rating after each rated match", match_no: "Match", result: "Result", result_won: "won",
    result_lost: "lost", leaderboard: "Leaderboard", rank: "Rank",
    leaderboard_rule_one: "Players with at least {games} rated match in this format and a deviation of at most "
      + "±{deviation}, the highest rating first.",
    leaderboard_rule_other: "Players with at least {games} rated matches in this format and a deviation of at most "
      + "±{deviation}, the highest rating first.",
    leaderboard_empty: "Nobody is on this leaderboard yet.", rating_change: "Your rating: {before} → {after}",
    err_no_such_format: "There is no such leaderboard.",
  },
  el: {
    ratings: "Βαθμολογίες", format_classic_2p: "Κλασική, 2 παίκτες", format_classic_4p: "Κλασική, 4 σε ζευγάρια",
    rated_matches: "Παρτίδες με βαθμολογία", rating: "Βαθμολογία", deviation: "Απόκλιση",
    no_ratings: "Καμία παρτίδα με βαθμολογία ακόμη.",
    chart_label: "Βαθμολογία στην κατηγορία «{format}», παρτίδα με παρτίδα: πρώτη {first}, τελευταία {last}",
    chart_points: "Η βαθμολογία μετά από κάθε παρτίδα με βαθμολογία", match_no: "Παρτίδα", result: "Αποτέλεσμα",
    result_won: "νίκη", result_lost: "ήττα", leaderboard: "Κατάταξη", rank: "Θέση",
    leaderboard_rule_one: "Παίκτες με τουλάχιστον {games} παρτίδα με βαθμολογία σε αυτή την κατηγορία και απόκλιση "
      + "έως ±{deviation}, με την υψηλότερη βαθμολογία πρώτη.",
    leaderboard_rule_other: "Παίκτες με τουλάχιστον {games} παρτίδες με βαθμολογία σε αυτή την κατηγορία και "
      + "απόκλιση έως ±{deviation}, με την υψηλότερη βαθμολογία πρώτη.",
    leaderboard_empty: "Κανείς δεν είναι ακόμη σε αυτή την κατάταξη.",
    rating_change: "Η βαθμολογία σου: {before} → {after}", err_no_such_format: "Δεν υπάρχει τέτοια κατάταξη.",
  },
  tr: {
    ratings: "Dereceler", format_classic_2p: "Klasik, 2 oyuncu", format_classic_4p: "Klasik, eşli 4 oyuncu",
    rated_matches: "Dereceli oyunlar", rating: "Derece", deviation: "Sapma", no_ratings: "Henüz dereceli oyun yok.",
    chart_label: "{format} derecesi, oyun oyun: ilk {first}, son {last}",
    chart_points: "Her dereceli oyundan sonraki derece", match_no: "Oyun", result: "Sonuç", result_won: "galibiyet",
    result_lost: "mağlubiyet", leaderboard: "Sıralama", rank: "Sıra",
    leaderboard_rule_one: "Bu türde en az {games} dereceli oyunu ve en çok ±{deviation} sapması olan oyuncular; "
      + "derecesi en yüksek olan başta.",
    leaderboard_rule_other: "Bu türde en az {games} dereceli oyunu ve en çok ±{deviation} sapması olan oyuncular; "
      + "derecesi en yüksek olan başta.",
    leaderboard_empty: "Bu sıralamada henüz kimse yok.", rating_change: "Derecen: {before} → {after}",
    err_no_such_format: "Böyle bir sıralama yok.",
  },
});
