"""Seed tasks for the collections domain (hand-written, execution-checked)."""

DOMAIN = "collections"

TASKS = [
    {
        "query": (
            "Split a list into consecutive chunks of a given size, where the last chunk may be "
            "shorter and an empty list gives no chunks; raise ValueError if the size is less than 1."
        ),
        "function_name": "chunk_list",
        "canonical": '''def chunk_list(items, size):
    if size < 1:
        raise ValueError("size must be at least 1")
    chunks = []
    for start in range(0, len(items), size):
        chunks.append(items[start:start + size])
    return chunks
''',
        "test_suite": [
            "assert chunk_list([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]",
            "assert chunk_list([], 3) == []",
            "assert chunk_list([1, 2, 3], 3) == [[1, 2, 3]]",
            "assert chunk_list([1, 2, 3], 5) == [[1, 2, 3]]",
            "assert chunk_list([1, 2, 3, 4], 1) == [[1], [2], [3], [4]]",
            "assert chunk_list([1, 2, 3, 4, 5, 6], 3) == [[1, 2, 3], [4, 5, 6]]",
            "with pytest.raises(ValueError):\n    chunk_list([1, 2], 0)",
        ],
    },
    {
        "query": (
            "Return every run of `width` consecutive items of a list as a tuple, in order (an "
            "empty list when the width exceeds the list length); raise ValueError if the width is less than 1."
        ),
        "function_name": "sliding_windows",
        "canonical": '''def sliding_windows(items, width):
    if width < 1:
        raise ValueError("width must be at least 1")
    windows = []
    for start in range(len(items) - width + 1):
        windows.append(tuple(items[start:start + width]))
    return windows
''',
        "test_suite": [
            "assert sliding_windows([1, 2, 3, 4], 2) == [(1, 2), (2, 3), (3, 4)]",
            "assert sliding_windows([1, 2, 3], 3) == [(1, 2, 3)]",
            "assert sliding_windows([1, 2], 3) == []",
            "assert sliding_windows([], 1) == []",
            "assert sliding_windows(['a', 'b', 'c'], 1) == [('a',), ('b',), ('c',)]",
            "assert sliding_windows([5, 6, 7, 8, 9], 4) == [(5, 6, 7, 8), (6, 7, 8, 9)]",
            "with pytest.raises(ValueError):\n    sliding_windows([1, 2], 0)",
        ],
    },
    {
        "query": (
            "Flatten nested lists inside a list by at most `depth` levels, keeping deeper nesting "
            "intact (depth 0 returns an unchanged copy); raise ValueError for a negative depth."
        ),
        "function_name": "flatten_to_depth",
        "canonical": '''def flatten_to_depth(items, depth):
    if depth < 0:
        raise ValueError("depth must be non-negative")
    result = []
    for item in items:
        if isinstance(item, list) and depth > 0:
            result.extend(flatten_to_depth(item, depth - 1))
        else:
            result.append(item)
    return result
''',
        "test_suite": [
            "assert flatten_to_depth([1, [2, [3, [4]]]], 1) == [1, 2, [3, [4]]]",
            "assert flatten_to_depth([1, [2, [3, [4]]]], 2) == [1, 2, 3, [4]]",
            "assert flatten_to_depth([1, [2, [3, [4]]]], 0) == [1, [2, [3, [4]]]]",
            "assert flatten_to_depth([1, [2, [3, [4]]]], 10) == [1, 2, 3, 4]",
            "assert flatten_to_depth([], 3) == []",
            "assert flatten_to_depth([[1, 2], [3], []], 1) == [1, 2, 3]",
            "assert flatten_to_depth([[[1]], 2], 1) == [[1], 2]",
            "with pytest.raises(ValueError):\n    flatten_to_depth([1], -1)",
        ],
    },
    {
        "query": (
            "Rotate a list to the right by k positions and return the new list; k may be negative "
            "(rotate left) or larger than the list length, and an empty list gives an empty list."
        ),
        "function_name": "rotate_list_right",
        "canonical": '''def rotate_list_right(items, k):
    if not items:
        return []
    k %= len(items)
    split = len(items) - k
    return items[split:] + items[:split]
''',
        "test_suite": [
            "assert rotate_list_right([1, 2, 3, 4, 5], 2) == [4, 5, 1, 2, 3]",
            "assert rotate_list_right([1, 2, 3, 4, 5], 0) == [1, 2, 3, 4, 5]",
            "assert rotate_list_right([1, 2, 3, 4, 5], 5) == [1, 2, 3, 4, 5]",
            "assert rotate_list_right([1, 2, 3, 4, 5], 7) == [4, 5, 1, 2, 3]",
            "assert rotate_list_right([1, 2, 3, 4, 5], -1) == [2, 3, 4, 5, 1]",
            "assert rotate_list_right([], 3) == []",
            "assert rotate_list_right(['x'], 3) == ['x']",
            "assert rotate_list_right(['a', 'b', 'c'], 1) == ['c', 'a', 'b']",
        ],
    },
    {
        "query": (
            "Return the n most frequent items of a list, most frequent first, breaking ties by "
            "which item appears first in the list; return an empty list when n is zero or negative."
        ),
        "function_name": "top_n_frequent",
        "canonical": '''def top_n_frequent(items, n):
    if n <= 0:
        return []
    counts = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    ranked = sorted(counts, key=lambda item: -counts[item])
    return ranked[:n]
''',
        "test_suite": [
            "assert top_n_frequent(['a', 'b', 'a', 'c', 'b', 'a'], 2) == ['a', 'b']",
            "assert top_n_frequent([3, 1, 3, 2, 1, 3], 1) == [3]",
            "assert top_n_frequent([1, 2, 3], 2) == [1, 2]",
            "assert top_n_frequent([5, 4, 4, 5, 6, 6, 6], 2) == [6, 5]",
            "assert top_n_frequent([], 3) == []",
            "assert top_n_frequent(['x', 'y'], 5) == ['x', 'y']",
            "assert top_n_frequent(['x', 'y'], 0) == []",
            "assert top_n_frequent(['x', 'y', 'y'], -1) == []",
        ],
    },
    {
        "query": (
            "Return the elements of a rectangular matrix (a list of equal-length rows) in clockwise "
            "spiral order, starting at the top-left corner and moving right; an empty matrix gives "
            "an empty list."
        ),
        "function_name": "spiral_order",
        "canonical": '''def spiral_order(matrix):
    result = []
    if not matrix:
        return result
    top, bottom = 0, len(matrix) - 1
    left, right = 0, len(matrix[0]) - 1
    while top <= bottom and left <= right:
        for c in range(left, right + 1):
            result.append(matrix[top][c])
        top += 1
        for r in range(top, bottom + 1):
            result.append(matrix[r][right])
        right -= 1
        if top <= bottom:
            for c in range(right, left - 1, -1):
                result.append(matrix[bottom][c])
            bottom -= 1
        if left <= right:
            for r in range(bottom, top - 1, -1):
                result.append(matrix[r][left])
            left += 1
    return result
''',
        "test_suite": [
            "assert spiral_order([[1, 2, 3], [4, 5, 6], [7, 8, 9]]) == [1, 2, 3, 6, 9, 8, 7, 4, 5]",
            "assert spiral_order([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]) == [1, 2, 3, 4, 8, 12, 11, 10, 9, 5, 6, 7]",
            "assert spiral_order([]) == []",
            "assert spiral_order([[1]]) == [1]",
            "assert spiral_order([[1, 2, 3]]) == [1, 2, 3]",
            "assert spiral_order([[1], [2], [3]]) == [1, 2, 3]",
            "assert spiral_order([[1, 2], [3, 4]]) == [1, 2, 4, 3]",
            "assert spiral_order([[1, 2], [3, 4], [5, 6]]) == [1, 2, 4, 6, 5, 3]",
        ],
    },
    {
        "query": (
            "Run-length encode a list: return a list of (item, count) tuples, one for each maximal "
            "run of equal consecutive items, in order; an empty list gives an empty list."
        ),
        "function_name": "run_length_encode_list",
        "canonical": '''def run_length_encode_list(items):
    runs = []
    for item in items:
        if runs and runs[-1][0] == item:
            runs[-1][1] += 1
        else:
            runs.append([item, 1])
    return [(value, count) for value, count in runs]
''',
        "test_suite": [
            "assert run_length_encode_list([]) == []",
            "assert run_length_encode_list([1]) == [(1, 1)]",
            "assert run_length_encode_list([1, 1, 2, 2, 2, 1]) == [(1, 2), (2, 3), (1, 1)]",
            "assert run_length_encode_list(['a', 'b', 'b']) == [('a', 1), ('b', 2)]",
            "assert run_length_encode_list([3, 3, 3, 3]) == [(3, 4)]",
            "assert run_length_encode_list([1, 2, 3]) == [(1, 1), (2, 1), (3, 1)]",
            "assert run_length_encode_list([None, None, 0]) == [(None, 2), (0, 1)]",
        ],
    },
    {
        "query": (
            "Solve the Josephus problem: people numbered 1 to n stand in a circle and, counting from "
            "person 1, every k-th remaining person is eliminated; return the elimination order as a "
            "list. Raise ValueError if n or k is less than 1."
        ),
        "function_name": "josephus_elimination_order",
        "canonical": '''def josephus_elimination_order(n, k):
    from collections import deque
    if n < 1 or k < 1:
        raise ValueError("n and k must be at least 1")
    circle = deque(range(1, n + 1))
    order = []
    while circle:
        circle.rotate(-(k - 1))
        order.append(circle.popleft())
    return order
''',
        "test_suite": [
            "assert josephus_elimination_order(7, 3) == [3, 6, 2, 7, 5, 1, 4]",
            "assert josephus_elimination_order(1, 1) == [1]",
            "assert josephus_elimination_order(5, 1) == [1, 2, 3, 4, 5]",
            "assert josephus_elimination_order(5, 2) == [2, 4, 1, 5, 3]",
            "assert josephus_elimination_order(4, 5) == [1, 3, 4, 2]",
            "assert josephus_elimination_order(2, 2) == [2, 1]",
            "with pytest.raises(ValueError):\n    josephus_elimination_order(0, 2)",
            "with pytest.raises(ValueError):\n    josephus_elimination_order(3, 0)",
        ],
    },
    {
        "query": (
            "Split a list into pieces at the given cut positions (a non-decreasing list of indices "
            "between 0 and the list length), returning one more piece than there are cuts, empty "
            "pieces included; raise ValueError if the cuts decrease or fall outside that range."
        ),
        "function_name": "split_at_indices",
        "canonical": '''def split_at_indices(items, indices):
    pieces = []
    start = 0
    for index in indices:
        if index < start or index > len(items):
            raise ValueError("cut positions must be non-decreasing and in range")
        pieces.append(items[start:index])
        start = index
    pieces.append(items[start:])
    return pieces
''',
        "test_suite": [
            "assert split_at_indices([1, 2, 3, 4, 5], [2]) == [[1, 2], [3, 4, 5]]",
            "assert split_at_indices([1, 2, 3, 4, 5], [1, 3]) == [[1], [2, 3], [4, 5]]",
            "assert split_at_indices([1, 2, 3], []) == [[1, 2, 3]]",
            "assert split_at_indices([1, 2, 3], [0]) == [[], [1, 2, 3]]",
            "assert split_at_indices([1, 2, 3], [3]) == [[1, 2, 3], []]",
            "assert split_at_indices([1, 2, 3], [1, 1]) == [[1], [], [2, 3]]",
            "with pytest.raises(ValueError):\n    split_at_indices([1, 2, 3], [2, 1])",
            "with pytest.raises(ValueError):\n    split_at_indices([1, 2], [3])",
            "with pytest.raises(ValueError):\n    split_at_indices([1, 2], [-1])",
        ],
    },
    {
        "query": (
            "Simulate a least-recently-used cache of a given capacity over a sequence of key "
            "accesses and return the keys it evicts, in eviction order (an access to a cached key "
            "makes it most recent); raise ValueError if the capacity is less than 1."
        ),
        "function_name": "lru_eviction_order",
        "canonical": '''def lru_eviction_order(capacity, accesses):
    if capacity < 1:
        raise ValueError("capacity must be at least 1")
    cache = []
    evicted = []
    for key in accesses:
        if key in cache:
            cache.remove(key)
        elif len(cache) >= capacity:
            evicted.append(cache.pop(0))
        cache.append(key)
    return evicted
''',
        "test_suite": [
            "assert lru_eviction_order(2, [1, 2, 3]) == [1]",
            "assert lru_eviction_order(2, [1, 2, 1, 3]) == [2]",
            "assert lru_eviction_order(1, [1, 2, 1]) == [1, 2]",
            "assert lru_eviction_order(3, [1, 2, 3]) == []",
            "assert lru_eviction_order(2, [1, 1, 1]) == []",
            "assert lru_eviction_order(2, ['a', 'b', 'c', 'a', 'd']) == ['a', 'b', 'c']",
            "assert lru_eviction_order(3, [1, 2, 3, 1, 4, 5]) == [2, 3]",
            "with pytest.raises(ValueError):\n    lru_eviction_order(0, [1])",
        ],
    },
    {
        "query": (
            "Compute the multiset difference of two lists: remove from the first list one "
            "occurrence for each occurrence of an item in the second list, keeping the remaining "
            "items in their original order (items missing from the first list are ignored)."
        ),
        "function_name": "multiset_difference",
        "canonical": '''def multiset_difference(first, second):
    remaining = {}
    for item in second:
        remaining[item] = remaining.get(item, 0) + 1
    result = []
    for item in first:
        if remaining.get(item, 0) > 0:
            remaining[item] -= 1
        else:
            result.append(item)
    return result
''',
        "test_suite": [
            "assert multiset_difference([1, 2, 2, 3], [2]) == [1, 2, 3]",
            "assert multiset_difference([1, 2, 2, 3], [2, 2]) == [1, 3]",
            "assert multiset_difference([1, 2, 3], [4]) == [1, 2, 3]",
            "assert multiset_difference([], [1]) == []",
            "assert multiset_difference([1, 1, 1], [1, 1, 1, 1]) == []",
            "assert multiset_difference(['a', 'b', 'a'], ['a']) == ['b', 'a']",
            "assert multiset_difference([3, 1, 3], [3, 3]) == [1]",
            "assert multiset_difference([1, 2], []) == [1, 2]",
        ],
    },
    {
        "query": (
            "Return the maximum of every window of `width` consecutive values in a list, in order "
            "(an empty list when the width exceeds the list length); raise ValueError if the width "
            "is less than 1."
        ),
        "function_name": "sliding_window_max",
        "canonical": '''def sliding_window_max(values, width):
    from collections import deque
    if width < 1:
        raise ValueError("width must be at least 1")
    window = deque()
    result = []
    for i, value in enumerate(values):
        while window and values[window[-1]] <= value:
            window.pop()
        window.append(i)
        if window[0] <= i - width:
            window.popleft()
        if i >= width - 1:
            result.append(values[window[0]])
    return result
''',
        "test_suite": [
            "assert sliding_window_max([1, 3, -1, -3, 5, 3, 6, 7], 3) == [3, 3, 5, 5, 6, 7]",
            "assert sliding_window_max([4, 2], 1) == [4, 2]",
            "assert sliding_window_max([1, 2, 3], 5) == []",
            "assert sliding_window_max([], 2) == []",
            "assert sliding_window_max([5, 4, 3, 2, 1], 2) == [5, 4, 3, 2]",
            "assert sliding_window_max([2, 2, 2], 2) == [2, 2]",
            "assert sliding_window_max([1, 3, 2], 3) == [3]",
            "assert sliding_window_max([9, 1, 1, 1, 8], 3) == [9, 1, 8]",
            "with pytest.raises(ValueError):\n    sliding_window_max([1, 2], 0)",
        ],
    },
    {
        "query": (
            "Return one page of a list given a 1-based page number and a page size; a page past "
            "the end is an empty list, and a page number or page size below 1 raises ValueError."
        ),
        "function_name": "paginate_items",
        "canonical": '''def paginate_items(items, page, per_page):
    if page < 1 or per_page < 1:
        raise ValueError("page and per_page must be at least 1")
    start = (page - 1) * per_page
    return items[start:start + per_page]
''',
        "test_suite": [
            "assert paginate_items(list(range(10)), 1, 3) == [0, 1, 2]",
            "assert paginate_items(list(range(10)), 2, 3) == [3, 4, 5]",
            "assert paginate_items(list(range(10)), 4, 3) == [9]",
            "assert paginate_items(list(range(10)), 5, 3) == []",
            "assert paginate_items([], 1, 5) == []",
            "assert paginate_items(list(range(5)), 1, 5) == [0, 1, 2, 3, 4]",
            "assert paginate_items(['a', 'b', 'c'], 3, 1) == ['c']",
            "with pytest.raises(ValueError):\n    paginate_items([1, 2], 0, 1)",
            "with pytest.raises(ValueError):\n    paginate_items([1, 2], 1, 0)",
        ],
    },
    {
        "query": (
            "Collapse a list of integers (unsorted, possibly with duplicates) into sorted "
            "(start, end) tuples of runs of consecutive integers, where a lone number n gives "
            "(n, n) and an empty list gives an empty list."
        ),
        "function_name": "consecutive_ranges",
        "canonical": '''def consecutive_ranges(numbers):
    if not numbers:
        return []
    ordered = sorted(set(numbers))
    ranges = []
    start = previous = ordered[0]
    for value in ordered[1:]:
        if value != previous + 1:
            ranges.append((start, previous))
            start = value
        previous = value
    ranges.append((start, previous))
    return ranges
''',
        "test_suite": [
            "assert consecutive_ranges([1, 2, 3, 5, 6, 9]) == [(1, 3), (5, 6), (9, 9)]",
            "assert consecutive_ranges([]) == []",
            "assert consecutive_ranges([4]) == [(4, 4)]",
            "assert consecutive_ranges([3, 1, 2]) == [(1, 3)]",
            "assert consecutive_ranges([1, 1, 2]) == [(1, 2)]",
            "assert consecutive_ranges([10, 8, 6]) == [(6, 6), (8, 8), (10, 10)]",
            "assert consecutive_ranges([-2, -1, 0, 2]) == [(-2, 0), (2, 2)]",
        ],
    },
    {
        "query": (
            "Return up to n distinct items from a list, most recently seen first, scanning from the "
            "end of the list; return an empty list when n is zero or negative."
        ),
        "function_name": "most_recent_unique",
        "canonical": '''def most_recent_unique(items, n):
    if n <= 0:
        return []
    seen = set()
    result = []
    for index in range(len(items) - 1, -1, -1):
        item = items[index]
        if item not in seen:
            seen.add(item)
            result.append(item)
            if len(result) == n:
                break
    return result
''',
        "test_suite": [
            "assert most_recent_unique([1, 2, 3, 2, 1], 2) == [1, 2]",
            "assert most_recent_unique([1, 2, 3, 2, 1], 3) == [1, 2, 3]",
            "assert most_recent_unique([1, 2, 3], 10) == [3, 2, 1]",
            "assert most_recent_unique([], 2) == []",
            "assert most_recent_unique([5, 5, 5], 2) == [5]",
            "assert most_recent_unique([1, 2], 0) == []",
            "assert most_recent_unique([4, 5, 4], 1) == [4]",
            "assert most_recent_unique([1, 2, 3], -1) == []",
            "assert most_recent_unique(['a', 'b', 'a', 'c'], 2) == ['c', 'a']",
        ],
    },
    {
        "query": (
            "Find two different positions i < j in a list of numbers whose values add up to a "
            "target and return them as a tuple (i, j), choosing the smallest possible j and then "
            "the smallest i; return None when no such pair exists."
        ),
        "function_name": "two_sum_indices",
        "canonical": '''def two_sum_indices(numbers, target):
    for j in range(1, len(numbers)):
        for i in range(j):
            if numbers[i] + numbers[j] == target:
                return (i, j)
    return None
''',
        "test_suite": [
            "assert two_sum_indices([2, 7, 11, 15], 9) == (0, 1)",
            "assert two_sum_indices([3, 2, 4], 6) == (1, 2)",
            "assert two_sum_indices([3, 3], 6) == (0, 1)",
            "assert two_sum_indices([1, 2, 3], 7) is None",
            "assert two_sum_indices([], 0) is None",
            "assert two_sum_indices([1, 5, 1, 5], 6) == (0, 1)",
            "assert two_sum_indices([5, 1, 1], 2) == (1, 2)",
            "assert two_sum_indices([0, 4, 0], 0) == (0, 2)",
            "assert two_sum_indices([-3, 4, 3, 90], 0) == (0, 2)",
            "assert two_sum_indices([1, 2, 3], 4) == (0, 2)",
        ],
    },
]
