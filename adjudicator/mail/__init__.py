"""Mail: sealed turn files in from a mailbox (``ingest``), reports out (``outbox``)."""
