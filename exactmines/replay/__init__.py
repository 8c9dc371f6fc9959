"""Recorded games judged click by click: the position before each click that opened cells,
analysed exactly (:mod:`.judge`), its JSON (:mod:`.serialize`), and many replay files on
local processes or a Dask cluster (:mod:`.file_batch`)."""
