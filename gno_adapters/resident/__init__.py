"""The resident server process (``gno serve`` / ``gno daemon``), above the adapter sets it serves:

- ``pidfile``: the pid file (one parser) and ``PidFileResidentProbe``, the ``ResidentProbe``
  the local adapter set wires (so ``bootstrap`` imports only this module of the package);
- ``lifecycle``: one owner per data directory (the lock), detach, status, stop;
- ``gateway``: the foreground gateway over a facade factory, with the live-indexing thread.

Nothing here imports ``gno_adapters.bootstrap``: the CLI hands ``gateway.run_foreground`` the
facade factory (``open_gno``), so the wiring stays below the process that runs it.
"""
