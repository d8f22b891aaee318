# SPDX-License-Identifier: MIT
# The live viewport preview: the primitive a selected object compiles as (its explicit sk8_shape, else the one the
# compiler fits), drawn as wire lines in the 3D view. segments() is the geometry (world space, testable headless);
# the draw handler only draws it.
#
# The compiler places an explicit sk8_shape by the node's whole world matrix (scale included) and fits a
# primitive in the node's rigid frame to the mesh with its scale applied (src/shapes/build.ts, frame.ts, fit.ts);
# the preview does the same, in glTF's local axes, converted at the end: Blender (x, y, z) = glTF (x, -z, y).
import math

import bpy
from mathutils import Matrix, Quaternion, Vector

from . import catalog, props

RING = 24  # segments per circle


def _gltf_to_blender(v):
    return Vector((v[0], -v[2], v[1]))


def _frame_rotation(shape):
    """The primitive frame's rotation in glTF local axes: rotation [x, y, z, w], or +Y turned onto axis
    (src/shapes/frame.ts quatFromYTo), or identity."""
    if "rotation" in shape:
        x, y, z, w = shape["rotation"]
        q = Quaternion((w, x, y, z))
        return q.normalized() if q.magnitude > 0 else Quaternion()
    a = shape.get("axis")
    if a is None:
        return Quaternion()
    if isinstance(a, str):
        s = a.strip().lower()
        v = [0.0, 0.0, 0.0]
        v["xyz".index(s[-1])] = -1.0 if s.startswith("-") else 1.0
    else:
        v = list(a)
    n = math.sqrt(sum(c * c for c in v))
    x, y, z = (c / n for c in v)
    if y < -1 + 1e-12:
        return Quaternion((0, 1, 0, 0))
    return Quaternion((1 + y, z, 0, -x)).normalized()


def _circle(radius, y, plane="xz"):
    pts = []
    for k in range(RING):
        t = 2 * math.pi * k / RING
        c, s = radius * math.cos(t), radius * math.sin(t)
        pts.append(Vector((c, y, s)) if plane == "xz" else Vector((c, s + y, 0)) if plane == "xy" else Vector((0, s + y, c)))
    return [(pts[k], pts[(k + 1) % RING]) for k in range(RING)]


def _arc(radius, y, plane, upper):
    """Half circle in the xy or zy plane about (0, y, 0), bulging towards +y (upper) or -y."""
    out = []
    sign = 1 if upper else -1
    prev = None
    for k in range(RING // 2 + 1):
        t = math.pi * k / (RING // 2)
        a, b = radius * math.cos(t), sign * radius * math.sin(t)
        p = Vector((a, y + b, 0)) if plane == "xy" else Vector((0, y + b, a))
        if prev is not None:
            out.append((prev, p))
        prev = p
    return out


def _local_segments(shape):
    """Wire of the primitive in its own frame (axis +Y, centred), as pairs of points."""
    t = shape["type"]
    if t == "box":
        h = [x / 2 for x in shape["size"]] if "size" in shape else list(shape["halfExtents"])
        c = [Vector((sx * h[0], sy * h[1], sz * h[2])) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
        edges = [(i, j) for i in range(8) for j in range(i + 1, 8) if bin(i ^ j).count("1") == 1]
        return [(c[i], c[j]) for i, j in edges]
    r = float(shape.get("radius", 0.5))
    if t == "sphere":
        return _circle(r, 0, "xz") + _circle(r, 0, "xy") + _circle(r, 0, "zy")
    length = float(shape.get("length", shape.get("height", 1.0)))
    half = length / 2
    seg = []
    if t == "cone":
        base = _circle(r, -half)
        apex = Vector((0, half, 0))
        seg += base + [(Vector((r * math.cos(a), -half, r * math.sin(a))), apex) for a in (0, math.pi / 2, math.pi, 3 * math.pi / 2)]
        return seg
    seg += _circle(r, -half) + _circle(r, half)
    seg += [(Vector((r * math.cos(a), -half, r * math.sin(a))), Vector((r * math.cos(a), half, r * math.sin(a)))) for a in (0, math.pi / 2, math.pi, 3 * math.pi / 2)]
    if t == "capsule":
        for plane in ("xy", "zy"):
            seg += _arc(r, half, plane, True) + _arc(r, -half, plane, False)
    return seg


def shape_and_matrix(obj):
    """(shape in glTF local axes, Blender world matrix placing that local frame), or None when the object does
    not compile as a primitive."""
    mode = props.read_mode(obj)
    if mode not in catalog.PRIMITIVE_FAMILIES:
        return None
    explicit = props.read_shape(obj)
    if explicit is not None:
        return explicit, obj.matrix_world.copy()
    # Fitted: to the mesh with its scale applied, in the rigid frame (location and rotation only).
    loc, rot, scale = obj.matrix_world.decompose()
    shape = props.fit_shape(obj, mode, scale=tuple(scale))
    return shape, Matrix.LocRotScale(loc, rot, Vector((1, 1, 1)))


def segments(obj):
    """The preview's lines in Blender world space: [(a, b), …]; [] when the object is no primitive."""
    got = shape_and_matrix(obj)
    if got is None:
        return []
    shape, world = got
    q = _frame_rotation(shape)
    centre = Vector(shape.get("centre", shape.get("center", (0, 0, 0))))
    out = []
    for a, b in _local_segments(shape):
        pa = _gltf_to_blender(q @ a + centre)
        pb = _gltf_to_blender(q @ b + centre)
        out.append((world @ pa, world @ pb))
    return out


_handle = None
_cache = {}


def _cached_segments(obj):
    key = (obj.name, obj.get(props.MODE_KEY), obj.get(props.SHAPE_KEY), tuple(v for row in obj.matrix_world for v in row),
           len(getattr(obj.data, "vertices", ()) or ()))
    hit = _cache.get(obj.name)
    if hit is None or hit[0] != key:
        hit = (key, segments(obj))
        _cache[obj.name] = hit
    return hit[1]


def _draw():
    context = bpy.context
    state = getattr(context.window_manager, "sk8_state", None)
    if state is None or not state.preview:
        return
    import gpu
    from gpu_extras.batch import batch_for_shader
    coords = []
    for obj in context.selected_objects:
        for a, b in _cached_segments(obj):
            coords += [a[:], b[:]]
    if not coords:
        return
    # POLYLINE_UNIFORM_COLOR: lines wider than one pixel on every GPU backend (UNIFORM_COLOR ignores the width on
    # core profiles and Metal).
    shader = gpu.shader.from_builtin("POLYLINE_UNIFORM_COLOR")
    batch = batch_for_shader(shader, "LINES", {"pos": coords})
    region = context.region
    shader.uniform_float("viewportSize", (region.width, region.height))
    shader.uniform_float("lineWidth", 2.0)
    shader.uniform_float("color", (1.0, 0.55, 0.1, 1.0))
    gpu.state.depth_test_set("LESS_EQUAL")
    batch.draw(shader)
    gpu.state.depth_test_set("NONE")


def register():
    global _handle
    _handle = bpy.types.SpaceView3D.draw_handler_add(_draw, (), "WINDOW", "POST_VIEW")


def unregister():
    global _handle
    if _handle is not None:
        bpy.types.SpaceView3D.draw_handler_remove(_handle, "WINDOW")
        _handle = None
    _cache.clear()
