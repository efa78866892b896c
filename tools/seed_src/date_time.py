"""Seed tasks for the date-time domain (hand-written, execution-checked).

Canonicals whose tests build ``date``/``datetime`` values import them at module
top level, so the names are available to the tests run in the same namespace.
"""

DOMAIN = "date-time"

TASKS = [
    {
        "query": (
            "Return True if a year is a leap year in the Gregorian calendar (divisible by 4, except "
            "century years, which must be divisible by 400), otherwise False."
        ),
        "function_name": "is_gregorian_leap_year",
        "canonical": '''def is_gregorian_leap_year(year):
    if year % 400 == 0:
        return True
    if year % 100 == 0:
        return False
    return year % 4 == 0
''',
        "test_suite": [
            "assert is_gregorian_leap_year(2000) is True",
            "assert is_gregorian_leap_year(1900) is False",
            "assert is_gregorian_leap_year(2024) is True",
            "assert is_gregorian_leap_year(2023) is False",
            "assert is_gregorian_leap_year(2100) is False",
            "assert is_gregorian_leap_year(2400) is True",
            "assert is_gregorian_leap_year(1996) is True",
            "assert is_gregorian_leap_year(2022) is False",
        ],
    },
    {
        "query": (
            "Return the number of days in a given month (1-12) of a given year in the Gregorian "
            "calendar, with 29 days for February in leap years; raise ValueError for a month "
            "outside 1..12."
        ),
        "function_name": "days_in_calendar_month",
        "canonical": '''def days_in_calendar_month(year, month):
    if month < 1 or month > 12:
        raise ValueError("month must be in 1..12")
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap else 28
    if month in (4, 6, 9, 11):
        return 30
    return 31
''',
        "test_suite": [
            "assert days_in_calendar_month(2023, 1) == 31",
            "assert days_in_calendar_month(2023, 2) == 28",
            "assert days_in_calendar_month(2024, 2) == 29",
            "assert days_in_calendar_month(1900, 2) == 28",
            "assert days_in_calendar_month(2000, 2) == 29",
            "assert days_in_calendar_month(2023, 4) == 30",
            "assert days_in_calendar_month(2023, 12) == 31",
            "assert days_in_calendar_month(2023, 11) == 30",
            "with pytest.raises(ValueError):\n    days_in_calendar_month(2023, 13)",
            "with pytest.raises(ValueError):\n    days_in_calendar_month(2023, 0)",
        ],
    },
    {
        "query": (
            "Add a number of months (possibly negative) to a date, clamping the day to the last day "
            "of the resulting month when it would not exist (for example January 31 plus one month "
            "gives the end of February)."
        ),
        "function_name": "add_months_clamped",
        "canonical": '''from datetime import date


def add_months_clamped(day, months):
    import calendar
    total = day.year * 12 + (day.month - 1) + months
    year, month_index = divmod(total, 12)
    month = month_index + 1
    last_day = calendar.monthrange(year, month)[1]
    return date(year, month, min(day.day, last_day))
''',
        "test_suite": [
            "assert add_months_clamped(date(2024, 1, 31), 1) == date(2024, 2, 29)",
            "assert add_months_clamped(date(2023, 1, 31), 1) == date(2023, 2, 28)",
            "assert add_months_clamped(date(2024, 3, 15), -3) == date(2023, 12, 15)",
            "assert add_months_clamped(date(2024, 5, 10), 0) == date(2024, 5, 10)",
            "assert add_months_clamped(date(2024, 12, 1), 1) == date(2025, 1, 1)",
            "assert add_months_clamped(date(2024, 10, 31), 1) == date(2024, 11, 30)",
            "assert add_months_clamped(date(2020, 2, 29), 12) == date(2021, 2, 28)",
            "assert add_months_clamped(date(2024, 1, 15), 25) == date(2026, 2, 15)",
            "assert add_months_clamped(date(2024, 1, 1), -1) == date(2023, 12, 1)",
        ],
    },
    {
        "query": (
            "Return the date of the n-th occurrence of a weekday (0 = Monday ... 6 = Sunday) in a "
            "given month and year, e.g. the 4th Thursday of November, or None if that month has no "
            "such occurrence; raise ValueError if n is less than 1."
        ),
        "function_name": "nth_weekday_of_month",
        "canonical": '''from datetime import date, timedelta


def nth_weekday_of_month(year, month, weekday, n):
    if n < 1:
        raise ValueError("n must be at least 1")
    first = date(year, month, 1)
    offset = (weekday - first.weekday()) % 7
    candidate = first + timedelta(days=offset + 7 * (n - 1))
    if candidate.month != month:
        return None
    return candidate
''',
        "test_suite": [
            "assert nth_weekday_of_month(2024, 11, 3, 4) == date(2024, 11, 28)",
            "assert nth_weekday_of_month(2024, 5, 0, 1) == date(2024, 5, 6)",
            "assert nth_weekday_of_month(2024, 9, 0, 1) == date(2024, 9, 2)",
            "assert nth_weekday_of_month(2024, 2, 3, 5) == date(2024, 2, 29)",
            "assert nth_weekday_of_month(2023, 2, 3, 5) is None",
            "assert nth_weekday_of_month(2024, 6, 6, 1) == date(2024, 6, 2)",
            "assert nth_weekday_of_month(2024, 6, 5, 1) == date(2024, 6, 1)",
            "assert nth_weekday_of_month(2024, 6, 5, 2) == date(2024, 6, 8)",
            "with pytest.raises(ValueError):\n    nth_weekday_of_month(2024, 6, 5, 0)",
        ],
    },
    {
        "query": (
            "Count the business days (Monday to Friday) in the half-open date range from start "
            "(inclusive) to end (exclusive); return 0 when end is not after start."
        ),
        "function_name": "count_business_days",
        "canonical": '''from datetime import date, timedelta


def count_business_days(start, end):
    if end <= start:
        return 0
    count = 0
    current = start
    while current < end:
        if current.weekday() < 5:
            count += 1
        current += timedelta(days=1)
    return count
''',
        "test_suite": [
            "assert count_business_days(date(2024, 1, 1), date(2024, 1, 8)) == 5",
            "assert count_business_days(date(2024, 1, 6), date(2024, 1, 8)) == 0",
            "assert count_business_days(date(2024, 1, 5), date(2024, 1, 6)) == 1",
            "assert count_business_days(date(2024, 1, 8), date(2024, 1, 1)) == 0",
            "assert count_business_days(date(2024, 1, 3), date(2024, 1, 3)) == 0",
            "assert count_business_days(date(2024, 1, 1), date(2024, 1, 31)) == 22",
            "assert count_business_days(date(2024, 1, 7), date(2024, 1, 9)) == 1",
            "assert count_business_days(date(2024, 1, 4), date(2024, 1, 6)) == 2",
        ],
    },
    {
        "query": (
            "Return the date that is a given number of business days after a start date, skipping "
            "Saturdays and Sundays (0 days returns the start date unchanged, even on a weekend); "
            "raise ValueError for a negative number of days."
        ),
        "function_name": "add_business_days",
        "canonical": '''from datetime import date, timedelta


def add_business_days(start, days):
    if days < 0:
        raise ValueError("days must be non-negative")
    current = start
    remaining = days
    while remaining > 0:
        current += timedelta(days=1)
        if current.weekday() < 5:
            remaining -= 1
    return current
''',
        "test_suite": [
            "assert add_business_days(date(2024, 1, 5), 1) == date(2024, 1, 8)",
            "assert add_business_days(date(2024, 1, 1), 4) == date(2024, 1, 5)",
            "assert add_business_days(date(2024, 1, 1), 5) == date(2024, 1, 8)",
            "assert add_business_days(date(2024, 1, 6), 0) == date(2024, 1, 6)",
            "assert add_business_days(date(2024, 1, 6), 1) == date(2024, 1, 8)",
            "assert add_business_days(date(2024, 1, 1), 10) == date(2024, 1, 15)",
            "assert add_business_days(date(2024, 1, 4), 2) == date(2024, 1, 8)",
            "with pytest.raises(ValueError):\n    add_business_days(date(2024, 1, 1), -1)",
        ],
    },
    {
        "query": (
            "Convert a compact duration string such as '1h30m' or '2d4h5s', made of one or more "
            "integer amounts each followed by d, h, m or s, into a total number of seconds; raise "
            "ValueError for an empty or malformed string."
        ),
        "function_name": "duration_to_seconds",
        "canonical": r'''def duration_to_seconds(text):
    import re
    units = {"d": 86400, "h": 3600, "m": 60, "s": 1}
    if re.fullmatch(r"(\d+[dhms])+", text) is None:
        raise ValueError("invalid duration: " + repr(text))
    total = 0
    for amount, unit in re.findall(r"(\d+)([dhms])", text):
        total += int(amount) * units[unit]
    return total
''',
        "test_suite": [
            "assert duration_to_seconds('1h30m') == 5400",
            "assert duration_to_seconds('45s') == 45",
            "assert duration_to_seconds('2d') == 172800",
            "assert duration_to_seconds('1d1h1m1s') == 90061",
            "assert duration_to_seconds('0s') == 0",
            "assert duration_to_seconds('90m') == 5400",
            "with pytest.raises(ValueError):\n    duration_to_seconds('')",
            "with pytest.raises(ValueError):\n    duration_to_seconds('1x')",
            "with pytest.raises(ValueError):\n    duration_to_seconds('h')",
        ],
    },
    {
        "query": (
            "Format a non-negative number of seconds as an 'H:MM:SS' string, where hours are not "
            "zero-padded and may exceed 24 while minutes and seconds use two digits; raise ValueError "
            "for a negative number."
        ),
        "function_name": "seconds_to_hms_string",
        "canonical": '''def seconds_to_hms_string(total_seconds):
    if total_seconds < 0:
        raise ValueError("seconds must be non-negative")
    hours, remainder = divmod(total_seconds, 3600)
    minutes, seconds = divmod(remainder, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}"
''',
        "test_suite": [
            "assert seconds_to_hms_string(0) == '0:00:00'",
            "assert seconds_to_hms_string(59) == '0:00:59'",
            "assert seconds_to_hms_string(60) == '0:01:00'",
            "assert seconds_to_hms_string(3599) == '0:59:59'",
            "assert seconds_to_hms_string(3600) == '1:00:00'",
            "assert seconds_to_hms_string(3661) == '1:01:01'",
            "assert seconds_to_hms_string(90000) == '25:00:00'",
            "with pytest.raises(ValueError):\n    seconds_to_hms_string(-1)",
        ],
    },
    {
        "query": (
            "Convert a 12-hour clock time string like '7:15 PM' or '12:30 am' (AM/PM in any case) "
            "to minutes after midnight, where 12 AM is midnight and 12 PM is noon; raise ValueError "
            "if the hour is not 1-12, the minute not 0-59, or the suffix not AM/PM."
        ),
        "function_name": "twelve_hour_to_minutes",
        "canonical": '''def twelve_hour_to_minutes(text):
    clock, period = text.split()
    hour_text, minute_text = clock.split(":")
    hour, minute = int(hour_text), int(minute_text)
    period = period.upper()
    if hour < 1 or hour > 12 or minute < 0 or minute > 59 or period not in ("AM", "PM"):
        raise ValueError("invalid 12-hour time: " + text)
    hour %= 12
    if period == "PM":
        hour += 12
    return hour * 60 + minute
''',
        "test_suite": [
            "assert twelve_hour_to_minutes('12:00 AM') == 0",
            "assert twelve_hour_to_minutes('12:30 AM') == 30",
            "assert twelve_hour_to_minutes('1:05 AM') == 65",
            "assert twelve_hour_to_minutes('12:00 PM') == 720",
            "assert twelve_hour_to_minutes('1:00 PM') == 780",
            "assert twelve_hour_to_minutes('11:59 PM') == 1439",
            "assert twelve_hour_to_minutes('7:15 pm') == 1155",
            "with pytest.raises(ValueError):\n    twelve_hour_to_minutes('13:00 PM')",
            "with pytest.raises(ValueError):\n    twelve_hour_to_minutes('10:60 AM')",
            "with pytest.raises(ValueError):\n    twelve_hour_to_minutes('0:15 AM')",
        ],
    },
    {
        "query": (
            "Compute a person's age in completed years on a given date from their birth date "
            "(the birthday itself counts as completed, and someone born on February 29 turns a year "
            "older on March 1 in non-leap years); raise ValueError if the date is before the birth date."
        ),
        "function_name": "age_in_years",
        "canonical": '''from datetime import date


def age_in_years(birth, on):
    if on < birth:
        raise ValueError("date precedes birth date")
    years = on.year - birth.year
    if (on.month, on.day) < (birth.month, birth.day):
        years -= 1
    return years
''',
        "test_suite": [
            "assert age_in_years(date(2000, 5, 15), date(2024, 5, 14)) == 23",
            "assert age_in_years(date(2000, 5, 15), date(2024, 5, 15)) == 24",
            "assert age_in_years(date(2000, 5, 15), date(2000, 5, 15)) == 0",
            "assert age_in_years(date(2000, 2, 29), date(2001, 2, 28)) == 0",
            "assert age_in_years(date(2000, 2, 29), date(2001, 3, 1)) == 1",
            "assert age_in_years(date(1990, 12, 31), date(2024, 1, 1)) == 33",
            "assert age_in_years(date(2000, 1, 1), date(2024, 12, 31)) == 24",
            "with pytest.raises(ValueError):\n    age_in_years(date(2024, 1, 2), date(2024, 1, 1))",
        ],
    },
    {
        "query": (
            "Return the fiscal quarter (1-4) of a calendar month (1-12) for a fiscal year that starts "
            "in a given month (default January); raise ValueError if either month is outside 1..12."
        ),
        "function_name": "fiscal_quarter",
        "canonical": '''def fiscal_quarter(month, start_month=1):
    if month < 1 or month > 12 or start_month < 1 or start_month > 12:
        raise ValueError("months must be in 1..12")
    offset = (month - start_month) % 12
    return offset // 3 + 1
''',
        "test_suite": [
            "assert fiscal_quarter(1) == 1",
            "assert fiscal_quarter(3) == 1",
            "assert fiscal_quarter(4) == 2",
            "assert fiscal_quarter(12) == 4",
            "assert fiscal_quarter(10, 10) == 1",
            "assert fiscal_quarter(9, 10) == 4",
            "assert fiscal_quarter(1, 10) == 2",
            "assert fiscal_quarter(7, 7) == 1",
            "with pytest.raises(ValueError):\n    fiscal_quarter(13)",
            "with pytest.raises(ValueError):\n    fiscal_quarter(5, 0)",
        ],
    },
    {
        "query": (
            "Return the day of the year (1 for January 1) for a Gregorian year, month and day, "
            "taking leap years into account; raise ValueError if the month or day does not exist."
        ),
        "function_name": "day_of_year",
        "canonical": '''def day_of_year(year, month, day):
    lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0):
        lengths[1] = 29
    if month < 1 or month > 12 or day < 1 or day > lengths[month - 1]:
        raise ValueError("no such date")
    return sum(lengths[:month - 1]) + day
''',
        "test_suite": [
            "assert day_of_year(2023, 1, 1) == 1",
            "assert day_of_year(2023, 12, 31) == 365",
            "assert day_of_year(2024, 12, 31) == 366",
            "assert day_of_year(2024, 3, 1) == 61",
            "assert day_of_year(2023, 3, 1) == 60",
            "assert day_of_year(2000, 3, 1) == 61",
            "assert day_of_year(1900, 3, 1) == 60",
            "assert day_of_year(2023, 2, 28) == 59",
            "with pytest.raises(ValueError):\n    day_of_year(2023, 2, 29)",
            "with pytest.raises(ValueError):\n    day_of_year(2023, 13, 1)",
        ],
    },
    {
        "query": (
            "Return the number of whole minutes during which two datetime intervals [start, end) "
            "overlap, or 0 when they do not overlap or only touch."
        ),
        "function_name": "interval_overlap_minutes",
        "canonical": '''from datetime import datetime


def interval_overlap_minutes(first_start, first_end, second_start, second_end):
    latest_start = max(first_start, second_start)
    earliest_end = min(first_end, second_end)
    if earliest_end <= latest_start:
        return 0
    seconds = (earliest_end - latest_start).total_seconds()
    return int(seconds // 60)
''',
        "test_suite": [
            "assert interval_overlap_minutes(datetime(2024, 1, 1, 9), datetime(2024, 1, 1, 11), datetime(2024, 1, 1, 10), datetime(2024, 1, 1, 12)) == 60",
            "assert interval_overlap_minutes(datetime(2024, 1, 1, 9), datetime(2024, 1, 1, 10), datetime(2024, 1, 1, 10), datetime(2024, 1, 1, 11)) == 0",
            "assert interval_overlap_minutes(datetime(2024, 1, 1, 9), datetime(2024, 1, 1, 10), datetime(2024, 1, 1, 11), datetime(2024, 1, 1, 12)) == 0",
            "assert interval_overlap_minutes(datetime(2024, 1, 1, 8), datetime(2024, 1, 1, 18), datetime(2024, 1, 1, 12), datetime(2024, 1, 1, 12, 45)) == 45",
            "assert interval_overlap_minutes(datetime(2024, 1, 1, 12), datetime(2024, 1, 1, 12, 45), datetime(2024, 1, 1, 8), datetime(2024, 1, 1, 18)) == 45",
            "assert interval_overlap_minutes(datetime(2024, 1, 1, 23), datetime(2024, 1, 2, 1), datetime(2024, 1, 2, 0), datetime(2024, 1, 2, 3)) == 60",
            "assert interval_overlap_minutes(datetime(2024, 1, 1, 9, 0, 0), datetime(2024, 1, 1, 9, 2, 59), datetime(2024, 1, 1, 9), datetime(2024, 1, 1, 10)) == 2",
            "assert interval_overlap_minutes(datetime(2024, 1, 1, 9), datetime(2024, 1, 1, 10), datetime(2024, 1, 1, 9), datetime(2024, 1, 1, 10)) == 60",
        ],
    },
    {
        "query": (
            "Return the first date strictly after a given date that falls on a given weekday "
            "(0 = Monday ... 6 = Sunday), so the same weekday gives the date one week later; raise "
            "ValueError for a weekday outside 0..6."
        ),
        "function_name": "next_weekday_after",
        "canonical": '''from datetime import date, timedelta


def next_weekday_after(day, weekday):
    if weekday < 0 or weekday > 6:
        raise ValueError("weekday must be in 0..6")
    ahead = (weekday - day.weekday()) % 7
    if ahead == 0:
        ahead = 7
    return day + timedelta(days=ahead)
''',
        "test_suite": [
            "assert next_weekday_after(date(2024, 1, 1), 0) == date(2024, 1, 8)",
            "assert next_weekday_after(date(2024, 1, 1), 1) == date(2024, 1, 2)",
            "assert next_weekday_after(date(2024, 1, 1), 6) == date(2024, 1, 7)",
            "assert next_weekday_after(date(2024, 1, 7), 0) == date(2024, 1, 8)",
            "assert next_weekday_after(date(2024, 1, 5), 4) == date(2024, 1, 12)",
            "assert next_weekday_after(date(2024, 12, 31), 2) == date(2025, 1, 1)",
            "assert next_weekday_after(date(2024, 1, 3), 1) == date(2024, 1, 9)",
            "with pytest.raises(ValueError):\n    next_weekday_after(date(2024, 1, 1), 7)",
        ],
    },
    {
        "query": (
            "Convert a 24-hour 'HH:MM' clock time from one whole-hour UTC offset to another and "
            "return it as 'HH:MM', wrapping around midnight in either direction."
        ),
        "function_name": "convert_clock_between_offsets",
        "canonical": '''def convert_clock_between_offsets(clock, from_offset_hours, to_offset_hours):
    hours, minutes = clock.split(":")
    total = int(hours) * 60 + int(minutes)
    total += (to_offset_hours - from_offset_hours) * 60
    total %= 24 * 60
    return f"{total // 60:02d}:{total % 60:02d}"
''',
        "test_suite": [
            "assert convert_clock_between_offsets('12:00', 0, 2) == '14:00'",
            "assert convert_clock_between_offsets('23:30', 0, 1) == '00:30'",
            "assert convert_clock_between_offsets('00:15', 1, 0) == '23:15'",
            "assert convert_clock_between_offsets('09:45', -5, 0) == '14:45'",
            "assert convert_clock_between_offsets('10:00', 3, 3) == '10:00'",
            "assert convert_clock_between_offsets('06:00', 0, -7) == '23:00'",
            "assert convert_clock_between_offsets('23:59', -12, 12) == '23:59'",
            "assert convert_clock_between_offsets('08:05', 9, 1) == '00:05'",
        ],
    },
    {
        "query": (
            "Return how many calendar rows (Monday-first weeks) are needed to display a given month "
            "of a given year in a monthly calendar grid."
        ),
        "function_name": "weeks_spanned_by_month",
        "canonical": '''def weeks_spanned_by_month(year, month):
    import calendar
    first_weekday, length = calendar.monthrange(year, month)
    cells = first_weekday + length
    weeks = cells // 7
    if cells % 7 != 0:
        weeks += 1
    return weeks
''',
        "test_suite": [
            "assert weeks_spanned_by_month(2024, 2) == 5",
            "assert weeks_spanned_by_month(2021, 2) == 4",
            "assert weeks_spanned_by_month(2024, 9) == 6",
            "assert weeks_spanned_by_month(2024, 1) == 5",
            "assert weeks_spanned_by_month(2015, 2) == 5",
            "assert weeks_spanned_by_month(2023, 7) == 6",
            "assert weeks_spanned_by_month(2024, 6) == 5",
            "assert weeks_spanned_by_month(2023, 4) == 5",
        ],
    },
]
