"""The Textual UI: renders a Table and sends it taps.  Imported only when the app starts."""
