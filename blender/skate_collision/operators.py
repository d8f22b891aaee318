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


def _named_or_targets(context, name):
    """The object called `name` (the panel's buttons name the panel's object), else the selected objects."""
    if name:
        o = bpy.data.objects.get(name)
        return [o] if o is not None else []
    return _targets(context)


def confirm_drop(operator, context, event, what, objs):
    """Asks before an operator drops stored records (props.read_record): Blender's confirmation popup, naming the
    record and what replaces it. Runs the operator at once when there is nothing to drop."""
    records = [(o, r) for o, r in objs if r is not None]
    if not records:
        return operator.execute(context)
    o, r = records[0]
    more = " (and %d more object(s))" % (len(records) - 1) if len(records) > 1 else ""
    message = "%s holds a %s%s. %s" % (o.name, r["summary"], more, what)
    try:  # title/message/confirm_text: Blender 4.1+
        return context.window_manager.invoke_confirm(operator, event, title="Drop the stored record?", message=message, confirm_text="Drop Record", icon="WARNING")
    except TypeError:
        return context.window_manager.invoke_confirm(operator, event)


def report_dropped(operator, dropped):
    if dropped:
        o, r = dropped[0]
        more = " and %d more" % (len(dropped) - 1) if len(dropped) > 1 else ""
        operator.report({"WARNING"}, "dropped the %s of %s%s" % (r["summary"].split(":")[0], o.name, more))


class SK8_OT_set_mode(bpy.types.Operator):
    """Set sk8_collision_mode on the selected objects (asks before dropping a stored record of to-gltf)"""
    bl_idname = "sk8.set_mode"
    bl_label = "Set Collision Mode"
    bl_options = {"REGISTER", "UNDO"}

    mode: EnumProperty(name="Mode", items=[it for it in props.MODE_ITEMS if it[0] != props.OTHER])
    target: StringProperty(name="Object", description="Only this object (the panel's); empty: the selected objects", options={"HIDDEN", "SKIP_SAVE"})

    def invoke(self, context, event):
        mode = "" if self.mode == props.UNSET else self.mode
        objs = [(o, props.record_dropped_by(o, mode)) for o in _named_or_targets(context, self.target)]
        what = "The compiler will then build %s." % ("the object as the mesh" if mode in ("", "triangle_mesh") else "a %s from the mesh" % mode.replace("_", " "))
        return confirm_drop(self, context, event, what, objs)

    def execute(self, context):
        objs = _named_or_targets(context, self.target)
        dropped = []
        for o in objs:
            r = props.set_mode(o, self.mode)
            if r is not None:
                dropped.append((o, r))
        self.report({"INFO"}, "sk8_collision_mode %s on %d object(s)" % (self.mode if self.mode != props.UNSET else "removed", len(objs)))
        report_dropped(self, dropped)
        return {"FINISHED"}


class SK8_OT_build_from_mesh(bpy.types.Operator):
    """Drop the stored record in sk8_shape (to-gltf's exact box, hull or convex parts), keeping the mode: the
    compiler then builds the shape from the mesh, as for an object never compiled"""
    bl_idname = "sk8.build_from_mesh"
    bl_label = "Build from Mesh"
    bl_options = {"REGISTER", "UNDO"}

    target: StringProperty(name="Object", description="Only this object (the panel's); empty: the selected objects", options={"HIDDEN", "SKIP_SAVE"})

    def invoke(self, context, event):
        objs = [(o, props.read_record(o)) for o in _named_or_targets(context, self.target)]
        return confirm_drop(self, context, event, "The compiler will then build the shape from the mesh.", objs)

    def execute(self, context):
        dropped = []
        for o in _named_or_targets(context, self.target):
            r = props.read_record(o)
            if r is not None:
                if o.get(props.MODE_KEY) is None:
                    o[props.MODE_KEY] = r["mode"]  # the record named the mode; keep it
                o.pop(props.SHAPE_KEY, None)
                dropped.append((o, r))
        report_dropped(self, dropped)
        return {"FINISHED"}


class SK8_OT_fit_shape(bpy.types.Operator):
    """Write sk8_shape: the primitive fitted to the mesh's local bounds, as explicit parameters to edit"""
    bl_idname = "sk8.fit_shape"
    bl_label = "Fit Shape"
    bl_options = {"REGISTER", "UNDO"}

    family: EnumProperty(name="Family", items=[("", "Current Mode", "The object's primitive mode (box when none)", 0)] + [(f, f.title(), f, i + 1) for i, f in enumerate(catalog.PRIMITIVE_FAMILIES)])

    def invoke(self, context, event):
        objs = [(o, props.read_record(o)) for o in _targets(context)]
        return confirm_drop(self, context, event, "Fit writes the primitive fitted to the mesh's local bounds instead.", objs)

    def execute(self, context):
        objs = _targets(context)
        dropped = []
        for o in objs:
            mode = props.read_mode(o)
            family = self.family or (mode if mode in catalog.PRIMITIVE_FAMILIES else "box")
            r = props.read_record(o)
            if r is not None:
                dropped.append((o, r))  # asked for: a refit replaces the stored record
            props.write_shape(o, props.fit_shape(o, family))
            if o.get(props.MODE_KEY) is not None and mode != family:
                o[props.MODE_KEY] = family
        report_dropped(self, dropped)
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


CLASSES = (SK8_OT_set_mode, SK8_OT_build_from_mesh, SK8_OT_fit_shape, SK8_OT_set_shape, SK8_OT_set_surface, SK8_OT_set_grind)
