"""Hand-written seed tasks for the sorting-searching domain."""

DOMAIN = "sorting-searching"

TASKS = [
    {
        "query": "Return the index of the first element in a sorted list that is not less than the target, or the list's length if every element is smaller, using binary search.",
        "function_name": "first_index_not_less_than",
        "canonical": '''def first_index_not_less_than(items, target):
    lo, hi = 0, len(items)
    while lo < hi:
        mid = (lo + hi) // 2
        if items[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo
''',
        "test_suite": [
            "assert first_index_not_less_than([1, 3, 5], 4) == 2",
            "assert first_index_not_less_than([1, 3, 5], 0) == 0",
            "assert first_index_not_less_than([1, 3, 5], 6) == 3",
            "assert first_index_not_less_than([], 1) == 0",
            "assert first_index_not_less_than([1, 2, 2, 2, 3], 2) == 1",
            "assert first_index_not_less_than([1, 3, 5], 5) == 2",
            "assert first_index_not_less_than([1, 3, 5], 1) == 0",
            "assert first_index_not_less_than([1, 3, 5, 7, 9, 11], 8) == 4",
        ],
    },
    {
        "query": "Binary search a sorted list of distinct values for a target and return its index, or -1 if the target is not present (including for an empty list).",
        "function_name": "binary_search_index_or_minus_one",
        "canonical": '''def binary_search_index_or_minus_one(items, target):
    lo, hi = 0, len(items) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if items[mid] == target:
            return mid
        if items[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1
''',
        "test_suite": [
            "assert binary_search_index_or_minus_one([1, 3, 5, 7], 7) == 3",
            "assert binary_search_index_or_minus_one([1, 3, 5, 7], 1) == 0",
            "assert binary_search_index_or_minus_one([1, 3, 5, 7], 4) == -1",
            "assert binary_search_index_or_minus_one([], 3) == -1",
            "assert binary_search_index_or_minus_one([5], 5) == 0",
            "assert binary_search_index_or_minus_one([5], 6) == -1",
            "assert binary_search_index_or_minus_one([2, 4, 6, 8, 10, 12, 14], 12) == 5",
            "assert binary_search_index_or_minus_one([2, 4, 6, 8, 10, 12, 14], 0) == -1",
            "assert binary_search_index_or_minus_one([2, 4, 6, 8, 10, 12, 14], 15) == -1",
        ],
    },
    {
        "query": "Count the inversions in a list: the number of index pairs i < j where the element at i is strictly greater than the element at j (equal elements are not an inversion).",
        "function_name": "count_inversion_pairs",
        "canonical": '''def count_inversion_pairs(items):
    count = 0
    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            if items[i] > items[j]:
                count += 1
    return count
''',
        "test_suite": [
            "assert count_inversion_pairs([]) == 0",
            "assert count_inversion_pairs([1]) == 0",
            "assert count_inversion_pairs([1, 2, 3]) == 0",
            "assert count_inversion_pairs([3, 2, 1]) == 3",
            "assert count_inversion_pairs([2, 2]) == 0",
            "assert count_inversion_pairs([2, 4, 1, 3, 5]) == 3",
            "assert count_inversion_pairs([5, 4, 3, 2, 1]) == 10",
            "assert count_inversion_pairs([1, 3, 2, 3, 1]) == 4",
            "assert count_inversion_pairs([2, 1]) == 1",
        ],
    },
    {
        "query": "Return the k-th smallest value of a list, where k is 1-based and duplicates count separately (k = 1 is the minimum). Raise ValueError if k is less than 1 or greater than the list's length.",
        "function_name": "kth_smallest_value",
        "canonical": '''def kth_smallest_value(items, k):
    if k < 1 or k > len(items):
        raise ValueError("k out of range")
    pool = list(items)
    for _ in range(k - 1):
        pool.remove(min(pool))
    return min(pool)
''',
        "test_suite": [
            "assert kth_smallest_value([3, 1, 2], 1) == 1",
            "assert kth_smallest_value([3, 1, 2], 2) == 2",
            "assert kth_smallest_value([3, 1, 2], 3) == 3",
            "assert kth_smallest_value([5, 1, 4, 1], 2) == 1",
            "assert kth_smallest_value([5, 1, 4, 1], 3) == 4",
            "assert kth_smallest_value([7], 1) == 7",
            "with pytest.raises(ValueError):\n    kth_smallest_value([3, 1, 2], 0)",
            "with pytest.raises(ValueError):\n    kth_smallest_value([3, 1, 2], 4)",
            "with pytest.raises(ValueError):\n    kth_smallest_value([], 1)",
        ],
    },
    {
        "query": "Merge two ascending lists into one new ascending list in linear time; when values are equal the element from the first list comes first.",
        "function_name": "merge_sorted_sequences",
        "canonical": '''def merge_sorted_sequences(left, right):
    merged = []
    i = j = 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            j += 1
    merged.extend(left[i:])
    merged.extend(right[j:])
    return merged
''',
        "test_suite": [
            "assert merge_sorted_sequences([1, 3, 5], [2, 4, 6]) == [1, 2, 3, 4, 5, 6]",
            "assert merge_sorted_sequences([], [1, 2]) == [1, 2]",
            "assert merge_sorted_sequences([1, 2], []) == [1, 2]",
            "assert merge_sorted_sequences([], []) == []",
            "assert merge_sorted_sequences([5, 6], [1, 2]) == [1, 2, 5, 6]",
            "assert merge_sorted_sequences([1, 4, 9], [2, 3, 10, 11]) == [1, 2, 3, 4, 9, 10, 11]",
            "assert merge_sorted_sequences([1, 1], [1]) == [1, 1, 1]",
            "assert [type(x) for x in merge_sorted_sequences([1.0, 2.0], [1, 2])] == [float, int, float, int]",
        ],
    },
    {
        "query": "Find the minimum of a sorted list of distinct values that has been rotated by an unknown amount (e.g. [4, 5, 6, 7, 0, 1, 2]) in logarithmic time by binary search. Raise ValueError for an empty list.",
        "function_name": "rotated_array_minimum",
        "canonical": '''def rotated_array_minimum(items):
    if not items:
        raise ValueError("empty list")
    lo, hi = 0, len(items) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if items[mid] > items[hi]:
            lo = mid + 1
        else:
            hi = mid
    return items[lo]
''',
        "test_suite": [
            "assert rotated_array_minimum([3, 4, 5, 1, 2]) == 1",
            "assert rotated_array_minimum([1, 2, 3]) == 1",
            "assert rotated_array_minimum([2, 1]) == 1",
            "assert rotated_array_minimum([1]) == 1",
            "assert rotated_array_minimum([4, 5, 6, 7, 0, 1, 2]) == 0",
            "assert rotated_array_minimum([2, 3, 4, 5, 1]) == 1",
            "assert rotated_array_minimum([5, 1, 2, 3, 4]) == 1",
            "with pytest.raises(ValueError):\n    rotated_array_minimum([])",
        ],
    },
    {
        "query": "Search a rotated sorted list of distinct values (such as [4, 5, 6, 7, 0, 1, 2]) for a target in logarithmic time and return its index, or -1 if it is absent or the list is empty.",
        "function_name": "rotated_sorted_search",
        "canonical": '''def rotated_sorted_search(items, target):
    lo, hi = 0, len(items) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if items[mid] == target:
            return mid
        if items[lo] <= items[mid]:
            if items[lo] <= target < items[mid]:
                hi = mid - 1
            else:
                lo = mid + 1
        elif items[mid] < target <= items[hi]:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1
''',
        "test_suite": [
            "assert rotated_sorted_search([4, 5, 6, 7, 0, 1, 2], 0) == 4",
            "assert rotated_sorted_search([4, 5, 6, 7, 0, 1, 2], 3) == -1",
            "assert rotated_sorted_search([4, 5, 6, 7, 0, 1, 2], 4) == 0",
            "assert rotated_sorted_search([4, 5, 6, 7, 0, 1, 2], 2) == 6",
            "assert rotated_sorted_search([6, 7, 0, 1, 2, 3, 4, 5], 4) == 6",
            "assert rotated_sorted_search([6, 7, 0, 1, 2, 3, 4, 5], 5) == 7",
            "assert rotated_sorted_search([1], 1) == 0",
            "assert rotated_sorted_search([1], 0) == -1",
            "assert rotated_sorted_search([], 5) == -1",
            "assert rotated_sorted_search([5, 1, 3], 5) == 0",
        ],
    },
    {
        "query": "Sort a list in ascending order with selection sort, returning a new list and leaving the input unchanged.",
        "function_name": "selection_sort_ascending",
        "canonical": '''def selection_sort_ascending(items):
    result = list(items)
    n = len(result)
    for i in range(n - 1):
        smallest = i
        for j in range(i + 1, n):
            if result[j] < result[smallest]:
                smallest = j
        result[i], result[smallest] = result[smallest], result[i]
    return result
''',
        "test_suite": [
            "assert selection_sort_ascending([3, 1, 2]) == [1, 2, 3]",
            "assert selection_sort_ascending([]) == []",
            "assert selection_sort_ascending([1]) == [1]",
            "assert selection_sort_ascending([2, 1]) == [1, 2]",
            "assert selection_sort_ascending([5, 4, 3, 2, 1]) == [1, 2, 3, 4, 5]",
            "assert selection_sort_ascending([2, 3, 2, 1]) == [1, 2, 2, 3]",
            "assert selection_sort_ascending([-1, 10, 0]) == [-1, 0, 10]",
            "assert (lambda xs: (selection_sort_ascending(xs), xs))([3, 1, 2]) == ([1, 2, 3], [3, 1, 2])",
        ],
    },
    {
        "query": "Given a non-empty bitonic list that strictly increases and then strictly decreases (either part may be empty), return the index of its maximum using binary search. Raise ValueError for an empty list.",
        "function_name": "bitonic_peak_index",
        "canonical": '''def bitonic_peak_index(items):
    if not items:
        raise ValueError("empty list")
    lo, hi = 0, len(items) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if items[mid] < items[mid + 1]:
            lo = mid + 1
        else:
            hi = mid
    return lo
''',
        "test_suite": [
            "assert bitonic_peak_index([1, 3, 5, 4, 2]) == 2",
            "assert bitonic_peak_index([1, 2, 3]) == 2",
            "assert bitonic_peak_index([3, 2, 1]) == 0",
            "assert bitonic_peak_index([7]) == 0",
            "assert bitonic_peak_index([1, 10, 9]) == 1",
            "assert bitonic_peak_index([1, 2, 3, 4, 5, 6, 7, 0]) == 6",
            "assert bitonic_peak_index([0, 9, 8, 7, 6, 5, 4]) == 1",
            "with pytest.raises(ValueError):\n    bitonic_peak_index([])",
        ],
    },
    {
        "query": "Given an ascending list containing at most one pair of values at different positions that add up to a target, return that pair's positions as a tuple (i, j) with i < j using two pointers, or None if there is no such pair.",
        "function_name": "sorted_pair_with_sum",
        "canonical": '''def sorted_pair_with_sum(items, target):
    i, j = 0, len(items) - 1
    while i < j:
        total = items[i] + items[j]
        if total == target:
            return (i, j)
        if total < target:
            i += 1
        else:
            j -= 1
    return None
''',
        "test_suite": [
            "assert sorted_pair_with_sum([1, 2, 4, 7, 11], 15) == (2, 4)",
            "assert sorted_pair_with_sum([1, 2, 4, 7, 11], 3) == (0, 1)",
            "assert sorted_pair_with_sum([1, 2, 4, 7, 11], 18) == (3, 4)",
            "assert sorted_pair_with_sum([1, 2, 4, 7, 11], 100) is None",
            "assert sorted_pair_with_sum([], 5) is None",
            "assert sorted_pair_with_sum([5], 10) is None",
            "assert sorted_pair_with_sum([-3, 0, 4, 9], 1) == (0, 2)",
            "assert sorted_pair_with_sum([2, 3], 5) == (0, 1)",
        ],
    },
    {
        "query": "Sort a list of integers that all lie between 0 and max_value inclusive using counting sort, returning a new ascending list. Raise ValueError if any value is outside that range.",
        "function_name": "counting_sort_bounded",
        "canonical": '''def counting_sort_bounded(items, max_value):
    counts = [0] * (max_value + 1)
    for value in items:
        if value < 0 or value > max_value:
            raise ValueError("value out of range")
        counts[value] += 1
    result = []
    for value in range(max_value + 1):
        result.extend([value] * counts[value])
    return result
''',
        "test_suite": [
            "assert counting_sort_bounded([3, 1, 2, 3, 0], 3) == [0, 1, 2, 3, 3]",
            "assert counting_sort_bounded([], 5) == []",
            "assert counting_sort_bounded([0, 0], 0) == [0, 0]",
            "assert counting_sort_bounded([5], 5) == [5]",
            "assert counting_sort_bounded([2, 7, 2], 9) == [2, 2, 7]",
            "assert counting_sort_bounded([1, 0, 1], 1) == [0, 1, 1]",
            "with pytest.raises(ValueError):\n    counting_sort_bounded([4], 3)",
            "with pytest.raises(ValueError):\n    counting_sort_bounded([1, -1], 3)",
        ],
    },
    {
        "query": "Return the value in a non-empty ascending list that is closest to a target, preferring the smaller value when two are equally close; use binary search. Raise ValueError for an empty list.",
        "function_name": "nearest_value_sorted",
        "canonical": '''def nearest_value_sorted(items, target):
    from bisect import bisect_left
    if not items:
        raise ValueError("empty list")
    i = bisect_left(items, target)
    if i == 0:
        return items[0]
    if i == len(items):
        return items[-1]
    before, after = items[i - 1], items[i]
    if target - before <= after - target:
        return before
    return after
''',
        "test_suite": [
            "assert nearest_value_sorted([1, 4, 7], 5) == 4",
            "assert nearest_value_sorted([1, 4, 7], 6) == 7",
            "assert nearest_value_sorted([1, 4, 7], 0) == 1",
            "assert nearest_value_sorted([1, 4, 7], 10) == 7",
            "assert nearest_value_sorted([1, 4, 7], 4) == 4",
            "assert nearest_value_sorted([2, 6], 4) == 2",
            "assert nearest_value_sorted([5], 100) == 5",
            "assert nearest_value_sorted([10, 20, 30, 40], 26) == 30",
            "with pytest.raises(ValueError):\n    nearest_value_sorted([], 3)",
        ],
    },
    {
        "query": "Return the k most frequent values of a list, ordered by descending count with ties broken by ascending value; return all distinct values if there are fewer than k, and an empty list when k is zero or negative.",
        "function_name": "top_k_frequent_values",
        "canonical": '''def top_k_frequent_values(items, k):
    if k <= 0:
        return []
    counts = {}
    for value in items:
        counts[value] = counts.get(value, 0) + 1
    ranked = sorted(counts, key=lambda v: (-counts[v], v))
    return ranked[:k]
''',
        "test_suite": [
            "assert top_k_frequent_values([1, 1, 2, 2, 2, 3], 2) == [2, 1]",
            "assert top_k_frequent_values([4, 4, 1, 1, 3], 2) == [1, 4]",
            "assert top_k_frequent_values([], 3) == []",
            "assert top_k_frequent_values([5], 0) == []",
            "assert top_k_frequent_values([5, 6, 6], -1) == []",
            "assert top_k_frequent_values([1, 2, 3], 5) == [1, 2, 3]",
            "assert top_k_frequent_values([3, 3, 1, 2, 2, 2], 1) == [2]",
            "assert top_k_frequent_values([7, 7, 8, 8, 9], 3) == [7, 8, 9]",
            "assert top_k_frequent_values([9, 8, 8, 7, 7, 7], 2) == [7, 8]",
        ],
    },
    {
        "query": "Return True if a target occurs in a matrix whose rows and columns are each sorted ascending, using a staircase search from the top-right corner; an empty matrix or one with empty rows contains nothing.",
        "function_name": "sorted_matrix_contains",
        "canonical": '''def sorted_matrix_contains(matrix, target):
    if not matrix or not matrix[0]:
        return False
    row, col = 0, len(matrix[0]) - 1
    while row < len(matrix) and col >= 0:
        value = matrix[row][col]
        if value == target:
            return True
        if value > target:
            col -= 1
        else:
            row += 1
    return False
''',
        "test_suite": [
            "assert sorted_matrix_contains([[1, 4, 7], [2, 5, 8], [3, 6, 9]], 5) == True",
            "assert sorted_matrix_contains([[1, 4, 7], [2, 5, 8], [3, 6, 9]], 1) == True",
            "assert sorted_matrix_contains([[1, 4, 7], [2, 5, 8], [3, 6, 9]], 9) == True",
            "assert sorted_matrix_contains([[1, 4, 7], [2, 5, 8], [3, 6, 9]], 7) == True",
            "assert sorted_matrix_contains([[1, 4, 7], [2, 5, 8], [3, 6, 9]], 3) == True",
            "assert sorted_matrix_contains([[1, 4, 7], [2, 5, 8], [3, 6, 9]], 10) == False",
            "assert sorted_matrix_contains([[1, 4, 7], [2, 5, 8], [3, 6, 9]], 0) == False",
            "assert sorted_matrix_contains([], 1) == False",
            "assert sorted_matrix_contains([[]], 1) == False",
            "assert sorted_matrix_contains([[1, 3, 5]], 4) == False",
        ],
    },
    {
        "query": "Merge overlapping or touching closed intervals given as (start, end) pairs in any order, returning a list of [start, end] lists sorted by start; an empty input gives an empty list.",
        "function_name": "merge_overlapping_ranges",
        "canonical": '''def merge_overlapping_ranges(intervals):
    if not intervals:
        return []
    ordered = sorted(intervals)
    merged = [list(ordered[0])]
    for start, end in ordered[1:]:
        last = merged[-1]
        if start <= last[1]:
            last[1] = max(last[1], end)
        else:
            merged.append([start, end])
    return merged
''',
        "test_suite": [
            "assert merge_overlapping_ranges([(1, 3), (2, 6), (8, 10), (15, 18)]) == [[1, 6], [8, 10], [15, 18]]",
            "assert merge_overlapping_ranges([(1, 4), (4, 5)]) == [[1, 5]]",
            "assert merge_overlapping_ranges([]) == []",
            "assert merge_overlapping_ranges([(5, 7), (1, 2)]) == [[1, 2], [5, 7]]",
            "assert merge_overlapping_ranges([(1, 10), (2, 3)]) == [[1, 10]]",
            "assert merge_overlapping_ranges([(1, 2), (3, 4)]) == [[1, 2], [3, 4]]",
            "assert merge_overlapping_ranges([(6, 8), (1, 9), (2, 4)]) == [[1, 9]]",
            "assert merge_overlapping_ranges([(2, 3)]) == [[2, 3]]",
        ],
    },
    {
        "query": "Return the index of the last occurrence of a target in an ascending list (which may contain duplicates) using binary search, or -1 if the target does not occur.",
        "function_name": "last_occurrence_sorted",
        "canonical": '''def last_occurrence_sorted(items, target):
    lo, hi = 0, len(items)
    while lo < hi:
        mid = (lo + hi) // 2
        if items[mid] <= target:
            lo = mid + 1
        else:
            hi = mid
    if lo > 0 and items[lo - 1] == target:
        return lo - 1
    return -1
''',
        "test_suite": [
            "assert last_occurrence_sorted([1, 2, 2, 2, 3], 2) == 3",
            "assert last_occurrence_sorted([1, 2, 3], 3) == 2",
            "assert last_occurrence_sorted([1, 2, 3], 1) == 0",
            "assert last_occurrence_sorted([1, 2, 3], 4) == -1",
            "assert last_occurrence_sorted([1, 2, 3], 0) == -1",
            "assert last_occurrence_sorted([], 1) == -1",
            "assert last_occurrence_sorted([2, 2], 2) == 1",
            "assert last_occurrence_sorted([1, 3, 5], 2) == -1",
            "assert last_occurrence_sorted([1, 1, 1, 4, 4, 6, 7, 7, 7], 4) == 4",
        ],
    },
]
