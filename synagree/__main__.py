from synagree.cli.main import console

raise SystemExit(console())
