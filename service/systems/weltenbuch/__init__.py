"""Weltenbuch: conflict scenes with even-die successes, narration, toughness (rules file 002)."""
