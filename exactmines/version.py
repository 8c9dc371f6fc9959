"""The package version, in a module of its own so that any layer can read it without importing
the public API."""

__version__ = "0.2.0"
