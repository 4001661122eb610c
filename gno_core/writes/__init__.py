"""The writes capability: capture (planning a note's path, content and frontmatter, then
writing and syncing it under the write lease) and the collection and folder changes that agents
make through the write tools."""
