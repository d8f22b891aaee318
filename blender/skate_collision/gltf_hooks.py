# SPDX-License-Identifier: MIT
# Hooks into Blender's glTF importer and exporter (its user extensions: the add-on's package exposes
# glTF2ImportUserExtension and glTF2ExportUserExtension) that carry the stored native records of
# `compile-collision to-gltf` (props.read_record) through Blender exactly.
#
# Why: the importer turns an object in extras into a group of custom properties, which cannot hold null (a
# convex_parts record's parts without a record), so it stores Python's text of it instead ("{'type': ..., None, ...}",
# which nothing reads back), and a group's number lists lose which were integers. So on import a record is held as
# its JSON string (what the add-on writes for sk8_shape anyway; the compiler reads a string or an object alike), and
# on export such a string is written back as the object it was: an unedited record leaves Blender with the same
# JSON value in extras, every number the same double (and integers as integers). The scene's sk8_compile (to-gltf's
# record of the build, for `compile-collision --recorded-options`) holds nulls too and is carried the same way.
import json

from . import props


def _record_value(value):
    """value when it is a stored record (an object sk8_shape), else None."""
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        return None
    t = value["type"].strip().lower()
    if t in ("hull", "convex_parts") or (t == "box" and value.get("stored") is True):
        return value
    return None


COMPILE_KEY = "sk8_compile"


class ImportHooks:
    def gather_import_scene_after_nodes_hook(self, gltf_scene, blender_scene, gltf):
        if gltf_scene is None:
            # to-gltf's GLB names no default scene, and then the importer reads no scene extras; the compiler reads
            # the first scene's (src/export/recorded.ts).
            scenes = getattr(gltf.data, "scenes", None) or []
            gltf_scene = scenes[0] if scenes else None
        extras = getattr(gltf_scene, "extras", None)
        if blender_scene is not None and isinstance(extras, dict) and isinstance(extras.get(COMPILE_KEY), dict):
            blender_scene[COMPILE_KEY] = props.record_json(extras[COMPILE_KEY])

    def gather_import_node_after_hook(self, vnode, gltf_node, blender_object, gltf):
        extras = getattr(gltf_node, "extras", None)
        if blender_object is None or not isinstance(extras, dict):
            return
        value = _record_value(extras.get(props.SHAPE_KEY))
        if value is not None:
            blender_object[props.SHAPE_KEY] = props.record_json(value)


class ExportHooks:
    def gather_scene_hook(self, gltf2_scene, blender_scene, export_settings):
        extras = getattr(gltf2_scene, "extras", None)
        if isinstance(extras, dict) and isinstance(extras.get(COMPILE_KEY), str):
            try:
                value = json.loads(extras[COMPILE_KEY])
            except ValueError:
                value = props._python_text(extras[COMPILE_KEY])
            if isinstance(value, dict):
                extras[COMPILE_KEY] = value

    def gather_node_hook(self, gltf2_object, blender_object, export_settings):
        extras = getattr(gltf2_object, "extras", None)
        if blender_object is None or not isinstance(extras, dict) or not isinstance(extras.get(props.SHAPE_KEY), str):
            return
        if props.read_record(blender_object) is None:
            return
        raw = extras[props.SHAPE_KEY]
        try:
            value = json.loads(raw)
        except ValueError:
            value = props._python_text(raw)  # an import without the add-on: Python's text of the record
        if _record_value(value) is not None:
            extras[props.SHAPE_KEY] = value
