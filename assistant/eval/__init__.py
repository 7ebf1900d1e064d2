"""Evaluation: long-context tasks built from real QA data, baselines and metrics (used by benchmarks/)."""
