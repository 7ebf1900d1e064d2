"""Private, on-device email and document assistant built on Test-Time RAG."""
