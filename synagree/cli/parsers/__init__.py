"""The parser part of each command: ``register(parser)`` declares its options.

One module per command (named as its run part under `synagree.cli`, see
`synagree.cli.main.COMMANDS`).  A parser part imports only
`synagree.base.option_specs`, the shared option groups of `synagree.cli` and
other light modules, never numpy or a module that computes: ``synagree CMD
--help`` and the parsing of the options load nothing else, and the run part is
imported once the options are parsed (issue 36; tests/test_cli_help.py).
"""
