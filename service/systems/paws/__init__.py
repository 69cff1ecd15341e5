"""Paws: trait pools of d6, successes on 4-6, bonus and rescue dice (rules file 001)."""
