"""The old name of time_slicing.py, kept only for the imports of beutelschneider's encounter.py,
groups.py and sweep.py and malmsturm's encounter.py, which another branch is rewriting: once it is
merged, those four imports name time_slicing and this module goes."""

from service.platform.maths.time_slicing import cooperate

__all__ = ["cooperate"]
