"""Cheaper dedicated methods for the router's non-default categories (needle lookup, counting, summary)."""
