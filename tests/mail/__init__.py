"""Mail fixtures for the mail tests, built by code (no binary blobs)."""
