"""Exact analysis of one position: the frontier split into independent components
(``frontier``), interchangeable counting engines (``backends``), the exact combination under
the total mine count (``combine``), and the stages that join them (``analyze``)."""
