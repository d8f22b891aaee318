# SPDX-License-Identifier: MIT
# skate. collision for Blender: collision properties on objects and materials, compile with compile-collision,
# the findings of the build, and import of compiled collision. The compiler is the npm package skate-collision;
# this add-on only writes the custom properties it reads (docs/blender-export.md) and runs it (docs/blender-addon.md).
bl_info = {
    "name": "skate. collision",
    "author": "skate-collision contributors",
    "version": (0, 1, 0),
    "blender": (4, 2, 0),
    "location": "Properties → Object/Material → skate. Collision; 3D View → Sidebar → skate.; File → Import",
    "description": "Set collision properties, compile skate. PhysicsResource collision, go to each finding",
    "doc_url": "https://github.com/skate-collision/skate-collision/blob/main/docs/blender-addon.md",
    "category": "Import-Export",
}

import bpy
from bpy.props import StringProperty

from . import build, gltf_hooks, importer, operators, preview, props, ui

# Found by Blender's glTF importer and exporter on every enabled add-on's package (gltf_hooks.py: stored records).
glTF2ImportUserExtension = gltf_hooks.ImportHooks
glTF2ExportUserExtension = gltf_hooks.ExportHooks


class SK8_Preferences(bpy.types.AddonPreferences):
    bl_idname = __package__

    compiler_path: StringProperty(
        name="compile-collision",
        subtype="FILE_PATH",
        description="The compiler's compile-collision.mjs (or an npm install's compile-collision command; an absolute path); empty: the one bundled with the add-on, else compile-collision on PATH",
    )
    node_path: StringProperty(
        name="node",
        subtype="FILE_PATH",
        description="The node program (Node.js 20+, an absolute path); empty: node on PATH, else nvm's, fnm's, volta's, Homebrew's or the installer's",
    )

    def draw(self, context):
        self.layout.prop(self, "compiler_path")
        self.layout.prop(self, "node_path")
        try:
            self.layout.label(text="uses: " + " ".join(build.find_compiler(context)))
        except build.CompilerMissing as e:
            self.layout.label(text=str(e), icon="ERROR")


CLASSES = (SK8_Preferences,) + operators.CLASSES + build.CLASSES + importer.CLASSES + ui.CLASSES


def register():
    for c in CLASSES:
        bpy.utils.register_class(c)
    props.register()
    build.register()
    importer.register()
    preview.register()


def unregister():
    preview.unregister()
    importer.unregister()
    build.unregister()
    props.unregister()
    for c in reversed(CLASSES):
        bpy.utils.unregister_class(c)
