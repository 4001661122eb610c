"""File-system adapters: the source tree walker and the YAML frontmatter parser."""
