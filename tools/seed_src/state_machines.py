"""Hand-written seed tasks for the state-machines domain."""

DOMAIN = "state-machines"

TASKS = [
    {
        "query": "Simulate a coin-operated turnstile that starts locked: 'coin' unlocks it (an extra coin changes nothing), 'push' while unlocked lets one person through and locks it again, and 'push' while locked does nothing. Return (number of people let through, final state 'locked' or 'unlocked'); any other event raises ValueError.",
        "function_name": "turnstile_passages",
        "canonical": '''def turnstile_passages(events):
    state = "locked"
    passed = 0
    for event in events:
        if event not in ("coin", "push"):
            raise ValueError(f"unknown event: {event}")
        if event == "coin":
            state = "unlocked"
        elif state == "unlocked":
            passed += 1
            state = "locked"
    return passed, state
''',
        "test_suite": [
            "assert turnstile_passages([]) == (0, 'locked')",
            "assert turnstile_passages(['push']) == (0, 'locked')",
            "assert turnstile_passages(['coin']) == (0, 'unlocked')",
            "assert turnstile_passages(['coin', 'push']) == (1, 'locked')",
            "assert turnstile_passages(['coin', 'coin', 'push', 'push']) == (1, 'locked')",
            "assert turnstile_passages(['coin', 'push', 'coin', 'push']) == (2, 'locked')",
            "assert turnstile_passages(['push', 'coin', 'push', 'coin']) == (1, 'unlocked')",
            "with pytest.raises(ValueError):\n    turnstile_passages(['coin', 'kick'])",
        ],
    },
    {
        "query": "Simulate a vending machine with a given price: integer events insert coins, 'select' dispenses one item when the balance is at least the price (adding balance minus price to the change returned and resetting the balance), and 'refund' returns the whole balance as change. Return (items dispensed, total change returned), ignoring any balance left at the end; a coin of zero or less raises ValueError.",
        "function_name": "vending_machine_session",
        "canonical": '''def vending_machine_session(events, price):
    balance = 0
    dispensed = 0
    change = 0
    for event in events:
        if event == "select":
            if balance >= price:
                dispensed += 1
                change += balance - price
                balance = 0
        elif event == "refund":
            change += balance
            balance = 0
        else:
            if event <= 0:
                raise ValueError("invalid coin")
            balance += event
    return dispensed, change
''',
        "test_suite": [
            "assert vending_machine_session([], 100) == (0, 0)",
            "assert vending_machine_session([100, 'select'], 100) == (1, 0)",
            "assert vending_machine_session([50, 'select'], 100) == (0, 0)",
            "assert vending_machine_session([50, 50, 25, 'select'], 100) == (1, 25)",
            "assert vending_machine_session([50, 'refund'], 100) == (0, 50)",
            "assert vending_machine_session([200, 'select', 'select'], 150) == (1, 50)",
            "assert vending_machine_session([100, 'select', 100, 'select'], 75) == (2, 50)",
            "assert vending_machine_session([50, 'refund', 50, 'select'], 50) == (1, 50)",
            "with pytest.raises(ValueError):\n    vending_machine_session([0], 50)",
            "assert vending_machine_session([1, 'refund'], 5) == (0, 1)",
        ],
    },
    {
        "query": "A traffic light starts green at tick 0, stays green for 4 ticks, yellow for 1 tick and red for 3 ticks, then repeats the cycle. Return the colour ('green', 'yellow' or 'red') shown at a given non-negative tick; a negative tick raises ValueError.",
        "function_name": "traffic_light_color_at",
        "canonical": '''def traffic_light_color_at(tick):
    if tick < 0:
        raise ValueError("tick must be non-negative")
    phases = [("green", 4), ("yellow", 1), ("red", 3)]
    cycle = sum(duration for _, duration in phases)
    remaining = tick % cycle
    for color, duration in phases:
        if remaining < duration:
            return color
        remaining -= duration
    return None
''',
        "test_suite": [
            "assert traffic_light_color_at(0) == 'green'",
            "assert traffic_light_color_at(3) == 'green'",
            "assert traffic_light_color_at(4) == 'yellow'",
            "assert traffic_light_color_at(5) == 'red'",
            "assert traffic_light_color_at(7) == 'red'",
            "assert traffic_light_color_at(8) == 'green'",
            "assert traffic_light_color_at(12) == 'yellow'",
            "assert traffic_light_color_at(100) == 'yellow'",
            "assert traffic_light_color_at(15) == 'red'",
            "with pytest.raises(ValueError):\n    traffic_light_color_at(-1)",
        ],
    },
    {
        "query": "Tokenize an arithmetic expression string with a small state machine: each maximal run of digits becomes an int token, each of + - * / ( ) becomes a one-character string token, and spaces only separate tokens. Any other character raises ValueError.",
        "function_name": "arithmetic_tokens",
        "canonical": '''def arithmetic_tokens(text):
    tokens = []
    number = None
    for ch in text:
        if ch in "0123456789":
            number = (number or 0) * 10 + int(ch)
            continue
        if number is not None:
            tokens.append(number)
            number = None
        if ch in "+-*/()":
            tokens.append(ch)
        elif ch != " ":
            raise ValueError(f"unexpected character {ch!r}")
    if number is not None:
        tokens.append(number)
    return tokens
''',
        "test_suite": [
            "assert arithmetic_tokens('12+3') == [12, '+', 3]",
            "assert arithmetic_tokens('') == []",
            "assert arithmetic_tokens(' 7 ') == [7]",
            "assert arithmetic_tokens('(1 + 23) * 456') == ['(', 1, '+', 23, ')', '*', 456]",
            "assert arithmetic_tokens('10/2-0') == [10, '/', 2, '-', 0]",
            "assert arithmetic_tokens('007') == [7]",
            "assert arithmetic_tokens('1 2') == [1, 2]",
            "with pytest.raises(ValueError):\n    arithmetic_tokens('2 ^ 3')",
        ],
    },
    {
        "query": "Simulate a door that starts 'closed' where 'open' moves closed to opened, 'close' moves opened to closed, 'lock' moves closed to locked and 'unlock' moves locked to closed; any other event, or an event not valid in the current state, is ignored. Return (final state, number of ignored events), except that as soon as three events in a row are ignored it stops and returns ('alarm', number ignored so far).",
        "function_name": "door_controller",
        "canonical": '''def door_controller(events):
    transitions = {
        ("closed", "open"): "opened",
        ("opened", "close"): "closed",
        ("closed", "lock"): "locked",
        ("locked", "unlock"): "closed",
    }
    state = "closed"
    ignored = 0
    streak = 0
    for event in events:
        key = (state, event)
        if key in transitions:
            state = transitions[key]
            streak = 0
        else:
            ignored += 1
            streak += 1
            if streak >= 3:
                return "alarm", ignored
    return state, ignored
''',
        "test_suite": [
            "assert door_controller([]) == ('closed', 0)",
            "assert door_controller(['open']) == ('opened', 0)",
            "assert door_controller(['open', 'close', 'lock']) == ('locked', 0)",
            "assert door_controller(['lock', 'open']) == ('locked', 1)",
            "assert door_controller(['lock', 'unlock', 'open']) == ('opened', 0)",
            "assert door_controller(['close', 'close', 'open']) == ('opened', 2)",
            "assert door_controller(['close', 'close', 'close', 'open']) == ('alarm', 3)",
            "assert door_controller(['close', 'close', 'open', 'lock', 'lock']) == ('opened', 4)",
            "assert door_controller(['lock', 'open', 'unlock', 'open', 'lock', 'x', 'y']) == ('alarm', 4)",
        ],
    },
    {
        "query": "Split one CSV line into fields with a character-by-character state machine: fields are separated by commas, a field that starts with a double quote may contain commas, and a doubled quote inside a quoted field stands for one quote character (a quote in the middle of an unquoted field is kept literally). Raise ValueError if a quoted field is never closed.",
        "function_name": "parse_csv_record",
        "canonical": '''def parse_csv_record(line):
    fields, field = [], ""
    in_quotes = False
    i = 0
    while i < len(line):
        ch = line[i]
        if in_quotes:
            if ch == '"' and i + 1 < len(line) and line[i + 1] == '"':
                field += '"'
                i += 1
            elif ch == '"':
                in_quotes = False
            else:
                field += ch
        elif ch == '"' and field == "":
            in_quotes = True
        elif ch == ",":
            fields.append(field)
            field = ""
        else:
            field += ch
        i += 1
    if in_quotes:
        raise ValueError("unterminated quoted field")
    return fields + [field]
''',
        "test_suite": [
            "assert parse_csv_record('a,b,c') == ['a', 'b', 'c']",
            "assert parse_csv_record('') == ['']",
            "assert parse_csv_record('a,,b') == ['a', '', 'b']",
            "assert parse_csv_record('a,') == ['a', '']",
            "assert parse_csv_record('\"x,y\",z') == ['x,y', 'z']",
            "assert parse_csv_record('\"say \"\"hi\"\"\",1') == ['say \"hi\"', '1']",
            "assert parse_csv_record('a\"b,c') == ['a\"b', 'c']",
            "assert parse_csv_record('\"\",x') == ['', 'x']",
            "assert parse_csv_record('\"a\"\"b\"') == ['a\"b']",
            "with pytest.raises(ValueError):\n    parse_csv_record('\"abc')",
        ],
    },
    {
        "query": "Simulate an elevator that starts idle at floor 0 and visits a list of requested floors in order, moving straight to each one. Return (total floors travelled, number of direction reversals between up and down), skipping requests for the current floor; a floor outside 0..num_floors-1 raises ValueError.",
        "function_name": "elevator_travel_summary",
        "canonical": '''def elevator_travel_summary(requests, num_floors):
    floor = 0
    direction = "idle"
    distance = 0
    reversals = 0
    for target in requests:
        if target < 0 or target >= num_floors:
            raise ValueError("floor out of range")
        if target == floor:
            continue
        new_direction = "up" if target > floor else "down"
        if direction != "idle" and new_direction != direction:
            reversals += 1
        direction = new_direction
        distance += abs(target - floor)
        floor = target
    return distance, reversals
''',
        "test_suite": [
            "assert elevator_travel_summary([], 5) == (0, 0)",
            "assert elevator_travel_summary([3], 5) == (3, 0)",
            "assert elevator_travel_summary([3, 1], 5) == (5, 1)",
            "assert elevator_travel_summary([3, 4, 2, 0], 5) == (8, 1)",
            "assert elevator_travel_summary([2, 2, 2], 5) == (2, 0)",
            "assert elevator_travel_summary([4, 0, 4], 5) == (12, 2)",
            "assert elevator_travel_summary([0, 1], 2) == (1, 0)",
            "assert elevator_travel_summary([1, 1, 0], 3) == (2, 1)",
            "with pytest.raises(ValueError):\n    elevator_travel_summary([5], 5)",
            "with pytest.raises(ValueError):\n    elevator_travel_summary([-1], 5)",
        ],
    },
    {
        "query": "Simulate an ATM session over (kind, value) events, starting in state 'awaiting_pin': there a ('pin', p) event moves to 'ready' if p is correct, else counts a failure, and the third failure moves to 'locked', after which all events are ignored. In 'ready', ('withdraw', amount) subtracts the amount only if it is positive and at most the balance; all other events are ignored. Return (final state, final balance).",
        "function_name": "atm_session",
        "canonical": '''def atm_session(events, correct_pin, balance):
    state = "awaiting_pin"
    failures = 0
    for kind, value in events:
        if state == "locked":
            break
        if kind == "pin" and state == "awaiting_pin":
            if value == correct_pin:
                state = "ready"
            else:
                failures += 1
                if failures >= 3:
                    state = "locked"
        elif kind == "withdraw" and state == "ready":
            if 0 < value <= balance:
                balance -= value
    return state, balance
''',
        "test_suite": [
            "assert atm_session([], 1234, 100) == ('awaiting_pin', 100)",
            "assert atm_session([('pin', 1234), ('withdraw', 30)], 1234, 100) == ('ready', 70)",
            "assert atm_session([('withdraw', 30), ('pin', 1234)], 1234, 100) == ('ready', 100)",
            "assert atm_session([('pin', 1), ('pin', 2), ('pin', 3), ('pin', 1234)], 1234, 100) == ('locked', 100)",
            "assert atm_session([('pin', 1), ('pin', 2), ('pin', 1234), ('withdraw', 100)], 1234, 100) == ('ready', 0)",
            "assert atm_session([('pin', 1234), ('withdraw', 101)], 1234, 100) == ('ready', 100)",
            "assert atm_session([('pin', 1234), ('withdraw', 0)], 1234, 100) == ('ready', 100)",
            "assert atm_session([('pin', 1234), ('withdraw', -5)], 1234, 100) == ('ready', 100)",
            "assert atm_session([('withdraw', 5), ('withdraw', 5), ('withdraw', 5), ('pin', 1234), ('withdraw', 5)], 1234, 100) == ('ready', 95)",
            "assert atm_session([('pin', 1234), ('pin', 9), ('withdraw', 10)], 1234, 50) == ('ready', 40)",
        ],
    },
    {
        "query": "Decide whether a binary string denotes a number divisible by three using a three-state DFA that tracks the remainder while reading bits left to right. The empty string returns False, and any character other than 0 or 1 raises ValueError.",
        "function_name": "binary_string_divisible_by_three",
        "canonical": '''def binary_string_divisible_by_three(bits):
    if not bits:
        return False
    state = 0
    for ch in bits:
        if ch not in "01":
            raise ValueError("not a binary digit")
        state = (state * 2 + int(ch)) % 3
    return state == 0
''',
        "test_suite": [
            "assert binary_string_divisible_by_three('') == False",
            "assert binary_string_divisible_by_three('0') == True",
            "assert binary_string_divisible_by_three('11') == True",
            "assert binary_string_divisible_by_three('110') == True",
            "assert binary_string_divisible_by_three('111') == False",
            "assert binary_string_divisible_by_three('10') == False",
            "assert binary_string_divisible_by_three('1001') == True",
            "assert binary_string_divisible_by_three('100000000001') == True",
            "assert binary_string_divisible_by_three('1000') == False",
            "with pytest.raises(ValueError):\n    binary_string_divisible_by_three('102')",
        ],
    },
    {
        "query": "Simulate a keypad lock whose state is how many digits of the code have been matched so far: a press equal to the next code digit advances the state, otherwise the state becomes 1 if the press equals the code's first digit and 0 if not. Return the index of the press that completes the code, or -1 if it never opens; an empty code raises ValueError.",
        "function_name": "keypad_unlock_index",
        "canonical": '''def keypad_unlock_index(presses, code):
    if not code:
        raise ValueError("code must not be empty")
    matched = 0
    for i, key in enumerate(presses):
        if key == code[matched]:
            matched += 1
        elif key == code[0]:
            matched = 1
        else:
            matched = 0
        if matched == len(code):
            return i
    return -1
''',
        "test_suite": [
            "assert keypad_unlock_index('1234', '1234') == 3",
            "assert keypad_unlock_index('121234', '1234') == 5",
            "assert keypad_unlock_index('', '12') == -1",
            "assert keypad_unlock_index('92', '12') == -1",
            "assert keypad_unlock_index('99123', '123') == 4",
            "assert keypad_unlock_index('1123', '123') == 3",
            "assert keypad_unlock_index('5', '5') == 0",
            "assert keypad_unlock_index('1243', '1234') == -1",
            "assert keypad_unlock_index([7, 1, 7, 7, 2], [7, 2]) == 4",
            "with pytest.raises(ValueError):\n    keypad_unlock_index('123', '')",
        ],
    },
    {
        "query": "Given a sequence of points each won by 'A' or 'B', return the winner of a tennis game: a player wins as soon as they have at least 4 points and at least 2 more than the opponent, and later points are ignored. Return None if nobody has won yet.",
        "function_name": "tennis_game_winner",
        "canonical": '''def tennis_game_winner(points):
    a = b = 0
    for point in points:
        if point == "A":
            a += 1
        else:
            b += 1
        if a >= 4 and a - b >= 2:
            return "A"
        if b >= 4 and b - a >= 2:
            return "B"
    return None
''',
        "test_suite": [
            "assert tennis_game_winner([]) is None",
            "assert tennis_game_winner(list('AAAA')) == 'A'",
            "assert tennis_game_winner(list('BBBB')) == 'B'",
            "assert tennis_game_winner(list('AAAB')) is None",
            "assert tennis_game_winner(list('AAABBBA')) is None",
            "assert tennis_game_winner(list('AAABBBAA')) == 'A'",
            "assert tennis_game_winner(list('ABABABBB')) == 'B'",
            "assert tennis_game_winner(list('AAAABBBBBB')) == 'A'",
            "assert tennis_game_winner(list('BBBAAAAA')) == 'A'",
            "assert tennis_game_winner(list('AAABBBB')) is None",
        ],
    },
    {
        "query": "Simulate a media player that starts 'stopped' at position 0: 'play' sets it 'playing' (resuming from the current position), 'pause' pauses only while playing, 'stop' stops and resets the position to 0, and 'tick' advances the position by one only while playing. When the position reaches the track length the player stops and resets to 0; return (state, position).",
        "function_name": "media_player_state",
        "canonical": '''def media_player_state(events, track_length):
    state, position = "stopped", 0
    for event in events:
        if event == "play":
            state = "playing"
        elif event == "pause" and state == "playing":
            state = "paused"
        elif event == "stop":
            state, position = "stopped", 0
        elif event == "tick" and state == "playing":
            position += 1
            if position >= track_length:
                state, position = "stopped", 0
    return state, position
''',
        "test_suite": [
            "assert media_player_state([], 3) == ('stopped', 0)",
            "assert media_player_state(['play', 'tick', 'tick'], 5) == ('playing', 2)",
            "assert media_player_state(['play', 'tick', 'pause', 'tick'], 5) == ('paused', 1)",
            "assert media_player_state(['play', 'tick', 'pause', 'play', 'tick'], 5) == ('playing', 2)",
            "assert media_player_state(['play', 'tick', 'tick', 'tick'], 3) == ('stopped', 0)",
            "assert media_player_state(['play', 'tick', 'tick'], 3) == ('playing', 2)",
            "assert media_player_state(['tick', 'play'], 3) == ('playing', 0)",
            "assert media_player_state(['play', 'tick', 'stop', 'play'], 3) == ('playing', 0)",
            "assert media_player_state(['pause', 'tick'], 3) == ('stopped', 0)",
        ],
    },
    {
        "query": "Debounce a noisy button: given samples of 0 and 1, the button starts released, becomes pressed only after `threshold` consecutive 1 samples while released, and becomes released only after `threshold` consecutive 0 samples while pressed. Return how many times it became pressed; a threshold below 1 raises ValueError.",
        "function_name": "debounced_press_count",
        "canonical": '''def debounced_press_count(samples, threshold):
    if threshold < 1:
        raise ValueError("threshold must be at least 1")
    pressed = False
    run = 0
    presses = 0
    for sample in samples:
        if (sample == 1) != pressed:
            run += 1
            if run >= threshold:
                pressed = not pressed
                run = 0
                if pressed:
                    presses += 1
        else:
            run = 0
    return presses
''',
        "test_suite": [
            "assert debounced_press_count([], 2) == 0",
            "assert debounced_press_count([1], 2) == 0",
            "assert debounced_press_count([1, 1], 2) == 1",
            "assert debounced_press_count([1, 1, 0, 0, 1, 1], 2) == 2",
            "assert debounced_press_count([1, 1, 0, 1, 1], 2) == 1",
            "assert debounced_press_count([1, 0, 1, 0, 1], 1) == 3",
            "assert debounced_press_count([1, 1, 1, 0, 0, 0, 1, 1, 1], 3) == 2",
            "assert debounced_press_count([1, 0, 1, 1], 2) == 1",
            "assert debounced_press_count([1, 0, 1, 0], 2) == 0",
            "with pytest.raises(ValueError):\n    debounced_press_count([1, 1], 0)",
        ],
    },
    {
        "query": "Model a thermostat with hysteresis that starts with the heater off: the heater switches on when a temperature reading is strictly below setpoint minus hysteresis and switches off when a reading is strictly above setpoint plus hysteresis. Return how many times the heater switched on over the readings.",
        "function_name": "thermostat_switch_on_count",
        "canonical": '''def thermostat_switch_on_count(readings, setpoint, hysteresis):
    heating = False
    switches = 0
    for temperature in readings:
        if not heating and temperature < setpoint - hysteresis:
            heating = True
            switches += 1
        elif heating and temperature > setpoint + hysteresis:
            heating = False
    return switches
''',
        "test_suite": [
            "assert thermostat_switch_on_count([], 20, 1) == 0",
            "assert thermostat_switch_on_count([18], 20, 1) == 1",
            "assert thermostat_switch_on_count([19], 20, 1) == 0",
            "assert thermostat_switch_on_count([18, 20, 18], 20, 1) == 1",
            "assert thermostat_switch_on_count([18, 22, 18], 20, 1) == 2",
            "assert thermostat_switch_on_count([18, 21, 18], 20, 1) == 1",
            "assert thermostat_switch_on_count([18, 22, 18, 22, 18], 20, 1) == 3",
            "assert thermostat_switch_on_count([10, 30, 10], 20, 0) == 2",
            "assert thermostat_switch_on_count([25, 15], 20, 2) == 1",
        ],
    },
    {
        "query": "Track a parking garage with a fixed capacity through 'enter' and 'leave' events: an 'enter' when the garage is full is rejected and counted, and a 'leave' when it is empty raises ValueError. Return (cars inside at the end, number of rejected entries).",
        "function_name": "parking_garage_tracker",
        "canonical": '''def parking_garage_tracker(events, capacity):
    occupied = 0
    rejected = 0
    for event in events:
        if event == "enter":
            if occupied < capacity:
                occupied += 1
            else:
                rejected += 1
        elif event == "leave":
            if occupied == 0:
                raise ValueError("garage is empty")
            occupied -= 1
    return occupied, rejected
''',
        "test_suite": [
            "assert parking_garage_tracker([], 2) == (0, 0)",
            "assert parking_garage_tracker(['enter'], 2) == (1, 0)",
            "assert parking_garage_tracker(['enter', 'enter', 'enter'], 2) == (2, 1)",
            "assert parking_garage_tracker(['enter', 'leave', 'enter'], 1) == (1, 0)",
            "assert parking_garage_tracker(['enter', 'enter', 'leave', 'enter', 'enter'], 2) == (2, 1)",
            "assert parking_garage_tracker(['enter'], 0) == (0, 1)",
            "assert parking_garage_tracker(['enter', 'enter', 'enter', 'leave', 'enter'], 3) == (3, 0)",
            "with pytest.raises(ValueError):\n    parking_garage_tracker(['leave'], 3)",
            "with pytest.raises(ValueError):\n    parking_garage_tracker(['enter', 'leave', 'leave'], 3)",
        ],
    },
    {
        "query": "Strip a '#' comment from one line of code, ignoring '#' characters inside single- or double-quoted strings (no escape sequences), by scanning with an in-string/out-of-string state. Return the text before the comment with trailing whitespace removed, or the line unchanged if it has no comment.",
        "function_name": "strip_hash_comment",
        "canonical": '''def strip_hash_comment(line):
    quote = None
    for i, ch in enumerate(line):
        if quote is not None:
            if ch == quote:
                quote = None
        elif ch == "'" or ch == '"':
            quote = ch
        elif ch == "#":
            return line[:i].rstrip()
    return line
''',
        "test_suite": [
            "assert strip_hash_comment('x = 1  # set x') == 'x = 1'",
            "assert strip_hash_comment('x = 1') == 'x = 1'",
            "assert strip_hash_comment('') == ''",
            "assert strip_hash_comment('# whole line') == ''",
            "assert strip_hash_comment('s = \"a#b\"  # note') == 's = \"a#b\"'",
            "assert strip_hash_comment(\"s = 'it#s' + \\\"x#\\\"\") == \"s = 'it#s' + \\\"x#\\\"\"",
            "assert strip_hash_comment(\"t = '\\\"#'  # c\") == \"t = '\\\"#'\"",
            "assert strip_hash_comment('a = 1   ') == 'a = 1   '",
            "assert strip_hash_comment('a#b#c') == 'a'",
            "assert strip_hash_comment('ab# c') == 'ab'",
        ],
    },
]
