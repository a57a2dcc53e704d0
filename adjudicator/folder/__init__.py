"""The game folder and batch runs: intake of sealed files, the log, adjudication, receipts, audit and replay."""
