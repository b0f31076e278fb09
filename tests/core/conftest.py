"""The stdlib-only core: cards, rules, engine, events, scoring, match, record, notation, fairness, views."""
