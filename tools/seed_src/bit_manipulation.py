"""Seed tasks for the bit-manipulation domain (hand-written, execution-checked)."""

DOMAIN = "bit-manipulation"

TASKS = [
    {
        "query": (
            "Return the value of the lowest set bit of a non-negative integer, "
            "or 0 when the integer is 0."
        ),
        "function_name": "lowest_set_bit",
        "canonical": '''def lowest_set_bit(n):
    if n == 0:
        return 0
    position = 0
    while (n >> position) % 2 == 0:
        position += 1
    return 1 << position
''',
        "test_suite": [
            "assert lowest_set_bit(12) == 4",
            "assert lowest_set_bit(0) == 0",
            "assert lowest_set_bit(1) == 1",
            "assert lowest_set_bit(8) == 8",
            "assert lowest_set_bit(7) == 1",
            "assert lowest_set_bit(6) == 2",
            "assert lowest_set_bit(96) == 32",
            "assert lowest_set_bit((1 << 30) | (1 << 20)) == 1 << 20",
        ],
    },
    {
        "query": (
            "Count how many bits are set to 1 in the binary representation of a "
            "non-negative integer (its population count); raise ValueError for a negative integer."
        ),
        "function_name": "count_one_bits",
        "canonical": '''def count_one_bits(n):
    if n < 0:
        raise ValueError("n must be non-negative")
    count = 0
    while n > 0:
        n &= n - 1
        count += 1
    return count
''',
        "test_suite": [
            "assert count_one_bits(0) == 0",
            "assert count_one_bits(1) == 1",
            "assert count_one_bits(7) == 3",
            "assert count_one_bits(8) == 1",
            "assert count_one_bits(255) == 8",
            "assert count_one_bits(256) == 1",
            "assert count_one_bits(0b1011) == 3",
            "with pytest.raises(ValueError):\n    count_one_bits(-1)",
        ],
    },
    {
        "query": (
            "Reverse the order of the lowest `width` bits of a non-negative integer and return "
            "the resulting number; bits above that width are ignored, and a width of 0 gives 0."
        ),
        "function_name": "reverse_bit_order",
        "canonical": '''def reverse_bit_order(n, width):
    result = 0
    for i in range(width):
        if (n >> i) & 1:
            result |= 1 << (width - 1 - i)
    return result
''',
        "test_suite": [
            "assert reverse_bit_order(1, 4) == 8",
            "assert reverse_bit_order(0b1101, 4) == 0b1011",
            "assert reverse_bit_order(6, 3) == 3",
            "assert reverse_bit_order(0, 8) == 0",
            "assert reverse_bit_order(1, 8) == 128",
            "assert reverse_bit_order(0b10000000, 8) == 1",
            "assert reverse_bit_order(0b110101, 4) == 0b1010",
            "assert reverse_bit_order(5, 0) == 0",
        ],
    },
    {
        "query": (
            "Return the smallest power of two that is greater than or equal to an integer n; "
            "for n less than or equal to 1 (including zero and negatives) return 1."
        ),
        "function_name": "next_power_of_two",
        "canonical": '''def next_power_of_two(n):
    if n <= 1:
        return 1
    exponent = (n - 1).bit_length()
    return 1 << exponent
''',
        "test_suite": [
            "assert next_power_of_two(0) == 1",
            "assert next_power_of_two(1) == 1",
            "assert next_power_of_two(2) == 2",
            "assert next_power_of_two(3) == 4",
            "assert next_power_of_two(5) == 8",
            "assert next_power_of_two(16) == 16",
            "assert next_power_of_two(17) == 32",
            "assert next_power_of_two(1000) == 1024",
            "assert next_power_of_two(-5) == 1",
        ],
    },
    {
        "query": (
            "Generate the reflected binary Gray code sequence for a given number of bits as a list "
            "of 2**bits integers starting at 0 (0 bits gives [0]); raise ValueError for a negative bit count."
        ),
        "function_name": "gray_code_sequence",
        "canonical": '''def gray_code_sequence(bits):
    if bits < 0:
        raise ValueError("bits must be non-negative")
    codes = []
    for i in range(1 << bits):
        codes.append(i ^ (i >> 1))
    return codes
''',
        "test_suite": [
            "assert gray_code_sequence(0) == [0]",
            "assert gray_code_sequence(1) == [0, 1]",
            "assert gray_code_sequence(2) == [0, 1, 3, 2]",
            "assert gray_code_sequence(3) == [0, 1, 3, 2, 6, 7, 5, 4]",
            "assert len(gray_code_sequence(5)) == 32",
            "assert gray_code_sequence(4)[15] == 8",
            "assert gray_code_sequence(4)[10] == 15",
            "with pytest.raises(ValueError):\n    gray_code_sequence(-1)",
        ],
    },
    {
        "query": (
            "Decode a reflected binary Gray code back to the ordinary binary integer it encodes; "
            "raise ValueError for a negative input."
        ),
        "function_name": "gray_to_binary",
        "canonical": '''def gray_to_binary(gray):
    if gray < 0:
        raise ValueError("gray must be non-negative")
    value = gray
    shift = gray >> 1
    while shift > 0:
        value ^= shift
        shift >>= 1
    return value
''',
        "test_suite": [
            "assert gray_to_binary(0) == 0",
            "assert gray_to_binary(1) == 1",
            "assert gray_to_binary(3) == 2",
            "assert gray_to_binary(2) == 3",
            "assert gray_to_binary(6) == 4",
            "assert gray_to_binary(4) == 7",
            "assert gray_to_binary(12) == 8",
            "assert gray_to_binary(0b1000000000) == 0b1111111111",
            "with pytest.raises(ValueError):\n    gray_to_binary(-1)",
        ],
    },
    {
        "query": (
            "Extract a bit field from an integer: return the `length` bits starting at bit position "
            "`start` (0 is the least significant bit) as an integer, where a length of 0 gives 0; "
            "raise ValueError if start or length is negative."
        ),
        "function_name": "extract_bit_field",
        "canonical": '''def extract_bit_field(value, start, length):
    if start < 0 or length < 0:
        raise ValueError("start and length must be non-negative")
    mask = (1 << length) - 1
    return (value >> start) & mask
''',
        "test_suite": [
            "assert extract_bit_field(0b110110, 1, 3) == 3",
            "assert extract_bit_field(0xABCD, 4, 8) == 0xBC",
            "assert extract_bit_field(0xFF, 0, 0) == 0",
            "assert extract_bit_field(0xFF, 0, 8) == 0xFF",
            "assert extract_bit_field(0xFF, 4, 8) == 0x0F",
            "assert extract_bit_field(1, 0, 1) == 1",
            "assert extract_bit_field(0b1000, 3, 1) == 1",
            "with pytest.raises(ValueError):\n    extract_bit_field(5, -1, 2)",
        ],
    },
    {
        "query": (
            "Write a bit field into an integer: replace the `length` bits of value starting at bit "
            "position `start` (0 is the least significant bit) with the low `length` bits of field, "
            "leaving all other bits unchanged; a length of 0 returns value unchanged."
        ),
        "function_name": "insert_bit_field",
        "canonical": '''def insert_bit_field(value, field, start, length):
    if length <= 0:
        return value
    mask = ((1 << length) - 1) << start
    cleared = value & ~mask
    return cleared | ((field << start) & mask)
''',
        "test_suite": [
            "assert insert_bit_field(0, 0b101, 2, 3) == 0b10100",
            "assert insert_bit_field(0xFF, 0, 4, 4) == 0x0F",
            "assert insert_bit_field(0xF0F0, 0xA, 4, 4) == 0xF0A0",
            "assert insert_bit_field(0, 0xFF, 0, 4) == 0x0F",
            "assert insert_bit_field(0b1111, 0, 1, 2) == 0b1001",
            "assert insert_bit_field(5, 7, 0, 0) == 5",
            "assert insert_bit_field(0x1234, 0x56, 8, 8) == 0x5634",
            "assert insert_bit_field(0b1000, 1, 0, 1) == 0b1001",
        ],
    },
    {
        "query": (
            "Compute the bitwise Hamming distance between two non-negative integers, i.e. the number "
            "of bit positions in which they differ; raise ValueError if either is negative."
        ),
        "function_name": "bit_hamming_distance",
        "canonical": '''def bit_hamming_distance(a, b):
    if a < 0 or b < 0:
        raise ValueError("inputs must be non-negative")
    diff = a ^ b
    count = 0
    while diff > 0:
        count += diff & 1
        diff >>= 1
    return count
''',
        "test_suite": [
            "assert bit_hamming_distance(0, 0) == 0",
            "assert bit_hamming_distance(1, 4) == 2",
            "assert bit_hamming_distance(7, 0) == 3",
            "assert bit_hamming_distance(0b1010, 0b0101) == 4",
            "assert bit_hamming_distance(255, 255) == 0",
            "assert bit_hamming_distance(8, 9) == 1",
            "assert bit_hamming_distance(1 << 40, 0) == 1",
            "with pytest.raises(ValueError):\n    bit_hamming_distance(-1, 3)",
            "with pytest.raises(ValueError):\n    bit_hamming_distance(3, -1)",
        ],
    },
    {
        "query": (
            "Rotate the bits of a value left by `shift` positions within a fixed bit width, wrapping "
            "bits that fall off the top back to the bottom; bits of the value above the width are "
            "discarded first, the shift may exceed the width, and a non-positive width raises ValueError."
        ),
        "function_name": "rotate_bits_left",
        "canonical": '''def rotate_bits_left(value, shift, width):
    if width <= 0:
        raise ValueError("width must be positive")
    mask = (1 << width) - 1
    value &= mask
    shift %= width
    return ((value << shift) | (value >> (width - shift))) & mask
''',
        "test_suite": [
            "assert rotate_bits_left(0b0001, 1, 4) == 0b0010",
            "assert rotate_bits_left(0b1000, 1, 4) == 0b0001",
            "assert rotate_bits_left(0b1011, 2, 4) == 0b1110",
            "assert rotate_bits_left(0x12, 4, 8) == 0x21",
            "assert rotate_bits_left(0b0001, 5, 4) == 0b0010",
            "assert rotate_bits_left(0b1011, 0, 4) == 0b1011",
            "assert rotate_bits_left(0b1011, 4, 4) == 0b1011",
            "assert rotate_bits_left(0b11011, 1, 4) == 0b0111",
            "assert rotate_bits_left(1, 3, 1) == 1",
            "with pytest.raises(ValueError):\n    rotate_bits_left(5, 1, 0)",
        ],
    },
    {
        "query": (
            "Convert a non-negative integer to a list of its bits, most significant first, padded "
            "with leading zeros to exactly `width` entries; raise ValueError if the integer is "
            "negative or does not fit in `width` bits."
        ),
        "function_name": "to_bit_list",
        "canonical": '''def to_bit_list(n, width):
    if n < 0 or n >= 1 << width:
        raise ValueError("n does not fit in width bits")
    bits = []
    for i in range(width - 1, -1, -1):
        bits.append((n >> i) & 1)
    return bits
''',
        "test_suite": [
            "assert to_bit_list(5, 4) == [0, 1, 0, 1]",
            "assert to_bit_list(0, 3) == [0, 0, 0]",
            "assert to_bit_list(7, 3) == [1, 1, 1]",
            "assert to_bit_list(1, 1) == [1]",
            "assert to_bit_list(0, 0) == []",
            "assert to_bit_list(6, 3) == [1, 1, 0]",
            "with pytest.raises(ValueError):\n    to_bit_list(8, 3)",
            "with pytest.raises(ValueError):\n    to_bit_list(-1, 4)",
        ],
    },
    {
        "query": (
            "Convert a list of bits given most significant bit first into the integer it represents "
            "(an empty list gives 0); raise ValueError if any entry is not 0 or 1."
        ),
        "function_name": "bit_list_to_int",
        "canonical": '''def bit_list_to_int(bits):
    value = 0
    for bit in bits:
        if bit != 0 and bit != 1:
            raise ValueError("bits must be 0 or 1")
        value = value * 2 + bit
    return value
''',
        "test_suite": [
            "assert bit_list_to_int([]) == 0",
            "assert bit_list_to_int([1]) == 1",
            "assert bit_list_to_int([0]) == 0",
            "assert bit_list_to_int([1, 0, 1]) == 5",
            "assert bit_list_to_int([0, 0, 1, 1]) == 3",
            "assert bit_list_to_int([1, 1, 1, 1, 1, 1, 1, 1]) == 255",
            "assert bit_list_to_int([1, 0, 0, 0]) == 8",
            "with pytest.raises(ValueError):\n    bit_list_to_int([1, 2])",
            "with pytest.raises(ValueError):\n    bit_list_to_int([-1, 0])",
        ],
    },
    {
        "query": (
            "Return the zero-based index of the most significant set bit of a non-negative integer, "
            "or -1 when the integer is 0; raise ValueError for a negative integer."
        ),
        "function_name": "highest_set_bit_index",
        "canonical": '''def highest_set_bit_index(n):
    if n < 0:
        raise ValueError("n must be non-negative")
    index = -1
    while n > 0:
        n >>= 1
        index += 1
    return index
''',
        "test_suite": [
            "assert highest_set_bit_index(0) == -1",
            "assert highest_set_bit_index(1) == 0",
            "assert highest_set_bit_index(2) == 1",
            "assert highest_set_bit_index(3) == 1",
            "assert highest_set_bit_index(8) == 3",
            "assert highest_set_bit_index(255) == 7",
            "assert highest_set_bit_index(256) == 8",
            "with pytest.raises(ValueError):\n    highest_set_bit_index(-1)",
        ],
    },
    {
        "query": (
            "Pack red, green and blue channel values (each 0 to 255) into one 24-bit integer laid out "
            "as 0xRRGGBB; raise ValueError if any channel is outside 0..255."
        ),
        "function_name": "pack_rgb",
        "canonical": '''def pack_rgb(red, green, blue):
    for channel in (red, green, blue):
        if channel < 0 or channel > 255:
            raise ValueError("channel out of range")
    return (red << 16) | (green << 8) | blue
''',
        "test_suite": [
            "assert pack_rgb(0, 0, 0) == 0",
            "assert pack_rgb(255, 255, 255) == 0xFFFFFF",
            "assert pack_rgb(0x12, 0x34, 0x56) == 0x123456",
            "assert pack_rgb(1, 0, 0) == 0x010000",
            "assert pack_rgb(0, 1, 0) == 0x000100",
            "assert pack_rgb(0, 0, 1) == 1",
            "assert pack_rgb(255, 0, 0) == 0xFF0000",
            "with pytest.raises(ValueError):\n    pack_rgb(256, 0, 0)",
            "with pytest.raises(ValueError):\n    pack_rgb(0, -1, 0)",
        ],
    },
    {
        "query": (
            "Unpack a 24-bit colour integer laid out as 0xRRGGBB into a (red, green, blue) tuple of "
            "channel values 0 to 255; raise ValueError if the integer is negative or above 0xFFFFFF."
        ),
        "function_name": "unpack_rgb",
        "canonical": '''def unpack_rgb(color):
    if color < 0 or color > 0xFFFFFF:
        raise ValueError("color out of range")
    red = (color >> 16) & 0xFF
    green = (color >> 8) & 0xFF
    blue = color & 0xFF
    return (red, green, blue)
''',
        "test_suite": [
            "assert unpack_rgb(0) == (0, 0, 0)",
            "assert unpack_rgb(0xFFFFFF) == (255, 255, 255)",
            "assert unpack_rgb(0x123456) == (0x12, 0x34, 0x56)",
            "assert unpack_rgb(0x010000) == (1, 0, 0)",
            "assert unpack_rgb(0x000100) == (0, 1, 0)",
            "assert unpack_rgb(0x0000FF) == (0, 0, 255)",
            "assert unpack_rgb(0x80FF01) == (128, 255, 1)",
            "with pytest.raises(ValueError):\n    unpack_rgb(0x1000000)",
            "with pytest.raises(ValueError):\n    unpack_rgb(-1)",
        ],
    },
    {
        "query": (
            "Interleave the bits of two non-negative integers below 2**16 into a Morton (Z-order) code: "
            "bit i of x becomes bit 2*i of the result and bit i of y becomes bit 2*i+1."
        ),
        "function_name": "morton_interleave",
        "canonical": '''def morton_interleave(x, y):
    code = 0
    for i in range(16):
        code |= ((x >> i) & 1) << (2 * i)
        code |= ((y >> i) & 1) << (2 * i + 1)
    return code
''',
        "test_suite": [
            "assert morton_interleave(0, 0) == 0",
            "assert morton_interleave(1, 0) == 1",
            "assert morton_interleave(0, 1) == 2",
            "assert morton_interleave(1, 1) == 3",
            "assert morton_interleave(2, 0) == 4",
            "assert morton_interleave(3, 5) == 39",
            "assert morton_interleave(0xFFFF, 0) == 0x55555555",
            "assert morton_interleave(0, 0xFFFF) == 0xAAAAAAAA",
        ],
    },
]
