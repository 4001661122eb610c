"""Links between documents: extraction at sync (``extract``), the names documents are linked by
(``names``), resolution with a stated confidence (``resolve``) and the reads (``reads``)."""
