"""A module with a star import."""

from math import *
from math import floor


def hypotenuse(a, b):
    """The hypotenuse of a right triangle with sides a and b."""
    return sqrt(a * a + b * b)


def rounded_down(x):
    """Round a number down to the integer below it."""
    return floor(x)
