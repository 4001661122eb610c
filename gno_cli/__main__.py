"""``python -m gno_cli``: the same entry point as the ``gno`` console script (what installed MCP
client entries run, with this interpreter)."""

import sys

from gno_cli.main import main

sys.exit(main())
