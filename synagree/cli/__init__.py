"""synagree.cli.main."""
