"""First-class fakes: plain-Python adapters implementing the ports, for tests and examples."""
