"""Helpers every layer uses: atomic file writes (``fileio``), the package's resource folders (``resources``) and TOML
read within bounds (``tomltext``)."""
