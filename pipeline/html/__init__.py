"""Readers that turn HTML text into PageState node tables (see ``pipeline.html.source``).

``builder`` appends nodes with frame/shadow bookkeeping, ``lxml_reader`` reads ordinary HTML,
``mind2web_reader`` reads Mind2Web ``raw_html``/``cleaned_html`` with an exact (non-fixing)
tokenizer, and ``mind2web_format`` holds the Mind2Web naming conventions shared with the writer
in ``pipeline.html.mind2web_writer``.
"""
