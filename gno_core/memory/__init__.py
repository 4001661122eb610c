"""Agent memory: one fact per Markdown file, superseded facts kept but never recalled, recall
under a budget with a receipt that fences replays.

The pure parts live here (records and their files, matching, receipts and fencing, the recall
budget); the use cases that write files and query the index build on them.
"""
