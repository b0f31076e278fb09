"""Gymnasium, PettingZoo and OpenSpiel (golden playthroughs in playthroughs/)."""
