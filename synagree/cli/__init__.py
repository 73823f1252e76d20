"""synagree.cli.main."""
from synagree.cli.signals import guard_startup

# the command's Ctrl-C / SIGTERM handling, before any heavy module loads (cli.signals)
guard_startup()
