"""synagree.evaluation."""
