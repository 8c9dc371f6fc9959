"""Reading and writing positions and boards: text and bytes codecs (``formats``), board links
(``urls``), the table of every format with its suffix, reader, writer and limits
(``registry``), and files on disk (``files``, the only place that opens paths)."""
