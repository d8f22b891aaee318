# SPDX-License-Identifier: MIT
# blender/skate_collision/locate.py without Blender (it is plain Python): where node and the compiler may be taken
# from, checked on folders made here. Run by test/blender/locate.test.ts as `python3 locate_cases.py <locate dir>
# <work dir>`; prints "OK <n>" or raises.
import os
import sys

sys.path.insert(0, sys.argv[1])
import locate  # noqa: E402

work = os.path.realpath(sys.argv[2])
checked = 0


def refused(fn, why):
    global checked
    try:
        got = fn()
    except (locate.NotFound, ValueError) as e:
        assert why in str(e), (why, str(e))
        checked += 1
        return str(e)
    raise AssertionError("%s: accepted %r" % (why, got))


def program(path, text="#!/bin/sh\n"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)
    return path


NOWHERE = os.path.join(work, "nonexistent")
# This machine's own node (/usr/bin/node, /usr/local/bin/node: fixed places find_node also looks) is hidden: only
# what is made here exists for the cases.
_isfile = os.path.isfile
os.path.isfile = lambda p: _isfile(p) and os.path.realpath(p).startswith(work + os.sep)

# 1. A version manager's folder named by a relative variable is a folder under the current one (Blender's, often the
#    .blend's): never searched, on either OS. The current folder holds what a downloaded level's folder could.
os.chdir(work)
program(os.path.join(work, "rel", "versions", "node", "v20.0.0", "bin", "node"))
program(os.path.join(work, "relw", "v20.0.0", "node.exe"))
refused(lambda: locate.find_node(env={"PATH": NOWHERE, "NVM_DIR": "rel", "HOME": NOWHERE}, platform="linux", home=NOWHERE), "not found")
refused(lambda: locate.find_node(env={"PATH": "", "NVM_HOME": "relw", "APPDATA": NOWHERE, "LOCALAPPDATA": NOWHERE, "USERPROFILE": NOWHERE},
                                 platform="win32", home=NOWHERE), "not found")
# A program given by a relative name would be looked for in the current folder (Windows searches it first).
for plat, prog in (("linux", "node"), ("win32", "node.exe"), ("win32", "relw\\v20.0.0\\node.exe")):
    refused(lambda: locate.check_command([prog, "x.mjs"], plat), "not an absolute path")

# 2. A folder others can write anywhere above the program lets them swap the whole folder under it: a node in
#    <world-writable>/tools/bin, whose own folders are safe, is refused; so is one reached through a folder (a
#    symbolic link here) that others can replace.
open_dir = os.path.join(work, "open")
safe_node = program(os.path.join(open_dir, "tools", "bin", "node"))
os.chmod(open_dir, 0o777)
why = refused(lambda: locate.find_node(env={"PATH": os.path.dirname(safe_node), "HOME": NOWHERE}, platform="linux", home=NOWHERE), "not found")
assert "can be written by other users" in why and open_dir in why, why
os.chmod(open_dir, 0o755)
assert locate.find_node(env={"PATH": os.path.dirname(safe_node), "HOME": NOWHERE}, platform="linux", home=NOWHERE) == safe_node
# The PATH entry is a link in a folder others can write (not sticky): they can point it elsewhere after the check.
links = os.path.join(work, "links")
os.makedirs(links)
os.symlink(os.path.dirname(safe_node), os.path.join(links, "bin"))
os.chmod(links, 0o777)
why = refused(lambda: locate.find_node(env={"PATH": os.path.join(links, "bin"), "HOME": NOWHERE}, platform="linux", home=NOWHERE), "not found")
assert links in why, why
os.chmod(links, 0o755)
# Sticky and world-writable (/tmp's mode) with the link owned by the author: safe (only its owner may replace it).
os.chmod(links, 0o1777)
assert locate.find_node(env={"PATH": os.path.join(links, "bin"), "HOME": NOWHERE}, platform="linux", home=NOWHERE) == os.path.join(links, "bin", "node")
if os.getuid() == 0:
    # In a sticky folder, a link owned by another user is theirs to re-point.
    os.lchown(os.path.join(links, "bin"), 12345, 12345)
    why = refused(lambda: locate.find_node(env={"PATH": os.path.join(links, "bin"), "HOME": NOWHERE}, platform="linux", home=NOWHERE), "not found")
    assert "belongs to another user" in why, why
    os.lchown(os.path.join(links, "bin"), 0, 0)
os.chmod(links, 0o755)

# 3. The compiler on PATH is checked as the file node will run: npm's POSIX bin folder with a package beside it
#    (the layout npm_shim_target reads) whose JavaScript others can write is refused.
npmbin = os.path.join(work, "npmbin")
program(os.path.join(npmbin, "compile-collision"), "#!/bin/sh\nexec node \"$(dirname \"$0\")/node_modules/skate-collision/dist/compiler/compile-collision.mjs\" \"$@\"\n")
mjs = program(os.path.join(npmbin, "node_modules", "skate-collision", "dist", "compiler", "compile-collision.mjs"), "")
assert locate.find_compiler_script(os.path.join(work, "no-addon"), env={"PATH": npmbin}, platform="linux") == (mjs, "PATH")
os.chmod(os.path.dirname(mjs), 0o777)
refused(lambda: locate.find_compiler_script(os.path.join(work, "no-addon"), env={"PATH": npmbin}, platform="linux"), "can be written by other users")
os.chmod(os.path.dirname(mjs), 0o755)
# 4. A relative path set by the user (the preference, SK8_COMPILE_COLLISION) would mean a file under the current
#    folder: refused, not resolved against it.
os.chdir(npmbin)
refused(lambda: locate.find_compiler_script(os.path.join(work, "no-addon"), configured=os.path.join("node_modules", "skate-collision", "dist", "compiler", "compile-collision.mjs"), env={"PATH": ""}, platform="linux"), "not an absolute path")
refused(lambda: locate.find_compiler_script(os.path.join(work, "no-addon"), env={"PATH": "", "SK8_COMPILE_COLLISION": "compile-collision"}, platform="linux"), "not an absolute path")
refused(lambda: locate.find_node("compile-collision", env={"PATH": ""}, platform="linux", home=NOWHERE), "not an absolute path")
print("OK %d" % checked)
