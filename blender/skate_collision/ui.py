# SPDX-License-Identifier: MIT
# The panels: Object and Material properties (the collision settings), and the 3D view's sidebar tab
# "skate." (compile, its result, the findings).
import bpy

from . import build, catalog, props


class SK8_PT_object(bpy.types.Panel):
    bl_label = "skate. Collision"
    bl_idname = "OBJECT_PT_sk8_collision"
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "object"

    @classmethod
    def poll(cls, context):
        return context.object is not None

    def draw(self, context):
        obj = context.object
        col = self.layout.column()
        col.use_property_split = True
        record = props.read_record(obj)
        mode = props.read_mode(obj)
        if record is not None:
            # A stored record of to-gltf: a menu that asks before dropping it, not the mode field (whose set would).
            draw_record(col, context, obj, record, mode)
        else:
            col.prop(obj, "sk8_ui_mode")
        if record is not None:
            pass  # drawn above
        elif mode in catalog.PRIMITIVE_FAMILIES:
            box = col.box()
            row = box.row()
            row.prop(obj, "sk8_ui_explicit_shape")
            row.operator("sk8.fit_shape", text="Fit", icon="MESH_CUBE")
            row.prop(context.window_manager.sk8_state, "preview", text="", icon="HIDE_OFF")
            if obj.get(props.SHAPE_KEY) is not None:
                box.prop(obj, "sk8_ui_shape_centre")
                if mode == "box":
                    box.prop(obj, "sk8_ui_shape_size")
                else:
                    box.prop(obj, "sk8_ui_shape_radius")
                if mode in ("capsule", "cylinder", "cone"):
                    box.prop(obj, "sk8_ui_shape_length", text="Height" if mode == "cone" else "Length")
                    box.prop(obj, "sk8_ui_shape_axis")
            else:
                box.label(text="fitted to the mesh's local bounds when compiled", icon="INFO")
        elif mode is None:
            col.label(text="sk8_collision_mode %r is not read; see Custom Properties" % obj.get(props.MODE_KEY), icon="ERROR")
        col.separator()
        col.prop(obj, "sk8_ui_surface")
        col.prop(obj, "sk8_ui_packed")
        draw_packed_error(col, context, obj)
        col.separator()
        col.prop(obj, "sk8_ui_grind")
        if props.read_grind(obj)["enabled"]:
            sub = col.column()
            sub.prop(obj, "sk8_ui_grind_radius")
            sub.prop(obj, "sk8_ui_grind_surface")


def mode_label(mode):
    for ident, name, _, _ in props.MODE_ITEMS:
        if ident == (mode or props.UNSET):
            return name
    return props.MODE_ITEMS[-1][1]


def draw_record(col, context, obj, record, mode):
    """An object holding a stored record of to-gltf (props.read_record): the mode as a menu whose entries ask before
    dropping the record (sk8.set_mode's confirmation), what the record holds, and the two ways to replace it."""
    row = col.row()
    row.label(text="Collision")
    row.menu(SK8_MT_record_mode.bl_idname, text=mode_label(mode), icon="LOCKED")
    box = col.box()
    box.label(text=record["summary"], icon="CHECKMARK")
    box.label(text=record["detail"])
    box.label(text="kept as it is: --native-shapes writes these numbers again", icon="INFO")
    if not context.scene.sk8_build.native_shapes:
        box.label(text="Compile has Native Shapes off: this compiles as triangles, not as the stored part", icon="ERROR")
    box.label(text="moving keeps them; turning, scaling or a mesh that no longer spans it rebuilds it")
    if record["form"] == "python":
        box.label(text="held as Python text (imported without the add-on): only the add-on's export writes it as JSON", icon="ERROR")
    elif record["form"] == "group":
        box.label(text="held as custom properties (imported without the add-on): integers export as floats", icon="INFO")
    row = box.row()
    if record["type"] == "box":
        row.operator("sk8.fit_shape", text="Fit", icon="MESH_CUBE")
        row.prop(context.window_manager.sk8_state, "preview", text="", icon="HIDE_OFF")
    row.operator("sk8.build_from_mesh", icon="MOD_REMESH").target = obj.name


class SK8_MT_record_mode(bpy.types.Menu):
    """The modes for an object holding a stored record: each entry is sk8.set_mode on that object, which asks
    before it drops the record (its own mode and none keep it)."""
    bl_idname = "SK8_MT_record_mode"
    bl_label = "Collision Mode"

    def draw(self, context):
        obj = context.object
        layout = self.layout
        layout.operator_context = "INVOKE_DEFAULT"
        record = props.read_record(obj) if obj is not None else None
        for ident, name, description, _ in props.MODE_ITEMS:
            if ident == props.OTHER or obj is None:
                continue
            keeps = record is None or props.record_dropped_by(obj, "" if ident == props.UNSET else ident) is None
            op = layout.operator("sk8.set_mode", text=name if keeps else name + " (drops the record)", icon="NONE" if keeps else "ERROR")
            op.mode = ident
            op.target = obj.name


class SK8_PT_material(bpy.types.Panel):
    bl_label = "skate. Collision"
    bl_idname = "MATERIAL_PT_sk8_collision"
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "material"

    @classmethod
    def poll(cls, context):
        return context.material is not None

    def draw(self, context):
        col = self.layout.column()
        col.use_property_split = True
        col.prop(context.material, "sk8_ui_surface")
        col.prop(context.material, "sk8_ui_packed")
        draw_packed_error(col, context, context.material)


def draw_packed_error(col, context, idblock):
    msg = props.packed_error(idblock, context)
    if msg:
        for k, part in enumerate(build.wrap(msg, build.panel_text_width(context), build.ui_scale(context))):
            col.label(text=part, icon="ERROR" if k == 0 else "BLANK1")


class SK8_PT_build(bpy.types.Panel):
    bl_label = "Compile"
    bl_idname = "VIEW3D_PT_sk8_build"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "skate."

    def draw(self, context):
        s = context.scene.sk8_build
        state = context.window_manager.sk8_state
        col = self.layout.column()
        # One setting a row (two short checkboxes share one): at the sidebar's default width two or three settings
        # a row cut their names ("Cell …", "Sel…").
        col.label(text="Output Folder")
        col.prop(s, "out_dir", text="")
        col.prop(s, "cell_size", text="Cell")
        col.prop(s, "seams")
        col.prop(s, "selection_only")
        row = col.row()
        row.prop(s, "strict")
        row.prop(s, "report")
        col.prop(s, "native_shapes")
        row = col.row()
        row.enabled = not state.running
        row.operator("sk8.compile", icon="PLAY")
        width, scale = build.panel_text_width(context), build.ui_scale(context)
        if state.status:
            # Wrapped between words at the sidebar's width: a label that does not fit is cut by Blender mid-word.
            for k, part in enumerate(build.wrap(state.status, width, scale)):
                col.label(text=part, icon=("TIME" if state.running else "NONE") if k == 0 else "BLANK1")
        if state.running and state.progress > 0.0 and hasattr(col, "progress"):
            # A bar for a stage that counts steps (encode: resources); layout.progress is Blender 4.0+.
            col.progress(factor=state.progress, type="BAR", text="%.0f %%" % (100 * state.progress))
        for line in state.lines:
            for k, part in enumerate(build.wrap(line.text, width, scale)):
                col.label(text=part, icon=line.icon if k == 0 else ("BLANK1" if line.icon != "NONE" else "NONE"))


class SK8_PT_findings(bpy.types.Panel):
    bl_label = "Findings"
    bl_idname = "VIEW3D_PT_sk8_findings"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "skate."

    def draw(self, context):
        state = context.window_manager.sk8_state
        col = self.layout.column()
        col.template_list("SK8_UL_findings", "", state, "findings", state, "finding_index", rows=6)
        row = col.row(align=True)
        row.operator("sk8.go_to_finding", text="Go To").index = -1
        op = row.operator("sk8.go_to_finding", text="", icon="TRIA_LEFT")
        op.step = -1
        op = row.operator("sk8.go_to_finding", text="", icon="TRIA_RIGHT")
        op.step = 1
        row = col.row(align=True)
        row.operator("sk8.load_findings", text="Load", icon="FILE_REFRESH")
        row.operator("sk8.open_report", text="Report", icon="URL")


CLASSES = (SK8_MT_record_mode, SK8_PT_object, SK8_PT_material, SK8_PT_build, SK8_PT_findings)
