"""MCP client configs: the ten clients ``gno mcp install`` knows (``targets``), in-place editing
of their JSON/JSONC, TOML and YAML files (``jsonc``, ``formats``), and planned, atomic changes
(``installer``)."""
