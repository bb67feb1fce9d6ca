"""authoring: every piece of authored content and its reviewed lifecycle."""
