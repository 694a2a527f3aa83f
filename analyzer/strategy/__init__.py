"""Bidding and playing strategies: named strategies as the kernels' policy ids and parameter
rows, and the analyzer strategy's tables."""
