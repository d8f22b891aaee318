# SPDX-License-Identifier: MIT
# Compile from Blender: export the scene (or the selection) as a GLB with the settings docs/blender-export.md asks
# for, run `compile-collision LEVEL.glb -o OUT --json …` as a child process, and show its result (the layout line,
# the totals, the warnings) and the findings of OUT/manifest.json. The button runs a modal operator polling the
# child on a timer, so the UI stays live; bpy.ops.sk8.compile() from a script (or headless) waits for it.
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import bpy
from bpy.props import BoolProperty, CollectionProperty, EnumProperty, FloatProperty, IntProperty, PointerProperty, StringProperty

from . import catalog, locate

PACKAGE = __package__
ADDON_DIR = os.path.dirname(os.path.abspath(__file__))

KIND_LABELS = {
    "crackEdges": "crack", "nonManifoldEdges": "non-manifold edge", "inconsistentEdges": "inconsistent winding",
    "degenerate": "degenerate triangle", "duplicate": "duplicate triangle", "reversedDuplicate": "back-to-back pair",
    "borderEdges": "border (info)", "rideBump": "ride: bump", "rideSnag": "ride: snag", "rideStep": "ride: step",
    "rideGap": "ride: gap", "grindTooDense": "too dense to grind",
}


def preferences(context=None):
    context = context or bpy.context
    addon = context.preferences.addons.get(PACKAGE)
    return addon.preferences if addon else None


CompilerMissing = locate.NotFound


def _preference_path(prefs, name, label):
    """A path from the add-on preferences, absolute: a //-relative one would mean another file in each .blend's
    folder, so it is refused."""
    value = (getattr(prefs, name, "") if prefs else "").strip()
    if value.startswith("//"):
        raise CompilerMissing("%s: the path set in the add-on preferences (%s) is relative to the .blend: set an absolute path" % (label, value))
    # Not made absolute here: a relative path would be taken from Blender's current folder; locate refuses it.
    return os.path.expanduser(value) if value else ""


def find_compiler(context=None, platform=sys.platform, env=None, addon_dir=ADDON_DIR):
    """The command that runs compile-collision, as a list [node, the compiler's JavaScript] (locate.py): the
    compiler bundled in the add-on, else the preference's, else SK8_COMPILE_COLLISION, else the one on PATH; node
    from the preference, PATH or the usual install folders. Raises CompilerMissing with what to do."""
    prefs = preferences(context)
    compiler = _preference_path(prefs, "compiler_path", "compile-collision")
    node = _preference_path(prefs, "node_path", "node")
    return locate.compiler_command(addon_dir, compiler, node, env=env, platform=platform)


def collision_candidates(context, selection_only):
    """The exported objects that should give collision: (name, why it might give none). Meshes, curves, surfaces,
    text and metaballs unless their mode is none, and empties and objects of any other type with a collision mode,
    sk8_shape or the grind flag. The reason is
    what the author should do, used when the build comes back without the object."""
    from . import props
    objs = context.selected_objects if selection_only else context.view_layer.objects
    out = []
    for o in objs:
        mode = props.read_mode(o)
        if mode == "none":
            continue
        grind = props.read_grind(o)["enabled"]
        label = props_mode_label(mode)
        if o.type == "EMPTY":
            if o.get(props.MODE_KEY) is None and o.get(props.SHAPE_KEY) is None:
                continue
            why = ("an Empty set to %s has no mesh to fit the shape to: turn on Explicit Shape (or Fit on a mesh)" % label
                   if o.get(props.SHAPE_KEY) is None else "its sk8_shape gave nothing (see the warnings)")
        elif o.type == "MESH":
            me = o.data
            if len(me.polygons) == 0 and len(me.edges) == 0:
                why = "a mesh of vertices only (%s): collision needs faces" % label
            elif len(me.polygons) == 0 and not grind:
                why = "a mesh of edges only: loose edges give collision only as a grind curve (tick Grind Curve)"
            else:
                why = "its faces gave no collision (modifiers, or every triangle without area: see the warnings)"
        elif o.type == "CURVE":
            if grind:
                continue  # the exporter writes no lines for a curve: said below if the build lacks it
            why = "a curve gives collision only with faces (a bevel or extrude) or as a grind curve (convert it to a mesh and tick Grind Curve)"
        elif o.type in ("SURFACE", "FONT", "META"):
            why = "gave no faces to export"
        else:
            # A lattice, camera, light, armature, grease pencil… set like an Empty (the panel shows the settings on
            # any object): only an explicit shape can make something of it.
            if o.get(props.MODE_KEY) is None and o.get(props.SHAPE_KEY) is None and not grind:
                continue
            why = ("a %s object gives no collision: set it on a mesh, a curve with faces, a surface, text, a metaball "
                   "or an Empty with Explicit Shape" % o.type.lower().replace("_", " "))
        out.append((o.name, why))
    return out


def props_mode_label(mode):
    from . import props
    for ident, name, _, _ in props.MODE_ITEMS:
        if ident == (mode or props.UNSET):
            return name
    return mode or "triangle mesh"


def dropped_objects(candidates, manifest):
    """The candidates the build made nothing of: not a source of any resource (by the compiled name, or the name
    sourceNames maps it back to). [(name, why)]."""
    names = manifest.get("sourceNames") if isinstance(manifest.get("sourceNames"), dict) else {}
    built = set()
    for r in manifest.get("resources") or []:
        for n in (r.get("sourceObjects") or []) if isinstance(r, dict) else []:
            built.add(names.get(n, n))
    return [(name, why) for name, why in candidates if name not in built]


def export_level(context, glb, selection_only):
    """File → Export → glTF 2.0 with the README's settings: custom properties (extras) on, +Y up, modifiers
    applied, loose edges as lines; no textures, cameras, lights or animation (the compiler reads none)."""
    if context.object is not None and context.object.mode != "OBJECT":
        # Edit-mode changes reach the mesh data (and so the export) only when edit mode is left.
        bpy.ops.object.mode_set(mode="OBJECT")
    if not hasattr(bpy.types, "EXPORT_SCENE_OT_gltf"):
        import addon_utils
        try:
            addon_utils.enable("io_scene_gltf2", default_set=False, handle_error=lambda e: None)
        except Exception:  # noqa: BLE001 - said below in one line
            pass
    if not hasattr(bpy.types, "EXPORT_SCENE_OT_gltf"):
        raise RuntimeError(exporter_missing())
    try:
        _export_gltf(glb, selection_only)
    except Exception as e:  # noqa: BLE001 - a traceback in the status line helps no author: one line
        text = str(e)
        if "numpy" in text:
            raise RuntimeError(exporter_missing()) from None
        last = [l for l in text.splitlines() if l.strip()]
        raise RuntimeError("glTF export failed: %s" % (last[-1].strip() if last else type(e).__name__)) from None


def exporter_missing():
    """One line on why Blender's glTF exporter is not there, and what to do."""
    import importlib.util
    try:
        numpy = importlib.util.find_spec("numpy") is not None
        if numpy:
            import numpy as _  # noqa: F401 - a numpy that is there but does not load counts as missing
    except Exception:  # noqa: BLE001
        numpy = False
    if not numpy:
        return ("Blender's glTF exporter needs numpy, which this Blender's Python lacks: install it (Debian/Ubuntu: "
                "sudo apt install python3-numpy) or use Blender from blender.org, which bundles it")
    return "Blender's glTF 2.0 add-on (io_scene_gltf2) is not available: enable it in Edit → Preferences → Add-ons"


def _export_gltf(glb, selection_only):
    bpy.ops.export_scene.gltf(
        filepath=glb, export_format="GLB", export_extras=True, export_yup=True, export_apply=True,
        use_mesh_edges=True, use_mesh_vertices=False, use_selection=selection_only, export_materials="EXPORT",
        export_image_format="NONE", export_animations=False, export_cameras=False, export_lights=False,
        export_morph=False, export_skins=False,
    )


def build_command(base, glb, settings):
    cmd = list(base) + [glb, "-o", settings["out"], "--cell-size", str(settings["cell_size"]), "--seams", settings["seams"], "--json", "--progress-json"]
    cmd.append("--report" if settings["report"] else "--no-report")
    if settings["strict"]:
        cmd.append("--strict")
    if settings.get("native_shapes"):
        cmd.append("--native-shapes")
    return cmd


class Job:
    """One compile child: started, polled, its --json output parsed at the end (stdout to a file, so a large
    output never blocks on a full pipe). Its stderr is a pipe read without blocking at every poll: the
    --progress-json lines ({"stage", "done", "total"}) give the stage running and its counts; any other line (the
    compiler's error) is kept as text."""

    def __init__(self, cmd, workdir):
        self.cmd = cmd
        self.workdir = workdir
        self.out_path = os.path.join(workdir, "stdout.json")
        self.started = time.monotonic()
        self.stage = None
        self.done = 0
        self.total = 0
        self.seen = []  # every progress event, (stage, done, total)
        self._partial = b""
        self._err = []
        self._chunks = []
        self._reader = None
        with open(self.out_path, "wb") as out:
            self.proc = locate.popen(cmd, stdout=out, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env={**os.environ, "CI": "1"})
        self._fd = self.proc.stderr.fileno()
        try:
            os.set_blocking(self._fd, False)
        except (AttributeError, OSError):
            # Python before 3.12 on Windows cannot make a pipe non-blocking: a thread reads it instead, and poll
            # takes what it has read (list.append/pop are atomic).
            self._reader = threading.Thread(target=self._read_all, daemon=True)
            self._reader.start()
        self.result = None

    def _read_all(self):
        try:
            for chunk in iter(lambda: os.read(self._fd, 65536), b""):
                self._chunks.append(chunk)
        except (OSError, ValueError):
            pass  # the pipe closed under it (cancel, or a child holding it past the 2 s of read_progress)
        self._chunks.append(b"")  # end of file

    def _take(self):
        """The stderr bytes there are now, never waiting; (bytes, at_end)."""
        data = []
        if self._reader is not None:
            while self._chunks:
                chunk = self._chunks.pop(0)
                if chunk == b"":
                    return b"".join(data), True
                data.append(chunk)
            return b"".join(data), False
        while True:
            try:
                chunk = os.read(self._fd, 65536)
            except BlockingIOError:
                return b"".join(data), False
            if not chunk:
                return b"".join(data), True
            data.append(chunk)

    def read_progress(self, final=False):
        """Takes the stderr lines written since the last call: the latest progress event becomes stage/done/total.
        final: the child has ended, so read to the end of the pipe (at most 2 s more, should something the child
        started hold it open) and keep a last line without its newline."""
        deadline = time.monotonic() + 2.0
        while True:
            data, at_end = self._take()
            self._partial += data
            *lines, self._partial = self._partial.split(b"\n")
            for line in lines:
                self._line(line)
            if not final or at_end or time.monotonic() > deadline:
                break
            if not data:
                time.sleep(0.01)
        if final and self._partial:
            self._line(self._partial)
            self._partial = b""

    def _line(self, raw):
        text = raw.decode("utf-8", errors="replace").rstrip("\r")
        if text.startswith("{"):
            try:
                e = json.loads(text)
            except ValueError:
                e = None
            if isinstance(e, dict) and isinstance(e.get("stage"), str) and "done" in e and "total" in e:
                self.stage, self.done, self.total = e["stage"], int(e["done"]), int(e["total"])
                self.seen.append((self.stage, self.done, self.total))
                return
        if text.strip():
            self._err.append(text)

    def progress_text(self):
        """The status's stage: 'encode 120/448' for a stage that counts steps, its name for one that counts none,
        empty before the first event."""
        if self.stage is None:
            return ""
        return "%s %d/%d" % (self.stage, self.done, self.total) if self.total > 1 else self.stage

    def poll(self):
        """None while running, else the result dict (also kept as self.result)."""
        if self.result is not None:
            return self.result
        self.read_progress()
        code = self.proc.poll()
        if code is None:
            return None
        self.read_progress(final=True)
        self.proc.stderr.close()
        with open(self.out_path, "r", encoding="utf-8") as f:
            text = f.read()
        try:
            entry = json.loads(text) if text.strip() else None
        except ValueError:
            entry = None
        self.result = {"code": code, "entry": entry, "stderr": "\n".join(self._err), "seconds": time.monotonic() - self.started,
                       "candidates": getattr(self, "candidates", []), "renames": getattr(self, "renames", [])}
        shutil.rmtree(self.workdir, ignore_errors=True)
        return self.result

    def cancel(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc.stderr.close()
        shutil.rmtree(self.workdir, ignore_errors=True)


def poll_compile(context, job):
    """One tick of the button's timer: polls the job; while it runs, the status shows the stage and its counts
    ("compiling… encode 120/448 · 12 s"). Returns the result once the child has ended, else None."""
    result = job.poll()
    if result is None:
        state = context.window_manager.sk8_state
        stage = job.progress_text()
        state.status = "compiling… %s%.0f s (Esc cancels)" % (stage + " · " if stage else "", time.monotonic() - job.started)
        state.progress = job.done / job.total if job.total > 1 else 0.0
    return result


def settings_of(context):
    s = context.scene.sk8_build
    out = s.out_dir.strip()
    if not out:
        stem = bpy.path.display_name_from_filepath(bpy.data.filepath) if bpy.data.filepath else ""
        if not stem:
            raise ValueError("set an output folder (the .blend is not saved, so there is no default next to it)")
        out = "//%s.collision" % stem
    if out.startswith("//") and not bpy.data.filepath:
        raise ValueError("the output folder %s is relative to the .blend, which is not saved: save it or give an absolute folder" % out)
    return {
        "out": os.path.abspath(bpy.path.abspath(out)), "cell_size": int(s.cell_size), "seams": s.seams, "strict": s.strict,
        "report": s.report, "selection_only": s.selection_only, "native_shapes": s.native_shapes,
    }


def start_compile(context):
    """Exports and starts the compiler; returns the Job. Raises CompilerMissing or ValueError with the message."""
    base = find_compiler(context)
    settings = settings_of(context)
    workdir = tempfile.mkdtemp(prefix="sk8-compile-")
    stem = bpy.path.display_name_from_filepath(bpy.data.filepath) if bpy.data.filepath else "level"
    glb = os.path.join(workdir, "%s.glb" % bpy.path.clean_name(stem or "level"))
    try:
        export_level(context, glb, settings["selection_only"])
    except Exception:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    # Messages name the file the author knows, not the temporary export.
    blend = bpy.data.filepath
    source = ("%s (the scene exported)" % blend) if blend else "the unsaved scene (exported)"
    state = context.window_manager.sk8_state
    state.running = True
    state.status = "compiling…"
    state.progress = 0.0
    # The previous build's result and findings go: what is on screen while this one runs is this one's.
    state.lines.clear()
    state.findings.clear()
    state.finding_index = 0
    job = Job(build_command(base, glb, settings), workdir)
    job.candidates = collision_candidates(context, settings["selection_only"])
    job.renames = [(glb, source), (workdir, os.path.dirname(blend) if blend else "the unsaved scene")]
    return job


def finish_compile(context, result):
    """Shows a finished job's result in the sidebar state; loads the findings on success. Returns (ok, message)."""
    state = context.window_manager.sk8_state
    state.running = False
    state.progress = 0.0
    state.lines.clear()
    entry = result["entry"]
    if isinstance(entry, list):
        entry = entry[0] if entry else None
    if entry and entry.get("ok"):
        m = entry["manifest"]
        state.status = "built in %.1f s → %s" % (result["seconds"], entry["outDir"])
        state.out_dir = entry["outDir"]
        _line(state, "layout: " + entry.get("layoutLine", m.get("layout", "")), "INFO")
        for k, v in m.get("totals", {}).items():
            _line(state, "%s  %s" % (k, v), "NONE")
        for w in m.get("warnings", []):
            _line(state, _known_paths(w, result), "ERROR")
        for name, why in dropped_objects(result.get("candidates") or [], m):
            _line(state, "%s: no collision built: %s" % (name, why), "ERROR")
        load_findings(context, m, entry["outDir"])
        return True, state.status
    if entry and entry.get("error"):
        msg = entry["error"].get("message") or "compile-collision failed (%s)" % entry["error"].get("stage", "compile")
    else:
        msg = _stderr_message(result)
    msg = _known_paths(msg, result)
    state.status = "failed: " + msg
    _line(state, msg, "ERROR")
    return False, msg


def _known_paths(text, result):
    """The temporary export's path (which the author never saw) as the .blend it was exported from."""
    for temp, known in result.get("renames") or []:
        text = text.replace(temp, known)
    return text


def _stderr_message(result):
    """A failure without a --json entry (a usage error, a crash): the compiler's last own line, else the last."""
    lines = [l for l in result["stderr"].splitlines() if l.strip()]
    if not lines:
        return "compile-collision exited with %d and no output" % result["code"]
    own = [l for l in lines if l.startswith("compile-collision: ")]
    msg = (own or lines)[-1]
    if result["code"] == 2 and "Unknown argument" in msg and "progress-json" in msg:
        # An installed compiler older than the add-on: say so rather than show yargs' line.
        return "this compile-collision is older than the add-on (it has no --progress-json): update it (install the release's add-on zip, which carries its own compiler, or the release's npm package: npm install -g skate-collision-<version>.tgz)"
    return msg


def _line(state, text, icon):
    it = state.lines.add()
    it.text = text
    it.icon = icon


def kind_label(kind):
    """A finding kind as the list shows it: the known ones by name, any other (kinds added to the manifest later)
    from its camelCase key ("rideBumps" → "ride bumps")."""
    import re
    return KIND_LABELS.get(kind) or re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: " " + m.group(1).lower(), kind)


def load_findings(context, manifest, out_dir):
    """One entry per object and finding kind with locations in manifest.json: warnings first, then info. The kinds
    the catalog knows come in its order, then any other kind the manifest lists locations of."""
    state = context.window_manager.sk8_state
    state.findings.clear()
    state.out_dir = out_dir
    names = manifest.get("sourceNames")
    state.source_names = json.dumps(names if isinstance(names, dict) else {})
    rows = []
    validation = manifest.get("validation")
    for obj, report in (validation.items() if isinstance(validation, dict) else ()):
        if not isinstance(report, dict):
            continue
        locations = report.get("locations") if isinstance(report.get("locations"), dict) else {}
        extra = sorted(k for k in locations if k not in catalog.FINDING_KINDS)
        for order, kind in enumerate(list(catalog.FINDING_KINDS) + extra):
            locs = locations.get(kind)
            locs = [l for l in locs if isinstance(l, dict) and isinstance(l.get("points"), list)] if isinstance(locs, list) else []
            count = report.get(kind, len(locs))
            if not isinstance(count, (int, float)) or isinstance(count, bool):
                count = len(locs)
            if count or locs:
                rows.append((kind in catalog.INFO_KINDS, order, obj, kind, count, locs))
    base = len(catalog.FINDING_KINDS) + 100
    for obj, kind, locs in placed_findings(manifest):
        rows.append((False, base + sorted(PLACED_KINDS).index(kind) if kind in PLACED_KINDS else base + 50, obj, kind, len(locs), locs))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    for info, _, obj, kind, count, locs in rows:
        f = state.findings.add()
        f.object = obj
        f.kind = kind
        f.severity = "INFO" if info else "WARNING"
        f.count = int(count)
        f.locations = json.dumps(locs)
    state.finding_index = 0


PLACED_KINDS = {"rideBump", "rideSnag", "rideStep", "rideGap", "grindTooDense"}


def placed_findings(manifest):
    """Findings the manifest gives by place outside the validation report, as (object, kind, locations): the ride
    check's (ride.findings: bump, snag, step, gap at a position in a resource) and the grind map's parts too dense
    to grind (grind.denseParts, at their middle). A resource's object is its one source object, else the resource
    (a merged cell): Go To then frames the place without an object to select. Anything malformed is skipped."""
    sources = {}
    for r in manifest.get("resources") or []:
        if isinstance(r, dict) and isinstance(r.get("name"), str):
            objs = [o for o in (r.get("sourceObjects") or []) if isinstance(o, str)]
            # Findings name a resource by its name or its file (the ride check: "quarter_pipe.physics").
            for key in (r["name"], r.get("file")):
                if isinstance(key, str):
                    sources[key] = objs[0] if len(objs) == 1 else r["name"]

    def point(p):
        return isinstance(p, list) and len(p) >= 3 and all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in p[:3])

    grouped = {}
    ride = manifest.get("ride")
    for f in (ride.get("findings") or []) if isinstance(ride, dict) else []:
        if not isinstance(f, dict) or not isinstance(f.get("kind"), str) or not point(f.get("position")):
            continue
        kind = "ride" + f["kind"][:1].upper() + f["kind"][1:]
        obj = sources.get(f.get("resource"), f.get("resource") if isinstance(f.get("resource"), str) else "")
        grouped.setdefault((obj, kind), []).append({"points": [list(f["position"][:3])], "size": f.get("size"), "unit": f.get("unit")})
    grind = manifest.get("grind")
    for d in (grind.get("denseParts") or []) if isinstance(grind, dict) else []:
        if not isinstance(d, dict) or not point(d.get("at")):
            continue
        objs = [o for o in (d.get("sourceObjects") or []) if isinstance(o, str)]
        obj = objs[0] if len(objs) == 1 else sources.get(d.get("resource"), d.get("resource") if isinstance(d.get("resource"), str) else "")
        grouped.setdefault((obj, "grindTooDense"), []).append({"points": [list(d["at"][:3])]})
    return [(obj, kind, locs) for (obj, kind), locs in grouped.items() if obj]


def game_to_blender(p):
    """Game space (glTF: Y up, forward −Z) → Blender world (Z up): Blender (x, y, z) = game (x, −z, y)."""
    return (p[0], -p[2], p[1])


def find_object(name, source_names=None):
    """The Blender object a compiled object came from: by the manifest's sourceNames (the compiler's record of every
    object it renamed: "Rail 1" compiles as Rail_1, "Rail_1" then as Rail_1_2), else by its own name. No guessing
    from how names are cleaned: that picks the wrong object when two clean to the same name."""
    source = (source_names or {}).get(name)
    if isinstance(source, str):
        return bpy.data.objects.get(source)
    return bpy.data.objects.get(name)


def go_to_finding(context, finding, location_index=0, source_names=None):
    """Selects the finding's object, puts the 3D cursor on its place and frames it in every 3D view; for an edge
    finding enters edit mode with that edge selected, for a triangle finding (degenerate, duplicate) that face.
    Returns (object, place in Blender space, note): note says when the place is on geometry a modifier made."""
    from mathutils import Vector
    locs = json.loads(finding.locations or "[]")
    obj = find_object(finding.object, source_names)
    if obj is None and not locs:
        source = (source_names or {}).get(finding.object)
        raise LookupError("no object named %s in this file (the finding's object%s)" % (source or finding.object, ", compiled as %s" % finding.object if source else ""))
    if obj is None:
        # A place in a merged resource (a cell) or of an object this file lacks: frame it, select nothing.
        centre = _frame(context, locs[location_index % len(locs)])
        return None, centre, "%s is not an object of this file: the place is framed, nothing selected" % finding.object
    if context.object is not None and context.object.mode != "OBJECT":
        bpy.ops.object.mode_set(mode="OBJECT")
    for o in context.view_layer.objects:
        o.select_set(False)
    obj.hide_set(False)
    obj.select_set(True)
    context.view_layer.objects.active = obj
    if not locs:
        return obj, None, ""
    loc = locs[location_index % len(locs)]
    pts = [Vector(game_to_blender(p)) for p in loc["points"]]
    centre = _frame(context, loc)
    note = ""
    if obj.type == "MESH" and len(pts) in (2, 3):
        if obj.data.library is not None or getattr(obj.data, "override_library", None) is not None:
            note = "its mesh is linked from another file, so no element is selected (the cursor is on the place)"
        else:
            _, note = _select_element(context, obj, pts, "EDGE" if len(pts) == 2 else "FACE")
    return obj, tuple(centre), note


def _frame(context, loc):
    """Puts the 3D cursor on the middle of a location's points and centres every 3D view on it; returns it."""
    from mathutils import Vector
    pts = [Vector(game_to_blender(p)) for p in loc["points"]]
    centre = sum(pts, Vector()) / len(pts)
    size = max([(a - b).length for a in pts for b in pts] + [0.5])
    context.scene.cursor.location = centre
    for window in context.window_manager.windows:
        for area in window.screen.areas:
            if area.type != "VIEW_3D":
                continue
            for space in area.spaces:
                if space.type == "VIEW_3D" and space.region_3d is not None:
                    space.region_3d.view_location = centre
                    space.region_3d.view_distance = max(2.0, 3.0 * size)
            area.tag_redraw()
    return tuple(centre)


INDEX_ATTRIBUTE = "sk8_go_to_index"  # a temporary attribute: which original edge/face each evaluated one comes from


def _evaluated_match(context, obj, pts, domain):
    """The mesh element (EDGE or FACE) whose world corners are nearest the finding's points, looked for in the mesh
    as the compiler got it (modifiers applied: Array copies, Mirror…), mapped back to the element of the object's own
    mesh it was made from. A temporary integer attribute numbering the elements rides through the modifiers (they
    copy attributes to what they make). Returns (original index or None, distance of the match, distance of that
    original element itself from the finding)."""
    me = obj.data
    count = len(me.edges) if domain == "EDGE" else len(me.polygons)
    if count == 0:
        return None, float("inf"), float("inf")
    attr = me.attributes.new(INDEX_ATTRIBUTE, "INT", domain)
    try:
        attr.data.foreach_set("value", list(range(count)))
        me.update()
        depsgraph = context.evaluated_depsgraph_get()
        depsgraph.update()
        ev = obj.evaluated_get(depsgraph)
        em = ev.to_mesh()
        try:
            mw = ev.matrix_world
            co = [mw @ v.co for v in em.vertices]
            elements = em.edges if domain == "EDGE" else em.polygons
            layer = em.attributes.get(INDEX_ATTRIBUTE)
            origin = [layer.data[i].value for i in range(len(elements))] if layer is not None and layer.domain == domain else list(range(len(elements)))
            best, best_d = None, float("inf")
            for i, el in enumerate(elements):
                d = _corner_distance([co[v] for v in el.vertices], pts)
                if d < best_d:
                    best, best_d = i, d
        finally:
            ev.to_mesh_clear()
    finally:
        me.attributes.remove(me.attributes[INDEX_ATTRIBUTE])
        me.update()
    if best is None or not 0 <= origin[best] < count:
        return None, best_d, float("inf")
    index = origin[best]
    mw = obj.matrix_world
    own = me.edges[index] if domain == "EDGE" else me.polygons[index]
    return index, best_d, _corner_distance([mw @ me.vertices[v].co for v in own.vertices], pts)


def _corner_distance(corners, pts):
    """How far an element's corners are from a finding's points: each point to its nearest corner, summed."""
    return sum(min((c - p).length for c in corners) for p in pts) if corners else float("inf")


def _select_element(context, obj, pts, domain):
    """Edit mode with the original element the finding is on selected (edge select mode for an edge, face select
    for a triangle). Returns (index, note)."""
    import bmesh
    index, _, own = _evaluated_match(context, obj, pts, domain)
    me = obj.data
    bpy.ops.object.mode_set(mode="EDIT")
    context.tool_settings.mesh_select_mode = (False, domain == "EDGE", domain == "FACE")
    bm = bmesh.from_edit_mesh(me)
    for seq in (bm.verts, bm.edges, bm.faces):
        for el in seq:
            el.select_set(False)
    note = ""
    if index is not None:
        seq = bm.edges if domain == "EDGE" else bm.faces
        seq.ensure_lookup_table()
        seq[index].select_set(True)
        if own > 1e-3 * len(pts):
            # The finding is on geometry a modifier made (an Array copy): the element it was made from is selected;
            # the cursor and the view are on the finding's own place.
            note = "on geometry the modifiers make from the selected %s" % ("edge" if domain == "EDGE" else "face")
    bm.select_flush_mode()
    bmesh.update_edit_mesh(me)
    return index, note


# --- state, settings and operators ----------------------------------------------------------------------------

class SK8_Line(bpy.types.PropertyGroup):
    text: StringProperty()
    icon: StringProperty(default="NONE")


class SK8_Finding(bpy.types.PropertyGroup):
    object: StringProperty()
    kind: StringProperty()
    severity: StringProperty()
    count: IntProperty()
    locations: StringProperty(description="JSON: the manifest's locations of this kind for this object")
    current: IntProperty(description="Which of the locations go to shows")


class SK8_State(bpy.types.PropertyGroup):
    """Kept on the window manager: not saved in the .blend, so never exported as extras."""
    running: BoolProperty()
    status: StringProperty()
    progress: FloatProperty(min=0.0, max=1.0, description="The running stage's share done (encode: resources written), 0 for a stage that counts no steps")
    out_dir: StringProperty()
    lines: CollectionProperty(type=SK8_Line)
    findings: CollectionProperty(type=SK8_Finding)
    finding_index: IntProperty()
    packed_error: StringProperty(description="The last packed word typed that is not one, and why: shown under the field")
    packed_error_owner: StringProperty(description="The object or material it was typed on")
    source_names: StringProperty(description="JSON: the manifest's sourceNames (compiled object name → the object's name in the level)")
    preview: BoolProperty(name="Preview Shapes", default=True, description="Draw the primitive each selected object compiles as (explicit or fitted) in the 3D view")


class SK8_BuildSettings(bpy.types.PropertyGroup):
    """Saved with the scene (exported as the scene's sk8_build extras, which the compiler does not read)."""
    out_dir: StringProperty(name="Output Folder", subtype="DIR_PATH", description="compile-collision -o; empty: <blend name>.collision next to the .blend")
    selection_only: BoolProperty(name="Selection Only", description="Export only the selected objects")
    cell_size: EnumProperty(name="Cell Size", items=[("50", "50 m", ""), ("100", "100 m", ""), ("200", "200 m", "")], default="100", description="--cell-size: edge of a collision_area cell, metres")
    seams: EnumProperty(name="Seams", items=[("level", "Level", "--seams level: no open edges at the compiler's cuts"), ("shape", "Shape", "--seams shape: cuts left open, byte for byte as Studio writes")], default="level")
    strict: BoolProperty(name="Strict", description="--strict: any warning fails the build and nothing is written")
    report: BoolProperty(name="Report", default=True, description="--report: write report.html into the output")
    native_shapes: BoolProperty(name="Native Shapes", description="--native-shapes (experimental): box objects as kind-2 boxes, hull and convex parts as kind-3 polyhedra; writes to-gltf's stored records again as they are")


class SK8_OT_compile(bpy.types.Operator):
    """Export the scene (or the selection) and compile its collision with compile-collision"""
    bl_idname = "sk8.compile"
    bl_label = "Compile Collision"

    _timer = None
    _job = None

    def execute(self, context):
        # Scripting and headless use: wait for the child.
        try:
            job = start_compile(context)
        except (CompilerMissing, ValueError, RuntimeError) as e:
            return self._fail(context, str(e))
        while poll_compile(context, job) is None:
            time.sleep(0.05)
        ok, msg = finish_compile(context, job.result)
        self.report({"INFO"} if ok else {"ERROR"}, msg)
        return {"FINISHED"} if ok else {"CANCELLED"}

    def invoke(self, context, event):
        if context.window_manager.sk8_state.running:
            self.report({"WARNING"}, "a compile is already running")
            return {"CANCELLED"}
        try:
            self._job = start_compile(context)
        except (CompilerMissing, ValueError, RuntimeError) as e:
            return self._fail(context, str(e))
        self._timer = context.window_manager.event_timer_add(0.2, window=context.window)
        context.window_manager.modal_handler_add(self)
        return {"RUNNING_MODAL"}

    def modal(self, context, event):
        state = context.window_manager.sk8_state
        if event.type == "ESC":
            self._job.cancel()
            self._end(context)
            state.running = False
            state.status = "cancelled"
            return {"CANCELLED"}
        if event.type != "TIMER":
            return {"PASS_THROUGH"}
        if poll_compile(context, self._job) is None:
            _redraw(context)
            return {"RUNNING_MODAL"}
        self._end(context)
        ok, msg = finish_compile(context, self._job.result)
        self.report({"INFO"} if ok else {"ERROR"}, msg)
        _redraw(context)
        return {"FINISHED"}

    def _end(self, context):
        if self._timer is not None:
            context.window_manager.event_timer_remove(self._timer)
            self._timer = None

    def _fail(self, context, msg):
        state = context.window_manager.sk8_state
        state.running = False
        state.status = "failed: " + msg
        state.lines.clear()
        _line(state, msg, "ERROR")
        self.report({"ERROR"}, msg)
        return {"CANCELLED"}


def _redraw(context):
    for window in context.window_manager.windows:
        for area in window.screen.areas:
            area.tag_redraw()


class SK8_OT_load_findings(bpy.types.Operator):
    """Load the findings of a compile output's manifest.json"""
    bl_idname = "sk8.load_findings"
    bl_label = "Load Findings"

    directory: StringProperty(subtype="DIR_PATH", description="The compile output; empty: the last one, else the output folder setting")

    def execute(self, context):
        d = self.directory or context.window_manager.sk8_state.out_dir
        if not d:
            try:
                d = settings_of(context)["out"]
            except ValueError as e:
                self.report({"ERROR"}, str(e))
                return {"CANCELLED"}
        path = os.path.join(bpy.path.abspath(d), "manifest.json")
        if not os.path.isfile(path):
            self.report({"ERROR"}, "no manifest.json in %s" % d)
            return {"CANCELLED"}
        with open(path, "r", encoding="utf-8") as f:
            load_findings(context, json.load(f), os.path.dirname(path))
        return {"FINISHED"}


class SK8_OT_go_to_finding(bpy.types.Operator):
    """Select the finding's object, frame its place, and select the edge (edge findings)"""
    bl_idname = "sk8.go_to_finding"
    bl_label = "Go To Finding"

    index: IntProperty(default=-1, description="Which finding (-1: the active one)")
    step: IntProperty(default=0, description="Move to the next (1) or previous (-1) location of the finding first")

    def execute(self, context):
        state = context.window_manager.sk8_state
        i = state.finding_index if self.index < 0 else self.index
        if not 0 <= i < len(state.findings):
            self.report({"ERROR"}, "no finding %d" % i)
            return {"CANCELLED"}
        f = state.findings[i]
        state.finding_index = i
        n = len(json.loads(f.locations or "[]")) or 1
        f.current = (f.current + self.step) % n
        try:
            names = json.loads(state.source_names or "{}")
        except ValueError:
            names = {}
        try:
            obj, place, note = go_to_finding(context, f, f.current, names if isinstance(names, dict) else {})
        except LookupError as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        where = "" if place is None else " at (%.3f, %.3f, %.3f)" % place
        self.report({"INFO"}, "%s on %s%s%s (%d of %d)" % (kind_label(f.kind), obj.name if obj else f.object, where, ", " + note if note else "", f.current + 1, n))
        return {"FINISHED"}


class SK8_OT_open_report(bpy.types.Operator):
    """Open the compile output's report.html in the browser"""
    bl_idname = "sk8.open_report"
    bl_label = "Open Report"

    def execute(self, context):
        d = context.window_manager.sk8_state.out_dir
        path = os.path.join(d, "report.html") if d else ""
        if not path or not os.path.isfile(path):
            self.report({"ERROR"}, "no report.html in %s (compile with Report on)" % (d or "the output"))
            return {"CANCELLED"}
        import pathlib
        import webbrowser
        # Always a file:// URL (quoted): on Windows a bare path goes to os.startfile, which runs whatever the file's
        # type says; a URL goes to the browser.
        webbrowser.open(pathlib.Path(os.path.abspath(path)).as_uri())
        return {"FINISHED"}


# The list's kind column: a word or two that fits a narrow sidebar (KIND_LABELS is the status line's longer text).
LIST_LABELS = {
    "crackEdges": "crack", "nonManifoldEdges": "non-manifold", "inconsistentEdges": "winding", "degenerate": "degenerate",
    "duplicate": "duplicate", "reversedDuplicate": "back-to-back", "borderEdges": "border",
    "rideBump": "bump", "rideSnag": "snag", "rideStep": "step", "rideGap": "gap", "grindTooDense": "grind dense",
}
SIDEBAR_WIDTH = 220  # px at UI scale 1: the 3D view sidebar's default width (Blender's UI_SIDEBAR_PANEL_WIDTH)
ICON_WIDTH = 20  # px at UI scale 1: an icon and its gap before a label's text
TEXT_POINTS = 11  # the UI's text size at UI scale 1 (Blender's default widget style)


def ui_scale(context):
    """Pixels per UI pixel: the system's (the display's DPI times the Resolution Scale, known in a window), else the
    Resolution Scale preference (headless)."""
    prefs = getattr(context, "preferences", None)
    for get in (lambda: prefs.system.ui_scale, lambda: prefs.view.ui_scale):
        try:
            v = float(get())
        except (AttributeError, TypeError, ValueError):
            continue
        if v > 0:
            return max(0.5, v)
    return 1.0


def text_width(text, scale=1.0):
    """A label's text width in pixels, measured with the UI font (blf), as Blender will draw it."""
    import blf
    blf.size(0, TEXT_POINTS * scale)
    return blf.dimensions(0, text)[0]


def region_width(context):
    region = getattr(context, "region", None)
    w = getattr(region, "width", 0) if region is not None else 0
    return w if w and w > 1 else SIDEBAR_WIDTH * ui_scale(context)


TABS_WIDTH = 26  # px at UI scale 1: the sidebar's strip of tabs, inside its region
PANEL_MARGINS = 36  # px at UI scale 1: a panel's left and right margins, and the region's scroll bar


def panel_text_width(context):
    """Pixels a label's text has in a sidebar panel: the region less its tabs, the panel's margins and an icon
    (Blender 3.4 under a virtual display: a 229 px region at scale 1.33 drew about 150 px of text)."""
    return region_width(context) - (TABS_WIDTH + PANEL_MARGINS + ICON_WIDTH + 4) * ui_scale(context)


def wrap(text, width, scale=1.0):
    """Lines of text each at most `width` pixels wide, broken between words (a word longer than a line is broken
    after a path separator or underscore where it can, else kept whole): a warning is never cut mid-word."""
    import re
    words = text.split()
    if not words:
        return [""]
    lines, cur = [], ""
    for w in words:
        trial = w if not cur else cur + " " + w
        if text_width(trial, scale) <= width:
            cur = trial
            continue
        if cur:
            lines.append(cur)
        cur = ""
        # A word wider than a line (a long path): split after / \ _ . where possible.
        piece = ""
        for part in re.split(r"(?<=[/\\_.])", w):
            if piece and text_width(piece + part, scale) > width:
                lines.append(piece)
                piece = ""
            piece += part
        cur = piece
    if cur:
        lines.append(cur)
    return lines


def list_label(kind):
    return LIST_LABELS.get(kind) or kind_label(kind)


def list_split(context, kinds=None):
    """The kind column's share of a findings row: wide enough for the widest kind label in the list (`kinds`; all
    known ones when not given) and its icon; the rest is the object's."""
    scale = ui_scale(context)
    # Tabs, margins and the list's frame: 157 px of row in a 220 px sidebar (Blender 3.4, measured on a screenshot).
    row = region_width(context) - (TABS_WIDTH + PANEL_MARGINS) * scale
    labels = [list_label(k) for k in kinds] if kinds else list(LIST_LABELS.values())
    # The icon, its gap and the cell's padding: 26 px before the text and some after it in Blender 3.4's list rows.
    need = (ICON_WIDTH + 8) * scale + max(text_width(t, scale) for t in labels) + 12 * scale
    return min(0.66, max(0.2, need / row)), row


class SK8_UL_findings(bpy.types.UIList):
    def draw_item(self, context, layout, data, item, icon, active_data, active_propname, index=0):
        factor, _ = list_split(context, {f.kind for f in getattr(data, "findings", ())})
        # Two columns and no button in the row: at the default sidebar width a third item left the kind one letter.
        # Go To (and ◀ ▶) are under the list.
        split = layout.split(factor=factor, align=True)
        split.label(text=list_label(item.kind), icon="INFO" if item.severity == "INFO" else "ERROR")
        split.label(text=item.object if item.count == 1 else "%s ×%d" % (item.object, item.count))


CLASSES = (SK8_Line, SK8_Finding, SK8_State, SK8_BuildSettings, SK8_OT_compile, SK8_OT_load_findings,
           SK8_OT_go_to_finding, SK8_OT_open_report, SK8_UL_findings)


def register():
    bpy.types.WindowManager.sk8_state = PointerProperty(type=SK8_State)
    bpy.types.Scene.sk8_build = PointerProperty(type=SK8_BuildSettings)


def unregister():
    del bpy.types.WindowManager.sk8_state
    del bpy.types.Scene.sk8_build
