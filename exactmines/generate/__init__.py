"""Instances with their ground truth: random positions and certified no-guess boards
(``positions``) and NP-hard positions compiled from SAT formulas (``hardness``)."""
