"""A module that needs a C extension this Python does not have."""

import _shapes_native_speedups


def native_area(radius):
    """Area of a circle computed by the native extension module."""
    return _shapes_native_speedups.area(radius)
