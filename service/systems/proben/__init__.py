"""Proben: attribute pools of d6, successes on 5-6 (rules file 003)."""
