"""Queue destinations: credentials, AWS delegated grants, setup artifacts and verify."""
