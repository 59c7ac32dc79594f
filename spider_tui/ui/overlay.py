"""Moved to ``spider_tui.ui.widgets.overlay``; this old path re-exports its names while branches that
import it are merged (issue 13), then goes."""

from spider_tui.ui.widgets.overlay import *  # noqa: F403
