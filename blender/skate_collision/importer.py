# SPDX-License-Identifier: MIT
# File → Import → skate. collision: a .physics file, a folder of them or a compile output (its manifest.json or the
# folder), through `compile-collision to-gltf` (PhysicsResources back to one GLB: a node per part, a material per
# packed word as sk8_collision_material_packed) and Blender's own glTF importer, so stock collision can be edited
# and compiled again.
import os
import shutil
import subprocess
import tempfile

import bpy
from bpy.props import BoolProperty, CollectionProperty, StringProperty
from bpy_extras.io_utils import ImportHelper

from . import build, locate


def to_gltf_inputs(filepath, directory, files):
    """What to give to-gltf: the chosen .physics files, else the folder (a manifest.json stands for its folder)."""
    chosen = [os.path.join(directory, f.name) for f in files if f.name.lower().endswith(".physics")] if directory else []
    if chosen:
        return chosen
    if filepath and os.path.isfile(filepath):
        if os.path.basename(filepath).lower() == "manifest.json":
            return [os.path.dirname(filepath)]
        return [filepath]
    d = filepath if filepath and os.path.isdir(filepath) else directory
    if d and os.path.isdir(d):
        return [d]
    raise ValueError("choose a .physics file, a folder of them or a compile output (%s)" % (filepath or directory))


def import_collision(context, inputs, edge_colors=False):
    """Runs to-gltf into a temporary GLB and imports it; returns the imported objects."""
    base = build.find_compiler(context)
    workdir = tempfile.mkdtemp(prefix="sk8-import-")
    glb = os.path.join(workdir, "collision.glb")
    try:
        cmd = list(base) + ["to-gltf", *[locate.file_argument(i) for i in inputs], "-o", glb] + (["--edge-colors"] if edge_colors else [])
        r = locate.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL, env={**os.environ, "CI": "1"})
        if r.returncode != 0 or not os.path.isfile(glb):
            raise RuntimeError((r.stderr.strip() or "compile-collision to-gltf exited with %d" % r.returncode).splitlines()[-1])
        if not hasattr(bpy.types, "IMPORT_SCENE_OT_gltf"):
            import addon_utils
            addon_utils.enable("io_scene_gltf2", default_set=False)
        before = set(bpy.data.objects)
        bpy.ops.import_scene.gltf(filepath=glb, merge_vertices=False)
        objs = [o for o in bpy.data.objects if o not in before]
        restore_dropped_faces(glb, objs)
        return objs
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def read_glb_triangles(glb):
    """Node name → triangles (three positions each, Blender axes: (x, -z, y)) of the node's mesh, from the GLB."""
    import json
    import struct
    from array import array
    data = open(glb, "rb").read()
    n = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + n])
    bin_start = 20 + n + 8
    kinds = {5121: "B", 5123: "H", 5125: "I", 5126: "f"}
    sizes = {"SCALAR": 1, "VEC3": 3}

    def accessor(i):
        a = doc["accessors"][i]
        view = doc["bufferViews"][a["bufferView"]]
        width = sizes[a["type"]]
        item = struct.calcsize(kinds[a["componentType"]])
        stride = view.get("byteStride") or item * width
        start = bin_start + view.get("byteOffset", 0) + a.get("byteOffset", 0)
        out = []
        for k in range(a["count"]):
            v = array(kinds[a["componentType"]])
            v.frombytes(data[start + k * stride:start + k * stride + item * width])
            out.append(tuple(v) if width > 1 else v[0])
        return out

    result = {}
    for node in doc.get("nodes", []):
        if "mesh" not in node:
            continue
        tris = []
        for prim in doc["meshes"][node["mesh"]]["primitives"]:
            if prim.get("mode", 4) != 4 or "indices" not in prim:
                continue
            pos = [(round(x, 4) + 0.0, round(-z, 4) + 0.0, round(y, 4) + 0.0) for x, y, z in accessor(prim["attributes"]["POSITION"])]
            idx = accessor(prim["indices"])
            tris += [(pos[idx[k]], pos[idx[k + 1]], pos[idx[k + 2]]) for k in range(0, len(idx) - 2, 3)]
        result[node.get("name", "")] = tris
    return result


def _oriented(tri):
    k = tri.index(min(tri))
    return tri[k:] + tri[:k]


def restore_dropped_faces(glb, objs):
    """A Blender mesh holds one face per set of vertices, so the glTF importer drops the second of a back-to-back
    pair (a two-sided sheet, which collision keeps). Puts such faces back, on vertices of their own, with their
    twin's material. Returns how many were restored."""
    import re
    from collections import Counter
    import bmesh
    tris_of = read_glb_triangles(glb)
    restored = 0
    for o in objs:
        if o.type != "MESH":
            continue
        tris = tris_of.get(o.name)
        if tris is None:
            tris = tris_of.get(re.sub(r"\.\d{3,}$", "", o.name))
        if tris is None or len(tris) <= len(o.data.polygons):
            continue
        me = o.data
        co = [tuple(round(c, 4) + 0.0 for c in v.co) for v in me.vertices]
        have = Counter()
        oriented = set()
        twin_material = {}
        for poly in me.polygons:
            t = tuple(co[i] for i in poly.vertices)
            key = tuple(sorted(t))
            have[key] += 1
            oriented.add(_oriented(t))
            twin_material[key] = poly.material_index
        want = Counter(tuple(sorted(t)) for t in tris)
        missing = []
        for t in tris:
            key = tuple(sorted(t))
            if want[key] > have[key] and _oriented(t) not in oriented:
                missing.append(t)
                have[key] += 1
        if not missing:
            continue
        bm = bmesh.new()
        bm.from_mesh(me)
        for t in missing:
            face = bm.faces.new([bm.verts.new(p) for p in t])
            face.material_index = twin_material.get(tuple(sorted(t)), 0)
        # Faces in the file's order, not the restored ones last: the compiler keeps the triangles' order, so a round
        # trip writes the same bytes (a back-to-back pair's twin at its own place).
        place = {}
        for k, t in enumerate(tris):
            place.setdefault(_oriented(t), []).append(k)
        taken = Counter()
        order = {}
        for f in bm.faces:
            t = _oriented(tuple(tuple(round(c, 4) + 0.0 for c in v.co) for v in f.verts))
            ks = place.get(t, [])
            order[f] = ks[taken[t]] if taken[t] < len(ks) else len(tris) + f.index
            taken[t] += 1
        bm.faces.sort(key=lambda f: order[f])
        bm.faces.index_update()
        bm.to_mesh(me)
        bm.free()
        me.update()
        restored += len(missing)
    return restored


class SK8_OT_import_collision(bpy.types.Operator, ImportHelper):
    """Import skate. collision (.physics, a folder of them, or a compile output) as editable meshes"""
    bl_idname = "import_scene.sk8_collision"
    bl_label = "Import skate. Collision"
    bl_options = {"REGISTER", "UNDO"}

    filename_ext = ".physics"
    filter_glob: StringProperty(default="*.physics;manifest.json", options={"HIDDEN"})
    files: CollectionProperty(type=bpy.types.OperatorFileListElement, options={"HIDDEN", "SKIP_SAVE"})
    directory: StringProperty(subtype="DIR_PATH", options={"HIDDEN", "SKIP_SAVE"})
    edge_colors: BoolProperty(name="Edge Colours", description="Vertex colours by the corners' stored edge class (to-gltf --edge-colors)")

    def execute(self, context):
        try:
            inputs = to_gltf_inputs(self.filepath, self.directory, self.files)
            objs = import_collision(context, inputs, self.edge_colors)
        except (build.CompilerMissing, ValueError, RuntimeError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        self.report({"INFO"}, "imported %d object(s) from %s" % (len(objs), ", ".join(inputs)))
        return {"FINISHED"}


def menu_import(self, context):
    self.layout.operator(SK8_OT_import_collision.bl_idname, text="skate. collision (.physics)")


CLASSES = (SK8_OT_import_collision,)


def register():
    bpy.types.TOPBAR_MT_file_import.append(menu_import)


def unregister():
    bpy.types.TOPBAR_MT_file_import.remove(menu_import)
