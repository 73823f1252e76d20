"""synagree.render."""
