"""The turn-file language: header, names, the parser (text to typed commands) and the printer (back)."""
