"""Generator adapters for Ask: the built-in extractive generator (no model, the offline
default) and an OpenAI-compatible chat client the user configures."""
