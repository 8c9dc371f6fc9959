"""Reading and writing positions and boards: text and bytes codecs (``formats``), board links
(``urls``) and files on disk (``files``, the only place that opens paths)."""
