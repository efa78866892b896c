"""Hand-written seed tasks for the validation domain."""

DOMAIN = "validation"

TASKS = [
    {
        "query": "Validate a card number string with the Luhn checksum after removing spaces: it must contain only digits and at least two of them, and doubling every second digit from the right (subtracting 9 from results above 9) must give a total divisible by 10.",
        "function_name": "passes_luhn_check",
        "canonical": '''def passes_luhn_check(card_number):
    digits = card_number.replace(" ", "")
    if len(digits) < 2 or not digits.isdigit():
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0
''',
        "test_suite": [
            "assert passes_luhn_check('79927398713') == True",
            "assert passes_luhn_check('79927398710') == False",
            "assert passes_luhn_check('4111 1111 1111 1111') == True",
            "assert passes_luhn_check('4111 1111 1111 1112') == False",
            "assert passes_luhn_check('0') == False",
            "assert passes_luhn_check('00') == True",
            "assert passes_luhn_check('059') == True",
            "assert passes_luhn_check('18') == True",
            "assert passes_luhn_check('12a4') == False",
            "assert passes_luhn_check('') == False",
        ],
    },
    {
        "query": "Check whether a string is a dotted-decimal IPv4 address: exactly four parts separated by dots, each made only of digits, with a value from 0 to 255 and no leading zero unless the part is exactly '0'.",
        "function_name": "is_valid_ipv4_address",
        "canonical": '''def is_valid_ipv4_address(text):
    parts = text.split(".")
    if len(parts) != 4:
        return False
    for part in parts:
        if not part.isdigit() or len(part) > 3:
            return False
        if len(part) > 1 and part[0] == "0":
            return False
        if int(part) > 255:
            return False
    return True
''',
        "test_suite": [
            "assert is_valid_ipv4_address('192.168.1.1') == True",
            "assert is_valid_ipv4_address('0.0.0.0') == True",
            "assert is_valid_ipv4_address('255.255.255.255') == True",
            "assert is_valid_ipv4_address('256.1.1.1') == False",
            "assert is_valid_ipv4_address('1.2.3') == False",
            "assert is_valid_ipv4_address('1.2.3.4.5') == False",
            "assert is_valid_ipv4_address('01.2.3.4') == False",
            "assert is_valid_ipv4_address('1.2.3.a') == False",
            "assert is_valid_ipv4_address('1..3.4') == False",
            "assert is_valid_ipv4_address('10.20.30.0255') == False",
        ],
    },
    {
        "query": "Validate an ISBN-10 code, ignoring hyphens: it needs exactly 10 characters, the first nine digits and the last a digit or 'X' (worth 10), and the sum of each value times its weight (10 down to 1) must be divisible by 11.",
        "function_name": "is_valid_isbn10",
        "canonical": '''def is_valid_isbn10(code):
    chars = code.replace("-", "")
    if len(chars) != 10:
        return False
    total = 0
    for i, ch in enumerate(chars):
        if ch.isdigit():
            value = int(ch)
        elif ch == "X" and i == 9:
            value = 10
        else:
            return False
        total += (10 - i) * value
    return total % 11 == 0
''',
        "test_suite": [
            "assert is_valid_isbn10('0306406152') == True",
            "assert is_valid_isbn10('0-306-40615-2') == True",
            "assert is_valid_isbn10('0306406153') == False",
            "assert is_valid_isbn10('080442957X') == True",
            "assert is_valid_isbn10('X804429570') == False",
            "assert is_valid_isbn10('030640615') == False",
            "assert is_valid_isbn10('03064061522') == False",
            "assert is_valid_isbn10('123456789X') == True",
            "assert is_valid_isbn10('0000000000') == True",
            "assert is_valid_isbn10('1000000002') == False",
        ],
    },
    {
        "query": "Check a password against a policy: at least 8 characters, no space characters, and at least one uppercase letter, one lowercase letter and one digit. Return True or False.",
        "function_name": "meets_password_policy",
        "canonical": '''def meets_password_policy(password):
    if len(password) < 8 or " " in password:
        return False
    has_upper = any(c.isupper() for c in password)
    has_lower = any(c.islower() for c in password)
    has_digit = any(c.isdigit() for c in password)
    return has_upper and has_lower and has_digit
''',
        "test_suite": [
            "assert meets_password_policy('Passw0rd') == True",
            "assert meets_password_policy('password1') == False",
            "assert meets_password_policy('PASSWORD1') == False",
            "assert meets_password_policy('Password') == False",
            "assert meets_password_policy('Pa1') == False",
            "assert meets_password_policy('Pass w0rd') == False",
            "assert meets_password_policy('Abcdefg1') == True",
            "assert meets_password_policy('Abcdef1') == False",
            "assert meets_password_policy('aB3aB3aB3aB3') == True",
        ],
    },
    {
        "query": "Check whether a string is a CSS hex colour: a '#' followed by exactly 3 or exactly 6 hexadecimal digits, in upper or lower case.",
        "function_name": "is_hex_color_code",
        "canonical": '''def is_hex_color_code(text):
    if not text.startswith("#"):
        return False
    body = text[1:]
    if len(body) != 3 and len(body) != 6:
        return False
    return all(c in "0123456789abcdefABCDEF" for c in body)
''',
        "test_suite": [
            "assert is_hex_color_code('#fff') == True",
            "assert is_hex_color_code('#FFFFFF') == True",
            "assert is_hex_color_code('#1a2B3c') == True",
            "assert is_hex_color_code('fff') == False",
            "assert is_hex_color_code('#ffff') == False",
            "assert is_hex_color_code('#ggg') == False",
            "assert is_hex_color_code('#') == False",
            "assert is_hex_color_code('#12345') == False",
            "assert is_hex_color_code('#1234567') == False",
            "assert is_hex_color_code('##fff') == False",
        ],
    },
    {
        "query": "Validate a date string in the strict form YYYY-MM-DD (4, 2 and 2 digits separated by hyphens), checking that the month is 1-12 and the day exists in that month, with February 29 allowed only in Gregorian leap years.",
        "function_name": "is_valid_iso_date_string",
        "canonical": '''def is_valid_iso_date_string(text):
    parts = text.split("-")
    if len(parts) != 3 or [len(p) for p in parts] != [4, 2, 2]:
        return False
    if not all(p.isdigit() for p in parts):
        return False
    year, month, day = (int(p) for p in parts)
    if month < 1 or month > 12:
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return 1 <= day <= days[month - 1]
''',
        "test_suite": [
            "assert is_valid_iso_date_string('2024-02-29') == True",
            "assert is_valid_iso_date_string('2023-02-29') == False",
            "assert is_valid_iso_date_string('1900-02-29') == False",
            "assert is_valid_iso_date_string('2000-02-29') == True",
            "assert is_valid_iso_date_string('2024-04-31') == False",
            "assert is_valid_iso_date_string('2024-12-31') == True",
            "assert is_valid_iso_date_string('2024-13-01') == False",
            "assert is_valid_iso_date_string('2024-00-10') == False",
            "assert is_valid_iso_date_string('2024-1-01') == False",
            "assert is_valid_iso_date_string('2024-01-00') == False",
        ],
    },
    {
        "query": "Check that the brackets (), [] and {} in a string are balanced and properly nested, ignoring every other character; the empty string is balanced.",
        "function_name": "has_balanced_brackets",
        "canonical": '''def has_balanced_brackets(text):
    pairs = {")": "(", "]": "[", "}": "{"}
    stack = []
    for ch in text:
        if ch in "([{":
            stack.append(ch)
        elif ch in pairs:
            if not stack or stack[-1] != pairs[ch]:
                return False
            stack.pop()
    return len(stack) == 0
''',
        "test_suite": [
            "assert has_balanced_brackets('') == True",
            "assert has_balanced_brackets('()') == True",
            "assert has_balanced_brackets('([]{})') == True",
            "assert has_balanced_brackets('([)]') == False",
            "assert has_balanced_brackets('(') == False",
            "assert has_balanced_brackets(')') == False",
            "assert has_balanced_brackets('a(b[c]d)e') == True",
            "assert has_balanced_brackets('{[()()]}') == True",
            "assert has_balanced_brackets('(()') == False",
            "assert has_balanced_brackets('())(') == False",
        ],
    },
    {
        "query": "Loosely validate an e-mail address: no spaces, exactly one '@', a non-empty local part, and a domain that contains a dot but does not start or end with one and has no two consecutive dots.",
        "function_name": "looks_like_email_address",
        "canonical": '''def looks_like_email_address(text):
    if " " in text or text.count("@") != 1:
        return False
    local, domain = text.split("@")
    if not local or "." not in domain:
        return False
    if domain[0] == "." or domain[-1] == ".":
        return False
    return ".." not in domain
''',
        "test_suite": [
            "assert looks_like_email_address('user@example.com') == True",
            "assert looks_like_email_address('a@b.co') == True",
            "assert looks_like_email_address('userexample.com') == False",
            "assert looks_like_email_address('a@@b.com') == False",
            "assert looks_like_email_address('@example.com') == False",
            "assert looks_like_email_address('user@localhost') == False",
            "assert looks_like_email_address('user@.com') == False",
            "assert looks_like_email_address('user@com.') == False",
            "assert looks_like_email_address('us er@example.com') == False",
            "assert looks_like_email_address('user@ex..com') == False",
        ],
    },
    {
        "query": "Validate a username: 3 to 16 characters long, starting with a letter, containing only letters, digits and underscores, and not ending with an underscore.",
        "function_name": "is_valid_username",
        "canonical": '''def is_valid_username(name):
    if len(name) < 3 or len(name) > 16:
        return False
    if not name[0].isalpha():
        return False
    if name[-1] == "_":
        return False
    return all(c.isalnum() or c == "_" for c in name)
''',
        "test_suite": [
            "assert is_valid_username('abc') == True",
            "assert is_valid_username('ab') == False",
            "assert is_valid_username('a' * 16) == True",
            "assert is_valid_username('a' * 17) == False",
            "assert is_valid_username('1abc') == False",
            "assert is_valid_username('abc_') == False",
            "assert is_valid_username('a_b_c') == True",
            "assert is_valid_username('ab-c') == False",
            "assert is_valid_username('User42') == True",
            "assert is_valid_username('_abc') == False",
        ],
    },
    {
        "query": "Check a 9x9 Sudoku grid given as a list of rows, where 0 marks an empty cell: return True if every filled value is between 1 and 9 and no value repeats within any row, column or 3x3 box, otherwise False.",
        "function_name": "sudoku_grid_is_consistent",
        "canonical": '''def sudoku_grid_is_consistent(grid):
    seen = set()
    for r in range(9):
        for c in range(9):
            value = grid[r][c]
            if value == 0:
                continue
            if value < 1 or value > 9:
                return False
            box = (r // 3, c // 3)
            keys = [("row", r, value), ("col", c, value), ("box", box, value)]
            if any(key in seen for key in keys):
                return False
            seen.update(keys)
    return True
''',
        "test_suite": [
            "assert sudoku_grid_is_consistent([[0] * 9 for _ in range(9)])",
            "assert sudoku_grid_is_consistent([[(3 * (r % 3) + r // 3 + c) % 9 + 1 for c in range(9)] for r in range(9)])",
            "assert not sudoku_grid_is_consistent([[2 if (r, c) == (0, 0) else (3 * (r % 3) + r // 3 + c) % 9 + 1 for c in range(9)] for r in range(9)])",
            "assert not sudoku_grid_is_consistent([[5 if (r, c) in ((0, 0), (0, 8)) else 0 for c in range(9)] for r in range(9)])",
            "assert not sudoku_grid_is_consistent([[5 if (r, c) in ((0, 0), (8, 0)) else 0 for c in range(9)] for r in range(9)])",
            "assert not sudoku_grid_is_consistent([[5 if (r, c) in ((0, 0), (2, 2)) else 0 for c in range(9)] for r in range(9)])",
            "assert sudoku_grid_is_consistent([[5 if (r, c) in ((0, 0), (3, 1)) else 0 for c in range(9)] for r in range(9)])",
            "assert sudoku_grid_is_consistent([[5 if (r, c) in ((0, 0), (1, 3)) else 0 for c in range(9)] for r in range(9)])",
            "assert not sudoku_grid_is_consistent([[10 if (r, c) == (4, 4) else 0 for c in range(9)] for r in range(9)])",
            "assert not sudoku_grid_is_consistent([[-1 if (r, c) == (8, 8) else 0 for c in range(9)] for r in range(9)])",
        ],
    },
    {
        "query": "Check whether a string is a plain semantic version MAJOR.MINOR.PATCH: exactly three dot-separated parts, each a non-negative decimal integer without a sign and without leading zeros (a lone '0' is fine).",
        "function_name": "is_semantic_version",
        "canonical": '''def is_semantic_version(text):
    parts = text.split(".")
    if len(parts) != 3:
        return False
    for part in parts:
        if not part.isdigit():
            return False
        if len(part) > 1 and part[0] == "0":
            return False
    return True
''',
        "test_suite": [
            "assert is_semantic_version('1.0.0') == True",
            "assert is_semantic_version('0.0.0') == True",
            "assert is_semantic_version('10.20.30') == True",
            "assert is_semantic_version('1.0') == False",
            "assert is_semantic_version('1.0.0.0') == False",
            "assert is_semantic_version('01.0.0') == False",
            "assert is_semantic_version('1.00.0') == False",
            "assert is_semantic_version('1.0.a') == False",
            "assert is_semantic_version('1..0') == False",
            "assert is_semantic_version('-1.0.0') == False",
        ],
    },
    {
        "query": "Validate a 24-hour clock time written exactly as HH:MM with two-digit hours 00-23 and two-digit minutes 00-59, separated by a colon.",
        "function_name": "is_valid_24h_time",
        "canonical": '''def is_valid_24h_time(text):
    if len(text) != 5 or text[2] != ":":
        return False
    hours, minutes = text[:2], text[3:]
    if not (hours.isdigit() and minutes.isdigit()):
        return False
    return int(hours) <= 23 and int(minutes) <= 59
''',
        "test_suite": [
            "assert is_valid_24h_time('00:00') == True",
            "assert is_valid_24h_time('23:59') == True",
            "assert is_valid_24h_time('24:00') == False",
            "assert is_valid_24h_time('12:60') == False",
            "assert is_valid_24h_time('9:30') == False",
            "assert is_valid_24h_time('09:30') == True",
            "assert is_valid_24h_time('0930') == False",
            "assert is_valid_24h_time('09-30') == False",
            "assert is_valid_24h_time('ab:cd') == False",
            "assert is_valid_24h_time('19:05') == True",
        ],
    },
    {
        "query": "Validate a MAC address written as six two-digit hexadecimal groups separated consistently by colons or by hyphens (not a mix), in either letter case.",
        "function_name": "is_valid_mac_address",
        "canonical": '''def is_valid_mac_address(text):
    hex_digits = "0123456789abcdefABCDEF"
    for separator in (":", "-"):
        groups = text.split(separator)
        if len(groups) == 6:
            return all(len(g) == 2 and all(c in hex_digits for c in g) for g in groups)
    return False
''',
        "test_suite": [
            "assert is_valid_mac_address('00:1A:2b:3C:4d:5E') == True",
            "assert is_valid_mac_address('00-1A-2B-3C-4D-5E') == True",
            "assert is_valid_mac_address('00:1A:2B:3C:4D') == False",
            "assert is_valid_mac_address('00:1A:2B:3C:4D:5E:6F') == False",
            "assert is_valid_mac_address('00:1A-2B:3C:4D:5E') == False",
            "assert is_valid_mac_address('00:1A:2B:3C:4D:5G') == False",
            "assert is_valid_mac_address('001A:2B:3C:4D:5E:6') == False",
            "assert is_valid_mac_address('0:1A:2B:3C:4D:5E') == False",
            "assert is_valid_mac_address('') == False",
            "assert is_valid_mac_address('ff-ff-ff-ff-ff-ff') == True",
        ],
    },
    {
        "query": "Check whether a list stored in array form satisfies the min-heap property: every element at index i is less than or equal to its children at indices 2i+1 and 2i+2 when those exist; empty and single-element lists are heaps.",
        "function_name": "is_min_heap_array",
        "canonical": '''def is_min_heap_array(items):
    n = len(items)
    for i in range(n // 2):
        left, right = 2 * i + 1, 2 * i + 2
        if items[left] < items[i]:
            return False
        if right < n and items[right] < items[i]:
            return False
    return True
''',
        "test_suite": [
            "assert is_min_heap_array([]) == True",
            "assert is_min_heap_array([1]) == True",
            "assert is_min_heap_array([1, 2, 3]) == True",
            "assert is_min_heap_array([2, 1]) == False",
            "assert is_min_heap_array([1, 3, 2, 4, 5]) == True",
            "assert is_min_heap_array([1, 3, 2, 4, 0]) == False",
            "assert is_min_heap_array([1, 2, 3, 4, 5, 6, 0]) == False",
            "assert is_min_heap_array([5, 5, 5]) == True",
            "assert is_min_heap_array([1, 2, 0]) == False",
            "assert is_min_heap_array([1, 1, 2, 0]) == False",
        ],
    },
    {
        "query": "Validate an EAN-13 barcode string: exactly 13 digits where the last digit equals the check digit computed from the first twelve with alternating weights 1 and 3 (starting with 1), i.e. (10 - weighted sum mod 10) mod 10.",
        "function_name": "is_valid_ean13_barcode",
        "canonical": '''def is_valid_ean13_barcode(code):
    if len(code) != 13 or not code.isdigit():
        return False
    total = 0
    for i, ch in enumerate(code[:12]):
        weight = 3 if i % 2 == 1 else 1
        total += weight * int(ch)
    check = (10 - total % 10) % 10
    return check == int(code[12])
''',
        "test_suite": [
            "assert is_valid_ean13_barcode('4006381333931') == True",
            "assert is_valid_ean13_barcode('5901234123457') == True",
            "assert is_valid_ean13_barcode('9780306406157') == True",
            "assert is_valid_ean13_barcode('0000000000000') == True",
            "assert is_valid_ean13_barcode('4006381333932') == False",
            "assert is_valid_ean13_barcode('400638133393') == False",
            "assert is_valid_ean13_barcode('40063813339310') == False",
            "assert is_valid_ean13_barcode('400638133393a') == False",
            "assert is_valid_ean13_barcode('0000000000019') == False",
        ],
    },
    {
        "query": "Check whether a list of byte values is structurally valid UTF-8: each character is a single byte 0xxxxxxx or a lead byte 110xxxxx, 1110xxxx or 11110xxx followed by exactly 1, 2 or 3 continuation bytes 10xxxxxx (overlong forms and code-point ranges are not checked). An empty list is valid.",
        "function_name": "is_valid_utf8_sequence",
        "canonical": '''def is_valid_utf8_sequence(data):
    remaining = 0
    for byte in data:
        if remaining > 0:
            if byte >> 6 != 0b10:
                return False
            remaining -= 1
        elif byte >> 7 == 0:
            continue
        elif byte >> 5 == 0b110:
            remaining = 1
        elif byte >> 4 == 0b1110:
            remaining = 2
        elif byte >> 3 == 0b11110:
            remaining = 3
        else:
            return False
    return remaining == 0
''',
        "test_suite": [
            "assert is_valid_utf8_sequence([]) == True",
            "assert is_valid_utf8_sequence(list(b'hello')) == True",
            "assert is_valid_utf8_sequence(list('h\\u00e9llo'.encode('utf-8'))) == True",
            "assert is_valid_utf8_sequence(list('\\u20ac'.encode('utf-8'))) == True",
            "assert is_valid_utf8_sequence(list('a\\U0001d11eb'.encode('utf-8'))) == True",
            "assert is_valid_utf8_sequence([0xC3]) == False",
            "assert is_valid_utf8_sequence([0x80]) == False",
            "assert is_valid_utf8_sequence([0xE2, 0x82, 0x41]) == False",
            "assert is_valid_utf8_sequence([0xF8, 0x80, 0x80, 0x80, 0x80]) == False",
            "assert is_valid_utf8_sequence([0xC3, 0xA9, 0xA9]) == False",
        ],
    },
]
