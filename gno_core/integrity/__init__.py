"""The integrity room: what depends on a document (``impact.py``) and whether the knowledge
base is sound (the audit, ``audit/``)."""
