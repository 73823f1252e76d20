"""synagree.base."""
