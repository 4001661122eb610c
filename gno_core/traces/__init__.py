"""Retrieval traces: private receipts of what was searched and opened, the person's judgments
on them, exports and replay. ``values`` (the records, on the domain floor) and ``capability``
(the use cases over the ``TraceStore`` port)."""
