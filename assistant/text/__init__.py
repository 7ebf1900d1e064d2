"""Pure text helpers shared by the mail, document and TTRAG layers (no I/O, no imports from them)."""
