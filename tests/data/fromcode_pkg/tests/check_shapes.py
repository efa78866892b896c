"""The package's own tests, named so pytest does not collect them: their calls are examples."""

import unittest

import shapes.units as u
from shapes import geometry
from shapes.units import circle_area, to_metres


class TestUnits(unittest.TestCase):
    def test_metres(self):
        self.assertEqual(to_metres(250), 2.5)
        self.assertEqual(u.to_metres(5, "mm"), 0.005)
        self.assertEqual(to_metres(-2.5, unit="km"), -2500.0)
        value = 3
        to_metres(value)

    def test_area(self):
        self.assertAlmostEqual(circle_area(-1.5), 7.065)
        self.assertAlmostEqual(circle_area(2, exact=True), 12.566, places=3)

    def test_box(self):
        self.assertEqual(geometry.box_volume(1000, 1000, 1000), 1.0)
        geometry.box_volume(*[1, 2, 3])
