# SPDX-License-Identifier: MIT
# Where the add-on finds node and the compiler, and how it starts them. Nothing a .blend, a level, a manifest or a
# cache holds is ever run or handed to a shell:
#   - the compiler runs as [node, <compiler's JavaScript>, args…] with the arguments as a list, never through a shell;
#     on Windows never through a .cmd/.bat/.ps1 (those run in cmd.exe / PowerShell, which re-parse the arguments:
#     an output folder "C:\x&calc" would run calc), so npm's shims are read for the JavaScript they point at;
#   - the compiler is taken only from places the user set or installed: the one bundled in the add-on
#     (<add-on>/compiler/compile-collision.mjs, from the release zip), the add-on's preference, the
#     SK8_COMPILE_COLLISION environment variable, or compile-collision on PATH; never from a folder found by walking
#     up from the .blend (a /tmp/node_modules/.bin planted by another user);
#   - on POSIX, a compiler or node found on PATH or in a version manager's folder is refused when it, or any folder
#     or link on the way to it, can be changed by other users; a program is always started by its absolute path
#     (a relative one would be looked for in the current folder, often the .blend's).
# Pure Python (no bpy): the platform is a parameter, so every branch is tested on any machine.
import ntpath
import os
import posixpath
import re
import stat
import subprocess
import sys

COMPILER_NAME = "compile-collision"
BUNDLED = ("compiler", "compile-collision.mjs")  # under the add-on's folder, from the release zip
JS_SUFFIXES = (".js", ".mjs", ".cjs")
NPM_PACKAGE = "skate-collision"
# The package's command, where npm's shims point: the bundled compiler (the release's), or the older bin script.
NPM_BIN_JS = (("dist", "compiler", "compile-collision.mjs"), ("bin", "compile-collision.js"))


class NotFound(Exception):
    """A message for the author: what was looked for, where, and how to fix it."""


def _pathmod(platform):
    return ntpath if platform == "win32" else posixpath


def windows_suffix(path):
    """The extension Windows acts on: it ignores trailing dots and spaces ("x.cmd. " runs as x.cmd)."""
    return ntpath.splitext(path.rstrip(". "))[1].lower()


def _is_abs(path, platform):
    """An absolute path by the target platform's rule (and this machine's, where the tests give POSIX paths for
    Windows): a relative one would be looked for under the current folder (Blender's, often a .blend's)."""
    return bool(path) and (_pathmod(platform).isabs(path) or os.path.isabs(path))


def unsafe_reason(path, platform=sys.platform, uid=None, groups=None):
    """Why a file found by search (not set by the user) must not be run, else None. POSIX: the file, or any folder
    from the root down to it, can be written by another user (others, or a group the author is not in; a folder's
    write is harmless with the sticky bit, for entries the author or root owns), or is owned by another user than
    the author or root. Checked along the path as given (its symbolic links included: a link another user can
    re-point would swap the program after this check) and along the path it resolves to."""
    if platform == "win32" or not hasattr(os, "getuid"):
        return None
    uid = os.getuid() if uid is None else uid
    groups = set(os.getgroups()) | {os.getgid()} if groups is None else groups

    def others(st):
        # Group write counts when the author is not in the group (a user's private group, or macOS's admin group
        # owning Homebrew's /usr/local/bin, hold only people who can already run anything as the author).
        return st.st_mode & stat.S_IWOTH or (st.st_mode & stat.S_IWGRP and st.st_gid not in groups)

    def chain(p):
        """(lstat, path) of every entry from the root down to p, p last."""
        out, cur = [], p
        while True:
            out.append((os.lstat(cur), cur))
            parent = os.path.dirname(cur)
            if parent == cur:
                return out[::-1]
            cur = parent

    try:
        real = os.path.realpath(path)
        walks = [chain(os.path.abspath(path))] + ([chain(real)] if real != os.path.abspath(path) else [])
    except OSError as e:
        return "cannot check it (%s)" % e
    for walk in walks:
        for i, (st, p) in enumerate(walk):
            what = "file" if i == len(walk) - 1 else ("link" if stat.S_ISLNK(st.st_mode) else "folder")
            if st.st_uid not in (uid, 0):
                return "its %s %s belongs to another user (uid %d)" % (what, p, st.st_uid)
            if stat.S_ISLNK(st.st_mode):
                continue  # a link's own mode means nothing: its folder and its owner decide who can change it
            if what == "file" and others(st):
                return "the file %s can be written by other users" % p
            # A folder others can write lets them replace what is in it, unless it is sticky (/tmp): then only
            # each entry's owner, checked next, can.
            if what == "folder" and others(st) and not st.st_mode & stat.S_ISVTX:
                return "its folder %s can be written by other users" % p
    return None


def _which(name, env, platform):
    """PATH lookup with the target platform's rules (Windows: PATHEXT, but only .exe/.com are returned as
    programs; scripts are returned too so the caller can read npm's shims)."""
    pm = _pathmod(platform)
    sep = ";" if platform == "win32" else ":"
    exts = [""]
    if platform == "win32":
        exts = [".exe", ".cmd", ".bat", ""]
    for d in (env.get("PATH") or env.get("Path") or "").split(sep):
        if not d or d == ".":
            continue  # an empty entry or "." is the current folder: never searched
        if not pm.isabs(d) and not os.path.isabs(d):
            continue
        for ext in exts:
            p = os.path.join(d, name + ext)
            if os.path.isfile(p) and (platform == "win32" or os.access(p, os.X_OK)):
                return p
    return None


def _version_key(name):
    return [int(x) for x in re.findall(r"\d+", name)] or [-1]


def _newest(pattern_dir, tail):
    """<pattern_dir>/<version>/<tail…> of the newest version folder that has it."""
    try:
        names = sorted(os.listdir(pattern_dir), key=_version_key, reverse=True)
    except OSError:
        return []
    return [os.path.join(pattern_dir, n, *tail) for n in names]


def node_candidates(env, platform=sys.platform, home=None):
    """Where node is installed when it is not on Blender's PATH (a desktop launcher's PATH lacks the version
    managers' folders): version managers, then installers' fixed folders. In order of preference."""
    home = home if home is not None else (env.get("USERPROFILE") if platform == "win32" else env.get("HOME")) or os.path.expanduser("~")
    out = []
    if platform == "win32":
        appdata = env.get("APPDATA") or os.path.join(home, "AppData", "Roaming")
        local = env.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
        if env.get("NVM_SYMLINK"):
            out.append(os.path.join(env["NVM_SYMLINK"], "node.exe"))
        out += _newest(env.get("NVM_HOME") or os.path.join(appdata, "nvm"), ("node.exe",))
        fnm = env.get("FNM_DIR") or os.path.join(appdata, "fnm")
        out.append(os.path.join(fnm, "aliases", "default", "node.exe"))
        out += _newest(os.path.join(fnm, "node-versions"), ("installation", "node.exe"))
        out.append(os.path.join(local, "Volta", "bin", "node.exe"))
        for pf in (env.get("ProgramW6432"), env.get("ProgramFiles"), env.get("ProgramFiles(x86)"), "C:\\Program Files"):
            if pf:
                out.append(os.path.join(pf, "nodejs", "node.exe"))
                out.append(os.path.join(pf, "Volta", "node.exe"))
        out.append(os.path.join(home, "scoop", "apps", "nodejs", "current", "node.exe"))
        out.append(os.path.join(home, "scoop", "apps", "nodejs-lts", "current", "node.exe"))
        return out
    nvm = env.get("NVM_DIR") or os.path.join(home, ".nvm")
    out += _newest(os.path.join(nvm, "versions", "node"), ("bin", "node"))
    fnm_dirs = [env.get("FNM_DIR")] if env.get("FNM_DIR") else []
    fnm_dirs += [os.path.join(env.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share"), "fnm"), os.path.join(home, ".fnm"),
                 os.path.join(home, "Library", "Application Support", "fnm")]
    for fnm in fnm_dirs:
        out.append(os.path.join(fnm, "aliases", "default", "bin", "node"))
        out += _newest(os.path.join(fnm, "node-versions"), ("installation", "bin", "node"))
    out.append(os.path.join(env.get("VOLTA_HOME") or os.path.join(home, ".volta"), "bin", "node"))
    out.append(os.path.join(home, ".asdf", "shims", "node"))
    out += ["/opt/homebrew/bin/node", "/usr/local/bin/node", "/home/linuxbrew/.linuxbrew/bin/node", "/usr/bin/node", "/snap/bin/node"]
    return out


NODE_HELP = ("node (Node.js 20 or newer) not found: looked on PATH (%s) and in the usual install folders (nvm, fnm, volta, "
             "asdf, Homebrew, /usr/local/bin%s). Install Node.js from nodejs.org, or set node's path in Edit → "
             "Preferences → Add-ons → skate. collision")


def find_node(configured="", env=None, platform=sys.platform, home=None):
    """The node program to run the compiler with: the preference, else PATH, else the version managers' and
    installers' folders. Raises NotFound with what was searched."""
    env = os.environ if env is None else env
    if configured:
        if not _is_abs(configured, platform):
            raise NotFound("node: the path set in the add-on preferences (%s) is not an absolute path (it would mean a file under the current folder)" % configured)
        if not os.path.isfile(configured):
            raise NotFound("node: the path set in the add-on preferences (%s) is not a file" % configured)
        if platform == "win32" and windows_suffix(configured) != ".exe":
            raise NotFound("node: the path set in the add-on preferences (%s) is not node.exe (scripts and shims are not run)" % configured)
        return configured
    name = "node"
    found = _which(name, env, platform)
    if found and platform == "win32" and windows_suffix(found) != ".exe":
        found = None  # a node.cmd shim on PATH: not run
    refused = []
    for p in ([found] if found else []) + node_candidates(env, platform, home):
        if not _is_abs(p, platform) or not os.path.isfile(p):
            continue  # a relative folder (a version manager's variable set so) is one under the current folder
        why = unsafe_reason(p, platform)
        if why:
            refused.append("%s (%s)" % (p, why))
            continue
        return p
    extra = ", Program Files\\nodejs" if platform == "win32" else ""
    msg = NODE_HELP % ((env.get("PATH") or env.get("Path") or "empty"), extra)
    if refused:
        msg += "; refused: " + "; ".join(refused)
    raise NotFound(msg)


def _shebang_is_node(path):
    try:
        with open(path, "rb") as f:
            head = f.read(256)
    except OSError:
        return False
    first = head.split(b"\n", 1)[0]
    return first.startswith(b"#!") and b"node" in first


def npm_shim_target(shim):
    """npm's Windows shims (compile-collision.cmd / .ps1 / the extensionless sh script next to them) point at the
    package's command under <folder>/node_modules/skate-collision/: that file, if it is there."""
    d = os.path.dirname(shim)
    for tail in NPM_BIN_JS:
        js = os.path.join(d, "node_modules", NPM_PACKAGE, *tail)
        if os.path.isfile(js):
            return js
    return None


def compiler_script(path, platform=sys.platform, what="compile-collision"):
    """The JavaScript file to give node for a compiler path: a .js/.mjs/.cjs itself; npm's POSIX bin link (a symbolic
    link to the package's bin/compile-collision.js, whose first line is #!/usr/bin/env node) resolved; npm's
    Windows .cmd/.ps1 shim read for its package. Anything else is refused: the add-on runs only node."""
    if path.lower().endswith(JS_SUFFIXES):
        return path
    if platform == "win32":
        suffix = windows_suffix(path)
        if suffix in (".cmd", ".bat", ".ps1", ""):
            js = npm_shim_target(path)
            if js:
                return js
        raise NotFound("%s: %s is not the compiler's JavaScript (a %s is not run: Windows would start it through "
                       "cmd.exe or PowerShell, which re-read the arguments); set the path of the compiler's "
                       "compile-collision.mjs (the skate-collision package's dist/compiler/) instead" % (what, path, suffix or "file without extension"))
    real = os.path.realpath(path)
    if real.lower().endswith(JS_SUFFIXES) or _shebang_is_node(real):
        return real
    js = npm_shim_target(path)
    if js:
        return js
    raise NotFound("%s: %s is not the compiler's JavaScript (only node is run, on a .js/.mjs file or a #!…node "
                   "script); set the path of the compiler's compile-collision.mjs (the skate-collision package's "
                   "dist/compiler/) instead" % (what, path))


def bundled_compiler(addon_dir):
    p = os.path.join(addon_dir, *BUNDLED)
    return p if os.path.isfile(p) else None


def find_compiler_script(addon_dir, configured="", env=None, platform=sys.platform):
    """The compiler's JavaScript: bundled in the add-on, else the preference, else SK8_COMPILE_COLLISION, else
    compile-collision on PATH (its JavaScript, when it is npm's link or shim and safe). Returns (script, where)."""
    env = os.environ if env is None else env
    b = bundled_compiler(addon_dir)
    if b:
        # The add-on's own folder, as installed: still refused if others could have replaced the compiler in it.
        why = unsafe_reason(b, platform)
        if why:
            raise NotFound("compile-collision: the compiler bundled with the add-on (%s) is not run: %s. Reinstall the "
                           "add-on in a folder only you can write" % (b, why))
        return b, "bundled with the add-on"
    for value, where in ((configured, "the add-on preferences"), (env.get("SK8_COMPILE_COLLISION", ""), "SK8_COMPILE_COLLISION")):
        if value:
            if not _is_abs(value, platform):
                raise NotFound("compile-collision: the path set in %s (%s) is not an absolute path (it would mean a file under the current folder)" % (where, value))
            if not os.path.isfile(value):
                raise NotFound("compile-collision: the path set in %s (%s) is not a file" % (where, value))
            return compiler_script(value, platform), where
    found = _which(COMPILER_NAME, env, platform)
    if found:
        why = unsafe_reason(found, platform)
        if why:
            raise NotFound("compile-collision: %s on PATH is not run: %s. Set the compiler's path in Edit → Preferences → Add-ons → skate. collision" % (found, why))
        script = compiler_script(found, platform)
        # The JavaScript node runs, which npm's shim layout puts beside the command rather than behind a link.
        why = unsafe_reason(script, platform) if script != os.path.realpath(found) else None
        if why:
            raise NotFound("compile-collision: %s (from %s on PATH) is not run: %s. Set the compiler's path in Edit → Preferences → Add-ons → skate. collision" % (script, found, why))
        return script, "PATH"
    raise NotFound(
        "compile-collision not found: install the add-on from the release zip (it holds the compiler), or install "
        "the release's npm package (npm install -g skate-collision-<version>.tgz), or set its path in Edit → Preferences → Add-ons → "
        "skate. collision")


def compiler_command(addon_dir, configured="", node_configured="", env=None, platform=sys.platform, home=None):
    """[node, script]: what every compile and import starts, followed by its arguments."""
    script, _ = find_compiler_script(addon_dir, configured, env, platform)
    node = find_node(node_configured, env, platform, home)
    return [node, script]


def check_command(cmd, platform=sys.platform):
    """The argument list as it is given to the operating system, checked: a list of strings, the program node
    (never a script Windows runs through cmd.exe/PowerShell), no NUL, no argument that node or the compiler
    would read as an option where a file is meant (the caller gives absolute paths). Raises ValueError."""
    if not isinstance(cmd, (list, tuple)) or not cmd or not all(isinstance(a, str) for a in cmd):
        raise ValueError("compile-collision: the command must be a list of strings")
    for a in cmd:
        if "\0" in a:
            raise ValueError("compile-collision: an argument holds a NUL character: %r" % a)
    prog = cmd[0]
    if not _is_abs(prog, platform):
        # Looked for on PATH, and on Windows in the current folder first: a .blend's folder could hold a node.exe.
        raise ValueError("compile-collision: the program %r is not an absolute path" % prog)
    if platform == "win32":
        # Only an .exe is started as itself: .cmd/.bat go through cmd.exe, .ps1/.vbs/.js/.wsf through an
        # interpreter that parses the command line again, .com/.pif/.scr/.lnk are not node.
        if windows_suffix(prog) != ".exe":
            raise ValueError("compile-collision: %s is not run (only node.exe is: a script would go through cmd.exe or PowerShell)" % prog)
    return list(cmd)


def windows_command_line(cmd):
    """The one string Windows' CreateProcess receives for cmd (what subprocess builds): node.exe splits it back with
    the C runtime's rules, which list2cmdline quotes for; no shell reads it."""
    return subprocess.list2cmdline(check_command(cmd, "win32"))


def popen(cmd, platform=sys.platform, **kwargs):
    """subprocess.Popen of a checked command, never through a shell."""
    kwargs["shell"] = False
    return subprocess.Popen(check_command(cmd, platform), **kwargs)


def run(cmd, platform=sys.platform, **kwargs):
    """subprocess.run of a checked command, never through a shell."""
    kwargs["shell"] = False
    return subprocess.run(check_command(cmd, platform), **kwargs)


def file_argument(path):
    """A file or folder given to the compiler: absolute, so a name like "-o" or "--config=x" is never read as an option."""
    return os.path.abspath(path)
