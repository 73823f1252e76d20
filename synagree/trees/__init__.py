"""synagree.trees.flat."""
