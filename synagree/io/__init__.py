"""synagree.io."""
