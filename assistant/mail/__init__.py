"""Email: IMAP access (imap.py, the only IMAP I/O), sync and cache, parsing, reply drafts."""
