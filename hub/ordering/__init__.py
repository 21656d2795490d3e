"""An ordered subscription's blocked keys (N77): the operator's list and resume (retry or skip the head)."""
