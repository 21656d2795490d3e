"""Dead-letter triage over HTTP (``/admin/consumer/dead-letters``): the REST form of seed 000's
``ManageDeadLetteredEvents`` stream, on the same session code (:mod:`hub.consumer.triage`; N76)."""
