"""A module that does not parse."""


def fine_before(x):
    """This one would be fine."""
    return x


def oops(:
    return 1
