"""Converters from PDF, DOCX, XLSX, PPTX, HTML and ODT to canonical Markdown (one module per
format), the registry of which takes which extension, and the sandbox the index process runs
them in (``sandbox.py``, ``worker.py``). Their libraries are the ``convert`` extra."""
