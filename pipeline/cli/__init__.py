"""Command line of the page-state engine (``python -m pipeline``) and what every stage's CLI shares.
"""
