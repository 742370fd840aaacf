"""The page report (``python -m pipeline report``): the bundled page set and how compact each
rendering of it is.
"""
