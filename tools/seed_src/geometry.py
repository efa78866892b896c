"""Seed tasks for the geometry domain (hand-written, execution-checked)."""

DOMAIN = "geometry"

TASKS = [
    {
        "query": (
            "Compute the area of a simple polygon given its vertices as (x, y) tuples in order, "
            "clockwise or counter-clockwise, using the shoelace formula; fewer than three vertices "
            "give an area of 0."
        ),
        "function_name": "polygon_area",
        "canonical": '''def polygon_area(points):
    n = len(points)
    if n < 3:
        return 0.0
    total = 0
    for i in range(n):
        x1, y1 = points[i]
        x2, y2 = points[(i + 1) % n]
        total += x1 * y2 - x2 * y1
    return abs(total) / 2
''',
        "test_suite": [
            "assert polygon_area([(0, 0), (4, 0), (4, 4), (0, 4)]) == 16",
            "assert polygon_area([(0, 0), (4, 0), (0, 3)]) == 6",
            "assert polygon_area([(0, 0), (0, 4), (4, 4), (4, 0)]) == 16",
            "assert polygon_area([]) == 0",
            "assert polygon_area([(1, 1), (2, 2)]) == 0",
            "assert polygon_area([(0, 0), (1, 1), (2, 2)]) == 0",
            "assert polygon_area([(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]) == 3",
            "assert polygon_area([(1, 1), (3, 1), (2, 4)]) == 3",
        ],
    },
    {
        "query": (
            "Decide whether a point lies inside a simple polygon (convex or concave) given as a list "
            "of (x, y) vertices, using the even-odd ray casting rule, and return True or False; the "
            "result for points exactly on the boundary is unspecified."
        ),
        "function_name": "point_in_polygon",
        "canonical": '''def point_in_polygon(point, polygon):
    x, y = point
    inside = False
    for i in range(len(polygon)):
        x1, y1 = polygon[i]
        x2, y2 = polygon[i - 1]
        if (y1 > y) != (y2 > y):
            cross_x = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < cross_x:
                inside = not inside
    return inside
''',
        "test_suite": [
            "assert point_in_polygon((2, 2), [(0, 0), (4, 0), (4, 4), (0, 4)]) is True",
            "assert point_in_polygon((5, 2), [(0, 0), (4, 0), (4, 4), (0, 4)]) is False",
            "assert point_in_polygon((-1, 2), [(0, 0), (4, 0), (4, 4), (0, 4)]) is False",
            "assert point_in_polygon((2, 5), [(0, 0), (4, 0), (4, 4), (0, 4)]) is False",
            "assert point_in_polygon((1.5, 1.5), [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]) is False",
            "assert point_in_polygon((0.5, 1.5), [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]) is True",
            "assert point_in_polygon((1.5, 0.5), [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]) is True",
            "assert point_in_polygon((1, 1), [(0, 0), (4, 0), (0, 4)]) is True",
            "assert point_in_polygon((3, 3), [(0, 0), (4, 0), (0, 4)]) is False",
        ],
    },
    {
        "query": (
            "Decide whether two closed line segments in the plane, given by their endpoints as "
            "(x, y) tuples, intersect; touching at an endpoint and overlapping collinear segments "
            "count as intersecting."
        ),
        "function_name": "segments_intersect",
        "canonical": '''def segments_intersect(a, b, c, d):
    def orientation(p, q, r):
        value = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
        return (value > 0) - (value < 0)

    def on_segment(p, q, r):
        return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])

    o1, o2 = orientation(a, b, c), orientation(a, b, d)
    o3, o4 = orientation(c, d, a), orientation(c, d, b)
    if o1 != o2 and o3 != o4:
        return True
    return (
        (o1 == 0 and on_segment(a, b, c))
        or (o2 == 0 and on_segment(a, b, d))
        or (o3 == 0 and on_segment(c, d, a))
        or (o4 == 0 and on_segment(c, d, b))
    )
''',
        "test_suite": [
            "assert segments_intersect((0, 0), (4, 4), (0, 4), (4, 0)) is True",
            "assert segments_intersect((0, 0), (4, 0), (0, 1), (4, 1)) is False",
            "assert segments_intersect((0, 0), (2, 2), (2, 2), (4, 0)) is True",
            "assert segments_intersect((0, 0), (4, 0), (2, 0), (6, 0)) is True",
            "assert segments_intersect((0, 0), (1, 1), (2, 2), (3, 3)) is False",
            "assert segments_intersect((0, 0), (4, 0), (2, -3), (2, 0)) is True",
            "assert segments_intersect((0, 0), (4, 0), (2, 1), (3, 5)) is False",
            "assert segments_intersect((0, 0), (4, 4), (1, 0), (5, 4)) is False",
            "assert segments_intersect((0, 0), (1, 0), (2, 0), (3, 0)) is False",
            "assert segments_intersect((0, 0), (0, 4), (0, 1), (0, 2)) is True",
        ],
    },
    {
        "query": (
            "Return the area of the intersection of two axis-aligned rectangles, each given as "
            "(x1, y1, x2, y2) with x1 < x2 and y1 < y2; rectangles that are disjoint or only share "
            "an edge give 0."
        ),
        "function_name": "rectangle_overlap_area",
        "canonical": '''def rectangle_overlap_area(first, second):
    left = max(first[0], second[0])
    right = min(first[2], second[2])
    bottom = max(first[1], second[1])
    top = min(first[3], second[3])
    if right <= left or top <= bottom:
        return 0
    return (right - left) * (top - bottom)
''',
        "test_suite": [
            "assert rectangle_overlap_area((0, 0, 4, 4), (2, 2, 6, 6)) == 4",
            "assert rectangle_overlap_area((0, 0, 2, 2), (3, 3, 4, 4)) == 0",
            "assert rectangle_overlap_area((0, 0, 2, 2), (2, 0, 4, 2)) == 0",
            "assert rectangle_overlap_area((0, 0, 10, 10), (2, 3, 5, 7)) == 12",
            "assert rectangle_overlap_area((0, 0, 4, 4), (0, 0, 4, 4)) == 16",
            "assert rectangle_overlap_area((1, 1, 5, 3), (2, 0, 3, 10)) == 2",
            "assert rectangle_overlap_area((0, 0, 4, 4), (-2, -2, 1, 1)) == 1",
            "assert rectangle_overlap_area((0, 0, 3, 3), (1, 5, 2, 6)) == 0",
            "assert rectangle_overlap_area((0, 0, 6, 2), (1, -1, 3, 5)) == 4",
        ],
    },
    {
        "query": (
            "Compute the convex hull of a list of 2D integer points with the monotone chain "
            "algorithm, returning the hull vertices counter-clockwise starting from the point with the "
            "smallest x (then smallest y), excluding duplicate and collinear boundary points; with "
            "fewer than three distinct points, or all points collinear, return the distinct extreme "
            "points sorted."
        ),
        "function_name": "convex_hull",
        "canonical": '''def convex_hull(points):
    unique = sorted(set(points))
    if len(unique) <= 2:
        return unique

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower = []
    for p in unique:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper = []
    for p in reversed(unique):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]
''',
        "test_suite": [
            "assert convex_hull([(0, 0), (2, 0), (2, 2), (0, 2), (1, 1)]) == [(0, 0), (2, 0), (2, 2), (0, 2)]",
            "assert convex_hull([(0, 0), (1, 0), (2, 0), (2, 2), (0, 2)]) == [(0, 0), (2, 0), (2, 2), (0, 2)]",
            "assert convex_hull([]) == []",
            "assert convex_hull([(1, 1)]) == [(1, 1)]",
            "assert convex_hull([(1, 1), (1, 1)]) == [(1, 1)]",
            "assert convex_hull([(1, 1), (0, 0)]) == [(0, 0), (1, 1)]",
            "assert convex_hull([(0, 0), (4, 0), (2, 3), (2, 1)]) == [(0, 0), (4, 0), (2, 3)]",
            "assert convex_hull([(0, 0), (1, 1), (2, 2)]) == [(0, 0), (2, 2)]",
            "assert convex_hull([(3, 3), (0, 0), (3, 0), (0, 3), (1, 2), (2, 1), (0, 1)]) == [(0, 0), (3, 0), (3, 3), (0, 3)]",
        ],
    },
    {
        "query": (
            "Classify a triangle by its angles from its three side lengths, in any order, returning "
            "'right', 'acute' or 'obtuse'; raise ValueError if the sides cannot form a triangle "
            "(a non-positive side, or the two shorter sides not summing to more than the longest)."
        ),
        "function_name": "classify_triangle_angles",
        "canonical": '''def classify_triangle_angles(a, b, c):
    x, y, z = sorted((a, b, c))
    if x <= 0 or x + y <= z:
        raise ValueError("not a valid triangle")
    legs = x * x + y * y
    hypotenuse = z * z
    if legs == hypotenuse:
        return "right"
    return "acute" if legs > hypotenuse else "obtuse"
''',
        "test_suite": [
            "assert classify_triangle_angles(3, 4, 5) == 'right'",
            "assert classify_triangle_angles(5, 3, 4) == 'right'",
            "assert classify_triangle_angles(2, 2, 2) == 'acute'",
            "assert classify_triangle_angles(2, 3, 4) == 'obtuse'",
            "assert classify_triangle_angles(4, 5, 6) == 'acute'",
            "assert classify_triangle_angles(2, 2, 3) == 'obtuse'",
            "assert classify_triangle_angles(6, 10, 8) == 'right'",
            "with pytest.raises(ValueError):\n    classify_triangle_angles(1, 2, 3)",
            "with pytest.raises(ValueError):\n    classify_triangle_angles(0, 1, 1)",
        ],
    },
    {
        "query": (
            "Return how many points two circles, each given by centre coordinates and radius, have "
            "in common: 0, 1 (tangent internally or externally) or 2, or -1 when the circles are "
            "identical."
        ),
        "function_name": "circle_intersection_count",
        "canonical": '''def circle_intersection_count(x1, y1, r1, x2, y2, r2):
    distance_sq = (x2 - x1) ** 2 + (y2 - y1) ** 2
    if distance_sq == 0 and r1 == r2:
        return -1
    outer = (r1 + r2) ** 2
    inner = (r1 - r2) ** 2
    if distance_sq > outer or distance_sq < inner:
        return 0
    if distance_sq == outer or distance_sq == inner:
        return 1
    return 2
''',
        "test_suite": [
            "assert circle_intersection_count(0, 0, 5, 0, 0, 5) == -1",
            "assert circle_intersection_count(0, 0, 1, 3, 0, 1) == 0",
            "assert circle_intersection_count(0, 0, 1, 2, 0, 1) == 1",
            "assert circle_intersection_count(0, 0, 2, 2, 0, 2) == 2",
            "assert circle_intersection_count(0, 0, 5, 1, 0, 1) == 0",
            "assert circle_intersection_count(0, 0, 5, 3, 0, 2) == 1",
            "assert circle_intersection_count(0, 0, 3, 0, 0, 1) == 0",
            "assert circle_intersection_count(0, 0, 3, 4, 0, 2) == 2",
            "assert circle_intersection_count(1, 1, 2, 4, 5, 3) == 1",
        ],
    },
    {
        "query": (
            "Return the smallest Euclidean distance between any two points in a list of (x, y) "
            "points (0.0 if two points coincide); raise ValueError if there are fewer than two points."
        ),
        "function_name": "closest_pair_distance",
        "canonical": '''def closest_pair_distance(points):
    import math
    if len(points) < 2:
        raise ValueError("need at least two points")
    best = math.inf
    for i in range(len(points)):
        for j in range(i + 1, len(points)):
            dx = points[i][0] - points[j][0]
            dy = points[i][1] - points[j][1]
            best = min(best, math.hypot(dx, dy))
    return best
''',
        "test_suite": [
            "assert closest_pair_distance([(0, 0), (3, 4)]) == 5.0",
            "assert closest_pair_distance([(0, 0), (10, 0), (13, 4)]) == 5.0",
            "assert closest_pair_distance([(0, 0), (6, 8), (20, 20)]) == 10.0",
            "assert closest_pair_distance([(1, 1), (1, 1), (5, 5)]) == 0.0",
            "assert closest_pair_distance([(0, 0), (0, 7), (0, 2)]) == 2.0",
            "assert closest_pair_distance([(-3, 0), (0, 4), (10, 10)]) == 5.0",
            "assert closest_pair_distance([(0, 9), (0, 0), (5, 9)]) == 5.0",
            "with pytest.raises(ValueError):\n    closest_pair_distance([(1, 1)])",
            "with pytest.raises(ValueError):\n    closest_pair_distance([])",
        ],
    },
    {
        "query": (
            "Rotate the point (x, y) counter-clockwise about the centre (cx, cy) by a whole number of "
            "quarter turns (90 degrees each; negative means clockwise) and return the new point as "
            "an integer (x, y) tuple."
        ),
        "function_name": "rotate_point_quarter_turns",
        "canonical": '''def rotate_point_quarter_turns(x, y, cx, cy, turns):
    dx = x - cx
    dy = y - cy
    for _ in range(turns % 4):
        dx, dy = -dy, dx
    return (cx + dx, cy + dy)
''',
        "test_suite": [
            "assert rotate_point_quarter_turns(1, 0, 0, 0, 1) == (0, 1)",
            "assert rotate_point_quarter_turns(1, 0, 0, 0, 2) == (-1, 0)",
            "assert rotate_point_quarter_turns(1, 0, 0, 0, 3) == (0, -1)",
            "assert rotate_point_quarter_turns(1, 0, 0, 0, 4) == (1, 0)",
            "assert rotate_point_quarter_turns(1, 0, 0, 0, -1) == (0, -1)",
            "assert rotate_point_quarter_turns(3, 2, 1, 1, 1) == (0, 3)",
            "assert rotate_point_quarter_turns(5, 5, 5, 5, 1) == (5, 5)",
            "assert rotate_point_quarter_turns(2, 1, 0, 0, 0) == (2, 1)",
            "assert rotate_point_quarter_turns(4, 1, 2, 3, 6) == (0, 5)",
        ],
    },
    {
        "query": (
            "Return the intersection point (x, y) of the two infinite lines through p1, p2 and "
            "through p3, p4, or None if the lines are parallel or coincident."
        ),
        "function_name": "line_intersection",
        "canonical": '''def line_intersection(p1, p2, p3, p4):
    x1, y1 = p1
    x2, y2 = p2
    x3, y3 = p3
    x4, y4 = p4
    denominator = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    if denominator == 0:
        return None
    a = x1 * y2 - y1 * x2
    b = x3 * y4 - y3 * x4
    x = (a * (x3 - x4) - (x1 - x2) * b) / denominator
    y = (a * (y3 - y4) - (y1 - y2) * b) / denominator
    return (x, y)
''',
        "test_suite": [
            "assert line_intersection((0, 0), (2, 2), (0, 2), (2, 0)) == (1.0, 1.0)",
            "assert line_intersection((0, 0), (1, 0), (0, 1), (1, 1)) is None",
            "assert line_intersection((0, 0), (1, 1), (2, 2), (3, 3)) is None",
            "assert line_intersection((0, 0), (4, 0), (1, -1), (1, 1)) == (1.0, 0.0)",
            "assert line_intersection((0, 0), (1, 2), (0, 3), (1, 2)) == (1.0, 2.0)",
            "assert line_intersection((-1, 0), (1, 0), (0, -5), (0, 5)) == (0.0, 0.0)",
            "assert line_intersection((0, 1), (1, 3), (0, 4), (1, 3)) == (1.0, 3.0)",
            "assert line_intersection((0, 0), (1, 1), (5, 0), (5, 1)) == (5.0, 5.0)",
        ],
    },
    {
        "query": (
            "Return the shortest Euclidean distance from a point to a line segment between points "
            "a and b (all (x, y) tuples), measuring to the nearest endpoint when the perpendicular "
            "foot falls outside the segment and treating a zero-length segment as a single point."
        ),
        "function_name": "point_to_segment_distance",
        "canonical": '''def point_to_segment_distance(p, a, b):
    import math
    px, py = p
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    length_sq = dx * dx + dy * dy
    if length_sq == 0:
        return math.hypot(px - ax, py - ay)
    t = ((px - ax) * dx + (py - ay) * dy) / length_sq
    t = max(0.0, min(1.0, t))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))
''',
        "test_suite": [
            "assert point_to_segment_distance((0, 5), (-3, 0), (3, 0)) == 5.0",
            "assert point_to_segment_distance((6, 4), (0, 0), (3, 0)) == 5.0",
            "assert point_to_segment_distance((-3, -4), (0, 0), (10, 0)) == 5.0",
            "assert point_to_segment_distance((3, 4), (0, 0), (0, 0)) == 5.0",
            "assert point_to_segment_distance((1, 0), (0, 0), (2, 0)) == 0.0",
            "assert point_to_segment_distance((5, 5), (0, 0), (10, 10)) == 0.0",
            "assert point_to_segment_distance((0, 3), (0, 0), (0, 2)) == 1.0",
            "assert point_to_segment_distance((4, 1), (0, 0), (0, 2)) == 4.0",
        ],
    },
    {
        "query": (
            "Return the perimeter of a closed polygon given its vertices as (x, y) tuples in order, "
            "including the edge from the last vertex back to the first; fewer than two vertices give "
            "0.0, and two vertices count the segment twice."
        ),
        "function_name": "polygon_perimeter",
        "canonical": '''def polygon_perimeter(points):
    import math
    n = len(points)
    if n < 2:
        return 0.0
    total = 0.0
    for i in range(n):
        x1, y1 = points[i]
        x2, y2 = points[(i + 1) % n]
        total += math.hypot(x2 - x1, y2 - y1)
    return total
''',
        "test_suite": [
            "assert polygon_perimeter([(0, 0), (3, 0), (3, 4)]) == 12.0",
            "assert polygon_perimeter([(0, 0), (4, 0), (4, 3), (0, 3)]) == 14.0",
            "assert polygon_perimeter([]) == 0.0",
            "assert polygon_perimeter([(1, 1)]) == 0.0",
            "assert polygon_perimeter([(0, 0), (0, 5)]) == 10.0",
            "assert polygon_perimeter([(-1, -1), (2, 3)]) == 10.0",
            "assert polygon_perimeter([(0, 0), (6, 0), (6, 8)]) == 24.0",
            "assert polygon_perimeter([(0, 0), (2, 0), (2, 2), (0, 2)]) == 8.0",
        ],
    },
    {
        "query": (
            "Decide whether a simple polygon given as a list of (x, y) vertices in order is convex, "
            "ignoring collinear consecutive vertices; return False for fewer than three vertices or "
            "when all vertices are collinear."
        ),
        "function_name": "is_convex_polygon",
        "canonical": '''def is_convex_polygon(points):
    n = len(points)
    if n < 3:
        return False
    sign = 0
    for i in range(n):
        x1, y1 = points[i]
        x2, y2 = points[(i + 1) % n]
        x3, y3 = points[(i + 2) % n]
        cross = (x2 - x1) * (y3 - y2) - (y2 - y1) * (x3 - x2)
        if cross == 0:
            continue
        if sign == 0:
            sign = 1 if cross > 0 else -1
        elif (cross > 0) != (sign > 0):
            return False
    return sign != 0
''',
        "test_suite": [
            "assert is_convex_polygon([(0, 0), (4, 0), (4, 4), (0, 4)]) is True",
            "assert is_convex_polygon([(0, 0), (0, 4), (4, 4), (4, 0)]) is True",
            "assert is_convex_polygon([(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]) is False",
            "assert is_convex_polygon([(0, 0), (3, 0), (1, 2)]) is True",
            "assert is_convex_polygon([(0, 0), (1, 1)]) is False",
            "assert is_convex_polygon([(0, 0), (1, 0), (2, 0)]) is False",
            "assert is_convex_polygon([(0, 0), (1, 0), (2, 0), (2, 2), (0, 2)]) is True",
            "assert is_convex_polygon([(0, 0), (4, 0), (1, 1), (0, 4)]) is False",
            "assert is_convex_polygon([(0, 0), (4, 0), (4, 4), (3, 1)]) is False",
        ],
    },
    {
        "query": (
            "Return the points from a list of (x, y) tuples that lie within a given radius of a "
            "centre point, boundary included, in their original order; raise ValueError for a "
            "negative radius."
        ),
        "function_name": "points_within_radius",
        "canonical": '''def points_within_radius(points, center, radius):
    if radius < 0:
        raise ValueError("radius must be non-negative")
    cx, cy = center
    limit = radius * radius
    result = []
    for x, y in points:
        if (x - cx) ** 2 + (y - cy) ** 2 <= limit:
            result.append((x, y))
    return result
''',
        "test_suite": [
            "assert points_within_radius([(0, 0), (3, 4), (5, 5)], (0, 0), 5) == [(0, 0), (3, 4)]",
            "assert points_within_radius([(1, 1)], (1, 1), 0) == [(1, 1)]",
            "assert points_within_radius([], (0, 0), 3) == []",
            "assert points_within_radius([(2, 0), (0, 2), (-2, 0), (3, 0)], (0, 0), 2) == [(2, 0), (0, 2), (-2, 0)]",
            "assert points_within_radius([(6, 8)], (0, 0), 9) == []",
            "assert points_within_radius([(4, 5)], (1, 1), 5) == [(4, 5)]",
            "assert points_within_radius([(7, 1), (1, 7)], (1, 1), 6) == [(7, 1), (1, 7)]",
            "with pytest.raises(ValueError):\n    points_within_radius([(0, 0)], (0, 0), -1)",
        ],
    },
    {
        "query": (
            "Rasterize the line segment between two integer grid points with Bresenham's line "
            "algorithm, returning every grid point from the start to the end inclusive, in order."
        ),
        "function_name": "bresenham_line",
        "canonical": '''def bresenham_line(x0, y0, x1, y1):
    dx = abs(x1 - x0)
    dy = -abs(y1 - y0)
    step_x = 1 if x0 < x1 else -1
    step_y = 1 if y0 < y1 else -1
    error = dx + dy
    points = []
    for _ in range(max(dx, -dy) + 1):
        points.append((x0, y0))
        doubled = 2 * error
        if doubled >= dy:
            error += dy
            x0 += step_x
        if doubled <= dx:
            error += dx
            y0 += step_y
    return points
''',
        "test_suite": [
            "assert bresenham_line(0, 0, 3, 0) == [(0, 0), (1, 0), (2, 0), (3, 0)]",
            "assert bresenham_line(0, 0, 0, 2) == [(0, 0), (0, 1), (0, 2)]",
            "assert bresenham_line(0, 0, 2, 2) == [(0, 0), (1, 1), (2, 2)]",
            "assert bresenham_line(0, 0, 0, 0) == [(0, 0)]",
            "assert bresenham_line(3, 0, 0, 0) == [(3, 0), (2, 0), (1, 0), (0, 0)]",
            "assert bresenham_line(0, 0, 3, 1) == [(0, 0), (1, 0), (2, 1), (3, 1)]",
            "assert bresenham_line(0, 0, 1, 3) == [(0, 0), (0, 1), (1, 2), (1, 3)]",
            "assert bresenham_line(2, 2, -1, 1) == [(2, 2), (1, 2), (0, 1), (-1, 1)]",
            "assert bresenham_line(0, 0, 5, 2) == [(0, 0), (1, 0), (2, 1), (3, 1), (4, 2), (5, 2)]",
            "assert bresenham_line(0, 0, -2, -5) == [(0, 0), (0, -1), (-1, -2), (-1, -3), (-2, -4), (-2, -5)]",
        ],
    },
    {
        "query": (
            "Count the integer lattice points (x, y) lying inside or on a circle of integer radius "
            "centred at the origin, i.e. with x*x + y*y <= radius*radius; a negative radius gives 0."
        ),
        "function_name": "count_lattice_points_in_circle",
        "canonical": '''def count_lattice_points_in_circle(radius):
    if radius < 0:
        return 0
    count = 0
    for x in range(-radius, radius + 1):
        for y in range(-radius, radius + 1):
            if x * x + y * y <= radius * radius:
                count += 1
    return count
''',
        "test_suite": [
            "assert count_lattice_points_in_circle(0) == 1",
            "assert count_lattice_points_in_circle(1) == 5",
            "assert count_lattice_points_in_circle(2) == 13",
            "assert count_lattice_points_in_circle(3) == 29",
            "assert count_lattice_points_in_circle(4) == 49",
            "assert count_lattice_points_in_circle(5) == 81",
            "assert count_lattice_points_in_circle(-1) == 0",
        ],
    },
]
