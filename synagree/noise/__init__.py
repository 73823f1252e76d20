"""synagree.noise."""
