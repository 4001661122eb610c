"""The egress capability (issue 26) over the stores: each collection's policy (get, set with
the relaxation confirmation, check), the one decide-and-record call every place where content
leaves the process uses (``EgressControl.authorize``), and the receipts' management. The rules
themselves are the pure ``gno_core.egress``."""
