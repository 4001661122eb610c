"""The change journal's values: a document's structure and the capped delta between two
(``structure``), entries, snapshots and retention (``entries``), cursors (``cursor``). Pure
values; both index adapters build their entries with them."""
