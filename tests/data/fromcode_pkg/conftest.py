# The package and its tests are data for tests/test_fromcode_*.py, not tests of this project.
collect_ignore = ["shapes", "tests"]
