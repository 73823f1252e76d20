from synagree.cli.main import main

raise SystemExit(main())
