"""Seals: the players' keys (``keys``) and the SSH signatures that seal a turn file (``sshsig``)."""
