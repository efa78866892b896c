"""Seed tasks for the data-transformation domain (hand-written, execution-checked)."""

DOMAIN = "data-transformation"

TASKS = [
    {
        "query": (
            "Rescale a list of numbers linearly so the minimum maps to 0.0 and the maximum to 1.0; "
            "if all values are equal return a list of 0.0, and an empty list gives an empty list."
        ),
        "function_name": "min_max_scale_list",
        "canonical": '''def min_max_scale_list(values):
    if not values:
        return []
    low = min(values)
    high = max(values)
    if high == low:
        return [0.0] * len(values)
    span = high - low
    return [(value - low) / span for value in values]
''',
        "test_suite": [
            "assert min_max_scale_list([0, 5, 10]) == [0.0, 0.5, 1.0]",
            "assert min_max_scale_list([2, 4]) == [0.0, 1.0]",
            "assert min_max_scale_list([3, 3, 3]) == [0.0, 0.0, 0.0]",
            "assert min_max_scale_list([]) == []",
            "assert min_max_scale_list([10, 0, 5]) == [1.0, 0.0, 0.5]",
            "assert min_max_scale_list([-1, 1]) == [0.0, 1.0]",
            "assert min_max_scale_list([1, 2, 3, 5]) == [0.0, 0.25, 0.5, 1.0]",
            "assert min_max_scale_list([7]) == [0.0]",
        ],
    },
    {
        "query": (
            "Count how many values fall into each fixed-width bucket [k*width, (k+1)*width) and return "
            "a dict mapping each non-empty bucket's lower bound to its count (negative values go into "
            "negative buckets); raise ValueError if the width is not positive."
        ),
        "function_name": "histogram_counts",
        "canonical": '''def histogram_counts(values, bucket_width):
    if bucket_width <= 0:
        raise ValueError("bucket_width must be positive")
    counts = {}
    for value in values:
        start = (value // bucket_width) * bucket_width
        counts[start] = counts.get(start, 0) + 1
    return counts
''',
        "test_suite": [
            "assert histogram_counts([1, 2, 11, 15, 20], 10) == {0: 2, 10: 2, 20: 1}",
            "assert histogram_counts([], 5) == {}",
            "assert histogram_counts([0, 9, 10], 10) == {0: 2, 10: 1}",
            "assert histogram_counts([-1, -10, -11], 10) == {-10: 2, -20: 1}",
            "assert histogram_counts([5, 5, 5], 1) == {5: 3}",
            "assert histogram_counts([3, 4], 2) == {2: 1, 4: 1}",
            "with pytest.raises(ValueError):\n    histogram_counts([1], 0)",
            "with pytest.raises(ValueError):\n    histogram_counts([], -5)",
        ],
    },
    {
        "query": (
            "Assign each number in a list to one of `bins` equal-width bins spanning the list's "
            "minimum to maximum and return each value's 0-based bin index, where bin k covers "
            "[min + k*width, min + (k+1)*width) except that the maximum goes in the last bin; if all "
            "values are equal every index is 0, an empty list gives an empty list, and a bin count "
            "below 1 raises ValueError."
        ),
        "function_name": "equal_width_bin_indices",
        "canonical": '''def equal_width_bin_indices(values, bins):
    if bins < 1:
        raise ValueError("bins must be at least 1")
    if not values:
        return []
    low, high = min(values), max(values)
    if high == low:
        return [0] * len(values)
    width = (high - low) / bins
    indices = []
    for value in values:
        index = int((value - low) / width)
        indices.append(min(index, bins - 1))
    return indices
''',
        "test_suite": [
            "assert equal_width_bin_indices([0, 1, 2, 3, 4], 2) == [0, 0, 1, 1, 1]",
            "assert equal_width_bin_indices([0, 10], 5) == [0, 4]",
            "assert equal_width_bin_indices([5, 5], 3) == [0, 0]",
            "assert equal_width_bin_indices([], 2) == []",
            "assert equal_width_bin_indices([0, 3, 6, 9], 3) == [0, 1, 2, 2]",
            "assert equal_width_bin_indices([-4, 0, 4], 4) == [0, 2, 3]",
            "assert equal_width_bin_indices([9, 0, 3], 1) == [0, 0, 0]",
            "with pytest.raises(ValueError):\n    equal_width_bin_indices([1, 2], 0)",
        ],
    },
    {
        "query": (
            "Convert a dict of equal-length column lists into a list of record dicts, one per row "
            "(an empty dict or empty columns give an empty list); raise ValueError if the columns "
            "have different lengths."
        ),
        "function_name": "columns_to_records",
        "canonical": '''def columns_to_records(columns):
    lengths = {len(values) for values in columns.values()}
    if len(lengths) > 1:
        raise ValueError("columns must have equal length")
    count = lengths.pop() if lengths else 0
    records = []
    for i in range(count):
        records.append({key: values[i] for key, values in columns.items()})
    return records
''',
        "test_suite": [
            "assert columns_to_records({'a': [1, 2], 'b': [3, 4]}) == [{'a': 1, 'b': 3}, {'a': 2, 'b': 4}]",
            "assert columns_to_records({}) == []",
            "assert columns_to_records({'a': []}) == []",
            "assert columns_to_records({'a': [1]}) == [{'a': 1}]",
            "assert columns_to_records({'x': [1, 2, 3]}) == [{'x': 1}, {'x': 2}, {'x': 3}]",
            "assert columns_to_records({'a': [None], 'b': ['z']}) == [{'a': None, 'b': 'z'}]",
            "with pytest.raises(ValueError):\n    columns_to_records({'a': [1], 'b': []})",
            "with pytest.raises(ValueError):\n    columns_to_records({'a': [1, 2], 'b': [1, 2], 'c': [1]})",
        ],
    },
    {
        "query": (
            "Compute the trailing simple moving average of a list of numbers over a window of the "
            "given size, returning one average per full window (an empty list if there are fewer "
            "values than the window); raise ValueError if the window is less than 1."
        ),
        "function_name": "trailing_moving_average",
        "canonical": '''def trailing_moving_average(values, window):
    if window < 1:
        raise ValueError("window must be at least 1")
    averages = []
    total = 0
    for i, value in enumerate(values):
        total += value
        if i >= window:
            total -= values[i - window]
        if i >= window - 1:
            averages.append(total / window)
    return averages
''',
        "test_suite": [
            "assert trailing_moving_average([1, 2, 3, 4, 5], 2) == [1.5, 2.5, 3.5, 4.5]",
            "assert trailing_moving_average([1, 2, 3], 3) == [2.0]",
            "assert trailing_moving_average([1, 2], 3) == []",
            "assert trailing_moving_average([], 1) == []",
            "assert trailing_moving_average([4, 8], 1) == [4.0, 8.0]",
            "assert trailing_moving_average([2, 4, 6, 8], 3) == [4.0, 6.0]",
            "assert trailing_moving_average([10, 0, 0, 0, 10], 2) == [5.0, 0.0, 0.0, 5.0]",
            "with pytest.raises(ValueError):\n    trailing_moving_average([1, 2], 0)",
        ],
    },
    {
        "query": (
            "Fill the None gaps in a list of numbers by linear interpolation between the nearest "
            "known values on each side; leading and trailing gaps copy the nearest known value, and "
            "a list with no known values is returned unchanged."
        ),
        "function_name": "fill_gaps_linear",
        "canonical": '''def fill_gaps_linear(values):
    known = [i for i, value in enumerate(values) if value is not None]
    if not known:
        return list(values)
    result = list(values)
    for i in range(known[0]):
        result[i] = values[known[0]]
    for i in range(known[-1] + 1, len(values)):
        result[i] = values[known[-1]]
    for left, right in zip(known, known[1:]):
        step = (values[right] - values[left]) / (right - left)
        for i in range(left + 1, right):
            result[i] = values[left] + step * (i - left)
    return result
''',
        "test_suite": [
            "assert fill_gaps_linear([1, None, 3]) == [1, 2.0, 3]",
            "assert fill_gaps_linear([None, None, 5, None]) == [5, 5, 5, 5]",
            "assert fill_gaps_linear([0, None, None, 6]) == [0, 2.0, 4.0, 6]",
            "assert fill_gaps_linear([None, None]) == [None, None]",
            "assert fill_gaps_linear([]) == []",
            "assert fill_gaps_linear([1, 2, 3]) == [1, 2, 3]",
            "assert fill_gaps_linear([10, None, None, None, 2]) == [10, 8.0, 6.0, 4.0, 2]",
            "assert fill_gaps_linear([None, 4, None, 8, None, None]) == [4, 4, 6.0, 8, 8, 8]",
        ],
    },
    {
        "query": (
            "Resample a list of numbers to a new length by linear interpolation, keeping the first "
            "and last values at the ends (a new length of 1 gives just the first value, and a single "
            "input value is repeated); raise ValueError if the list is empty or the length is below 1."
        ),
        "function_name": "resample_linear",
        "canonical": '''def resample_linear(values, length):
    if length < 1 or not values:
        raise ValueError("need values and a length of at least 1")
    if length == 1:
        return [values[0]]
    if len(values) == 1:
        return [values[0]] * length
    scale = (len(values) - 1) / (length - 1)
    result = []
    for i in range(length):
        position = i * scale
        left = min(int(position), len(values) - 2)
        fraction = position - left
        result.append(values[left] + (values[left + 1] - values[left]) * fraction)
    return result
''',
        "test_suite": [
            "assert resample_linear([0, 10], 3) == [0, 5, 10]",
            "assert resample_linear([0, 10], 2) == [0, 10]",
            "assert resample_linear([0, 10, 20], 5) == [0, 5, 10, 15, 20]",
            "assert resample_linear([7], 3) == [7, 7, 7]",
            "assert resample_linear([1, 2, 3], 1) == [1]",
            "assert resample_linear([0, 4, 8, 12], 2) == [0, 12]",
            "assert resample_linear([0, 6, 12, 18], 3) == [0, 9, 18]",
            "assert resample_linear([4, 0, 4], 5) == [4, 2, 0, 2, 4]",
            "with pytest.raises(ValueError):\n    resample_linear([1, 2], 0)",
            "with pytest.raises(ValueError):\n    resample_linear([], 3)",
        ],
    },
    {
        "query": (
            "Standardize a list of numbers to z-scores using the mean and the population standard "
            "deviation; if every value is the same return all 0.0, and an empty list gives an empty list."
        ),
        "function_name": "z_score_standardize",
        "canonical": '''def z_score_standardize(values):
    n = len(values)
    if n == 0:
        return []
    mean = sum(values) / n
    variance = sum((value - mean) ** 2 for value in values) / n
    if variance == 0:
        return [0.0] * n
    std = variance ** 0.5
    return [(value - mean) / std for value in values]
''',
        "test_suite": [
            "assert z_score_standardize([2, 4, 4, 4, 5, 5, 7, 9]) == [-1.5, -0.5, -0.5, -0.5, 0.0, 0.0, 1.0, 2.0]",
            "assert z_score_standardize([]) == []",
            "assert z_score_standardize([3, 3]) == [0.0, 0.0]",
            "assert z_score_standardize([1, 3]) == [-1.0, 1.0]",
            "assert z_score_standardize([0, 0, 6, 6]) == [-1.0, -1.0, 1.0, 1.0]",
            "assert z_score_standardize([5]) == [0.0]",
            "assert z_score_standardize([-2, 2]) == [-1.0, 1.0]",
        ],
    },
    {
        "query": (
            "Assign each value to a bin given an ascending list of bin edges: the bin index is the "
            "number of edges that are less than or equal to the value, so values below the first "
            "edge get 0 and values at or above the last edge get len(edges)."
        ),
        "function_name": "assign_bins",
        "canonical": '''def assign_bins(values, edges):
    bins = []
    for value in values:
        index = 0
        while index < len(edges) and value >= edges[index]:
            index += 1
        bins.append(index)
    return bins
''',
        "test_suite": [
            "assert assign_bins([1, 5, 10, 15], [5, 10]) == [0, 1, 2, 2]",
            "assert assign_bins([], [1]) == []",
            "assert assign_bins([3], []) == [0]",
            "assert assign_bins([-1, 0, 1], [0]) == [0, 1, 1]",
            "assert assign_bins([10, 9, 11], [10]) == [1, 0, 1]",
            "assert assign_bins([1, 2, 3], [1, 2, 3]) == [1, 2, 3]",
            "assert assign_bins([100], [1, 2, 3]) == [3]",
            "assert assign_bins([0, 2.5], [1, 2, 3]) == [0, 2]",
        ],
    },
    {
        "query": (
            "Return the percentage change between each pair of consecutive values in a list "
            "((current - previous) * 100 / previous), using None where the previous value is 0; "
            "lists with fewer than two values give an empty list."
        ),
        "function_name": "percent_changes",
        "canonical": '''def percent_changes(values):
    changes = []
    for i in range(1, len(values)):
        previous = values[i - 1]
        if previous == 0:
            changes.append(None)
        else:
            changes.append((values[i] - previous) * 100 / previous)
    return changes
''',
        "test_suite": [
            "assert percent_changes([100, 110, 99]) == [10.0, -10.0]",
            "assert percent_changes([]) == []",
            "assert percent_changes([5]) == []",
            "assert percent_changes([0, 5, 10]) == [None, 100.0]",
            "assert percent_changes([50, 25]) == [-50.0]",
            "assert percent_changes([4, 4]) == [0.0]",
            "assert percent_changes([-10, -5]) == [-50.0]",
            "assert percent_changes([10, 0, 20]) == [-100.0, None]",
        ],
    },
    {
        "query": (
            "Shift a list by `lag` positions keeping its length: a positive lag moves values later "
            "and fills the start with a fill value (default None), a negative lag moves values "
            "earlier and fills the end, and a lag at least as long as the list gives all fill values."
        ),
        "function_name": "shift_series",
        "canonical": '''def shift_series(values, lag, fill=None):
    n = len(values)
    if lag >= n or -lag >= n:
        return [fill] * n
    if lag >= 0:
        return [fill] * lag + values[:n - lag]
    return values[-lag:] + [fill] * -lag
''',
        "test_suite": [
            "assert shift_series([1, 2, 3, 4], 1) == [None, 1, 2, 3]",
            "assert shift_series([1, 2, 3, 4], -1) == [2, 3, 4, None]",
            "assert shift_series([1, 2, 3], 0) == [1, 2, 3]",
            "assert shift_series([1, 2, 3], 3, 0) == [0, 0, 0]",
            "assert shift_series([1, 2, 3], -5) == [None, None, None]",
            "assert shift_series([1, 2, 3], 5, 0) == [0, 0, 0]",
            "assert shift_series([], 2) == []",
            "assert shift_series([1, 2, 3, 4], 2, 0) == [0, 0, 1, 2]",
            "assert shift_series([1, 2, 3, 4], -3, 0) == [4, 0, 0, 0]",
        ],
    },
    {
        "query": (
            "Downsample a list of numbers by averaging consecutive non-overlapping blocks of "
            "`factor` values, dropping an incomplete final block; raise ValueError if the factor "
            "is less than 1."
        ),
        "function_name": "downsample_by_mean",
        "canonical": '''def downsample_by_mean(values, factor):
    if factor < 1:
        raise ValueError("factor must be at least 1")
    blocks = len(values) // factor
    result = []
    for i in range(blocks):
        block = values[i * factor:(i + 1) * factor]
        result.append(sum(block) / factor)
    return result
''',
        "test_suite": [
            "assert downsample_by_mean([1, 3, 5, 7], 2) == [2.0, 6.0]",
            "assert downsample_by_mean([1, 2, 3, 4, 5], 2) == [1.5, 3.5]",
            "assert downsample_by_mean([1, 2, 3], 3) == [2.0]",
            "assert downsample_by_mean([1, 2], 3) == []",
            "assert downsample_by_mean([4, 6], 1) == [4.0, 6.0]",
            "assert downsample_by_mean([], 2) == []",
            "assert downsample_by_mean([0, 0, 3, 3, 6, 6], 3) == [1.0, 5.0]",
            "with pytest.raises(ValueError):\n    downsample_by_mean([1, 2], 0)",
        ],
    },
    {
        "query": (
            "Apply simple exponential smoothing to a list of numbers: the first smoothed value is the "
            "first value and each next one is alpha * value + (1 - alpha) * previous smoothed value; "
            "raise ValueError unless 0 < alpha <= 1."
        ),
        "function_name": "exponential_smoothing",
        "canonical": '''def exponential_smoothing(values, alpha):
    if alpha <= 0 or alpha > 1:
        raise ValueError("alpha must be in (0, 1]")
    smoothed = []
    for value in values:
        if not smoothed:
            smoothed.append(value)
        else:
            smoothed.append(alpha * value + (1 - alpha) * smoothed[-1])
    return smoothed
''',
        "test_suite": [
            "assert exponential_smoothing([2, 4, 6], 0.5) == [2, 3.0, 4.5]",
            "assert exponential_smoothing([], 0.5) == []",
            "assert exponential_smoothing([5, 1], 1) == [5, 1]",
            "assert exponential_smoothing([8], 0.25) == [8]",
            "assert exponential_smoothing([0, 8, 0], 0.25) == [0, 2.0, 1.5]",
            "assert exponential_smoothing([4, 0, 0], 0.5) == [4, 2.0, 1.0]",
            "with pytest.raises(ValueError):\n    exponential_smoothing([1], 0)",
            "with pytest.raises(ValueError):\n    exponential_smoothing([1], 1.5)",
        ],
    },
    {
        "query": (
            "Convert a list of non-negative numbers into running cumulative percentages of their "
            "total (the last entry is 100.0); if the total is 0 return all 0.0, and an empty list "
            "gives an empty list."
        ),
        "function_name": "cumulative_percentages",
        "canonical": '''def cumulative_percentages(values):
    total = sum(values)
    if total == 0:
        return [0.0] * len(values)
    running = 0
    result = []
    for value in values:
        running += value
        result.append(running * 100 / total)
    return result
''',
        "test_suite": [
            "assert cumulative_percentages([1, 1, 2]) == [25.0, 50.0, 100.0]",
            "assert cumulative_percentages([]) == []",
            "assert cumulative_percentages([0, 0]) == [0.0, 0.0]",
            "assert cumulative_percentages([5]) == [100.0]",
            "assert cumulative_percentages([3, 1]) == [75.0, 100.0]",
            "assert cumulative_percentages([2, 0, 2]) == [50.0, 50.0, 100.0]",
            "assert cumulative_percentages([1, 3, 4]) == [12.5, 50.0, 100.0]",
        ],
    },
    {
        "query": (
            "Delta-encode a list of integers: keep the first value as is and replace every later "
            "value with its difference from the previous original value; an empty list gives an "
            "empty list."
        ),
        "function_name": "delta_encode",
        "canonical": '''def delta_encode(values):
    if not values:
        return []
    encoded = [values[0]]
    for i in range(1, len(values)):
        encoded.append(values[i] - values[i - 1])
    return encoded
''',
        "test_suite": [
            "assert delta_encode([]) == []",
            "assert delta_encode([5]) == [5]",
            "assert delta_encode([1, 3, 6]) == [1, 2, 3]",
            "assert delta_encode([10, 7, 7]) == [10, -3, 0]",
            "assert delta_encode([0, 0, 0]) == [0, 0, 0]",
            "assert delta_encode([-2, 2]) == [-2, 4]",
            "assert delta_encode([3, 1, 4, 1, 5]) == [3, -2, 3, -3, 4]",
        ],
    },
    {
        "query": (
            "Turn a list of non-negative counts into whole-number percentages that sum to exactly "
            "100 using the largest remainder method (floor each share, then give the leftover points "
            "to the largest fractional remainders, earlier entries first on ties); if all counts "
            "are 0 return all zeros."
        ),
        "function_name": "percentages_summing_to_100",
        "canonical": '''def percentages_summing_to_100(counts):
    total = sum(counts)
    if total == 0:
        return [0] * len(counts)
    exact = [count * 100 / total for count in counts]
    result = [int(share) for share in exact]
    shortfall = 100 - sum(result)
    order = sorted(range(len(counts)), key=lambda i: result[i] - exact[i])
    for i in order[:shortfall]:
        result[i] += 1
    return result
''',
        "test_suite": [
            "assert percentages_summing_to_100([1, 1, 1]) == [34, 33, 33]",
            "assert percentages_summing_to_100([1, 1]) == [50, 50]",
            "assert percentages_summing_to_100([0, 0]) == [0, 0]",
            "assert percentages_summing_to_100([]) == []",
            "assert percentages_summing_to_100([1, 2]) == [33, 67]",
            "assert percentages_summing_to_100([5]) == [100]",
            "assert percentages_summing_to_100([1, 1, 1, 1, 1, 1]) == [17, 17, 17, 17, 16, 16]",
            "assert percentages_summing_to_100([0, 3, 1]) == [0, 75, 25]",
            "assert percentages_summing_to_100([2, 1, 1]) == [50, 25, 25]",
            "assert percentages_summing_to_100([1, 7]) == [13, 87]",
        ],
    },
]
