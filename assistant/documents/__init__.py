"""Files to text with provenance (file, page, section, character offsets), and text to chunks."""

from assistant.documents.base import Extraction, PasswordPrompt, extract, read_many, supported_suffixes
from assistant.documents.limits import DEFAULT_LIMITS, Limits

__all__ = ["DEFAULT_LIMITS", "Extraction", "Limits", "PasswordPrompt", "extract", "read_many", "supported_suffixes"]
