"""`python -m attn_tui` runs the same front door as the `attn-tui` script."""

from attn_tui.cli import main

raise SystemExit(main())
