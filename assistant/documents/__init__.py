"""Files to text with provenance (file, page, section, character offsets), and text to chunks."""

from assistant.documents.base import extract, supported_suffixes

__all__ = ["extract", "supported_suffixes"]
