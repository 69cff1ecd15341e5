"""Exact distributions, their JSON form and the absorbing chains of whole encounters; no Flask."""
