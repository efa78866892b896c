"""Hand-written seed tasks for the string-processing domain."""

DOMAIN = "string-processing"

TASKS = [
    {
        "query": "Run-length compress a string by writing each run of a repeated character as the character followed by the run length, writing runs of length one as the bare character (so 'aaabcc' becomes 'a3bc2'); the empty string stays empty.",
        "function_name": "run_length_compress",
        "canonical": '''def run_length_compress(text):
    if not text:
        return ""
    parts = []
    current, count = text[0], 1
    for ch in text[1:]:
        if ch == current:
            count += 1
        else:
            parts.append(current + (str(count) if count > 1 else ""))
            current, count = ch, 1
    parts.append(current + (str(count) if count > 1 else ""))
    return "".join(parts)
''',
        "test_suite": [
            "assert run_length_compress('') == ''",
            "assert run_length_compress('a') == 'a'",
            "assert run_length_compress('aaabcc') == 'a3bc2'",
            "assert run_length_compress('abc') == 'abc'",
            "assert run_length_compress('aaaaaaaaaaaa') == 'a12'",
            "assert run_length_compress('aab') == 'a2b'",
            "assert run_length_compress('abb') == 'ab2'",
            "assert run_length_compress('aabbaa') == 'a2b2a2'",
        ],
    },
    {
        "query": "Decode a run-length encoded string in which each non-digit character may be followed by a decimal repeat count of one or more digits (a character with no count appears once, a count of 0 drops it), e.g. 'a3bc2' becomes 'aaabcc'.",
        "function_name": "expand_run_length",
        "canonical": '''def expand_run_length(encoded):
    result = []
    i = 0
    while i < len(encoded):
        ch = encoded[i]
        j = i + 1
        while j < len(encoded) and encoded[j].isdigit():
            j += 1
        count = int(encoded[i + 1:j]) if j > i + 1 else 1
        result.append(ch * count)
        i = j
    return "".join(result)
''',
        "test_suite": [
            "assert expand_run_length('') == ''",
            "assert expand_run_length('a3b') == 'aaab'",
            "assert expand_run_length('a3bc2') == 'aaabcc'",
            "assert expand_run_length('x12') == 'x' * 12",
            "assert expand_run_length('abc') == 'abc'",
            "assert expand_run_length('a0b') == 'b'",
            "assert expand_run_length('z1') == 'z'",
            "assert expand_run_length('a2b10c') == 'aabbbbbbbbbbc'",
        ],
    },
    {
        "query": "Apply a Caesar cipher that shifts each ASCII letter by a given amount within the alphabet, wrapping around and preserving case; the shift may be negative or larger than 26, and non-letters are left unchanged.",
        "function_name": "caesar_shift",
        "canonical": '''def caesar_shift(text, shift):
    out = []
    for ch in text:
        if "a" <= ch <= "z":
            out.append(chr((ord(ch) - ord("a") + shift) % 26 + ord("a")))
        elif "A" <= ch <= "Z":
            out.append(chr((ord(ch) - ord("A") + shift) % 26 + ord("A")))
        else:
            out.append(ch)
    return "".join(out)
''',
        "test_suite": [
            "assert caesar_shift('abc', 1) == 'bcd'",
            "assert caesar_shift('xyz', 3) == 'abc'",
            "assert caesar_shift('Hello, World!', 5) == 'Mjqqt, Btwqi!'",
            "assert caesar_shift('abc', -1) == 'zab'",
            "assert caesar_shift('abc', 26) == 'abc'",
            "assert caesar_shift('ABC', 27) == 'BCD'",
            "assert caesar_shift('', 5) == ''",
            "assert caesar_shift('a1 Z', 1) == 'b1 A'",
            "assert caesar_shift('Zz', -52) == 'Zz'",
        ],
    },
    {
        "query": "Return the longest common prefix shared by all strings in a list, or the empty string if the list is empty or the strings share no prefix.",
        "function_name": "longest_shared_prefix",
        "canonical": '''def longest_shared_prefix(words):
    if not words:
        return ""
    prefix = words[0]
    for word in words[1:]:
        i = 0
        while i < len(prefix) and i < len(word) and prefix[i] == word[i]:
            i += 1
        prefix = prefix[:i]
    return prefix
''',
        "test_suite": [
            "assert longest_shared_prefix(['flower', 'flow', 'flight']) == 'fl'",
            "assert longest_shared_prefix(['dog', 'racecar', 'car']) == ''",
            "assert longest_shared_prefix([]) == ''",
            "assert longest_shared_prefix(['alone']) == 'alone'",
            "assert longest_shared_prefix(['ab', 'abc']) == 'ab'",
            "assert longest_shared_prefix(['abc', 'ab']) == 'ab'",
            "assert longest_shared_prefix(['same', 'same']) == 'same'",
            "assert longest_shared_prefix(['', 'a']) == ''",
            "assert longest_shared_prefix(['interview', 'internet', 'interval']) == 'inter'",
        ],
    },
    {
        "query": "Check whether a string is a palindrome when only its letters and digits are considered and case is ignored, using two pointers; a string with no alphanumeric characters counts as a palindrome.",
        "function_name": "is_alnum_palindrome",
        "canonical": '''def is_alnum_palindrome(text):
    i, j = 0, len(text) - 1
    while i < j:
        if not text[i].isalnum():
            i += 1
        elif not text[j].isalnum():
            j -= 1
        elif text[i].lower() != text[j].lower():
            return False
        else:
            i += 1
            j -= 1
    return True
''',
        "test_suite": [
            "assert is_alnum_palindrome('A man, a plan, a canal: Panama') == True",
            "assert is_alnum_palindrome('race a car') == False",
            "assert is_alnum_palindrome('') == True",
            "assert is_alnum_palindrome('a') == True",
            "assert is_alnum_palindrome('.,!') == True",
            "assert is_alnum_palindrome('ab') == False",
            "assert is_alnum_palindrome(\"No 'x' in Nixon\") == True",
            "assert is_alnum_palindrome('0P') == False",
            "assert is_alnum_palindrome('abca') == False",
            "assert is_alnum_palindrome('ab!ba') == True",
        ],
    },
    {
        "query": "Greedily word-wrap text into lines of at most a given width, splitting on whitespace and joining words on a line with single spaces; a word longer than the width goes on its own line. Return the list of lines (empty for blank text) and raise ValueError if the width is less than 1.",
        "function_name": "greedy_word_wrap",
        "canonical": '''def greedy_word_wrap(text, width):
    if width < 1:
        raise ValueError("width must be positive")
    lines = []
    current = ""
    for word in text.split():
        if not current:
            current = word
        elif len(current) + 1 + len(word) <= width:
            current += " " + word
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines
''',
        "test_suite": [
            "assert greedy_word_wrap('the quick brown fox', 10) == ['the quick', 'brown fox']",
            "assert greedy_word_wrap('', 5) == []",
            "assert greedy_word_wrap('hello', 5) == ['hello']",
            "assert greedy_word_wrap('hello world', 11) == ['hello world']",
            "assert greedy_word_wrap('hello world', 10) == ['hello', 'world']",
            "assert greedy_word_wrap('a b c d', 3) == ['a b', 'c d']",
            "assert greedy_word_wrap('extraordinary is long', 5) == ['extraordinary', 'is', 'long']",
            "assert greedy_word_wrap('  spaced   out  words ', 9) == ['spaced', 'out words']",
            "assert greedy_word_wrap('a bc d', 1) == ['a', 'bc', 'd']",
            "with pytest.raises(ValueError):\n    greedy_word_wrap('a b', 0)",
        ],
    },
    {
        "query": "Convert a snake_case identifier to camelCase: split on underscores ignoring empty parts, lowercase the first part, and capitalise the first letter of each later part while lowercasing the rest; an identifier with no parts gives the empty string.",
        "function_name": "snake_case_to_camel_case",
        "canonical": '''def snake_case_to_camel_case(name):
    parts = [part for part in name.split("_") if len(part) > 0]
    words = []
    for i, part in enumerate(parts):
        if i == 0:
            words.append(part.lower())
        else:
            words.append(part[:1].upper() + part[1:].lower())
    return "".join(words)
''',
        "test_suite": [
            "assert snake_case_to_camel_case('hello_world') == 'helloWorld'",
            "assert snake_case_to_camel_case('hello') == 'hello'",
            "assert snake_case_to_camel_case('') == ''",
            "assert snake_case_to_camel_case('___') == ''",
            "assert snake_case_to_camel_case('_private_name_') == 'privateName'",
            "assert snake_case_to_camel_case('a_b_c') == 'aBC'",
            "assert snake_case_to_camel_case('HTTP_SERVER_ERROR') == 'httpServerError'",
            "assert snake_case_to_camel_case('x__y') == 'xY'",
            "assert snake_case_to_camel_case('get_2nd_item') == 'get2ndItem'",
        ],
    },
    {
        "query": "Return the character that occurs most often in a string, breaking ties in favour of the character whose first occurrence comes earliest; return None for the empty string.",
        "function_name": "most_common_char_first_seen",
        "canonical": '''def most_common_char_first_seen(text):
    if not text:
        return None
    counts = {}
    for ch in text:
        counts[ch] = counts.get(ch, 0) + 1
    best = text[0]
    for ch in text:
        if counts[ch] > counts[best]:
            best = ch
    return best
''',
        "test_suite": [
            "assert most_common_char_first_seen('') is None",
            "assert most_common_char_first_seen('a') == 'a'",
            "assert most_common_char_first_seen('abca') == 'a'",
            "assert most_common_char_first_seen('abcbc') == 'b'",
            "assert most_common_char_first_seen('aabbb') == 'b'",
            "assert most_common_char_first_seen('xyz') == 'x'",
            "assert most_common_char_first_seen('zzyy') == 'z'",
            "assert most_common_char_first_seen('mississippi') == 'i'",
            "assert most_common_char_first_seen('aAA') == 'A'",
        ],
    },
    {
        "query": "Return the length of the longest substring of a string that contains no repeated character, using a sliding window; the empty string gives 0.",
        "function_name": "longest_substring_without_repeats",
        "canonical": '''def longest_substring_without_repeats(text):
    last_seen = {}
    start = 0
    best = 0
    for i, ch in enumerate(text):
        if ch in last_seen and last_seen[ch] >= start:
            start = last_seen[ch] + 1
        last_seen[ch] = i
        best = max(best, i - start + 1)
    return best
''',
        "test_suite": [
            "assert longest_substring_without_repeats('abcabcbb') == 3",
            "assert longest_substring_without_repeats('bbbbb') == 1",
            "assert longest_substring_without_repeats('pwwkew') == 3",
            "assert longest_substring_without_repeats('') == 0",
            "assert longest_substring_without_repeats('a') == 1",
            "assert longest_substring_without_repeats('abba') == 2",
            "assert longest_substring_without_repeats('dvdf') == 3",
            "assert longest_substring_without_repeats('abcdef') == 6",
            "assert longest_substring_without_repeats('tmmzuxt') == 5",
        ],
    },
    {
        "query": "Compute the Levenshtein edit distance between two strings, the minimum number of single-character insertions, deletions and substitutions turning one into the other, with dynamic programming over two rows.",
        "function_name": "edit_distance_levenshtein",
        "canonical": '''def edit_distance_levenshtein(a, b):
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            deletion = previous[j] + 1
            insertion = current[j - 1] + 1
            substitution = previous[j - 1] + cost
            current[j] = min(deletion, insertion, substitution)
        previous = current
    return previous[-1]
''',
        "test_suite": [
            "assert edit_distance_levenshtein('kitten', 'sitting') == 3",
            "assert edit_distance_levenshtein('', 'abc') == 3",
            "assert edit_distance_levenshtein('abc', '') == 3",
            "assert edit_distance_levenshtein('', '') == 0",
            "assert edit_distance_levenshtein('flaw', 'lawn') == 2",
            "assert edit_distance_levenshtein('same', 'same') == 0",
            "assert edit_distance_levenshtein('a', 'b') == 1",
            "assert edit_distance_levenshtein('intention', 'execution') == 5",
            "assert edit_distance_levenshtein('ab', 'ba') == 2",
        ],
    },
    {
        "query": "Return the starting indices of every occurrence of a pattern in a text, including overlapping occurrences (so 'aa' occurs in 'aaaa' at 0, 1 and 2). Raise ValueError for an empty pattern.",
        "function_name": "overlapping_match_positions",
        "canonical": '''def overlapping_match_positions(text, pattern):
    if not pattern:
        raise ValueError("empty pattern")
    positions = []
    for i in range(len(text) - len(pattern) + 1):
        if text[i:i + len(pattern)] == pattern:
            positions.append(i)
    return positions
''',
        "test_suite": [
            "assert overlapping_match_positions('aaaa', 'aa') == [0, 1, 2]",
            "assert overlapping_match_positions('abcabc', 'abc') == [0, 3]",
            "assert overlapping_match_positions('abc', 'd') == []",
            "assert overlapping_match_positions('ab', 'abc') == []",
            "assert overlapping_match_positions('abc', 'abc') == [0]",
            "assert overlapping_match_positions('abababa', 'aba') == [0, 2, 4]",
            "assert overlapping_match_positions('', 'a') == []",
            "assert overlapping_match_positions('xax', 'x') == [0, 2]",
            "with pytest.raises(ValueError):\n    overlapping_match_positions('abc', '')",
        ],
    },
    {
        "query": "Convert text to headline title case: lowercase everything, then capitalise the first letter of every word except the small words a, an, and, the, of, in, on, or, to, which stay lowercase unless they are the first or last word; words in the result are separated by single spaces.",
        "function_name": "headline_title_case",
        "canonical": '''def headline_title_case(text):
    small = {"a", "an", "and", "the", "of", "in", "on", "or", "to"}
    words = text.lower().split()
    result = []
    for i, word in enumerate(words):
        if 0 < i < len(words) - 1 and word in small:
            result.append(word)
        else:
            result.append(word[0].upper() + word[1:])
    return " ".join(result)
''',
        "test_suite": [
            "assert headline_title_case('the lord of the rings') == 'The Lord of the Rings'",
            "assert headline_title_case('a tale of two cities') == 'A Tale of Two Cities'",
            "assert headline_title_case('war and peace') == 'War and Peace'",
            "assert headline_title_case('gone with the wind') == 'Gone With the Wind'",
            "assert headline_title_case('what it is of') == 'What It Is Of'",
            "assert headline_title_case('') == ''",
            "assert headline_title_case('  the  END ') == 'The End'",
            "assert headline_title_case('of') == 'Of'",
            "assert headline_title_case('HARRY POTTER AND THE ORDER OF THE PHOENIX') == 'Harry Potter and the Order of the Phoenix'",
        ],
    },
    {
        "query": "Truncate a string to at most max_length characters: return it unchanged if it already fits, otherwise keep a prefix and append '...' so the result is exactly max_length long. Raise ValueError if max_length is less than 3.",
        "function_name": "truncate_with_ellipsis",
        "canonical": '''def truncate_with_ellipsis(text, max_length):
    if max_length < 3:
        raise ValueError("max_length must be at least 3")
    if len(text) <= max_length:
        return text
    return text[:max_length - 3] + "..."
''',
        "test_suite": [
            "assert truncate_with_ellipsis('hello world', 8) == 'hello...'",
            "assert truncate_with_ellipsis('hello', 5) == 'hello'",
            "assert truncate_with_ellipsis('hello', 10) == 'hello'",
            "assert truncate_with_ellipsis('hello!', 5) == 'he...'",
            "assert truncate_with_ellipsis('abcdef', 3) == '...'",
            "assert truncate_with_ellipsis('', 3) == ''",
            "assert truncate_with_ellipsis('abcd', 4) == 'abcd'",
            "with pytest.raises(ValueError):\n    truncate_with_ellipsis('abc', 2)",
        ],
    },
    {
        "query": "Convert a valid Roman numeral string (symbols I, V, X, L, C, D, M) to its integer value, subtracting a symbol's value when it is followed by a larger symbol as in IV, IX, XL, XC, CD and CM.",
        "function_name": "roman_numeral_value",
        "canonical": '''def roman_numeral_value(numeral):
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for i, ch in enumerate(numeral):
        value = values[ch]
        if i + 1 < len(numeral) and value < values[numeral[i + 1]]:
            total -= value
        else:
            total += value
    return total
''',
        "test_suite": [
            "assert roman_numeral_value('III') == 3",
            "assert roman_numeral_value('IV') == 4",
            "assert roman_numeral_value('IX') == 9",
            "assert roman_numeral_value('LVIII') == 58",
            "assert roman_numeral_value('MCMXCIV') == 1994",
            "assert roman_numeral_value('MMXXIV') == 2024",
            "assert roman_numeral_value('XL') == 40",
            "assert roman_numeral_value('CD') == 400",
            "assert roman_numeral_value('DCLXVI') == 666",
            "assert roman_numeral_value('MMMCMXCIX') == 3999",
        ],
    },
    {
        "query": "Convert an integer from 1 to 3999 to a standard Roman numeral using subtractive forms (4 is IV, 1994 is MCMXCIV). Raise ValueError for numbers outside that range.",
        "function_name": "integer_to_roman_numeral",
        "canonical": '''def integer_to_roman_numeral(number):
    if number < 1 or number > 3999:
        raise ValueError("number out of range")
    table = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
             (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    parts = []
    for value, symbol in table:
        while number >= value:
            parts.append(symbol)
            number -= value
    return "".join(parts)
''',
        "test_suite": [
            "assert integer_to_roman_numeral(1) == 'I'",
            "assert integer_to_roman_numeral(4) == 'IV'",
            "assert integer_to_roman_numeral(9) == 'IX'",
            "assert integer_to_roman_numeral(3888) == 'MMMDCCCLXXXVIII'",
            "assert integer_to_roman_numeral(40) == 'XL'",
            "assert integer_to_roman_numeral(1994) == 'MCMXCIV'",
            "assert integer_to_roman_numeral(3999) == 'MMMCMXCIX'",
            "assert integer_to_roman_numeral(444) == 'CDXLIV'",
            "with pytest.raises(ValueError):\n    integer_to_roman_numeral(0)",
            "with pytest.raises(ValueError):\n    integer_to_roman_numeral(4000)",
        ],
    },
    {
        "query": "Mask every character of a string except the last `visible` characters with '#' (for example a card number showing only its last four digits); a string no longer than `visible` is returned unchanged, and a negative `visible` raises ValueError.",
        "function_name": "mask_except_last_chars",
        "canonical": '''def mask_except_last_chars(text, visible):
    if visible < 0:
        raise ValueError("visible must be non-negative")
    if len(text) <= visible:
        return text
    hidden = len(text) - visible
    return "#" * hidden + text[hidden:]
''',
        "test_suite": [
            "assert mask_except_last_chars('1234567890', 4) == '######7890'",
            "assert mask_except_last_chars('1234', 4) == '1234'",
            "assert mask_except_last_chars('123', 4) == '123'",
            "assert mask_except_last_chars('12345', 4) == '#2345'",
            "assert mask_except_last_chars('abc', 0) == '###'",
            "assert mask_except_last_chars('', 2) == ''",
            "assert mask_except_last_chars('secret', 1) == '#####t'",
            "with pytest.raises(ValueError):\n    mask_except_last_chars('abc', -1)",
        ],
    },
]
