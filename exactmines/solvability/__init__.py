"""Can a board be cleared from its first click by deduction alone? The check of one board
(``check``) and the share of random boards that pass it (``survey``)."""
