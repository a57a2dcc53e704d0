"""Helpers every layer uses: atomic file writes (``fileio``) and the package's resource folders (``resources``)."""
