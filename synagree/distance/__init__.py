"""synagree.distance."""
