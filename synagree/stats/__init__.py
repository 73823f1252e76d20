"""synagree.stats."""
