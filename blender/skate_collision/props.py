# SPDX-License-Identifier: MIT
# The collision settings of objects and materials. Every field here is a view onto the custom properties the
# compiler reads (docs/blender-export.md): it has get/set functions and no storage of its own, so a .blend prepared
# with the add-on holds only sk8_collision_mode, sk8_shape, sk8_surface, sk8_collision_material_packed and
# sk8_grind_curve, exports with "Include → Custom Properties" and compiles the same without the add-on.
#
# sk8_shape and sk8_grind_curve are written as JSON strings (the compiler reads a string or an object alike).
# sk8_shape is object-local in glTF space (Y up); the fields show Blender's local frame (Z up) and convert:
# Blender local (x, y, z) = glTF local (x, -z, y), as the glTF exporter does with +Y Up.
import json
import math
import re

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, FloatVectorProperty, StringProperty

from . import catalog

MODE_KEY = "sk8_collision_mode"
SHAPE_KEY = "sk8_shape"
SURFACE_KEY = "sk8_surface"
PACKED_KEY = "sk8_collision_material_packed"
GRIND_KEY = "sk8_grind_curve"

UNSET = "_UNSET"
OTHER = "_OTHER"

MODE_HELP = {
    "triangle_mesh": "The mesh as it is",
    "none": "No collision (render only)",
    "water": "Water material",
    "sphere": "A sphere fitted to the mesh's local bounds, or given by the shape parameters",
    "capsule": "A capsule along the longest local axis, or given by the shape parameters",
    "box": "The local bounds, or given by the shape parameters",
    "cylinder": "A cylinder along the longest local axis, or given by the shape parameters",
    "cone": "A cone base to apex along local +Z (glTF +Y), or given by the shape parameters",
    "hull": "The convex hull of the object's vertices",
    "convex_parts": "Each connected piece is one convex part (closed convex shell or flat convex polygon)",
}
# (identifier, name, description, number): numbered items, as get/set enums need.
MODE_ITEMS = [(UNSET, "Not set (triangle mesh)", "No sk8_collision_mode: compiled as the mesh", 0)] + [
    (m, m.replace("_", " ").title(), MODE_HELP.get(m, m), i + 1) for i, m in enumerate(catalog.MODES)
] + [(OTHER, "Other (as typed)", "sk8_collision_mode holds a value the add-on does not list; see Custom Properties", 99)]

SURFACE_NAMES = [name for name, _ in catalog.SURFACES]
SURFACE_WORD = {name: word for name, word in catalog.SURFACES}
SURFACE_ITEMS = [(UNSET, "Not set", "No sk8_surface: the material's name, else the default 0x20", 0)] + [
    (name, name.replace("_", " ").title(), "0x%08x" % word, i + 1) for i, (name, word) in enumerate(catalog.SURFACES)
] + [(OTHER, "Other (as typed)", "sk8_surface holds a name the add-on does not list; see Custom Properties", 999)]
GRIND_SURFACE_ITEMS = SURFACE_ITEMS[1:]

# Blender local axis → the sk8_shape "axis" string (glTF local).
AXES = [("z", "+Z"), ("-z", "-Z"), ("x", "+X"), ("-x", "-X"), ("y", "+Y"), ("-y", "-Y")]
AXIS_TO_GLTF = {"x": "x", "-x": "-x", "y": "-z", "-y": "z", "z": "y", "-z": "-y"}
AXIS_FROM_GLTF = {v: k for k, v in AXIS_TO_GLTF.items()}
AXIS_ITEMS = [(k, label, "Local %s of the object (glTF %s)" % (label, AXIS_TO_GLTF[k]), i) for i, (k, label) in enumerate(AXES)] + [
    (OTHER, "As typed", "sk8_shape gives a rotation or a vector axis; edit it in Custom Properties", 99)
]


def normalise_surface_name(name):
    """src/import/materials.ts normaliseSurfaceName: "Concrete.001" → "concrete", "Metal Rail" → "metal_rail"."""
    return re.sub(r"[\s-]+", "_", re.sub(r"\.\d{3,}$", "", name.strip()).lower())


def surface_canonical(name):
    """The listed surface a hand-typed name gives, or None."""
    key = normalise_surface_name(name)
    key = catalog.ALIASES.get(key, key)
    return key if key in SURFACE_WORD else None


def surface_of_word(text):
    """The listed surface whose packed word `text` is (to-gltf writes a grind curve's surface as its word,
    "0x02380ba0"), or None: the field then shows the name, and the compiler reads either as the same word."""
    n = parse_packed(text) if isinstance(text, str) else None
    if n is None:
        return None
    for name, word in catalog.SURFACES:
        if word == n:
            return name
    return None


def _enum_number(items, ident):
    for it in items:
        if it[0] == ident:
            return it[3]
    return None


def _ident(items, number):
    for it in items:
        if it[3] == number:
            return it[0]
    return items[0][0]


def _round(v):
    """Float fields are single precision: write them to 6 significant digits, not 0.30000001192092896."""
    return float("%.6g" % v) + 0.0  # + 0.0: no -0.0 in the JSON


# --- sk8_collision_mode -----------------------------------------------------------------------------------------

def read_mode(obj):
    """The mode the compiler will use for this object's own properties ('' when unset, None when unreadable)."""
    raw = obj.get(MODE_KEY)
    if raw is None:
        # sk8_shape alone names the mode: a primitive's family, or a stored record's hull / convex_parts.
        shape = read_shape(obj)
        record = read_record(obj) if shape is None else None
        return shape["type"] if shape else record["mode"] if record else ""
    if not isinstance(raw, str):
        return None
    name = raw.strip().lower()
    name = catalog.MODE_SPELLINGS.get(name, name)
    return name if name in catalog.MODES else None


def _get_mode(self):
    m = read_mode(self)
    if m == "":
        return 0
    return _enum_number(MODE_ITEMS, m) if m else 99


def record_dropped_by(obj, mode):
    """The stored record (read_record) that setting `mode` would drop or retype, else None: a record is kept only
    under its own mode, or none (the compiler accepts sk8_shape with none)."""
    record = read_record(obj)
    if record is None or mode in (record["mode"], "none"):
        return None
    return record


def set_mode(obj, mode):
    """Writes sk8_collision_mode ('' removes it). sk8_shape follows: kept (retyped) for a primitive, else removed;
    a stored record (read_record) is kept untouched under its own mode (or none), else removed or retyped like a
    primitive. Returns the record it dropped (read_record), else None."""
    dropped = record_dropped_by(obj, mode if mode not in ("", UNSET) else "")
    if dropped is not None:
        print("skate. collision: %s: sk8_collision_mode %s drops the %s" % (obj.name, mode or "removed", dropped["summary"]))
    if mode in ("", UNSET):
        obj.pop(MODE_KEY, None)
        obj.pop(SHAPE_KEY, None)
        return dropped
    if mode not in catalog.MODES:
        raise ValueError("sk8_collision_mode %r is not one of %s" % (mode, ", ".join(catalog.MODES)))
    obj[MODE_KEY] = mode
    if dropped is None and read_record(obj) is not None:
        return None  # the record's own mode (or none): sk8_shape as it is, not rewritten
    if dropped is not None and dropped["type"] != "box":
        # A hull / convex_parts record under another mode: the compiler refuses the two disagreeing.
        obj.pop(SHAPE_KEY, None)
        return dropped
    shape = read_shape(obj)
    if shape is not None:
        # (A stored box retyped to another primitive keeps its centre and rotation; retype_shape drops "stored".)
        if mode in catalog.PRIMITIVE_FAMILIES:
            if shape["type"] != mode:
                write_shape(obj, retype_shape(shape, mode, obj))
        elif mode != "none":
            # The compiler refuses sk8_shape with a mode that is not its primitive.
            obj.pop(SHAPE_KEY, None)
    return dropped


def _set_mode(self, value):
    ident = _ident(MODE_ITEMS, value)
    if ident != OTHER:
        set_mode(self, ident)


# --- sk8_shape ----------------------------------------------------------------------------------------------------

def _shape_value(obj):
    """sk8_shape as a dict with a lower-case type, whatever form it is held in: a JSON string (the add-on's), a
    group (the glTF importer's, for an object in extras), or Python's text of one (the glTF importer's fallback,
    str(value), for a value a group cannot hold, e.g. the nulls of a convex_parts record); else None."""
    raw = obj.get(SHAPE_KEY)
    if raw is None:
        return None
    if isinstance(raw, str):
        try:
            v = json.loads(raw)
        except ValueError:
            v = _python_text(raw)
            if isinstance(v, dict):
                v[_PYTHON_TEXT] = True
    else:
        try:
            v = raw.to_dict()
        except AttributeError:
            return None
    if not isinstance(v, dict) or not isinstance(v.get("type"), str):
        return None
    v["type"] = v["type"].strip().lower()
    return v


_PYTHON_TEXT = "\0python"  # marks a value read from Python's text (never a key of the compiler's)


def _python_text(text):
    import ast
    t = text.strip()
    if not t.startswith("{"):
        return None
    try:
        return ast.literal_eval(t)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None


def read_shape(obj):
    """sk8_shape when it is a primitive's parameters (a stored box record too: it is a box spec), else None."""
    v = _shape_value(obj)
    if v is not None:
        v.pop(_PYTHON_TEXT, None)
    return v if v is not None and v["type"] in catalog.PRIMITIVE_FAMILIES else None


# --- stored native records (src/shapes/stored.ts) -------------------------------------------------------------------
# compile-collision to-gltf writes a kind-2 box part as {"type": "box", "halfExtents", "rotation", "stored": true}, a
# kind-3 part as {"type": "hull", "vertices", "faces"} and an object of convex parts as {"type": "convex_parts",
# "parts": [null | record, …]}; --native-shapes writes those numbers again as they are. The add-on keeps them
# untouched: it shows what they hold, and only a mode change, Fit or Build from Mesh replaces them.

def _points(v):
    return len(v) // 3 if isinstance(v, list) else 0


def read_record(obj):
    """The stored record sk8_shape holds, as {type, mode, summary, detail, value, form}, else None. summary is what
    the panel says: "stored box record: exact round trip", "stored hull record: 12 vertices, 20 faces: exact round
    trip", "convex_parts: 3 parts, 2 stored records"; form how Blender holds it: "json" (a string: the add-on's
    import), "group" (custom properties: Blender's importer without the add-on; exact but for integers read as
    floats) or "python" (Python's text of it: Blender's importer without the add-on, for a value with nulls, which
    only the add-on's export writes back as JSON)."""
    v = _shape_value(obj)
    if v is None:
        return None
    form = "python" if v.pop(_PYTHON_TEXT, False) else "json" if isinstance(obj.get(SHAPE_KEY), str) else "group"
    record = _record(v)
    if record is not None:
        record["form"] = form
    return record


def _record(v):
    t = v["type"]
    if t == "box":
        if v.get("stored") is not True:
            return None
        h = v.get("halfExtents") or [x / 2 for x in v.get("size", [1, 1, 1])]
        q = v.get("rotation", [0, 0, 0, 1])
        detail = "half-extents %s m (glTF x, y, z), rotation %s (x, y, z, w)" % (
            " × ".join("%.4g" % x for x in h), ", ".join("%.4g" % x for x in q))
        return {"type": t, "mode": "box", "summary": "stored box record: exact round trip", "detail": detail, "value": v}
    if t == "hull":
        n, f = _points(v.get("vertices")), len(v.get("faces") or [])
        summary = "stored hull record: %d vertices, %d faces: exact round trip" % (n, f)
        return {"type": "hull", "mode": "hull", "summary": summary, "detail": "the kind-3 part's stored vertices and polygon faces", "value": v}
    if t == "convex_parts":
        parts = v.get("parts") if isinstance(v.get("parts"), list) else []
        stored = [p for p in parts if isinstance(p, dict)]
        summary = "convex_parts: %d part%s, %d stored record%s" % (len(parts), "" if len(parts) == 1 else "s", len(stored), "" if len(stored) == 1 else "s")
        detail = "parts without a record (null) are built from the mesh's pieces"
        return {"type": "convex_parts", "mode": "convex_parts", "summary": summary, "detail": detail, "value": v}
    return None


def record_json(value):
    """A record as the JSON string the add-on holds it in (key order and int/float kept, floats as repr: exact)."""
    return json.dumps(value, separators=(", ", ": "))


SHAPE_ORDER = ["type", "radius", "length", "height", "size", "halfExtents", "axis", "rotation", "centre", "center"]


def write_shape(obj, shape):
    """sk8_shape as a JSON string, keys in a fixed order."""
    keys = sorted(shape, key=lambda k: SHAPE_ORDER.index(k) if k in SHAPE_ORDER else 99)
    obj[SHAPE_KEY] = json.dumps({k: shape[k] for k in keys}, separators=(", ", ": "))


def local_bounds(obj, scale=(1.0, 1.0, 1.0)):
    """Min and max of the object's mesh vertices in its local frame (Blender axes), modifiers applied (as the export
    applies them), each axis times scale (1: unscaled)."""
    verts = None
    if getattr(obj, "type", None) == "MESH":
        try:
            verts = obj.evaluated_get(bpy.context.evaluated_depsgraph_get()).data.vertices
        except (AttributeError, RuntimeError, ReferenceError):
            verts = obj.data.vertices
    if not verts:
        return (-0.5, -0.5, -0.5), (0.5, 0.5, 0.5)
    lo = [math.inf] * 3
    hi = [-math.inf] * 3
    for v in verts:
        for a in range(3):
            x = v.co[a] * scale[a]
            lo[a] = min(lo[a], x)
            hi[a] = max(hi[a], x)
    return tuple(lo), tuple(hi)


def fit_shape(obj, family, scale=(1.0, 1.0, 1.0)):
    """The primitive the compiler fits when no sk8_shape is given (src/shapes/fit.ts), as explicit parameters
    (to the unscaled mesh: the compiler scales an explicit shape by the object's scale; the preview passes the
    scale to fit the scaled mesh, as the compiler fits):
    box the local bounds; sphere their centre and largest half-extent; capsule/cylinder along the longest axis
    (ties: glTF y, x, z = Blender z, x, y), radius the larger other half-extent; cone along +Z (glTF +Y)."""
    lo, hi = local_bounds(obj, scale)
    c = [(lo[a] + hi[a]) / 2 for a in range(3)]
    h = [(hi[a] - lo[a]) / 2 for a in range(3)]
    shape = {"type": family, "centre": _to_gltf_vec(c)}
    if family == "box":
        shape["size"] = [_round(2 * h[0]), _round(2 * h[2]), _round(2 * h[1])]
    elif family == "sphere":
        shape["radius"] = _round(max(h))
    elif family == "cone":
        shape["radius"] = _round(max(h[0], h[1]))
        shape["height"] = _round(2 * h[2])
        shape["axis"] = "y"
    else:
        axis = 2
        for a in (2, 0, 1):
            if h[a] > h[axis]:
                axis = a
        others = [a for a in range(3) if a != axis]
        r = max(h[others[0]], h[others[1]])
        shape["radius"] = _round(r)
        shape["length"] = _round(max(0.0, 2 * h[axis] - 2 * r) if family == "capsule" else 2 * h[axis])
        shape["axis"] = AXIS_TO_GLTF["xyz"[axis]]
    return shape


def retype_shape(shape, family, obj):
    """Another family keeping what carries over (centre, axis or rotation, radius); the rest fitted."""
    out = fit_shape(obj, family)
    for k in ("centre", "center", "rotation"):
        if k in shape:
            out[k] = shape[k]
    if "center" in out and "centre" in out:
        del out["centre"]
    if "rotation" in out:
        out.pop("axis", None)
    elif "axis" in shape and family != "sphere" and family != "box":
        out["axis"] = shape["axis"]
    if "radius" in shape and family != "box":
        out["radius"] = shape["radius"]
    return out


def _to_gltf_vec(v):
    return [_round(v[0]), _round(v[2]), _round(-v[1])]


def _from_gltf_vec(v):
    return (v[0], -v[2], v[1])


def _shape_or_fit(obj):
    shape = read_shape(obj)
    if shape is not None:
        return shape
    mode = read_mode(obj)
    return fit_shape(obj, mode if mode in catalog.PRIMITIVE_FAMILIES else "box")


def _edit_shape(obj, fn):
    shape = _shape_or_fit(obj)
    fn(shape)
    write_shape(obj, shape)
    if obj.get(MODE_KEY) is not None and read_mode(obj) != shape["type"]:
        obj[MODE_KEY] = shape["type"]


def _length_key(shape):
    t = shape["type"]
    if t == "cone":
        return "length" if "length" in shape and "height" not in shape else "height"
    if t == "cylinder":
        return "height" if "height" in shape and "length" not in shape else "length"
    return "length"


def _get_explicit(self):
    return read_shape(self) is not None


def _set_explicit(self, value):
    if not value:
        self.pop(SHAPE_KEY, None)
        return
    if read_shape(self) is None:
        mode = read_mode(self)
        family = mode if mode in catalog.PRIMITIVE_FAMILIES else "box"
        write_shape(self, fit_shape(self, family))
        if self.get(MODE_KEY) is not None and mode != family:
            self[MODE_KEY] = family


def _get_radius(self):
    s = _shape_or_fit(self)
    return float(s.get("radius", 0.5))


def _set_radius(self, v):
    _edit_shape(self, lambda s: s.__setitem__("radius", _round(v)))


def _get_length(self):
    s = _shape_or_fit(self)
    return float(s.get(_length_key(s), 1.0))


def _set_length(self, v):
    _edit_shape(self, lambda s: s.__setitem__(_length_key(s), _round(v)))


def _get_size(self):
    s = _shape_or_fit(self)
    if "halfExtents" in s:
        g = [2 * x for x in s["halfExtents"]]
    else:
        g = s.get("size", [1, 1, 1])
    return (g[0], g[2], g[1])


def _set_size(self, v):
    def fn(s):
        s.pop("halfExtents", None)
        s["size"] = [_round(v[0]), _round(v[2]), _round(v[1])]
    _edit_shape(self, fn)


def _get_centre(self):
    s = _shape_or_fit(self)
    return _from_gltf_vec(s.get("centre", s.get("center", [0, 0, 0])))


def _set_centre(self, v):
    def fn(s):
        s.pop("center", None)
        s["centre"] = _to_gltf_vec(v)
    _edit_shape(self, fn)


def _get_axis(self):
    s = _shape_or_fit(self)
    if "rotation" in s:
        return 99
    a = s.get("axis", "y")
    if isinstance(a, str):
        a = a.strip().lower().lstrip("+")
        if a in AXIS_FROM_GLTF:
            return _enum_number(AXIS_ITEMS, AXIS_FROM_GLTF[a])
    return 99


def _set_axis(self, value):
    ident = _ident(AXIS_ITEMS, value)
    if ident == OTHER:
        return

    def fn(s):
        s.pop("rotation", None)
        s["axis"] = AXIS_TO_GLTF[ident]
    _edit_shape(self, fn)


# --- sk8_surface and sk8_collision_material_packed (objects and materials) ----------------------------------------

def _get_surface(self):
    raw = self.get(SURFACE_KEY)
    if raw is None:
        return 0
    name = surface_canonical(raw) if isinstance(raw, str) else None
    return _enum_number(SURFACE_ITEMS, name) if name else 999


def set_surface(idblock, name):
    if name in ("", UNSET):
        idblock.pop(SURFACE_KEY, None)
        return
    canonical = surface_canonical(name)
    if canonical is None:
        raise ValueError("surface %r is not in the material grid (listed: %s)" % (name, ", ".join(SURFACE_NAMES)))
    idblock[SURFACE_KEY] = canonical


def _set_surface(self, value):
    ident = _ident(SURFACE_ITEMS, value)
    if ident != OTHER:
        set_surface(self, ident)


def parse_packed(text):
    """A packed word typed as 0x… or decimal → int, or None (src/import/materials.ts parsePackedMaterial)."""
    t = text.strip()
    if not re.fullmatch(r"(0[xX][0-9a-fA-F]+|\d+)", t):
        return None
    n = int(t, 0) if t.lower().startswith("0x") else int(t)
    return n if 0 <= n <= 0xFFFFFFFF else None


def _get_packed(self):
    raw = self.get(PACKED_KEY)
    if raw is None:
        return ""
    return raw if isinstance(raw, str) else "0x%08x" % (int(raw) & 0xFFFFFFFF)


def set_packed(idblock, text):
    """Writes the packed word as a "0x…" string (Blender's integer properties are signed 32-bit); '' removes it."""
    if text.strip() == "":
        idblock.pop(PACKED_KEY, None)
        return
    n = parse_packed(text)
    if n is None:
        raise ValueError("packed material %r is not a u32 (0x… or decimal)" % text)
    idblock[PACKED_KEY] = "0x%08x" % n


def _set_packed(self, value):
    """The field's setter: a word that is not one leaves the property as it was, and the panel says why under the
    field (a setter cannot report to the status bar)."""
    state = getattr(bpy.context.window_manager, "sk8_state", None)
    owner = "%s:%s" % (type(self).__name__, self.name)
    try:
        set_packed(self, value)
    except ValueError:
        if state is not None:
            state.packed_error = "%r is not a packed word (0x… or decimal, at most 0xffffffff): not set" % value.strip()
            state.packed_error_owner = owner
        return
    if state is not None and state.packed_error_owner == owner:
        state.packed_error = ""
        state.packed_error_owner = ""


def packed_error(idblock, context):
    """The message of a rejected packed word typed on this object or material, else ''."""
    state = getattr(context.window_manager, "sk8_state", None)
    if state is None or state.packed_error_owner != "%s:%s" % (type(idblock).__name__, idblock.name):
        return ""
    return state.packed_error


# --- sk8_grind_curve ------------------------------------------------------------------------------------------------

def read_grind(obj):
    """{enabled, radius, surface} from sk8_grind_curve (missing keys: the defaults)."""
    raw = obj.get(GRIND_KEY)
    out = {"enabled": False, "radius": catalog.GRIND_RADIUS_DEFAULT, "surface": catalog.GRIND_DEFAULT_SURFACE}
    if raw is None:
        return out
    v = raw
    if isinstance(v, str):
        s = v.strip()
        if s.startswith("{"):
            try:
                v = json.loads(s)
            except ValueError:
                return out
        else:
            v = s.lower() not in ("", "0", "false", "no", "off")
    elif hasattr(v, "to_dict"):
        v = v.to_dict()
    if isinstance(v, dict):
        out["enabled"] = v.get("enabled", True) not in (False, 0)
        if isinstance(v.get("radius"), (int, float)):
            out["radius"] = float(v["radius"])
        if isinstance(v.get("surface"), str):
            out["surface"] = surface_canonical(v["surface"]) or surface_of_word(v["surface"]) or v["surface"]
    else:
        out["enabled"] = bool(v)
    return out


def write_grind(obj, enabled=None, radius=None, surface=None):
    """sk8_grind_curve as JSON {enabled, radius, surface}; settings are kept while it is off (enabled false)."""
    g = read_grind(obj)
    if enabled is not None:
        g["enabled"] = bool(enabled)
    if radius is not None:
        g["radius"] = _round(min(max(radius, catalog.GRIND_RADIUS_MIN), catalog.GRIND_RADIUS_MAX))
    if surface is not None:
        if surface_canonical(surface) is None:
            raise ValueError("grind surface %r is not in the material grid" % surface)
        g["surface"] = surface_canonical(surface)
    obj[GRIND_KEY] = json.dumps({"enabled": g["enabled"], "radius": g["radius"], "surface": g["surface"]}, separators=(", ", ": "))


def _get_grind(self):
    return read_grind(self)["enabled"]


def _set_grind(self, v):
    if not v and self.get(GRIND_KEY) is None:
        return
    write_grind(self, enabled=v)


def _get_grind_radius(self):
    return read_grind(self)["radius"]


def _set_grind_radius(self, v):
    write_grind(self, radius=v)


def _get_grind_surface(self):
    n = _enum_number(GRIND_SURFACE_ITEMS, read_grind(self)["surface"])
    return n if n is not None else 999


def _set_grind_surface(self, value):
    ident = _ident(GRIND_SURFACE_ITEMS, value)
    if ident != OTHER:
        write_grind(self, surface=ident)


# --- registration -------------------------------------------------------------------------------------------------

OBJECT_PROPS = {
    "sk8_ui_mode": EnumProperty(name="Collision", description="sk8_collision_mode: what the object compiles as", items=MODE_ITEMS, get=_get_mode, set=_set_mode),
    "sk8_ui_explicit_shape": BoolProperty(name="Explicit Shape", description="Write sk8_shape: the primitive's parameters, instead of fitting it to the mesh", get=_get_explicit, set=_set_explicit),
    "sk8_ui_shape_radius": FloatProperty(name="Radius", unit="LENGTH", min=0.0, get=_get_radius, set=_set_radius, description="sk8_shape radius, metres"),
    "sk8_ui_shape_length": FloatProperty(name="Length", unit="LENGTH", min=0.0, get=_get_length, set=_set_length, description="sk8_shape length (capsule: between the hemisphere centres; cylinder: cap to cap; cone: height, base to apex)"),
    "sk8_ui_shape_size": FloatVectorProperty(name="Size", size=3, unit="LENGTH", min=0.0, get=_get_size, set=_set_size, description="sk8_shape box size: full edges along local X, Y, Z"),
    "sk8_ui_shape_centre": FloatVectorProperty(name="Centre", size=3, unit="LENGTH", get=_get_centre, set=_set_centre, description="sk8_shape centre in the object's local frame"),
    "sk8_ui_shape_axis": EnumProperty(name="Axis", items=AXIS_ITEMS, get=_get_axis, set=_set_axis, description="sk8_shape axis: the local axis the capsule, cylinder or cone runs along (cone: base to apex)"),
    "sk8_ui_surface": EnumProperty(name="Surface", items=SURFACE_ITEMS, get=_get_surface, set=_set_surface, description="sk8_surface: the collision material, from the compiler's material grid"),
    "sk8_ui_packed": StringProperty(name="Packed Word", get=_get_packed, set=_set_packed, description="sk8_collision_material_packed (experts): the packed material word, 0x… or decimal; overrides the surface"),
    "sk8_ui_grind": BoolProperty(name="Grind Curve", get=_get_grind, set=_set_grind, description="sk8_grind_curve: the mesh's loose edges become grind prisms"),
    "sk8_ui_grind_radius": FloatProperty(name="Radius", unit="LENGTH", min=catalog.GRIND_RADIUS_MIN, max=catalog.GRIND_RADIUS_MAX, get=_get_grind_radius, set=_set_grind_radius, description="Grind prism radius, metres"),
    "sk8_ui_grind_surface": EnumProperty(name="Surface", items=GRIND_SURFACE_ITEMS, get=_get_grind_surface, set=_set_grind_surface, description="Grind prism surface"),
}
MATERIAL_PROPS = {
    "sk8_ui_surface": EnumProperty(name="Surface", items=SURFACE_ITEMS, get=_get_surface, set=_set_surface, description="sk8_surface on the material"),
    "sk8_ui_packed": StringProperty(name="Packed Word", get=_get_packed, set=_set_packed, description="sk8_collision_material_packed on the material (experts)"),
}


def register():
    for k, p in OBJECT_PROPS.items():
        setattr(bpy.types.Object, k, p)
    for k, p in MATERIAL_PROPS.items():
        setattr(bpy.types.Material, k, p)


def unregister():
    for k in OBJECT_PROPS:
        delattr(bpy.types.Object, k)
    for k in MATERIAL_PROPS:
        delattr(bpy.types.Material, k)
