"""Test-Time RAG: router, pre-filter, conditional embeddings, query rewriting, generation (DESIGN §1)."""
