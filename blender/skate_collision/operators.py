# SPDX-License-Identifier: MIT
# Operators that set the collision properties on every selected object (or its materials), for the panel's
# buttons and for scripting: bpy.ops.sk8.set_mode(mode="box"), bpy.ops.sk8.set_surface(surface="metal"), …
import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, StringProperty

from . import catalog, props


def _targets(context):
    objs = list(context.selected_objects)
    if not objs and context.active_object is not None:
        objs = [context.active_object]
    return objs


class SK8_OT_set_mode(bpy.types.Operator):
    """Set sk8_collision_mode on the selected objects"""
    bl_idname = "sk8.set_mode"
    bl_label = "Set Collision Mode"
    bl_options = {"REGISTER", "UNDO"}

    mode: EnumProperty(name="Mode", items=[it for it in props.MODE_ITEMS if it[0] != props.OTHER])

    def execute(self, context):
        objs = _targets(context)
        for o in objs:
            props.set_mode(o, self.mode)
        self.report({"INFO"}, "sk8_collision_mode %s on %d object(s)" % (self.mode if self.mode != props.UNSET else "removed", len(objs)))
        return {"FINISHED"}


class SK8_OT_fit_shape(bpy.types.Operator):
    """Write sk8_shape: the primitive fitted to the mesh's local bounds, as explicit parameters to edit"""
    bl_idname = "sk8.fit_shape"
    bl_label = "Fit Shape"
    bl_options = {"REGISTER", "UNDO"}

    family: EnumProperty(name="Family", items=[("", "Current Mode", "The object's primitive mode (box when none)", 0)] + [(f, f.title(), f, i + 1) for i, f in enumerate(catalog.PRIMITIVE_FAMILIES)])

    def execute(self, context):
        objs = _targets(context)
        for o in objs:
            mode = props.read_mode(o)
            family = self.family or (mode if mode in catalog.PRIMITIVE_FAMILIES else "box")
            props.write_shape(o, props.fit_shape(o, family))
            if o.get(props.MODE_KEY) is not None and mode != family:
                o[props.MODE_KEY] = family
        return {"FINISHED"}


class SK8_OT_set_shape(bpy.types.Operator):
    """Write sk8_shape from JSON text (object-local, glTF axes), checked for its type"""
    bl_idname = "sk8.set_shape"
    bl_label = "Set Shape"
    bl_options = {"REGISTER", "UNDO"}

    shape: StringProperty(name="sk8_shape JSON")

    def execute(self, context):
        import json
        try:
            shape = json.loads(self.shape)
        except ValueError as e:
            self.report({"ERROR"}, "sk8_shape is not valid JSON: %s" % e)
            return {"CANCELLED"}
        if not isinstance(shape, dict) or shape.get("type") not in catalog.PRIMITIVE_FAMILIES:
            self.report({"ERROR"}, "sk8_shape needs a type: %s" % ", ".join(catalog.PRIMITIVE_FAMILIES))
            return {"CANCELLED"}
        for o in _targets(context):
            props.write_shape(o, shape)
            if o.get(props.MODE_KEY) is not None:
                o[props.MODE_KEY] = shape["type"]
        return {"FINISHED"}


class SK8_OT_set_surface(bpy.types.Operator):
    """Set sk8_surface (and optionally the packed word) on the selected objects, or on their materials"""
    bl_idname = "sk8.set_surface"
    bl_label = "Set Surface"
    bl_options = {"REGISTER", "UNDO"}

    surface: EnumProperty(name="Surface", items=[it for it in props.SURFACE_ITEMS if it[0] != props.OTHER])
    packed: StringProperty(name="Packed Word", description="sk8_collision_material_packed, 0x… or decimal; empty: leave as it is")
    on_materials: BoolProperty(name="On Materials", description="Set it on the objects' materials instead of the objects")

    def execute(self, context):
        blocks = []
        for o in _targets(context):
            if self.on_materials:
                blocks += [s.material for s in getattr(o, "material_slots", []) if s.material and s.material not in blocks]
            else:
                blocks.append(o)
        try:
            for b in blocks:
                props.set_surface(b, self.surface)
                if self.packed.strip():
                    props.set_packed(b, self.packed)
        except ValueError as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        return {"FINISHED"}


class SK8_OT_set_grind(bpy.types.Operator):
    """Set sk8_grind_curve on the selected objects (their loose edges become grind prisms)"""
    bl_idname = "sk8.set_grind"
    bl_label = "Set Grind Curve"
    bl_options = {"REGISTER", "UNDO"}

    enabled: BoolProperty(name="Enabled", default=True)
    radius: FloatProperty(name="Radius", default=catalog.GRIND_RADIUS_DEFAULT, min=catalog.GRIND_RADIUS_MIN, max=catalog.GRIND_RADIUS_MAX, unit="LENGTH")
    surface: EnumProperty(name="Surface", items=[it for it in props.GRIND_SURFACE_ITEMS if it[0] != props.OTHER], default=catalog.GRIND_DEFAULT_SURFACE)

    def execute(self, context):
        for o in _targets(context):
            props.write_grind(o, enabled=self.enabled, radius=self.radius, surface=self.surface)
        return {"FINISHED"}


CLASSES = (SK8_OT_set_mode, SK8_OT_fit_shape, SK8_OT_set_shape, SK8_OT_set_surface, SK8_OT_set_grind)
