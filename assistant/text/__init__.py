"""Pure text helpers that several layers share (mail, TTRAG); they import nothing from those layers."""
