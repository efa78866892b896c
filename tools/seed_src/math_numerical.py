"""Hand-written seed tasks for the math-numerical domain."""

DOMAIN = "math-numerical"

TASKS = [
    {
        "query": "Compute the digital root of a non-negative integer by repeatedly summing its decimal digits until a single digit remains (0 stays 0). Raise ValueError for a negative input.",
        "function_name": "repeated_digit_sum_root",
        "canonical": '''def repeated_digit_sum_root(n):
    if n < 0:
        raise ValueError("n must be non-negative")
    while n >= 10:
        total = 0
        while n > 0:
            total += n % 10
            n //= 10
        n = total
    return n
''',
        "test_suite": [
            "assert repeated_digit_sum_root(0) == 0",
            "assert repeated_digit_sum_root(9) == 9",
            "assert repeated_digit_sum_root(10) == 1",
            "assert repeated_digit_sum_root(19) == 1",
            "assert repeated_digit_sum_root(38) == 2",
            "assert repeated_digit_sum_root(12345) == 6",
            "assert repeated_digit_sum_root(999999999999) == 9",
            "with pytest.raises(ValueError):\n    repeated_digit_sum_root(-1)",
        ],
    },
    {
        "query": "Return the greatest common divisor of a list of integers using Euclid's algorithm, ignoring signs. An empty list or a list of zeros gives 0.",
        "function_name": "gcd_of_integer_list",
        "canonical": '''def gcd_of_integer_list(values):
    result = 0
    for value in values:
        a, b = abs(result), abs(value)
        while b != 0:
            a, b = b, a % b
        result = a
        if result == 1:
            return 1
    return result
''',
        "test_suite": [
            "assert gcd_of_integer_list([12, 18, 24]) == 6",
            "assert gcd_of_integer_list([]) == 0",
            "assert gcd_of_integer_list([7]) == 7",
            "assert gcd_of_integer_list([-4, 6]) == 2",
            "assert gcd_of_integer_list([0, 0]) == 0",
            "assert gcd_of_integer_list([0, 5]) == 5",
            "assert gcd_of_integer_list([17, 34, 5]) == 1",
            "assert gcd_of_integer_list([100, 75, 50]) == 25",
            "assert gcd_of_integer_list([3, 5, 9]) == 1",
        ],
    },
    {
        "query": "Return the floor of the square root of a non-negative integer using integer binary search (no floating point), so 15 gives 3 and 16 gives 4. Raise ValueError for a negative input.",
        "function_name": "integer_sqrt_floor",
        "canonical": '''def integer_sqrt_floor(n):
    if n < 0:
        raise ValueError("negative input")
    if n < 2:
        return n
    lo, hi = 1, n // 2
    while lo <= hi:
        mid = (lo + hi) // 2
        if mid * mid <= n:
            lo = mid + 1
        else:
            hi = mid - 1
    return hi
''',
        "test_suite": [
            "assert integer_sqrt_floor(0) == 0",
            "assert integer_sqrt_floor(1) == 1",
            "assert integer_sqrt_floor(2) == 1",
            "assert integer_sqrt_floor(4) == 2",
            "assert integer_sqrt_floor(15) == 3",
            "assert integer_sqrt_floor(16) == 4",
            "assert integer_sqrt_floor(17) == 4",
            "assert integer_sqrt_floor(10 ** 12) == 10 ** 6",
            "assert integer_sqrt_floor(10 ** 12 - 1) == 999999",
            "with pytest.raises(ValueError):\n    integer_sqrt_floor(-1)",
        ],
    },
    {
        "query": "Return the prime factorization of an integer as an ascending list of primes repeated by multiplicity (360 gives [2, 2, 2, 3, 3, 5]). Integers below 2 give an empty list.",
        "function_name": "prime_factors_with_multiplicity",
        "canonical": '''def prime_factors_with_multiplicity(n):
    if n < 2:
        return []
    factors = []
    divisor = 2
    while divisor * divisor <= n:
        while n % divisor == 0:
            factors.append(divisor)
            n //= divisor
        divisor += 1
    if n > 1:
        factors.append(n)
    return factors
''',
        "test_suite": [
            "assert prime_factors_with_multiplicity(1) == []",
            "assert prime_factors_with_multiplicity(0) == []",
            "assert prime_factors_with_multiplicity(2) == [2]",
            "assert prime_factors_with_multiplicity(12) == [2, 2, 3]",
            "assert prime_factors_with_multiplicity(97) == [97]",
            "assert prime_factors_with_multiplicity(49) == [7, 7]",
            "assert prime_factors_with_multiplicity(360) == [2, 2, 2, 3, 3, 5]",
            "assert prime_factors_with_multiplicity(2310) == [2, 3, 5, 7, 11]",
            "assert prime_factors_with_multiplicity(-8) == []",
        ],
    },
    {
        "query": "Compute the binomial coefficient n choose k exactly with integer arithmetic, returning 0 when k is negative or greater than n.",
        "function_name": "binomial_coefficient_exact",
        "canonical": '''def binomial_coefficient_exact(n, k):
    if k < 0 or k > n:
        return 0
    k = min(k, n - k)
    result = 1
    for i in range(1, k + 1):
        result = result * (n - k + i) // i
    return result
''',
        "test_suite": [
            "assert binomial_coefficient_exact(5, 2) == 10",
            "assert binomial_coefficient_exact(5, 0) == 1",
            "assert binomial_coefficient_exact(5, 5) == 1",
            "assert binomial_coefficient_exact(5, 6) == 0",
            "assert binomial_coefficient_exact(5, -1) == 0",
            "assert binomial_coefficient_exact(0, 0) == 1",
            "assert binomial_coefficient_exact(10, 3) == 120",
            "assert binomial_coefficient_exact(52, 5) == 2598960",
            "assert binomial_coefficient_exact(30, 15) == 155117520",
        ],
    },
    {
        "query": "Return the n-th Fibonacci number computed iteratively, with F(0) = 0 and F(1) = 1. Raise ValueError for a negative index.",
        "function_name": "nth_fibonacci_number",
        "canonical": '''def nth_fibonacci_number(n):
    if n < 0:
        raise ValueError("index must be non-negative")
    previous, current = 0, 1
    for _ in range(n):
        previous, current = current, previous + current
    return previous
''',
        "test_suite": [
            "assert nth_fibonacci_number(0) == 0",
            "assert nth_fibonacci_number(1) == 1",
            "assert nth_fibonacci_number(2) == 1",
            "assert nth_fibonacci_number(3) == 2",
            "assert nth_fibonacci_number(10) == 55",
            "assert nth_fibonacci_number(20) == 6765",
            "assert nth_fibonacci_number(50) == 12586269025",
            "with pytest.raises(ValueError):\n    nth_fibonacci_number(-1)",
        ],
    },
    {
        "query": "Return True if a positive integer is a perfect number, i.e. equal to the sum of its proper divisors (6 = 1 + 2 + 3), using divisor pairs up to the square root; numbers below 2 are not perfect.",
        "function_name": "is_perfect_number",
        "canonical": '''def is_perfect_number(n):
    if n < 2:
        return False
    total = 1
    d = 2
    while d * d <= n:
        if n % d == 0:
            total += d
            if d != n // d:
                total += n // d
        d += 1
    return total == n
''',
        "test_suite": [
            "assert is_perfect_number(6) == True",
            "assert is_perfect_number(28) == True",
            "assert is_perfect_number(496) == True",
            "assert is_perfect_number(8128) == True",
            "assert is_perfect_number(1) == False",
            "assert is_perfect_number(0) == False",
            "assert is_perfect_number(2) == False",
            "assert is_perfect_number(12) == False",
            "assert is_perfect_number(27) == False",
        ],
    },
    {
        "query": "Convert an integer to its representation in a given base from 2 to 36 using digits 0-9 then lowercase letters, with a leading minus sign for negative numbers and \"0\" for zero. Raise ValueError if the base is outside 2..36.",
        "function_name": "integer_to_base_string",
        "canonical": '''def integer_to_base_string(n, base):
    if base < 2 or base > 36:
        raise ValueError("base out of range")
    if n == 0:
        return "0"
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    negative = n < 0
    n = abs(n)
    out = []
    while n > 0:
        out.append(digits[n % base])
        n //= base
    if negative:
        out.append("-")
    return "".join(reversed(out))
''',
        "test_suite": [
            "assert integer_to_base_string(0, 2) == '0'",
            "assert integer_to_base_string(10, 2) == '1010'",
            "assert integer_to_base_string(255, 16) == 'ff'",
            "assert integer_to_base_string(-255, 16) == '-ff'",
            "assert integer_to_base_string(35, 36) == 'z'",
            "assert integer_to_base_string(36, 36) == '10'",
            "assert integer_to_base_string(8, 8) == '10'",
            "assert integer_to_base_string(7, 8) == '7'",
            "with pytest.raises(ValueError):\n    integer_to_base_string(5, 1)",
            "with pytest.raises(ValueError):\n    integer_to_base_string(5, 37)",
        ],
    },
    {
        "query": "Return the median of a non-empty list of numbers without modifying it: the middle value of the sorted values for odd length, or the average of the two middle values for even length. Raise ValueError for an empty list.",
        "function_name": "median_of_numbers",
        "canonical": '''def median_of_numbers(values):
    if not values:
        raise ValueError("median of empty list")
    ordered = sorted(values)
    mid = len(ordered) // 2
    if len(ordered) % 2 == 1:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2
''',
        "test_suite": [
            "assert median_of_numbers([3, 1, 2]) == 2",
            "assert median_of_numbers([4, 1, 3, 2]) == 2.5",
            "assert median_of_numbers([5]) == 5",
            "assert median_of_numbers([1, 2]) == 1.5",
            "assert median_of_numbers([7, 7, 7, 8]) == 7",
            "assert median_of_numbers([10, -10, 0, 20]) == 5",
            "assert median_of_numbers([9, 1, 5, 3, 7]) == 5",
            "with pytest.raises(ValueError):\n    median_of_numbers([])",
        ],
    },
    {
        "query": "Return the least common multiple of all integers from 1 to n (1 for n = 0). Raise ValueError for a negative n.",
        "function_name": "lcm_of_one_to_n",
        "canonical": '''def lcm_of_one_to_n(n):
    from math import gcd
    if n < 0:
        raise ValueError("n must be non-negative")
    result = 1
    for i in range(2, n + 1):
        result = result * i // gcd(result, i)
    return result
''',
        "test_suite": [
            "assert lcm_of_one_to_n(0) == 1",
            "assert lcm_of_one_to_n(1) == 1",
            "assert lcm_of_one_to_n(2) == 2",
            "assert lcm_of_one_to_n(3) == 6",
            "assert lcm_of_one_to_n(4) == 12",
            "assert lcm_of_one_to_n(6) == 60",
            "assert lcm_of_one_to_n(10) == 2520",
            "assert lcm_of_one_to_n(20) == 232792560",
            "with pytest.raises(ValueError):\n    lcm_of_one_to_n(-1)",
        ],
    },
    {
        "query": "Count the trailing zeros in the decimal representation of n factorial without computing the factorial, by summing n // 5 + n // 25 + n // 125 + ... . Raise ValueError for a negative n.",
        "function_name": "factorial_trailing_zeros",
        "canonical": '''def factorial_trailing_zeros(n):
    if n < 0:
        raise ValueError("n must be non-negative")
    count = 0
    power = 5
    while power <= n:
        count += n // power
        power *= 5
    return count
''',
        "test_suite": [
            "assert factorial_trailing_zeros(0) == 0",
            "assert factorial_trailing_zeros(4) == 0",
            "assert factorial_trailing_zeros(5) == 1",
            "assert factorial_trailing_zeros(24) == 4",
            "assert factorial_trailing_zeros(25) == 6",
            "assert factorial_trailing_zeros(100) == 24",
            "assert factorial_trailing_zeros(125) == 31",
            "assert factorial_trailing_zeros(1000) == 249",
            "with pytest.raises(ValueError):\n    factorial_trailing_zeros(-5)",
        ],
    },
    {
        "query": "Return True if an integer is a narcissistic (Armstrong) number: equal to the sum of its decimal digits each raised to the power of the number of digits, like 153 = 1^3 + 5^3 + 3^3. Negative numbers are never narcissistic.",
        "function_name": "is_narcissistic_number",
        "canonical": '''def is_narcissistic_number(n):
    if n < 0:
        return False
    digits = str(n)
    power = len(digits)
    total = 0
    for ch in digits:
        total += int(ch) ** power
    return total == n
''',
        "test_suite": [
            "assert is_narcissistic_number(153) == True",
            "assert is_narcissistic_number(370) == True",
            "assert is_narcissistic_number(9474) == True",
            "assert is_narcissistic_number(0) == True",
            "assert is_narcissistic_number(7) == True",
            "assert is_narcissistic_number(10) == False",
            "assert is_narcissistic_number(100) == False",
            "assert is_narcissistic_number(154) == False",
            "assert is_narcissistic_number(-153) == False",
        ],
    },
    {
        "query": "Compute base raised to a non-negative exponent modulo a positive modulus by fast square-and-multiply, returning a value in [0, modulus) (so any power modulo 1 is 0 and x^0 is 1 for modulus above 1). Raise ValueError for a negative exponent.",
        "function_name": "modular_power",
        "canonical": '''def modular_power(base, exponent, modulus):
    if exponent < 0:
        raise ValueError("negative exponent")
    if modulus == 1:
        return 0
    result = 1
    base %= modulus
    while exponent > 0:
        if exponent % 2 == 1:
            result = result * base % modulus
        base = base * base % modulus
        exponent //= 2
    return result
''',
        "test_suite": [
            "assert modular_power(2, 10, 1000) == 24",
            "assert modular_power(3, 0, 7) == 1",
            "assert modular_power(0, 0, 5) == 1",
            "assert modular_power(5, 3, 1) == 0",
            "assert modular_power(3, 0, 1) == 0",
            "assert modular_power(7, 1, 10) == 7",
            "assert modular_power(3, 200, 13) == 9",
            "assert modular_power(10, 5, 7) == 5",
            "assert modular_power(2, 100, 1000000007) == pow(2, 100, 1000000007)",
            "with pytest.raises(ValueError):\n    modular_power(2, -1, 5)",
        ],
    },
    {
        "query": "Return the continued-fraction expansion of numerator/denominator (non-negative numerator, positive denominator) as the list of quotients produced by Euclid's algorithm, e.g. 415/93 gives [4, 2, 6, 7]. Raise ValueError if the denominator is zero.",
        "function_name": "continued_fraction_expansion",
        "canonical": '''def continued_fraction_expansion(numerator, denominator):
    if denominator == 0:
        raise ValueError("zero denominator")
    terms = []
    while denominator != 0:
        quotient = numerator // denominator
        terms.append(quotient)
        numerator, denominator = denominator, numerator - quotient * denominator
    return terms
''',
        "test_suite": [
            "assert continued_fraction_expansion(415, 93) == [4, 2, 6, 7]",
            "assert continued_fraction_expansion(3, 1) == [3]",
            "assert continued_fraction_expansion(1, 2) == [0, 2]",
            "assert continued_fraction_expansion(0, 5) == [0]",
            "assert continued_fraction_expansion(13, 8) == [1, 1, 1, 1, 2]",
            "assert continued_fraction_expansion(22, 7) == [3, 7]",
            "assert continued_fraction_expansion(6, 4) == [1, 2]",
            "with pytest.raises(ValueError):\n    continued_fraction_expansion(3, 0)",
        ],
    },
    {
        "query": "Return all prime numbers less than or equal to a limit in ascending order using the sieve of Eratosthenes; limits below 2 give an empty list.",
        "function_name": "primes_up_to_limit",
        "canonical": '''def primes_up_to_limit(limit):
    if limit < 2:
        return []
    is_prime = [True] * (limit + 1)
    is_prime[0] = is_prime[1] = False
    for i in range(2, int(limit ** 0.5) + 1):
        if is_prime[i]:
            for multiple in range(i * i, limit + 1, i):
                is_prime[multiple] = False
    return [i for i, flag in enumerate(is_prime) if flag]
''',
        "test_suite": [
            "assert primes_up_to_limit(0) == []",
            "assert primes_up_to_limit(1) == []",
            "assert primes_up_to_limit(2) == [2]",
            "assert primes_up_to_limit(3) == [2, 3]",
            "assert primes_up_to_limit(10) == [2, 3, 5, 7]",
            "assert primes_up_to_limit(30) == [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]",
            "assert primes_up_to_limit(49)[-3:] == [41, 43, 47]",
            "assert primes_up_to_limit(25)[-1] == 23",
            "assert len(primes_up_to_limit(100)) == 25",
        ],
    },
    {
        "query": "Return the modular multiplicative inverse of a modulo m, i.e. the x in [0, m) with a*x congruent to 1 mod m, using the extended Euclidean algorithm; a may be negative. Raise ValueError if m is less than 2 or a has no inverse modulo m.",
        "function_name": "modular_multiplicative_inverse",
        "canonical": '''def modular_multiplicative_inverse(a, m):
    if m < 2:
        raise ValueError("modulus must be at least 2")
    old_r, r = a % m, m
    old_s, s = 1, 0
    while r != 0:
        q = old_r // r
        old_r, r = r, old_r - q * r
        old_s, s = s, old_s - q * s
    if old_r != 1:
        raise ValueError("not invertible")
    return old_s % m
''',
        "test_suite": [
            "assert modular_multiplicative_inverse(3, 11) == 4",
            "assert modular_multiplicative_inverse(10, 17) == 12",
            "assert modular_multiplicative_inverse(7, 26) == 15",
            "assert modular_multiplicative_inverse(17, 3120) == 2753",
            "assert modular_multiplicative_inverse(-3, 11) == 7",
            "assert modular_multiplicative_inverse(3, 2) == 1",
            "assert modular_multiplicative_inverse(12, 5) == 3",
            "with pytest.raises(ValueError):\n    modular_multiplicative_inverse(4, 8)",
            "with pytest.raises(ValueError):\n    modular_multiplicative_inverse(0, 7)",
            "with pytest.raises(ValueError):\n    modular_multiplicative_inverse(3, 1)",
        ],
    },
]
