"""Refactors: rename, move and duplicate a note without breaking a link to it (``planner``:
what each link becomes; ``preview``: the content-free plan and its digest; ``capability``:
preview, apply under the write lease, recovery). See ``docs/reference/refactors.md``."""
