"""Evidence for agents: Context Capsules (compile, verify, project), durable section targets,
query diagnosis and verified Ask, over the retrieval and document ports (see
``docs/explanation/context-capsules.md``). ``capability.Evidence`` is what the facade
delegates to."""
