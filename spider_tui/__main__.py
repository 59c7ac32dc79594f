"""python -m spider_tui -> cli.main()."""

from spider_tui.cli import main

raise SystemExit(main())
