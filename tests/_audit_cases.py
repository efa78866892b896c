"""A canonical with a weak and a strong suite, shared by the audit's engine and GUI tests."""

CLAMP = ("def clamp(x, lo, hi):\n"
         "    if x < lo:\n"
         "        return lo\n"
         "    if x > hi:\n"
         "        return hi\n"
         "    return x\n")
# weak: never tests the boundaries nor the lower guard; test 3 repeats test 1
WEAK = ("assert clamp(5, 0, 10) == 5", "assert clamp(50, 0, 10) == 10",
        "assert clamp(6, 0, 10) == 6")
STRONG = ("assert clamp(5, 0, 10) == 5", "assert clamp(50, 0, 10) == 10",
          "assert clamp(-5, 0, 10) == 0", "assert clamp(0, 0, 10) == 0",
          "assert clamp(10, 0, 10) == 10", "assert clamp(0, 1, 10) == 1",
          "assert clamp(11, 0, 10) == 10")
