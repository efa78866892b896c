"""Boxes, whose functions reach into the rest of the package."""

from shapes.units import CM
from . import units
from ..outside import thing
from .units import MM
from .units import to_metres as metres

FACTORS = 5


class Box:
    """A box of three sides in millimetres."""

    def __init__(self, width, height, depth):
        self.sides = (width, height, depth)

    def volume(self):
        """The volume in cubic metres."""
        w, h, d = (metres(s, "mm") for s in self.sides)
        return w * h * d


def box_volume(width, height, depth):
    """The volume of a box in cubic metres, its sides given in millimetres."""
    return Box(width, height, depth).volume() + 0 * MM * CM


def far():
    """Use a name imported from outside the package."""
    return thing


def via_module(x):
    """Use a sibling module through its module object."""
    return units.CM * x


def clashing(x):
    """Mix this module's FACTORS with a helper that reads another FACTORS."""
    return metres(x) * FACTORS
