"""Beutelschneider: a marble-bag RPG; bags of red, green, blue, white and black marbles (rules file 000)."""
