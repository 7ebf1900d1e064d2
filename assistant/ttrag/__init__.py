"""Test-Time RAG: router, pre-filter, conditional embeddings, query rewriting, generation (docs/design.md §2)."""
