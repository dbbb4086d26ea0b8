"""formats package."""
