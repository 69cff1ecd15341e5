"""Malmsturm: FATE/FUDGE with four dF read on the ladder (rules file 004)."""
