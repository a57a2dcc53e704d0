"""Seals: the players' keys (``keys``) and sealing a turn file (``seal``) with an SSH signature (``sshsig``, the format)."""
