"""The rules every ``SourceTree`` adapter applies alike: which files a collection selects
(``patterns``) and which folders are never read (``key_stores``). Pure values and functions."""
