"""A small package the build-from-code tests slice (tests/test_fromcode_discover.py)."""

from .units import to_metres
