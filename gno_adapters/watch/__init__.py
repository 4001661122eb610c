"""File-change feeds for live indexing: ``WatchfilesFeed`` (OS file events through watchfiles,
periodic scan where they are unavailable) and ``ManualFeed`` (batches pushed by hand)."""
