"""On-policy data (``python -m datagen dagger``): the student plays live MiniWoB++ episodes, the
scripted oracle labels every state it reaches, and the labelled steps are written as Mind2Web
task files that ``datagen build`` verifies and turns into training conversations.

``config`` (``DaggerConfig``), ``episode`` (one episode: observe, label, student step, execute),
``run`` (the resumable run over tasks x seeds).
"""

from datagen.dagger.config import DaggerConfig
from datagen.dagger.run import run_dagger

__all__ = ["DaggerConfig", "run_dagger"]
