# The Blender add-on (blender/skate_collision/) in Blender itself: bpy, Blender as a Python module (pip install
# bpy==4.2.0), headless. test/blender/addon.test.ts runs `python3 test/blender/run.py CASE WORKDIR` for each case;
# a case prints `RESULT <json>` and exits 0, or fails an assertion (exit 1, the message on stderr).
#   properties  the same objects set up through the add-on's fields and operators, and by typing the custom
#               properties by hand: compiled (the add-on's Compile operator / plain export + the CLI), the .physics
#               files are byte for byte the same, and only the compiler's property names were written; the
#               viewport preview of each primitive spans what the compiler built.
#   finding     a level with a known crack between two objects: the build's crack finding's "go to" selects that
#               object, puts the 3D cursor on the middle of the crack edge, and selects that edge in edit mode.
#   import      a compiled sample imported through File → Import → skate. collision: the same triangle count and the
#               same packed material words as the compile output's manifest.
#   progress    many plates, built as the button's timer runs it: the status shows "compiling… encode d/N · t s"
#               from the compiler's --progress-json lines, read without blocking; every line arrives.
#   records     samples/shapes.glb compiled with --native-shapes and back through to-gltf (stored records in sk8_shape):
#               imported with Blender's glTF importer, the panel says what each holds and draws no field that would
#               drop it; exported unchanged (extras compared in addon.test.ts) and compiled again (CLI with
#               --recorded-options, and the Compile button with Native Shapes), the same files;
#               a record kept under its own mode, dropped (after asking) under another, by Build from Mesh.
#   install     the add-on's zip installs as an extension (4.2+) or a legacy add-on; a missing compiler is named.
#   goto        Go To on objects the compiler renamed (the manifest's sourceNames), on an Array modifier's copy, on a
#               degenerate triangle.
#   dropped     objects with a collision setting that yield nothing are named in a warning.
#   panel       the sidebar at its default width, the result cleared while a build runs, an invalid packed word,
#               a compile error's file, Blender without numpy.
#   release     the release's zip (the compiler inside) installed, only node on PATH: Compile and Import work.
#   placed      the ride check's and the grind map's findings (by place, outside validation) listed; Go To on them.
#   hostile     the locate/run functions fed hostile names (output folders, shims, planted compilers, no node), for
#               POSIX and, by their platform parameter, Windows: nothing runs but node on the compiler's JavaScript.
import json
import os
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.join(ROOT, "bin", "compile-collision.js")

import bpy  # noqa: E402  (first: it puts Blender's own modules on the path)
import addon_utils  # noqa: E402
import bmesh  # noqa: E402
from mathutils import Matrix, Vector  # noqa: E402

COMPILER_KEYS = {"sk8_collision_mode", "sk8_shape", "sk8_surface", "sk8_collision_material_packed", "sk8_grind_curve"}


def fresh():
    """Factory settings, and the add-on from the checkout (blender/ on the module path)."""
    if os.path.join(ROOT, "blender") not in sys.path:
        sys.path.insert(0, os.path.join(ROOT, "blender"))
    bpy.ops.wm.read_factory_settings(use_empty=True)
    addon_utils.enable("io_scene_gltf2", default_set=True)
    mod = addon_utils.enable("skate_collision", default_set=True, handle_error=None)
    assert mod is not None, "the add-on did not enable"
    bpy.context.preferences.addons["skate_collision"].preferences.compiler_path = BIN
    return mod


def mesh_object(name, verts, faces=(), edges=(), location=(0, 0, 0), rotation_z=0.0, scale=(1, 1, 1)):
    me = bpy.data.meshes.new(name)
    me.from_pydata([Vector(v) for v in verts], list(edges), list(faces))
    me.update()
    obj = bpy.data.objects.new(name, me)
    bpy.context.scene.collection.objects.link(obj)
    obj.matrix_world = Matrix.LocRotScale(Vector(location), Matrix.Rotation(rotation_z, 4, "Z").to_quaternion(), Vector(scale))
    return obj


def box_verts(sx, sy, sz, cz=0.0):
    return [(x * sx / 2, y * sy / 2, cz + z * sz / 2) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]


BOX_FACES = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]


def level_geometry():
    """The objects of the properties case, without any collision property."""
    objs = {}
    objs["deck"] = mesh_object("deck", box_verts(3, 1, 0.5, 0.25), BOX_FACES, location=(2, 1, 0))
    # An eight-sided post 2 m tall: fitted as a capsule along its longest axis (local Z).
    import math
    ring = [(0.2 * math.cos(2 * math.pi * k / 8), 0.2 * math.sin(2 * math.pi * k / 8)) for k in range(8)]
    verts = [(x, y, z) for z in (0.0, 2.0) for x, y in ring]
    faces = [(k, (k + 1) % 8, 8 + (k + 1) % 8, 8 + k) for k in range(8)] + [tuple(range(7, -1, -1)), tuple(range(8, 16))]
    objs["post"] = mesh_object("post", verts, faces, location=(-3, 2, 0), rotation_z=0.4, scale=(1.5, 1.5, 0.8))
    objs["ball"] = mesh_object("ball", box_verts(1, 1, 1), BOX_FACES, location=(0, -4, 1.5), scale=(2, 2, 2))
    objs["tube"] = mesh_object("tube", box_verts(0.4, 3, 0.4), BOX_FACES, location=(5, -2, 0.5))
    objs["rail"] = mesh_object("rail", [(0, 0, 0.6), (2, 0, 0.6), (4, 0.5, 0.6)], edges=[(0, 1), (1, 2)], location=(-6, -6, 0))
    ramp = mesh_object("ramp", [(0, 0, 0), (3, 0, 0), (3, 2, 1), (0, 2, 1)], [(0, 1, 2, 3)], location=(-4, 5, 0))
    mat = bpy.data.materials.new("RampMat")
    ramp.data.materials.append(mat)
    objs["ramp"] = ramp
    objs["pool"] = mesh_object("pool", [(0, 0, -0.3), (4, 0, -0.3), (4, 3, -0.3), (0, 3, -0.3)], [(0, 1, 2, 3)], location=(6, 4, 0))
    objs["plate"] = mesh_object("plate", [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)], [(0, 1, 2, 3)], location=(8, -6, 0.1))
    return objs


def select_only(*objs):
    for o in bpy.context.view_layer.objects:
        o.select_set(False)
    for o in objs:
        o.select_set(True)
    bpy.context.view_layer.objects.active = objs[0]


def custom_props(obj):
    return {k: (obj[k] if isinstance(obj[k], (str, int, float)) else obj[k].to_dict()) for k in obj.keys()}


def physics_files(out):
    return {f: open(os.path.join(out, f), "rb").read() for f in sorted(os.listdir(out)) if f.endswith(".physics")}


class FakeLayout:
    """Stands in for a panel's layout (headless Blender draws no panels): checks that every prop, operator and
    list a panel's draw names exists, and records the labels."""

    def __init__(self, log):
        self.log = log
        self.use_property_split = False
        self.enabled = True

    def _sub(self, *a, **k):
        return FakeLayout(self.log)

    column = row = box = _sub

    def separator(self, **k):
        pass

    def label(self, text="", **k):
        self.log.append(("label", text))

    def prop(self, data, name, **k):
        assert name in data.bl_rna.properties, "panel draws %s.%s, which does not exist" % (type(data).__name__, name)
        self.log.append(("prop", name))

    def operator(self, idname, **k):
        cat, name = idname.split(".")
        op = getattr(getattr(bpy.ops, cat), name)
        rna = op.get_rna_type()
        self.log.append(("operator", idname, k.get("text")))

        log = self.log

        class Props:
            def __setattr__(self, key, value):
                assert key in rna.properties, "panel sets %s.%s, which the operator lacks" % (idname, key)
                log.append(("operator-setting", idname, key, value))
        return Props()

    def menu(self, menu, text="", **k):
        assert hasattr(bpy.types, menu), "panel draws menu %s, which is not registered" % menu
        self.log.append(("menu", menu, text))

    def progress(self, factor=0.0, type="BAR", text=""):
        assert 0.0 < factor <= 1.0, factor
        self.log.append(("progress", round(factor, 4), text))

    def template_list(self, list_type, list_id, data, prop, active_data, active_prop, **k):
        assert hasattr(bpy.types, list_type), list_type
        assert prop in data.bl_rna.properties and active_prop in active_data.bl_rna.properties
        self.log.append(("list", prop))


def draw_panels(objects, material):
    """Every panel of the add-on drawn once per object (and the material panel) into FakeLayouts."""
    from skate_collision import ui
    from types import SimpleNamespace
    log = []
    wm = bpy.context.window_manager
    for obj in objects:
        ctx = SimpleNamespace(object=obj, active_object=obj, material=material, scene=bpy.context.scene, window_manager=wm)
        for panel in ui.CLASSES:
            panel.draw(SimpleNamespace(layout=FakeLayout(log)), ctx)
    return log


def case_properties(work):
    # 1. Through the add-on: its fields (what the panel draws) and its operators (what scripts call).
    fresh()
    o = level_geometry()
    o["deck"].sk8_ui_mode = "box"
    o["deck"].sk8_ui_explicit_shape = True
    o["deck"].sk8_ui_shape_size = (3.0, 1.0, 0.5)
    o["deck"].sk8_ui_shape_centre = (0.0, 0.0, 0.25)
    o["deck"].sk8_ui_surface = "concrete"
    select_only(o["post"])
    bpy.ops.sk8.set_mode(mode="capsule")
    bpy.ops.sk8.set_surface(surface="metal")
    o["ball"].sk8_ui_mode = "sphere"
    o["ball"].sk8_ui_explicit_shape = True
    o["ball"].sk8_ui_shape_radius = 0.75
    o["tube"].sk8_ui_mode = "cylinder"
    o["tube"].sk8_ui_explicit_shape = True
    o["tube"].sk8_ui_shape_axis = "y"
    o["tube"].sk8_ui_shape_radius = 0.2
    o["tube"].sk8_ui_shape_length = 3.0
    select_only(o["rail"])
    bpy.ops.sk8.set_grind(enabled=True, radius=0.04, surface="metal_rail")
    o["ramp"].data.materials[0].sk8_ui_surface = "wood"
    o["pool"].sk8_ui_mode = "water"
    o["plate"].sk8_ui_packed = "0x00f007a0"
    log = draw_panels(list(o.values()), o["ramp"].data.materials[0])
    drawn = {x[1] for x in log if x[0] == "prop"}
    assert {"sk8_ui_mode", "sk8_ui_shape_size", "sk8_ui_shape_radius", "sk8_ui_shape_axis", "sk8_ui_grind_radius", "out_dir"} <= drawn, drawn
    written = {name: custom_props(obj) for name, obj in o.items()}
    written["RampMat"] = custom_props(o["ramp"].data.materials[0])
    for name, p in written.items():
        assert set(p) <= COMPILER_KEYS, "%s holds properties the compiler does not read: %s" % (name, sorted(set(p) - COMPILER_KEYS))
    s = bpy.context.scene.sk8_build
    s.out_dir = os.path.join(work, "addon.collision")
    s.report = False
    select_only(o["deck"])
    r = bpy.ops.sk8.compile()
    state = bpy.context.window_manager.sk8_state
    assert r == {"FINISHED"}, "compile failed: %s" % state.status
    lines = [line.text for line in state.lines]
    assert lines and lines[0].startswith("layout: ") and "one resource per object" in lines[0], lines
    assert any(t.startswith("collision-triangles") for t in lines), lines
    addon_files = physics_files(s.out_dir)
    manifest = json.load(open(os.path.join(s.out_dir, "manifest.json")))
    # The viewport preview of each primitive (explicit: deck, ball, tube; fitted: post, rotated) spans what the
    # compiler built: the resource's bounds (game space, tessellated vertices on the true surface) in Blender axes.
    from skate_collision import preview
    bounds = {r["name"]: r["bounds"] for r in manifest["resources"]}
    spans = {}
    for name in ("deck", "ball", "tube", "post"):
        pts = [p for seg in preview.segments(o[name]) for p in seg]
        assert pts, "no preview for %s" % name
        lo = [min(p[a] for p in pts) for a in range(3)]
        hi = [max(p[a] for p in pts) for a in range(3)]
        g = bounds[name]
        want_lo = [g["min"][0], -g["max"][2], g["min"][1]]
        want_hi = [g["max"][0], -g["min"][2], g["max"][1]]
        worst = max(abs(a - b) for a, b in zip(lo + hi, want_lo + want_hi))
        assert worst < 0.01, "%s: preview spans %s … %s, the compiled shape %s … %s" % (name, lo, hi, want_lo, want_hi)
        spans[name] = [round(x, 3) for x in lo + hi]
    assert preview.segments(o["ramp"]) == [], "a triangle mesh has no preview"

    # 2. By hand, as docs/blender-export.md tells an author to type them (other spellings and key orders), and
    #    compiled the plain way: File → Export → glTF with the README's settings, then the CLI.
    fresh()
    o = level_geometry()
    o["deck"]["sk8_collision_mode"] = "box"
    o["deck"]["sk8_shape"] = '{"type":"box","centre":[0,0.25,0],"size":[3,0.5,1]}'
    o["deck"]["sk8_surface"] = "Concrete"
    o["post"]["sk8_collision_mode"] = "capsule"
    o["post"]["sk8_surface"] = "metal"
    o["ball"]["sk8_collision_mode"] = "sphere"
    o["ball"]["sk8_shape"] = '{"type": "sphere", "radius": 0.75}'
    o["tube"]["sk8_collision_mode"] = "cylinder"
    o["tube"]["sk8_shape"] = '{"type":"cylinder","radius":0.2,"length":3,"axis":"-z"}'
    o["rail"]["sk8_grind_curve"] = '{"enabled": true, "radius": 0.04, "surface": "metal_rail"}'
    o["ramp"].data.materials[0]["sk8_surface"] = "wood"
    o["pool"]["sk8_collision_mode"] = "water"
    o["plate"]["sk8_collision_material_packed"] = "0x00F007A0"
    # The add-on's fields read what was typed by hand.
    assert o["deck"].sk8_ui_mode == "box" and o["deck"].sk8_ui_surface == "concrete", (o["deck"].sk8_ui_mode, o["deck"].sk8_ui_surface)
    assert tuple(round(x, 6) for x in o["deck"].sk8_ui_shape_size) == (3.0, 1.0, 0.5), tuple(o["deck"].sk8_ui_shape_size)
    assert o["tube"].sk8_ui_shape_axis == "y", o["tube"].sk8_ui_shape_axis
    assert o["rail"].sk8_ui_grind and abs(o["rail"].sk8_ui_grind_radius - 0.04) < 1e-6
    glb = os.path.join(work, "hand.glb")
    bpy.ops.export_scene.gltf(filepath=glb, export_format="GLB", export_extras=True, export_yup=True, export_apply=True, use_mesh_edges=True)
    out = os.path.join(work, "hand.collision")
    p = subprocess.run(["node", BIN, glb, "-o", out, "--no-report", "--json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    hand_files = physics_files(out)
    assert sorted(addon_files) == sorted(hand_files), (sorted(addon_files), sorted(hand_files))
    differ = [f for f in addon_files if addon_files[f] != hand_files[f]]
    assert not differ, "these files differ: %s" % differ
    words = {r["name"]: r["materials"] for r in manifest["resources"]}
    print("RESULT " + json.dumps({"files": sorted(addon_files), "bytes": sum(len(b) for b in addon_files.values()), "written": written, "materials": words, "layout": lines[0], "preview": spans}))


def case_records(work):
    """samples/shapes.glb compiled with --native-shapes, back through to-gltf (stored records in sk8_shape: a box,
    two hulls, two convex_parts objects), imported with Blender's glTF importer, shown, exported unchanged and
    compiled again with --recorded-options; then the ways an author replaces a record."""
    out = os.path.join(work, "shapes.collision")
    p = subprocess.run(["node", BIN, os.path.join(ROOT, "samples/shapes.glb"), "-o", out, "--native-shapes", "--no-report", "--json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    source = os.path.join(work, "records.glb")
    p = subprocess.run(["node", BIN, "to-gltf", out, "-o", source], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    fresh()
    from skate_collision import operators, props, ui
    from types import SimpleNamespace
    assert bpy.ops.import_scene.gltf(filepath=source, merge_vertices=False) == {"FINISHED"}
    ob = bpy.data.objects
    held = {o.name: o[props.SHAPE_KEY] for o in ob if props.SHAPE_KEY in o.keys()}
    # What the panel says, and that showing it (the fields' getters, the menu) writes nothing.
    summaries, panels, menus = {}, {}, {}
    for name in ("crate_box", "rock_hull", "stack_convex_parts"):
        o = ob[name]
        r = props.read_record(o)
        assert r is not None and r["form"] == "json", (name, r and r["form"])
        summaries[name] = r["summary"]
        assert props.read_mode(o) == r["mode"], (name, props.read_mode(o))
        log = draw_panels([o], bpy.data.materials[0])
        panels[name] = [x[1] for x in log if x[0] == "label"][:2]
        assert ("prop", "sk8_ui_mode") not in log, "%s: the panel draws the mode field, whose set drops the record" % name
        assert ("menu", "SK8_MT_record_mode", "Hull" if name == "rock_hull" else "Box" if name == "crate_box" else "Convex Parts") in log, log
        assert ("operator-setting", "sk8.build_from_mesh", "target", name) in log, log
        mlog = []
        ui.SK8_MT_record_mode.draw(SimpleNamespace(layout=FakeLayout(mlog)), SimpleNamespace(object=o))
        menus[name] = [x[2] for x in mlog if x[0] == "operator"]
        _ = (o.sk8_ui_mode, o.sk8_ui_explicit_shape, tuple(o.sk8_ui_shape_size), tuple(o.sk8_ui_shape_centre), o.sk8_ui_shape_axis)
    for name, text in held.items():
        assert ob[name][props.SHAPE_KEY] == text, "%s: drawing the panel rewrote sk8_shape" % name
    # stack_aggregate as Blender's importer leaves a convex_parts record without the add-on: Python's text of it
    # (it cannot hold the nulls). The add-on reads it and its export writes the JSON object back.
    agg = ob["stack_aggregate"]
    agg[props.SHAPE_KEY] = str(json.loads(agg[props.SHAPE_KEY]))
    python_form = props.read_record(agg)["form"]
    assert python_form == "python", python_form
    exported = os.path.join(work, "exported.glb")
    bpy.ops.export_scene.gltf(filepath=exported, export_format="GLB", export_extras=True, export_yup=True, export_apply=True, use_mesh_edges=True)
    again = os.path.join(work, "again.collision")
    p = subprocess.run(["node", BIN, exported, "-o", again, "--recorded-options", "--no-report", "--json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    first, second = physics_files(out), physics_files(again)
    assert sorted(first) == sorted(second), (sorted(first), sorted(second))
    identical = sorted(f for f in first if first[f] == second[f])
    # The add-on's Compile button (its own export) with Native Shapes on: the same files too. Off, the panel says
    # the records compile as triangles.
    log = draw_panels([ob["rock_hull"]], bpy.data.materials[0])
    assert ("label", "Compile has Native Shapes off: this compiles as triangles, not as the stored part") in log, log
    s = bpy.context.scene.sk8_build
    s.native_shapes = True
    s.report = False
    s.out_dir = os.path.join(work, "button.collision")
    assert bpy.ops.sk8.compile() == {"FINISHED"}
    button = physics_files(s.out_dir)
    assert sorted(button) == sorted(first), (sorted(button), sorted(first))
    button_identical = sorted(f for f in first if first[f] == button[f])
    log = draw_panels([ob["rock_hull"]], bpy.data.materials[0])
    assert not [x for x in log if x[0] == "label" and x[1].startswith("Compile has Native Shapes off")], log

    # Replacing a record. Its own mode and none keep it as it is (not rewritten).
    hull = ob["rock_hull"]
    for mode in ("hull", "none", "hull"):
        assert props.set_mode(hull, mode) is None and hull[props.SHAPE_KEY] == held["rock_hull"], mode
    assert props.set_mode(ob["crate_box"], "box") is None and ob["crate_box"][props.SHAPE_KEY] == held["crate_box"]
    # The confirmation sk8.set_mode's invoke shows (a window's popup: here a stand-in window manager).
    asked = []
    wm = SimpleNamespace(invoke_confirm=lambda op, event, **k: asked.append(k) or {"RUNNING_MODAL"})
    ctx = SimpleNamespace(window_manager=wm)
    assert operators.confirm_drop(None, ctx, None, "The compiler will then build a box from the mesh.", [(hull, props.record_dropped_by(hull, "box"))]) == {"RUNNING_MODAL"}
    assert props.record_dropped_by(hull, "hull") is None and props.record_dropped_by(hull, "none") is None
    # Another mode drops it: a hull / convex_parts record is removed (the compiler refuses it under another mode),
    # a stored box retyped like any box.
    dropped = props.set_mode(ob["rock_convex_hull"], "box")
    assert dropped["type"] == "hull" and props.SHAPE_KEY not in ob["rock_convex_hull"].keys(), dict(ob["rock_convex_hull"])
    assert bpy.ops.sk8.set_mode(mode="triangle_mesh", target="stack_convex_parts") == {"FINISHED"}
    assert props.SHAPE_KEY not in ob["stack_convex_parts"].keys() and ob["stack_convex_parts"][props.MODE_KEY] == "triangle_mesh"
    assert props.set_mode(ob["crate_box"], "sphere")["type"] == "box"
    retyped = json.loads(ob["crate_box"][props.SHAPE_KEY])
    assert retyped["type"] == "sphere" and "stored" not in retyped, retyped
    # Build from Mesh: the record goes, the mode stays.
    assert bpy.ops.sk8.build_from_mesh(target="stack_aggregate") == {"FINISHED"}
    assert props.SHAPE_KEY not in agg.keys() and agg[props.MODE_KEY] == "convex_parts"
    print("RESULT " + json.dumps({"source": source, "exported": exported, "summaries": summaries, "panels": panels, "menus": menus,
                                  "files": len(first), "identical": identical, "button_identical": button_identical, "asked": asked[0], "python_form": python_form}))


def case_finding(work):
    fresh()
    # Two 2 m plates side by side, separate objects, meeting along Blender x = 10, y 3..5, z = 1 (game x = 10,
    # y = 1, z −3..−5) without being welded: a crack on each. The right one is rotated, so its local frame is not
    # the world's.
    plate = [(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)]
    left = mesh_object("left", plate, [(0, 1, 2, 3)], location=(9, 4, 1))
    right = mesh_object("right", plate, [(0, 1, 2, 3)], location=(11, 4, 1), rotation_z=1.5707963267948966)
    s = bpy.context.scene.sk8_build
    s.out_dir = os.path.join(work, "crack.collision")
    s.report = True
    # What the button's modal operator does on its timer: start (returns at once, the child running), poll, finish.
    from skate_collision import build
    state = bpy.context.window_manager.sk8_state
    job = build.start_compile(bpy.context)
    assert job.poll() is None and state.running, "start_compile waited for the build"
    polls = 1
    while job.poll() is None:
        polls += 1
        time.sleep(0.02)
    ok, msg = build.finish_compile(bpy.context, job.result)
    assert ok and not state.running, msg
    found = [(i, f) for i, f in enumerate(state.findings) if f.kind == "crackEdges" and f.object == "right"]
    assert found, "no crack finding on right: %s" % [(f.kind, f.object, f.count) for f in state.findings]
    i, f = found[0]
    assert f.severity == "WARNING" and f.count == 1, (f.severity, f.count)
    finding, findings = [f.kind, f.object, f.count], len(state.findings)
    assert all(x.severity == "WARNING" for x in state.findings if x.kind != "borderEdges")
    assert bpy.ops.sk8.go_to_finding(index=i) == {"FINISHED"}
    ctx = bpy.context
    selected = [o.name for o in ctx.selected_objects]
    assert selected == ["right"] and ctx.view_layer.objects.active.name == "right", selected
    cursor = tuple(ctx.scene.cursor.location)
    assert (Vector(cursor) - Vector((10, 4, 1))).length < 1e-4, cursor
    assert ctx.object.mode == "EDIT", ctx.object.mode
    bm = bmesh.from_edit_mesh(right.data)
    mw = right.matrix_world
    edges = [tuple(sorted((tuple(round(c, 4) for c in mw @ v.co) for v in e.verts))) for e in bm.edges if e.select]
    assert edges == [((10.0, 3.0, 1.0), (10.0, 5.0, 1.0))], edges
    assert os.path.isfile(os.path.join(state.out_dir, "report.html"))
    # Strict, from edit mode: the warnings fail the build; the message is shown, the last output stays.
    s.strict = True
    try:
        bpy.ops.sk8.compile()
        raise AssertionError("a strict build with cracks succeeded")
    except RuntimeError as e:
        strict_error = str(e)
    assert ctx.object.mode == "OBJECT", ctx.object.mode
    assert state.status.startswith("failed: ") and "strict" in state.status, state.status
    assert os.path.isfile(os.path.join(state.out_dir, "report.html"))
    print("RESULT " + json.dumps({"finding": finding, "cursor": cursor, "edge": edges[0], "findings": findings, "polls": polls, "strict": state.status}))


def case_ride(work):
    """compile --ride's findings in the findings list: a row per ride kind, go to puts the cursor on the place."""
    fresh()
    from skate_collision import build
    manifest = {"validation": {}, "ride": {"counts": {"bump": 2, "snag": 0, "step": 1, "gap": 0}, "findings": [
        {"kind": "bump", "position": [1.5, 0.25, -3.0], "resource": "collision_area_0_-1.physics", "part": 0, "face": 7, "size": 0.4, "unit": "m/s"},
        {"kind": "bump", "position": [2.5, 0.0, 4.0], "resource": "collision_area_0_0.physics", "part": 1, "face": 9, "size": 0.2, "unit": "m/s"},
        {"kind": "step", "position": [0.0, 0.1, 0.0], "resource": "collision_area_0_0.physics", "part": 0, "face": 1, "size": 0.005, "unit": "m"},
        {"kind": "gap", "position": "nowhere"}]}}
    build.load_findings(bpy.context, manifest, work)
    state = bpy.context.window_manager.sk8_state
    rows = [(f.kind, f.object, f.count, f.severity) for f in state.findings]
    # Per kind and resource (no resources listed here: each finding's resource names its row; a resource's one
    # source object would, case placed).
    assert rows == [("rideBump", "collision_area_0_-1.physics", 1, "WARNING"), ("rideBump", "collision_area_0_0.physics", 1, "WARNING"),
                    ("rideStep", "collision_area_0_0.physics", 1, "WARNING")], rows
    assert build.kind_label("rideBump") == "ride: bump"
    obj, place, note = build.go_to_finding(bpy.context, state.findings[0], 0, {})
    assert obj is None and note.startswith("collision_area_0_-1.physics is not an object of this file"), (obj, note)
    cursor = list(bpy.context.scene.cursor.location)
    assert all(abs(a - b) < 1e-6 for a, b in zip(cursor, [1.5, 3.0, 0.25])), cursor
    print("RESULT " + json.dumps({"rows": rows, "cursor": cursor}))


def case_progress(work, count):
    """A level of COUNT separate grid plates (one resource each: COUNT encode events) built the way the button's
    timer runs it: the status line shows the stage and its counts while the child runs, the build panel draws the
    bar, and every --progress-json line is read (encode 1/COUNT … COUNT/COUNT, none lost at a chunk's edge)."""
    fresh()
    n = 12  # an n × n grid of quads per plate: 288 triangles
    verts = [(x / n, y / n, 0.0) for y in range(n + 1) for x in range(n + 1)]
    faces = [(y * (n + 1) + x, y * (n + 1) + x + 1, (y + 1) * (n + 1) + x + 1, (y + 1) * (n + 1) + x) for y in range(n) for x in range(n)]
    side = int(count ** 0.5) + 1
    for k in range(count):
        mesh_object("plate_%03d" % k, verts, faces, location=(3 * (k % side), 3 * (k // side), 0.2 * (k % 3)))
    s = bpy.context.scene.sk8_build
    s.out_dir = os.path.join(work, "plates.collision")
    s.report = False
    from skate_collision import build, ui
    from types import SimpleNamespace
    state = bpy.context.window_manager.sk8_state
    job = build.start_compile(bpy.context)
    seen, bars, polls = [], [], 0
    while build.poll_compile(bpy.context, job) is None:
        polls += 1
        if not seen or seen[-1] != state.status:
            seen.append(state.status)
        if state.progress > 0:
            log = []
            ui.SK8_PT_build.draw(SimpleNamespace(layout=FakeLayout(log)), bpy.context)
            bars += [e for e in log if e[0] == "progress"]
        time.sleep(0.005)
    ok, msg = build.finish_compile(bpy.context, job.result)
    assert ok, msg
    files = physics_files(s.out_dir)
    assert len(files) == count, (len(files), count)
    encode = [e for e in job.seen if e[0] == "encode"]
    assert encode == [("encode", d, count) for d in range(1, count + 1)], encode[:5]
    stages = [e[0] for e in job.seen]
    assert stages[0] == "import" and stages[-1] == "publish", stages
    import re
    counted = [t for t in seen if re.match(r"^compiling… encode \d+/%d · \d+ s \(Esc cancels\)$" % count, t)]
    assert counted, "no status showed encode's counts: %s" % seen
    assert bars, "the build panel drew no progress bar while encoding"
    built = state.status
    # Where a pipe cannot be made non-blocking (Python 3.11 on Windows) a thread reads it: the same lines arrive.
    real = os.set_blocking

    def refuse(fd, flag):
        raise OSError("no non-blocking pipes here")
    os.set_blocking = refuse
    try:
        s.out_dir = os.path.join(work, "plates-thread.collision")
        threaded = build.start_compile(bpy.context)
        assert threaded._reader is not None
        while build.poll_compile(bpy.context, threaded) is None:
            time.sleep(0.005)
    finally:
        os.set_blocking = real
    ok, msg = build.finish_compile(bpy.context, threaded.result)
    assert ok, msg
    assert [e for e in threaded.seen if e[0] == "encode"] == encode, "the thread reader lost lines"
    # An installed compiler older than the add-on refuses --progress-json (yargs, exit 2): the message says so.
    old = os.path.join(work, "old-compile-collision.js")
    with open(old, "w") as f:
        f.write("process.stderr.write('compile-collision: Unknown arguments: progress-json, progressJson\\nRun compile-collision --help for usage.\\n'); process.exit(2);\n")
    bpy.context.preferences.addons["skate_collision"].preferences.compiler_path = old
    try:
        bpy.ops.sk8.compile()
        raise AssertionError("a compiler without --progress-json succeeded")
    except RuntimeError:
        pass
    assert state.status.startswith("failed: this compile-collision is older than the add-on"), state.status
    print("RESULT " + json.dumps({"old": state.status, "counted": len(counted), "first": counted[0], "statuses": len(seen), "bars": bars[:2], "events": len(job.seen), "polls": polls, "status": built, "files": len(files), "threaded": len(threaded.seen)}))


def case_import(work, sample):
    out = os.path.join(work, "sample.collision")
    p = subprocess.run(["node", BIN, sample, "-o", out, "--no-report", "--json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    fresh()
    r = bpy.ops.import_scene.sk8_collision(filepath=os.path.join(out, "manifest.json"))
    assert r == {"FINISHED"}, r
    from skate_collision import props
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    tris = sum(len(o.data.polygons) for o in meshes)
    assert all(len(p.vertices) == 3 for o in meshes for p in o.data.polygons)

    def resource_of(o):
        top = o
        while top.parent is not None:
            top = top.parent
        return top.name[: -len("_resource")] if top.name.endswith("_resource") else top.name

    # Grind prisms come back as their curves (to-gltf, src/export/grind.ts): loose edges the add-on reads as a grind
    # curve, in place of the prism's triangles.
    faces = {res["name"]: res["faces"] for res in manifest["resources"]}
    curves = {}
    for o in meshes:
        if o.get("sk8_grind_curve") is None:
            continue
        g = props.read_grind(o)
        assert g["enabled"] and len(o.data.polygons) == 0 and len(o.data.edges) > 0, (o.name, g)
        # to-gltf writes the surface as its packed word ("0x02380ba0"): the field shows the surface it names.
        assert o.sk8_ui_grind_surface == g["surface"] and g["surface"] in props.SURFACE_NAMES, (o.name, o[props.GRIND_KEY], o.sk8_ui_grind_surface)
        curves[resource_of(o)] = {"edges": len(o.data.edges), "radius": round(g["radius"], 6), "surface": o.sk8_ui_grind_surface, "stored": (o[props.GRIND_KEY].to_dict() if hasattr(o[props.GRIND_KEY], "to_dict") else json.loads(o[props.GRIND_KEY])).get("surface")}
    want_tris = manifest["totals"]["collision-triangles"] - sum(faces[n] for n in curves)
    assert tris == want_tris, (tris, want_tris)
    words = set()
    for o in meshes:
        for m in o.data.materials:
            words.add(int(m["sk8_collision_material_packed"], 16))
    want = {w for res in manifest["resources"] for w in res["materials"]}
    assert words == want, (sorted(words), sorted(want))
    # Per resource: its parts' triangles under its node.
    per = {}
    for o in meshes:
        name = resource_of(o)
        per[name] = per.get(name, 0) + len(o.data.polygons)
    want_per = {n: 0 if n in curves else f for n, f in faces.items()}
    assert per == want_per, (per, want_per)
    # Round trip: the imported collision compiled again by the add-on's Compile (the CLI's defaults) gives the same
    # files, byte for byte (stairs' two back-to-back pairs in their place among its triangles).
    s = bpy.context.scene.sk8_build
    s.out_dir = os.path.join(work, "again.collision")
    s.report = False
    assert bpy.ops.sk8.compile() == {"FINISHED"}, bpy.context.window_manager.sk8_state.status
    first, again = physics_files(out), physics_files(s.out_dir)
    assert sorted(first) == sorted(again), (sorted(first), sorted(again))
    identical = sorted(f for f in first if first[f] == again[f])
    print("RESULT " + json.dumps({"objects": len(meshes), "triangles": tris, "materials": sorted(words), "resources": len(per), "curves": curves,
                                  "files": len(first), "identical": identical}))


def case_install(work, zip_path, how):
    """The zip of npm run blender:zip installs as a 4.2 extension (blender_manifest.toml) and as a legacy add-on
    (bl_info), registers its fields, and its preferences are where the compiler lookup reads them. HOME is a
    temporary folder (addon.test.ts), so nothing is installed for the user."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    if how == "extension":
        assert bpy.ops.extensions.package_install_files(filepath=zip_path, repo="user_default", enable_on_install=True) == {"FINISHED"}
        module = "bl_ext.user_default.skate_collision"
    else:
        assert bpy.ops.preferences.addon_install(filepath=zip_path) == {"FINISHED"}
        assert addon_utils.enable("skate_collision", default_set=True, handle_error=None) is not None
        module = "skate_collision"
    addon = bpy.context.preferences.addons.get(module)
    assert addon is not None, [a.module for a in bpy.context.preferences.addons]
    assert hasattr(bpy.types.Object, "sk8_ui_mode") and hasattr(bpy.types.Material, "sk8_ui_surface")
    addon.preferences.compiler_path = os.path.join(work, "no-such-compiler")
    bpy.ops.mesh.primitive_cube_add()
    bpy.context.scene.sk8_build.out_dir = os.path.join(work, "out")
    try:
        bpy.ops.sk8.compile()
        raise AssertionError("compile ran without a compiler")
    except RuntimeError as e:  # an operator reporting an error raises it in a script
        assert "is not a file" in str(e), e
    status = bpy.context.window_manager.sk8_state.status
    assert "no-such-compiler" in status and "is not a file" in status, status
    # Nothing configured, none on PATH, none under the folders: the message says how to get one.
    build = sys.modules[module + ".build"]
    addon.preferences.compiler_path = ""
    os.environ["PATH"] = os.path.join(work, "empty-bin")
    os.chdir(work)
    try:
        build.find_compiler(bpy.context)
        raise AssertionError("a compiler was found with none there")
    except build.CompilerMissing as e:
        none_found = str(e)
    assert "compile-collision not found" in none_found and "Preferences" in none_found, none_found
    # node_modules/.bin/compile-collision in a folder above the saved .blend is never run (anyone who can write
    # there would choose what runs): still "not found".
    os.makedirs(os.path.join(work, "proj", "levels"))
    os.makedirs(os.path.join(work, "proj", "node_modules", ".bin"))
    fake = os.path.join(work, "proj", "node_modules", ".bin", "compile-collision")
    open(fake, "w").write("#!/usr/bin/env node\n")
    os.chmod(fake, 0o755)
    bpy.ops.wm.save_as_mainfile(filepath=os.path.join(work, "proj", "levels", "park.blend"))
    try:
        raise AssertionError("found %s" % build.find_compiler(bpy.context))
    except build.CompilerMissing:
        pass
    installed = os.path.dirname(sys.modules[module].__file__)
    assert installed.startswith(os.environ["HOME"]), installed
    print("RESULT " + json.dumps({"module": module, "files": sorted(os.listdir(installed)), "missing": status, "none": none_found}))


def case_goto(work):
    """Go To when the compiler renamed objects (the manifest's sourceNames), on an Array modifier's copy, and on a
    degenerate triangle."""
    fresh()
    from skate_collision import build
    quad = [(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)]
    # Open plates: every one has border findings (info) with locations. Names the compiler cleans or makes unique.
    names = ["Rail 1", "Rail_1", "Wall", "wall", "CON", "Kicker."]
    for k, name in enumerate(names):
        mesh_object(name, quad, [(0, 1, 2, 3)], location=(0, 10 * k, 0))
    # An Array copy: "deck" (a plate at x −1..1) arrayed twice 4 m apart along X; "other" meets the copy's left
    # edge (x = 3) along a longer edge of its own: a crack on deck at the copy, 4 m from the base mesh's left edge
    # and 2 m from its right.
    deck = mesh_object("deck", quad, [(0, 1, 2, 3)], location=(0, -20, 0))
    arr = deck.modifiers.new("Array", "ARRAY")
    arr.count = 2
    arr.use_relative_offset = False
    arr.use_constant_offset = True
    arr.constant_offset_displace = (4, 0, 0)
    mesh_object("other", [(1.5, -1, 0), (3, -1, 0), (3, 3, 0), (1.5, 3, 0)], [(0, 1, 2, 3)], location=(0, -20, 0))
    # A degenerate triangle (three points on a line) beside a good quad.
    mesh_object("sliver", [(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 2, 0), (3, 0, 0), (4, 0, 0), (5, 0, 0)], [(0, 1, 2, 3), (4, 5, 6)], location=(0, -40, 0))
    s = bpy.context.scene.sk8_build
    s.out_dir = os.path.join(work, "goto.collision")
    s.report = False
    assert bpy.ops.sk8.compile() == {"FINISHED"}, bpy.context.window_manager.sk8_state.status
    state = bpy.context.window_manager.sk8_state
    manifest = json.load(open(os.path.join(s.out_dir, "manifest.json")))
    out = {"sourceNames": manifest.get("sourceNames")}
    ctx = bpy.context
    picked = {}
    for i, f in enumerate(state.findings):
        if f.kind != "borderEdges" or f.object in picked or f.object in ("deck", "other", "sliver"):
            continue
        assert bpy.ops.sk8.go_to_finding(index=i) == {"FINISHED"}, f.object
        obj = ctx.view_layer.objects.active
        # Each plate is 10 m apart along Y: the cursor tells which plate the finding is on.
        k = round(ctx.scene.cursor.location.y / 10)
        picked[f.object] = [obj.name, names[k]]
        bpy.ops.object.mode_set(mode="OBJECT")
    for compiled, (selected, at) in picked.items():
        assert selected == at, "Go To on %s selected %s, the finding is on %s" % (compiled, selected, at)
    assert len(picked) == len(names), picked
    out["picked"] = picked
    # The crack on the Array copy: the cursor on the copy's edge, the base edge it is made from selected.
    cracks = [i for i, f in enumerate(state.findings) if f.kind == "crackEdges" and f.object == "deck"]
    assert cracks, [(f.kind, f.object) for f in state.findings]
    assert bpy.ops.sk8.go_to_finding(index=cracks[0]) == {"FINISHED"}
    assert ctx.object.name == "deck" and ctx.object.mode == "EDIT", (ctx.object.name, ctx.object.mode)
    cursor = tuple(round(c, 4) for c in ctx.scene.cursor.location)
    assert cursor == (3.0, -20.0, 0.0), cursor
    bm = bmesh.from_edit_mesh(deck.data)
    sel = [sorted(tuple(round(c, 4) for c in v.co) for v in e.verts) for e in bm.edges if e.select]
    assert sel == [[(-1.0, -1.0, 0.0), (-1.0, 1.0, 0.0)]], "selected %s, not the base edge the copy's x = 3 edge is made from" % sel
    out["array"] = {"cursor": cursor, "edge": sel[0]}
    bpy.ops.object.mode_set(mode="OBJECT")
    # The degenerate triangle: face select mode, that face selected.
    degen = [i for i, f in enumerate(state.findings) if f.kind == "degenerate" and f.object == "sliver"]
    assert degen, [(f.kind, f.object) for f in state.findings]
    assert bpy.ops.sk8.go_to_finding(index=degen[0]) == {"FINISHED"}
    assert ctx.object.name == "sliver" and ctx.object.mode == "EDIT"
    assert tuple(ctx.tool_settings.mesh_select_mode) == (False, False, True), tuple(ctx.tool_settings.mesh_select_mode)
    bm = bmesh.from_edit_mesh(ctx.object.data)
    faces = [sorted(v.index for v in f.verts) for f in bm.faces if f.select]
    assert faces == [[4, 5, 6]], faces
    out["degenerate"] = faces[0]
    bpy.ops.object.mode_set(mode="OBJECT")
    # The temporary attribute is gone; the meshes hold only what they held.
    for o in bpy.data.objects:
        if o.type == "MESH":
            assert build.INDEX_ATTRIBUTE not in o.data.attributes, o.name
    # A mesh linked from another .blend (not editable here): the object selected and the cursor placed, no edit mode.
    lib = os.path.join(work, "lib.blend")
    bpy.data.libraries.write(lib, {deck.data})
    with bpy.data.libraries.load(lib, link=True) as (src, dst):
        dst.meshes = list(src.meshes)
    linked = bpy.data.objects.new("linked", dst.meshes[0])
    bpy.context.scene.collection.objects.link(linked)
    assert linked.data.library is not None
    f = state.findings.add()
    f.object, f.kind, f.severity, f.count = "linked", "crackEdges", "WARNING", 1
    f.locations = json.dumps([{"points": [[-1, 0, -1], [-1, 0, 1]], "triangle": 0}])
    assert bpy.ops.sk8.go_to_finding(index=len(state.findings) - 1) == {"FINISHED"}
    assert ctx.view_layer.objects.active.name == "linked" and ctx.object.mode == "OBJECT", (ctx.object.name, ctx.object.mode)
    out["linked"] = tuple(round(c, 4) for c in ctx.scene.cursor.location)
    # A finding on an object the file no longer has: named, with the compiled name.
    state.source_names = json.dumps({"Rail_1_2": "Gone"})
    f = state.findings.add()
    f.object, f.kind, f.severity, f.count, f.locations = "Rail_1_2", "crackEdges", "WARNING", 1, "[]"
    try:
        bpy.ops.sk8.go_to_finding(index=len(state.findings) - 1)
        raise AssertionError("went to a missing object")
    except RuntimeError as e:
        out["missing"] = str(e).strip().splitlines()[-1]
    print("RESULT " + json.dumps(out))


def case_dropped(work):
    """Objects with a collision setting that yield nothing are named in a warning: an Empty set to Box without an
    explicit shape, a vertices-only mesh set to Box, an edge-only mesh, a curve without the grind flag, a lattice
    and a camera set to Box."""
    fresh()
    quad = [(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)]
    mesh_object("ground", quad, [(0, 1, 2, 3)])
    empty = bpy.data.objects.new("box_empty", None)
    bpy.context.scene.collection.objects.link(empty)
    empty.location = (5, 0, 0)
    empty.sk8_ui_mode = "box"
    points = mesh_object("points_box", [(0, 0, 0), (1, 0, 0), (1, 1, 1)], location=(8, 0, 0))
    points.sk8_ui_mode = "box"
    mesh_object("edges_only", [(0, 0, 0), (1, 0, 0), (2, 1, 0)], edges=[(0, 1), (1, 2)], location=(10, 0, 0))
    cu = bpy.data.curves.new("rail_curve", "CURVE")
    spline = cu.splines.new("POLY")
    spline.points.add(2)
    for k, p in enumerate([(0, 0, 1, 1), (2, 0, 1, 1), (4, 1, 1, 1)]):
        spline.points[k].co = p
    curve = bpy.data.objects.new("rail_curve", cu)
    bpy.context.scene.collection.objects.link(curve)
    # The panel shows the settings on any object: a lattice and a camera set to Box give nothing either.
    lattice = bpy.data.objects.new("cage_box", bpy.data.lattices.new("cage_box"))
    bpy.context.scene.collection.objects.link(lattice)
    lattice.location = (14, 0, 0)
    lattice.sk8_ui_mode = "box"
    cam = bpy.data.objects.new("cam_box", bpy.data.cameras.new("cam_box"))
    bpy.context.scene.collection.objects.link(cam)
    cam.sk8_ui_mode = "box"
    bpy.context.scene.collection.objects.link(bpy.data.objects.new("plain_lattice", bpy.data.lattices.new("plain_lattice")))
    # Kept out of the warnings: an object set to none, a helper empty with no setting, a grind curve that builds.
    helper = mesh_object("helper", quad, [(0, 1, 2, 3)], location=(0, 5, 0))
    helper.sk8_ui_mode = "none"
    bpy.context.scene.collection.objects.link(bpy.data.objects.new("plain_empty", None))
    rail = mesh_object("rail", [(0, 0, 0.5), (2, 0, 0.5)], edges=[(0, 1)], location=(0, -5, 0))
    rail.sk8_ui_grind = True
    s = bpy.context.scene.sk8_build
    s.out_dir = os.path.join(work, "dropped.collision")
    s.report = False
    assert bpy.ops.sk8.compile() == {"FINISHED"}, bpy.context.window_manager.sk8_state.status
    lines = [l.text for l in bpy.context.window_manager.sk8_state.lines]
    dropped = {l.split(":", 1)[0]: l for l in lines if ": no collision built: " in l}
    assert sorted(dropped) == ["box_empty", "cage_box", "cam_box", "edges_only", "points_box", "rail_curve"], lines
    print("RESULT " + json.dumps({"dropped": dropped, "lines": lines}))


class WidthLayout:
    """A layout that hands out widths as Blender's does for these calls (a row shares its width equally between its
    items, an icon-only button takes an icon's width; a split gives its first item `factor` of it) and records
    each label with the pixels it got, so a test can measure whether its text fits (blf, the UI font)."""

    def __init__(self, width, log, kind="column"):
        self.width, self.log, self.kind, self.items = width, log, kind, []
        self.use_property_split = False
        self.enabled = True

    def _add(self, item):
        self.items.append(item)
        return item

    def column(self, **k):
        return self._add(WidthLayout(0, self.log, "column"))

    def row(self, **k):
        return self._add(WidthLayout(0, self.log, "row"))

    box = column

    def split(self, factor=0.5, **k):
        lay = self._add(WidthLayout(0, self.log, "split"))
        lay.factor = factor
        return lay

    def label(self, text="", icon="NONE", **k):
        return self._add(("label", text, icon))

    def operator(self, idname, text=None, icon="NONE", **k):
        self._add(("button", text or "", icon))

        class Props:
            def __setattr__(self, key, value):
                pass
        return Props()

    def prop(self, data, name, **k):
        self._add(("prop", name, "NONE"))

    def separator(self, **k):
        pass

    def progress(self, **k):
        pass

    def template_list(self, *a, **k):
        pass

    def menu(self, *a, **k):
        pass

    def layout_widths(self, width):
        """Gives every item its width; records (label text, icon, width) in the log."""
        if self.kind == "split":
            shares = [width * self.factor] + [width * (1 - self.factor) / max(1, len(self.items) - 1)] * (len(self.items) - 1)
        elif self.kind == "row":
            fixed = [20 if isinstance(it, tuple) and it[0] == "button" and not it[1] else None for it in self.items]
            rest = width - sum(f for f in fixed if f)
            flexible = sum(1 for f in fixed if f is None) or 1
            shares = [f if f else rest / flexible for f in fixed]
        else:
            shares = [width] * len(self.items)
        for it, w in zip(self.items, shares):
            if isinstance(it, WidthLayout):
                it.layout_widths(w)
            elif it[0] == "label":
                self.log.append((it[1], it[2], w))


def overflowing(log, build):
    """The labels whose icon and text are wider than the width they got: Blender would cut their text."""
    out = []
    for text, icon, w in log:
        need = build.text_width(text) + (build.ICON_WIDTH if icon != "NONE" else 0) + 4
        if text and need > w:
            out.append((text, round(need), round(w)))
    return out


def case_panel(work):
    """The sidebar at its default width: the findings list's kind and object readable, warnings wrapped between
    words; the previous result cleared while a new build runs; an invalid packed word said in the panel; a compile
    error names the .blend, not the temporary export; no numpy: one line."""
    fresh()
    from skate_collision import build, ui
    from types import SimpleNamespace
    out = {}
    state = bpy.context.window_manager.sk8_state
    # 1. One finding of every kind, drawn as a row of the list at the default sidebar width.
    kinds = ["crackEdges", "nonManifoldEdges", "inconsistentEdges", "degenerate", "duplicate", "reversedDuplicate", "borderEdges"]
    for k in kinds:
        f = state.findings.add()
        f.object, f.kind, f.severity, f.count = "Rail_1", k, "INFO" if k == "borderEdges" else "WARNING", 3
    row_width = build.SIDEBAR_WIDTH - (build.TABS_WIDTH + build.PANEL_MARGINS)
    log = []
    for i, f in enumerate(state.findings):
        lay = WidthLayout(row_width, log)
        build.SK8_UL_findings.draw_item(SimpleNamespace(), bpy.context, lay, state, f, 0, state, "finding_index", i)
        lay.layout_widths(row_width)
    cut = overflowing(log, build)
    assert not cut, "cut at the default sidebar width: %s" % cut
    out["rows"] = [t for t, _, _ in log]
    # Warnings: wrapped between words, every line fits.
    state.findings.clear()
    warning = ("validate: object \"stairs_main_block\": 2 cracks (open edges along another edge or face, not welded) "
               "(first: edge (1.75, 0, 8)–(1.75, 0, 12) of triangle 12, along \"ground\")")
    state.lines.clear()
    it = state.lines.add()
    it.text, it.icon = warning, "ERROR"
    state.status = "built in 1.2 s → /home/author/levels/a_rather_long_folder_name/park.collision"
    log = []
    inner = build.SIDEBAR_WIDTH - build.TABS_WIDTH - build.PANEL_MARGINS
    lay = WidthLayout(inner, log)
    ui.SK8_PT_build.draw(SimpleNamespace(layout=lay), bpy.context)
    lay.layout_widths(inner)
    cut = overflowing(log, build)
    assert not cut, "cut at the default sidebar width: %s" % cut
    shown = [t for t, _, _ in log]
    start = next(i for i, t in enumerate(shown) if t.startswith("validate:"))
    joined = " ".join(shown[start:])
    assert joined.split() == warning.split(), (joined, warning)
    out["warning_lines"] = shown[start:]

    # 2. A new build clears the previous result while it runs.
    quad = [(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)]
    mesh_object("plate", quad, [(0, 1, 2, 3)])
    s = bpy.context.scene.sk8_build
    s.report = False
    bpy.ops.wm.save_as_mainfile(filepath=os.path.join(work, "park.blend"))
    s.out_dir = os.path.join(work, "a.collision")
    assert bpy.ops.sk8.compile() == {"FINISHED"}
    assert len(state.lines) and len(state.findings), "the first build shows nothing"
    job = build.start_compile(bpy.context)
    running = (len(state.lines), len(state.findings), state.status)
    while job.poll() is None:
        time.sleep(0.02)
    build.finish_compile(bpy.context, job.result)
    assert running[:2] == (0, 0), "while the new build runs the panel shows the previous one: %s lines, %s findings" % running[:2]
    out["running"] = running

    # 3. An invalid packed word: the property is left as it was and the panel says why under the field.
    plate = bpy.data.objects["plate"]
    plate.sk8_ui_packed = "0x60"
    plate.sk8_ui_packed = "0xZZZ"
    assert plate["sk8_collision_material_packed"] == "0x00000060", plate["sk8_collision_material_packed"]
    mat = bpy.data.materials.new("M")
    log = draw_panels([plate], mat)
    labels = [x[1] for x in log if x[0] == "label"]
    said = [" ".join(labels[i:i + 4]) for i, t in enumerate(labels) if "0xZZZ" in t]
    assert said and "'0xZZZ' is not a packed word" in said[0], log
    mat.sk8_ui_packed = "12345678901"
    log = draw_panels([plate], mat)
    assert [x for x in log if x[0] == "label" and "12345678901" in x[1]], "the material's error is not shown"
    out["packed"] = said[0]
    plate.sk8_ui_packed = "0x20"
    mat.sk8_ui_packed = "0x20"
    log = draw_panels([plate], mat)
    assert not [x for x in log if x[0] == "label" and "is not a packed word" in x[1]], log

    # 4. A compile error names the .blend, not /tmp/sk8-compile-*/park.glb.
    for o in list(bpy.data.objects):
        bpy.data.objects.remove(o)
    mesh_object("flat", [(0, 0, 0), (1, 0, 0), (2, 0, 0)], [(0, 1, 2)])  # every triangle without area
    try:
        bpy.ops.sk8.compile()
        raise AssertionError("compiled a scene of degenerate triangles")
    except RuntimeError:
        pass
    assert "sk8-compile-" not in state.status and os.path.join(work, "park.blend") in state.status, state.status
    out["error"] = state.status

    # 5. Blender without numpy (Debian's blender without python3-numpy): the glTF exporter cannot load; one line.
    import addon_utils
    addon_utils.disable("io_scene_gltf2")
    for name in [m for m in sys.modules if m == "io_scene_gltf2" or m.startswith("io_scene_gltf2.") or m == "numpy" or m.startswith("numpy.")]:
        del sys.modules[name]
    sys.modules["numpy"] = None
    mesh_object("ok", quad, [(0, 1, 2, 3)])
    try:
        bpy.ops.sk8.compile()
        raise AssertionError("compiled without an exporter")
    except RuntimeError:
        pass
    assert "\n" not in state.status and "Traceback" not in state.status, state.status
    assert state.status.startswith("failed: Blender's glTF exporter needs numpy"), state.status
    out["numpy"] = state.status
    print("RESULT " + json.dumps(out))


def case_release(work, zip_path):
    """The release's add-on zip (the compiler inside it, skate_collision/compiler/) installed as an extension, with
    only node on PATH and nothing configured: Compile and Import run the bundled compiler."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    addon_utils.enable("io_scene_gltf2", default_set=True)
    assert bpy.ops.extensions.package_install_files(filepath=zip_path, repo="user_default", enable_on_install=True) == {"FINISHED"}
    module = "bl_ext.user_default.skate_collision"
    build = sys.modules[module + ".build"]
    installed = os.path.dirname(sys.modules[module].__file__)
    # PATH: a folder holding node alone (no compile-collision, no npm); no preference, no SK8_COMPILE_COLLISION.
    nodebin = os.path.join(work, "nodebin")
    os.makedirs(nodebin)
    import shutil
    os.symlink(shutil.which("node"), os.path.join(nodebin, "node"))
    os.environ["PATH"] = nodebin
    os.environ.pop("SK8_COMPILE_COLLISION", None)
    cmd = build.find_compiler(bpy.context)
    assert cmd == [os.path.join(nodebin, "node"), os.path.join(installed, "compiler", "compile-collision.mjs")], cmd
    mesh_object("ground", [(-5, -5, 0), (5, -5, 0), (5, 5, 0), (-5, 5, 0)], [(0, 1, 2, 3)])
    deck = mesh_object("deck", box_verts(3, 1, 0.5, 0.25), BOX_FACES, location=(2, 1, 0))
    deck.sk8_ui_mode = "box"
    s = bpy.context.scene.sk8_build
    s.out_dir = os.path.join(work, "release.collision")
    assert bpy.ops.sk8.compile() == {"FINISHED"}, bpy.context.window_manager.sk8_state.status
    files = sorted(f for f in os.listdir(s.out_dir) if f.endswith(".physics"))
    assert files == ["deck.physics", "ground.physics"], files
    assert os.path.isfile(os.path.join(s.out_dir, "report.html"))
    before = len(bpy.data.objects)
    assert bpy.ops.import_scene.sk8_collision(filepath=os.path.join(s.out_dir, "manifest.json")) == {"FINISHED"}
    print("RESULT " + json.dumps({"command": cmd, "files": files, "imported": len(bpy.data.objects) - before, "status": bpy.context.window_manager.sk8_state.status}))


def case_placed(work, sample):
    """Findings the manifest gives by place beside the validation report: the ride check's (compile --ride) and the
    grind map's too-dense parts are listed, and Go To takes each to its object and place."""
    out_dir = os.path.join(work, "ride.collision")
    p = subprocess.run(["node", BIN, sample, "-o", out_dir, "--ride", "--no-report", "--json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    manifest = json.load(open(os.path.join(out_dir, "manifest.json")))
    fresh()
    assert bpy.ops.import_scene.gltf(filepath=sample) == {"FINISHED"}
    from skate_collision import build
    ride = manifest["ride"]["findings"]
    assert ride, "the ride check found nothing to list"
    # A part too dense to grind (none in this sample: one as the grind map writes it), and a ride finding in a
    # merged cell (no object of that name).
    manifest.setdefault("grind", {})["denseParts"] = [{"resource": "ledge", "part": 0, "density": 40.0, "faces": 900, "creases": 12, "material": 96,
                                                       "at": [1, 0.5, 1], "bounds": {"min": [0, 0, 0], "max": [2, 1, 2]}, "sourceObjects": ["ledge"]}]
    manifest["ride"]["findings"].append({"kind": "gap", "position": [5, 0, -5], "resource": "collision_area_0_0.physics", "size": 0.01, "unit": "m", "where": "seam"})
    state = bpy.context.window_manager.sk8_state
    build.load_findings(bpy.context, manifest, out_dir)
    rows = {(f.kind, f.object): f.count for f in state.findings if f.kind.startswith(("ride", "grind"))}
    want = {}
    for f in ride[:-1]:
        res = next(r for r in manifest["resources"] if r["file"] == f["resource"] or r["name"] == f["resource"])
        key = ("ride" + f["kind"].title(), res["sourceObjects"][0] if len(res["sourceObjects"]) == 1 else res["name"])
        want[key] = want.get(key, 0) + 1
    want[("rideGap", "collision_area_0_0.physics")] = 1
    want[("grindTooDense", "ledge")] = 1
    assert rows == want, (rows, want)
    ctx = bpy.context
    gone = {}
    for i, f in enumerate(state.findings):
        # The first bump or snag on an authored object (the skatepark's, --seams level: snags at the funbox's crest
        # and the quarter pipe's side; its bumps were the feet the face pass joins).
        if f.kind in ("rideBump", "rideSnag") and not f.object.startswith("collision_area") and "hit" not in gone:
            assert bpy.ops.sk8.go_to_finding(index=i) == {"FINISHED"}
            first = json.loads(f.locations)[0]["points"][0]
            assert ctx.view_layer.objects.active.name == f.object, (ctx.view_layer.objects.active.name, f.object)
            cursor = tuple(round(c, 4) for c in ctx.scene.cursor.location)
            assert cursor == tuple(round(c, 4) + 0.0 for c in build.game_to_blender(first)), (cursor, first)
            gone["hit"] = [f.object, cursor]
        if f.kind == "grindTooDense":
            assert bpy.ops.sk8.go_to_finding(index=i) == {"FINISHED"}
            assert ctx.view_layer.objects.active.name == "ledge"
            gone["dense"] = tuple(round(c, 4) for c in ctx.scene.cursor.location)
        if f.kind == "rideGap" and f.object.startswith("collision_area"):
            assert bpy.ops.sk8.go_to_finding(index=i) == {"FINISHED"}
            gone["cell"] = tuple(round(c, 4) for c in ctx.scene.cursor.location)
    assert gone.get("dense") == (1.0, -1.0, 0.5) and gone.get("cell") == (5.0, 5.0, 0.0), gone
    labels = sorted({build.list_label(f.kind) for f in state.findings})
    print("RESULT " + json.dumps({"rows": {"%s %s" % k: v for k, v in rows.items()}, "went": gone, "labels": labels}))


def msvc_argv(line):
    """Splits a Windows command line as node.exe's C runtime does (CommandLineToArgvW's rules)."""
    args, cur, i, quoted, have = [], [], 0, False, False
    while i < len(line):
        c = line[i]
        if c == "\\":
            n = 0
            while i < len(line) and line[i] == "\\":
                n += 1
                i += 1
            if i < len(line) and line[i] == '"':
                cur.append("\\" * (n // 2))
                if n % 2:
                    cur.append('"')
                    i += 1
                have = True
            else:
                cur.append("\\" * n)
                have = True
            continue
        if c == '"':
            if quoted and i + 1 < len(line) and line[i + 1] == '"':
                cur.append('"')
                i += 2
                continue
            quoted = not quoted
            have = True
            i += 1
            continue
        if c in " \t" and not quoted:
            if have or cur:
                args.append("".join(cur))
            cur, have = [], False
            i += 1
            continue
        cur.append(c)
        have = True
        i += 1
    if have or cur:
        args.append("".join(cur))
    return args


HOSTILE_NAMES = ["C:\\x&calc", "x&calc", "$(touch PWNED)", "`touch PWNED`", "a;touch PWNED", "a|touch PWNED", "\"; touch PWNED; \"",
                 "%COMSPEC% /c calc", "^&calc", "it's", "a\\\"b\\", "trailing\\", "-o", "--help", "--config=x", "new\nline", "sp ace", "ünï cødé"]


def case_hostile(work):
    """The add-on's locate/run functions (locate.py, build.find_compiler, build.start_compile) fed hostile names,
    for POSIX and (selected by their platform parameter) Windows."""
    fresh()
    from skate_collision import build, locate
    prefs = bpy.context.preferences.addons["skate_collision"].preferences
    prefs.compiler_path = ""
    out = {}
    # A fake release: <add-on>/compiler/compile-collision.mjs that records the arguments it was given.
    addon = os.path.join(work, "addon")
    os.makedirs(os.path.join(addon, "compiler"))
    record = os.path.join(work, "argv.json")
    with open(os.path.join(addon, "compiler", "compile-collision.mjs"), "w") as f:
        f.write("import { writeFileSync } from 'node:fs';\nwriteFileSync(%s, JSON.stringify(process.argv.slice(2)));\n"
                "process.stdout.write(JSON.stringify({ ok: false, error: { stage: 'cli', message: 'fake' } }));\nprocess.exit(1);\n" % json.dumps(record))
    node = locate.find_node()
    env = {"PATH": os.path.dirname(node), "HOME": os.path.join(work, "nohome")}
    cmd = build.find_compiler(bpy.context, env=env, addon_dir=addon)
    assert cmd == [node, os.path.join(addon, "compiler", "compile-collision.mjs")], cmd
    # The bundled compiler in a folder others can write is refused by name.
    os.chmod(os.path.join(addon, "compiler"), 0o777)
    try:
        build.find_compiler(bpy.context, env=env, addon_dir=addon)
        raise AssertionError("ran a bundled compiler others could replace")
    except build.CompilerMissing as e:
        assert "bundled with the add-on" in str(e) and "can be written by other users" in str(e), e
    os.chmod(os.path.join(addon, "compiler"), 0o755)
    # 1. Output folders a shared .blend could hold: each reaches the compiler as one argument, unchanged, and no
    #    shell runs anything (no PWNED file anywhere).
    os.chdir(work)
    real_find = build.find_compiler
    build.find_compiler = lambda context=None, **k: real_find(context, env=env, addon_dir=addon)
    mesh_object("floor", [(0, 0, 0), (1, 0, 0), (1, 1, 0)], [(0, 1, 2)])
    bpy.ops.wm.save_as_mainfile(filepath=os.path.join(work, "level.blend"))
    passed = []
    try:
        for name in HOSTILE_NAMES:
            if "\n" in name:
                continue  # a newline is not a folder name Blender's field keeps; given to the compiler below
            bpy.context.scene.sk8_build.out_dir = os.path.join(work, "outs", name)
            job = build.start_compile(bpy.context)
            while job.poll() is None:
                time.sleep(0.02)
            argv = json.load(open(record))
            want = os.path.abspath(os.path.join(work, "outs", name))
            assert argv[argv.index("-o") + 1] == want, (name, argv)
            passed.append(name)
    finally:
        build.find_compiler = real_find
    for root, dirs, files in os.walk(work):
        assert "PWNED" not in files, "a shell ran: %s" % root
    assert not os.path.exists(os.path.join(os.getcwd(), "PWNED"))
    # Any argument, as a list: node on the bundled script gets them back one for one (newline included).
    p = locate.run([node, os.path.join(addon, "compiler", "compile-collision.mjs")] + HOSTILE_NAMES, capture_output=True)
    assert json.load(open(record)) == HOSTILE_NAMES
    for bad in ([node, "a\0b"], "node x", []):
        try:
            locate.check_command(bad)
            raise AssertionError("accepted %r" % (bad,))
        except ValueError:
            pass
    # Import: a file name like "-o" or "--help" reaches to-gltf as an absolute path.
    assert locate.file_argument("--help") == os.path.join(os.getcwd(), "--help")
    out["posix_outputs"] = len(passed)

    # 2. No compiler from a folder found by walking up from the .blend: node_modules/.bin/compile-collision planted
    #    in a world-writable folder above it is never found (nor any below the .blend's folder).
    shared = os.path.join(work, "shared")
    os.makedirs(os.path.join(shared, "node_modules", ".bin"))
    os.makedirs(os.path.join(shared, "levels", "node_modules", ".bin"))
    os.chmod(shared, 0o777)
    for d in (os.path.join(shared, "node_modules", ".bin"), os.path.join(shared, "levels", "node_modules", ".bin")):
        with open(os.path.join(d, "compile-collision"), "w") as f:
            f.write("#!/usr/bin/env node\nrequire('fs').writeFileSync('PWNED', '')\n")
        os.chmod(os.path.join(d, "compile-collision"), 0o755)
    bpy.ops.wm.save_as_mainfile(filepath=os.path.join(shared, "levels", "park.blend"))
    os.chdir(os.path.join(shared, "levels"))
    try:
        build.find_compiler(bpy.context, env=env, addon_dir=os.path.join(work, "no-addon"))
        raise AssertionError("found a compiler above the .blend")
    except build.CompilerMissing as e:
        out["planted"] = str(e)
    assert out["planted"].startswith("compile-collision not found"), out["planted"]
    # 3. On PATH, a compiler in a folder others can write, or owned by another user, is refused by name.
    wbin = os.path.join(work, "world-bin")
    os.makedirs(wbin)
    os.chmod(wbin, 0o777)
    fake = os.path.join(wbin, "compile-collision")
    with open(fake, "w") as f:
        f.write("#!/usr/bin/env node\n")
    os.chmod(fake, 0o755)
    path_env = dict(env, PATH=wbin + ":" + env["PATH"])
    try:
        build.find_compiler(bpy.context, env=path_env, addon_dir=os.path.join(work, "no-addon"))
        raise AssertionError("ran a compiler from a world-writable folder")
    except build.CompilerMissing as e:
        out["world_writable"] = str(e)
    assert "can be written by other users" in out["world_writable"], out["world_writable"]
    os.chmod(wbin, 0o755)
    assert build.find_compiler(bpy.context, env=path_env, addon_dir=os.path.join(work, "no-addon")) == [node, fake]
    if os.getuid() == 0:
        os.chown(fake, 12345, 12345)
        assert "belongs to another user" in locate.unsafe_reason(fake), locate.unsafe_reason(fake)
        os.chown(fake, 0, 0)
    # "" and "." on PATH (the current folder) are never searched.
    os.chdir(wbin)
    assert locate._which("compile-collision", {"PATH": ":.:"}, "linux") is None
    # npm's global link (bin/compile-collision → ../lib/node_modules/skate-collision/bin/compile-collision.js) runs
    # as node on the JavaScript, so a missing /usr/bin/env node is never the message.
    pkg = os.path.join(work, "prefix", "lib", "node_modules", "skate-collision", "bin")
    os.makedirs(pkg)
    os.makedirs(os.path.join(work, "prefix", "bin"))
    js = os.path.join(pkg, "compile-collision.js")
    open(js, "w").write("#!/usr/bin/env node\n")
    os.chmod(js, 0o755)
    os.symlink(js, os.path.join(work, "prefix", "bin", "compile-collision"))
    got = build.find_compiler(bpy.context, env=dict(env, PATH=os.path.join(work, "prefix", "bin") + ":" + env["PATH"]), addon_dir=os.path.join(work, "no-addon"))
    assert got == [node, js], got
    # A preference naming something else than the compiler's JavaScript (a shell script) is refused; a //-relative
    # one too (it would mean a file next to each .blend).
    sh = os.path.join(work, "wrapper.sh")
    open(sh, "w").write("#!/bin/sh\ntouch PWNED\n")
    for value, want in ((sh, "is not the compiler's JavaScript"), ("//node_modules/.bin/compile-collision", "relative to the .blend")):
        prefs.compiler_path = value
        try:
            build.find_compiler(bpy.context, env=env, addon_dir=os.path.join(work, "no-addon"))
            raise AssertionError("accepted %s" % value)
        except build.CompilerMissing as e:
            assert want in str(e), e
    prefs.compiler_path = ""
    # 4. node: not on PATH (a desktop launcher's) but in nvm's folder: the newest found; nowhere: a clear message.
    home = os.path.join(work, "home-nvm")
    for v in ("v18.20.1", "v22.11.0", "v20.9.0"):
        os.makedirs(os.path.join(home, ".nvm", "versions", "node", v, "bin"))
        shutil_copy(node, os.path.join(home, ".nvm", "versions", "node", v, "bin", "node"))
    got = locate.find_node(env={"PATH": "/nonexistent", "HOME": home}, platform="linux", home=home)
    assert got == os.path.join(home, ".nvm", "versions", "node", "v22.11.0", "bin", "node"), got
    fnm = os.path.join(work, "home-fnm")
    os.makedirs(os.path.join(fnm, ".local", "share", "fnm", "node-versions", "v20.0.0", "installation", "bin"))
    shutil_copy(node, os.path.join(fnm, ".local", "share", "fnm", "node-versions", "v20.0.0", "installation", "bin", "node"))
    assert locate.find_node(env={"PATH": "", "HOME": fnm}, platform="linux", home=fnm).startswith(fnm)
    empty = os.path.join(work, "home-empty")
    os.makedirs(empty)
    real_isfile = os.path.isfile
    os.path.isfile = lambda p: real_isfile(p) and p.startswith(work)  # hide this machine's /usr/bin/node
    try:
        try:
            locate.find_node(env={"PATH": "/nonexistent", "HOME": empty}, platform="linux", home=empty)
            raise AssertionError("node found")
        except locate.NotFound as e:
            out["no_node"] = str(e)
    finally:
        os.path.isfile = real_isfile
    assert out["no_node"].startswith("node (Node.js 20 or newer) not found"), out["no_node"]

    # 5. Windows (platform="win32"): npm's .cmd shim is never run; its package's JavaScript is, by node.exe.
    win = os.path.join(work, "win")
    npm = os.path.join(win, "AppData", "Roaming", "npm")
    os.makedirs(os.path.join(npm, "node_modules", "skate-collision", "bin"))
    shim = os.path.join(npm, "compile-collision.cmd")
    open(shim, "w").write("@ECHO off\r\nnode \"%~dp0\\node_modules\\skate-collision\\bin\\compile-collision.js\" %*\r\n")
    wjs = os.path.join(npm, "node_modules", "skate-collision", "bin", "compile-collision.js")
    open(wjs, "w").write("")
    pf = os.path.join(win, "Program Files")
    os.makedirs(os.path.join(pf, "nodejs"))
    node_exe = os.path.join(pf, "nodejs", "node.exe")
    open(node_exe, "w").write("")
    node_cmd_dir = os.path.join(win, "cmd-only")
    os.makedirs(node_cmd_dir)
    open(os.path.join(node_cmd_dir, "node.cmd"), "w").write("")
    wenv = {"PATH": node_cmd_dir + ";" + npm, "ProgramFiles": pf, "APPDATA": os.path.join(win, "AppData", "Roaming"), "LOCALAPPDATA": os.path.join(win, "AppData", "Local"), "USERPROFILE": win}
    wcmd = build.find_compiler(bpy.context, platform="win32", env=wenv, addon_dir=os.path.join(work, "no-addon"))
    assert wcmd == [node_exe, wjs], wcmd
    # A .cmd/.bat (also spelled with trailing dots or spaces, which Windows drops) without npm's package next to
    # it is refused; so is any program that is not an .exe.
    refused = {}
    for name in ("evil.cmd", "evil.bat", "evil.CMD..", "evil.ps1", "evil"):
        p = os.path.join(win, name)
        open(p, "w").write("")
        prefs.compiler_path = p
        try:
            build.find_compiler(bpy.context, platform="win32", env=wenv, addon_dir=os.path.join(work, "no-addon"))
            raise AssertionError("accepted %s" % name)
        except build.CompilerMissing as e:
            refused[name] = str(e)
            assert "is not run" in str(e), e
    prefs.compiler_path = ""
    for prog in ("C:\\npm\\compile-collision.cmd", "C:\\npm\\compile-collision.cmd .", "C:\\x\\run.BAT", "C:\\x\\node"):
        try:
            locate.check_command([prog, "x"], "win32")
            raise AssertionError("would run %s" % prog)
        except ValueError:
            pass
    # The command line node.exe receives: split back by the C runtime's rules, every hostile name is one argument,
    # unchanged; the program is node.exe, so no cmd.exe reads "&", "|", "^" or "%".
    names = [n for n in HOSTILE_NAMES if "\n" not in n]
    line = locate.windows_command_line(["C:\\Program Files\\nodejs\\node.exe", "C:\\addon\\compiler\\compile-collision.mjs"] + names)
    assert msvc_argv(line) == ["C:\\Program Files\\nodejs\\node.exe", "C:\\addon\\compiler\\compile-collision.mjs"] + names, (line, msvc_argv(line))
    out["windows_line"] = line
    # The release's package layout: the shim points at dist/compiler/compile-collision.mjs.
    npm2 = os.path.join(win, "npm2")
    os.makedirs(os.path.join(npm2, "node_modules", "skate-collision", "dist", "compiler"))
    open(os.path.join(npm2, "compile-collision.cmd"), "w").write("@ECHO off\r\n")
    mjs = os.path.join(npm2, "node_modules", "skate-collision", "dist", "compiler", "compile-collision.mjs")
    open(mjs, "w").write("")
    got = build.find_compiler(bpy.context, platform="win32", env=dict(wenv, PATH=npm2), addon_dir=os.path.join(work, "no-addon"))
    assert got == [node_exe, mjs], got
    # Open Report: a file:// URL for the browser, quoted, never a bare path (os.startfile on Windows).
    import webbrowser
    opened = []
    real_open = webbrowser.open
    webbrowser.open = lambda url, *a, **k: opened.append(url) or True
    try:
        rdir = os.path.join(work, "rep & calc")
        os.makedirs(rdir)
        open(os.path.join(rdir, "report.html"), "w").write("<p>")
        bpy.context.window_manager.sk8_state.out_dir = rdir
        assert bpy.ops.sk8.open_report() == {"FINISHED"}
    finally:
        webbrowser.open = real_open
    assert opened == ["file://" + rdir.replace(" ", "%20").replace("&", "%26") + "/report.html"], opened
    out["report_url"] = opened[0]
    out["windows_refused"] = refused
    print("RESULT " + json.dumps(out))


def shutil_copy(a, b):
    import shutil
    shutil.copy2(a, b)


def main():
    case, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    if case == "properties":
        case_properties(work)
    elif case == "finding":
        case_finding(work)
    elif case == "ride":
        case_ride(work)
    elif case == "progress":
        case_progress(work, int(sys.argv[3]))
    elif case == "import":
        case_import(work, sys.argv[3])
    elif case == "records":
        case_records(work)
    elif case == "goto":
        case_goto(work)
    elif case == "dropped":
        case_dropped(work)
    elif case == "panel":
        case_panel(work)
    elif case == "release":
        case_release(work, sys.argv[3])
    elif case == "placed":
        case_placed(work, sys.argv[3])
    elif case == "hostile":
        case_hostile(work)
    elif case == "install":
        case_install(work, sys.argv[3], sys.argv[4])
    else:
        raise SystemExit("unknown case %s" % case)


if __name__ == "__main__":
    # bpy 4.2 as a module crashes (SIGSEGV) in its own teardown once the glTF exporter has run (also with a bare
    # cube exported and nothing of ours loaded): leave without the teardown, exit 0 or 1 as the case went.
    import traceback
    code = 0
    try:
        main()
    except BaseException as e:  # noqa: BLE001 - any failure is reported and exits 1
        traceback.print_exc()
        code = e.code if isinstance(e, SystemExit) and isinstance(e.code, int) else 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
