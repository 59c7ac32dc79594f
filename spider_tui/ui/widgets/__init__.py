"""The widgets: the table's columns and chips (``table``), the dialogs drawn over it
(``overlay``, ``dialogs``, ``peek``)."""

from spider_tui.ui.widgets.table import Chip, Column, Tableau

__all__ = ["Chip", "Column", "Tableau"]
