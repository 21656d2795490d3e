"""The operational dashboard: a snapshot of the tenant's hub and the subscriptions needing attention."""
