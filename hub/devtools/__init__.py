"""Developer tools: ``hub send`` (produce CloudEvents) and ``hub listen`` (a signature-checking receiver)."""
