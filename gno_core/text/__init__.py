"""Text processing without I/O: canonical Markdown, chunking, language hints, CJK segmentation."""
