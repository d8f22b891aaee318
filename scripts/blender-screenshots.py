# SPDX-License-Identifier: MIT
# The screenshots of docs/blender-addon.md, made by Blender itself: a Blender with a window (under a virtual display
# on a machine without one) loads the add-on from this checkout, builds a small level, compiles it with the
# checkout's compiler, and saves Blender's own screenshots of the panels as they draw.
#
#   blender -b --factory-startup --python-expr 'import bpy; bpy.ops.wm.save_as_mainfile(filepath="/tmp/empty.blend")'
#   xvfb-run -a -s "-screen 0 1280x1500x24" blender --factory-startup --enable-event-simulate /tmp/empty.blend \
#       --python scripts/blender-screenshots.py -- docs
#
# (Debian: apt install blender python3-numpy xvfb xauth; a .blend on the command line keeps the splash away.) The
# Python-module Blender the tests use (bpy) has no window, so it cannot draw panels. The sidebar's skate. tab is
# chosen by a simulated click on it (--enable-event-simulate); the 3D view's Python-defined sidebar panels of other
# tabs (Tool, View) are unregistered first so the tab strip is short and the click lands. Each picture is cropped
# to the panel region it shows.
import os
import sys
import traceback

import bpy
import addon_utils

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.abspath(sys.argv[sys.argv.index("--") + 1] if "--" in sys.argv else os.path.join(ROOT, "docs"))
WORK = os.path.join(os.environ.get("TMPDIR", "/tmp"), "sk8-screenshots")
FILES = {"object": "blender-object-panel.png", "sidebar": "blender-sidebar.png"}


def level():
    """A small level: a box-mode deck with an explicit shape, a grind rail, two plates meeting at an unwelded edge
    (a crack each), a ramp."""
    from mathutils import Matrix, Vector

    def mesh(name, verts, faces=(), edges=(), location=(0, 0, 0), rot=0.0):
        me = bpy.data.meshes.new(name)
        me.from_pydata([Vector(v) for v in verts], list(edges), list(faces))
        me.update()
        o = bpy.data.objects.new(name, me)
        bpy.context.scene.collection.objects.link(o)
        o.matrix_world = Matrix.LocRotScale(Vector(location), Matrix.Rotation(rot, 4, "Z").to_quaternion(), Vector((1, 1, 1)))
        return o

    for o in list(bpy.data.objects):
        bpy.data.objects.remove(o)
    box = [(x * 1.5, y * 0.5, 0.25 + z * 0.25) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    deck = mesh("deck", box, faces, location=(2, 1, 0))
    deck.sk8_ui_mode = "box"
    deck.sk8_ui_explicit_shape = True
    deck.sk8_ui_surface = "concrete"
    rail = mesh("rail", [(0, 0, 0.6), (2, 0, 0.6), (4, 0.5, 0.6)], edges=[(0, 1), (1, 2)], location=(-6, -6, 0))
    rail.sk8_ui_grind = True
    plate = [(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)]
    mesh("left_plate", plate, [(0, 1, 2, 3)], location=(9, 4, 1))
    mesh("right_plate", plate, [(0, 1, 2, 3)], location=(11, 4, 1), rot=1.5707963267948966)
    mesh("ramp", [(0, 0, 0), (3, 0, 0), (3, 2, 1), (0, 2, 1)], [(0, 1, 2, 3)], location=(-4, 5, 0))
    return deck


def shoot(area, name, region=None, height=None):
    """Blender's screenshot of the area, cropped to the region (x range) and the top `height` pixels."""
    import numpy as np
    path = os.path.join(OUT, FILES[name])
    win = bpy.context.window_manager.windows[0]
    with bpy.context.temp_override(window=win, screen=win.screen, area=area):
        bpy.ops.screen.screenshot_area(filepath=path)
    img = bpy.data.images.load(path)
    w, h = img.size
    px = np.array(img.pixels[:], dtype=np.float32).reshape(h, w, 4)
    x0, x1 = (region.x - area.x, region.x - area.x + region.width) if region is not None else (0, w)
    y1 = h
    y0 = max(0, h - height) if height else 0
    crop = px[y0:y1, x0:x1]
    out = bpy.data.images.new(name, crop.shape[1], crop.shape[0], alpha=False)
    out.pixels = crop.ravel()
    out.filepath_raw = path
    out.file_format = "PNG"
    out.save()
    bpy.data.images.remove(img)
    print("screenshot: %s (%d × %d)" % (path, crop.shape[1], crop.shape[0]))


STEPS = []


def step(fn):
    STEPS.append(fn)
    return fn


@step
def setup():
    sys.path.insert(0, os.path.join(ROOT, "blender"))
    bpy.context.preferences.view.show_splash = False
    addon_utils.enable("io_scene_gltf2", default_set=True)
    assert addon_utils.enable("skate_collision", default_set=True, handle_error=None) is not None, "the add-on did not enable"
    bpy.context.preferences.addons["skate_collision"].preferences.compiler_path = os.path.join(ROOT, "bin", "compile-collision.js")
    deck = level()
    for o in bpy.context.view_layer.objects:
        o.select_set(o is deck)
    bpy.context.view_layer.objects.active = deck
    os.makedirs(WORK, exist_ok=True)
    s = bpy.context.scene.sk8_build
    s.out_dir = os.path.join(WORK, "park.collision")
    s.report = False
    r = bpy.ops.sk8.compile()
    print("compile:", r, bpy.context.window_manager.sk8_state.status)


@step
def object_panel():
    # The 3D view's area as a Properties editor on the Object tab: tall enough to show the add-on's panel under
    # Blender's own (collapsed) ones.
    win = bpy.context.window_manager.windows[0]
    area = max(win.screen.areas, key=lambda a: a.width * a.height)
    area.type = "PROPERTIES"


@step
def object_tab():
    win = bpy.context.window_manager.windows[0]
    area = max(win.screen.areas, key=lambda a: a.width * a.height)
    area.spaces[0].context = "OBJECT"  # (its tabs exist once the editor has drawn)


@step
def object_shot():
    win = bpy.context.window_manager.windows[0]
    area = max(win.screen.areas, key=lambda a: a.width * a.height)
    shoot(area, "object", height=960)
    area.type = "VIEW_3D"


def sidebar_region():
    win = bpy.context.window_manager.windows[0]
    area = max(win.screen.areas, key=lambda a: a.width * a.height)
    return win, area, next(r for r in area.regions if r.type == "UI")


@step
def sidebar():
    for cls in list(bpy.types.Panel.__subclasses__()):
        if getattr(cls, "bl_space_type", "") == "VIEW_3D" and getattr(cls, "bl_region_type", "") == "UI" and getattr(cls, "bl_category", "") != "skate.":
            try:
                bpy.utils.unregister_class(cls)
            except RuntimeError:
                pass
    win = bpy.context.window_manager.windows[0]
    area = max(win.screen.areas, key=lambda a: a.width * a.height)
    space = area.spaces[0]
    space.show_region_ui = True


@step
def sidebar_tab():
    # The tab strip is the sidebar's right edge; tabs run down from its top: Item, then skate.
    win, area, region = sidebar_region()
    x = region.x + region.width - 10
    y = region.y + region.height - 80
    win.event_simulate(type="MOUSEMOVE", value="NOTHING", x=x, y=y)
    win.event_simulate(type="LEFTMOUSE", value="PRESS", x=x, y=y)
    win.event_simulate(type="LEFTMOUSE", value="RELEASE", x=x, y=y)


@step
def sidebar_shot():
    win, area, region = sidebar_region()
    shoot(area, "sidebar", region, height=1150)


def run():
    try:
        fn = STEPS.pop(0)
        fn()
    except Exception:  # noqa: BLE001 - print it and leave with an error
        traceback.print_exc()
        STEPS.clear()
        os._exit(1)
    if STEPS:
        return 0.5  # let the window draw what the step changed
    bpy.ops.wm.quit_blender()
    return None


bpy.app.timers.register(run, first_interval=1.0)
