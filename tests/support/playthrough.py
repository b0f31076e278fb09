"""Playthrough text of the OpenSpiel game: every seat's strings at every step of a seeded round.

``python tests/support/playthrough.py`` rewrites the golden files under
``tests/integrations/playthroughs/``; ``tests/integrations/test_integrations_openspiel.py`` compares.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "integrations" / "playthroughs"
CASES = {"xeri_classic_2p.txt": ("classic", 2, 7), "xeri_cardgames_4p.txt": ("cardgames", 4, 3),
         "xeri_pisti_2p.txt": ("pisti", 2, 5)}
#: steps whose every per-seat string is written out (the rest are summarised by the action)
FULL_STEPS = 8


def playthrough(ruleset: str, players: int, seed: int) -> str:
    import pyspiel

    import xeri.integrations.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_xeri", {"players": players, "ruleset": ruleset})
    state = game.new_initial_state()
    rng = random.Random(seed)
    out = [f"game: python_xeri(players={players},ruleset={ruleset}) seed {seed}"]
    step = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            action = rng.choice(outcomes)
            out.append(f"chance: {state.action_to_string(action)}")
        else:
            player = state.current_player()
            if step < FULL_STEPS:
                out.append(f"\n=== step {step}, seat {player} to play ===")
                for seat in range(players):
                    out.append(f"--- observation_string({seat})\n{state.observation_string(seat)}")
                    out.append(f"--- information_state_string({seat})\n{state.information_state_string(seat)}")
                    tensor = state.observation_tensor(seat)
                    out.append(f"--- observation_tensor({seat}) nonzero: "
                               + " ".join(f"{i}:{v:g}" for i, v in enumerate(tensor) if v))
            action = rng.choice(state.legal_actions())
            out.append(f"seat {player}: {state.action_to_string(action)} (legal: {state.legal_actions()})")
            step += 1
        state.apply_action(action)
    out.append("\n=== terminal ===")
    for seat in range(players):
        out.append(f"--- information_state_string({seat})\n{state.information_state_string(seat)}")
    out.append(f"returns: {state.returns()}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    for name, case in CASES.items():
        (GOLDEN / name).write_text(playthrough(*case), encoding="utf-8")
        print(f"wrote {GOLDEN / name}", file=sys.stderr)
