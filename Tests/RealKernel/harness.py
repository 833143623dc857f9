#!/usr/bin/env python3
"""Real-kernel tests: a stock Debian kernel under QEMU with a USB keyboard device model.

    harness.py prepare [--cache DIR]              download, unpack, build the initramfs (cached)
    harness.py run [--report FILE] [--keep]       boot, drive the scenario over QMP, report JSON
    harness.py run --scenario switchscan [--switchscan PROGRAM]
                                                  the same with `switchscan run --input evdev:auto`
    harness.py exec [--add HOST[:GUEST]] [--add-elf HOST[:GUEST]] -- COMMAND…
                                                  run one command in the guest, print its output

Python 3 standard library only. Exit status: 0 the run went through (the report says what was
seen); 1 the guest or a step failed (timeout, FAIL line, QEMU died); 2 usage; 3 the environment
cannot run it (no QEMU, no kernel package, apt refused): the message starts with
"realkernel: unavailable:". See README.md beside this file.
"""

import argparse
import select
import ctypes
import gzip
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
GUEST = os.path.join(HERE, "guest")

# The modules the guest loads, with their dependencies added in front (from .modinfo).
MODULES = ["usb-common", "usbcore", "xhci-hcd", "xhci-pci", "hid", "usbhid", "hid-generic", "evdev", "uinput"]
KERNEL_META = "linux-image-amd64"
BUSYBOX = "busybox-static"

UNAVAILABLE = 3

# Shorten the guest's boot under TCG (self-tests of crypto, mitigation patching); input is untouched.
KERNEL_ARGS = "cryptomgr.notests mitigations=off"


class Unavailable(Exception):
    """The environment cannot run the tests (no QEMU, no package, apt refused)."""


class StepFailed(Exception):
    """A step of the run failed: timeout, a FAIL line, QEMU gone."""


def log(message):
    print(f"realkernel: {message}", file=sys.stderr, flush=True)


def run_cmd(argv, timeout, cwd=None, check=True, env=None):
    """Runs argv with a timeout; returns CompletedProcess (text). Never leaves it running."""
    try:
        result = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                                text=True, timeout=timeout)
    except FileNotFoundError as error:
        raise Unavailable(f"{argv[0]} is not installed ({error})")
    except subprocess.TimeoutExpired:
        raise StepFailed(f"`{' '.join(argv)}` took more than {timeout} s")
    if check and result.returncode != 0:
        raise StepFailed(f"`{' '.join(argv)}` exited {result.returncode}: {result.stderr.strip()[-800:]}")
    return result


# ---------------------------------------------------------------------------------------------
# Cache and packages


def default_cache_dir():
    if os.environ.get("SWITCHSCAN_REAL_KERNEL_CACHE"):
        return os.environ["SWITCHSCAN_REAL_KERNEL_CACHE"]
    system = "/var/cache/switchscan-realkernel"
    if os.geteuid() == 0 or os.access(system, os.W_OK):
        return system
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "switchscan-realkernel")


def write_atomically(path, data):
    """Writes under a name of this process's own, then renames: readers never see half a file."""
    scratch = f"{path}.{os.getpid()}.tmp"
    with open(scratch, "wb") as f:
        f.write(data)
    os.replace(scratch, path)


def safe(version):
    return re.sub(r"[^A-Za-z0-9.+~-]", "_", version)


def apt_show(packages):
    """{package: {field: value}} of the candidate versions apt would install (one apt-cache call)."""
    out = run_cmd(["apt-cache", "show", "--no-all-versions", *packages], timeout=60, check=False).stdout
    found = {}
    for stanza in out.split("\n\n"):
        fields = dict(re.findall(r"^([A-Za-z-]+): ?(.*)$", stanza, re.M))
        if "Package" in fields:
            found[fields["Package"]] = fields
    return found


def apt_versions():
    """linux-image-amd64 → the versioned kernel package it depends on and that package's version,
    and busybox-static's version; None when apt's lists do not have them."""
    shown = apt_show([KERNEL_META, BUSYBOX])
    meta, busybox = shown.get(KERNEL_META), shown.get(BUSYBOX)
    if not meta or not busybox:
        return None
    match = re.search(r"(linux-image-[0-9]\S*-amd64)(?:\s*\(=\s*([^)\s]+)\))?", meta.get("Depends", ""))
    if not match:
        return None
    package, version = match.group(1), match.group(2)
    if not version:
        version = apt_show([package]).get(package, {}).get("Version")
        if not version:
            return None
    return {"kernel": {"package": package, "version": version},
            "busybox": {"package": BUSYBOX, "version": busybox["Version"]}}


def resolve_packages(apt_updated):
    """The kernel and busybox packages and versions, from apt's lists (updating them once if
    they know nothing). Returns None when apt cannot tell."""
    for attempt in range(2):
        packages = apt_versions()
        if packages:
            return packages
        if attempt == 0 and not apt_updated:
            if os.geteuid() != 0:
                return None
            log("apt knows no kernel package yet: apt-get update")
            result = run_cmd(["apt-get", "update", "-qq"], timeout=300, check=False)
            if result.returncode != 0:
                log(f"apt-get update failed: {result.stderr.strip()[-400:]}")
                return None
    return None


def fetch_and_unpack(cache, package, version):
    """cache/unpacked/<package>_<version>/ (the .deb unpacked with dpkg-deb -x), downloading the
    .deb into cache/debs/ with apt-get download when it is not there yet."""
    target = os.path.join(cache, "unpacked", f"{package}_{safe(version)}")
    if os.path.exists(os.path.join(target, ".complete")):
        return target, False
    os.makedirs(os.path.dirname(target), exist_ok=True)
    debs = os.path.join(cache, "debs")
    os.makedirs(debs, exist_ok=True)
    deb = os.path.join(debs, f"{package}_{safe(version)}_amd64.deb")
    if not os.path.exists(deb):
        if os.geteuid() != 0:
            raise Unavailable(f"{package} {version} is not in the cache {cache}, and apt-get download needs root "
                              "here (run `Tests/RealKernel/prepare` as root once)")
        scratch = tempfile.mkdtemp(prefix="download-", dir=debs)
        try:
            log(f"apt-get download {package}={version}")
            result = run_cmd(["apt-get", "download", "-q", "-o", "APT::Sandbox::User=root", f"{package}={version}"],
                             timeout=300, cwd=scratch, check=False)
            files = [f for f in os.listdir(scratch) if f.endswith(".deb")]
            if result.returncode != 0 or len(files) != 1:
                raise Unavailable(f"apt-get download {package}={version} failed (exit {result.returncode}): "
                                  f"{result.stderr.strip()[-600:]}")
            os.replace(os.path.join(scratch, files[0]), deb)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    # Unpacked beside the target under a name of its own, then renamed: two runs at once on a
    # cold cache do not see each other's half-unpacked files.
    partial = tempfile.mkdtemp(prefix=os.path.basename(target) + ".", suffix=".partial", dir=os.path.dirname(target))
    try:
        run_cmd(["dpkg-deb", "-x", deb, partial], timeout=300)
        open(os.path.join(partial, ".complete"), "w").close()
        if not os.path.exists(os.path.join(target, ".complete")):
            shutil.rmtree(target, ignore_errors=True)
            os.replace(partial, target)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return target, True


# ---------------------------------------------------------------------------------------------
# Kernel modules


def elf_sections(data):
    """[(name, type, bytes)] of an ELF64 little-endian file's sections."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not an ELF64 little-endian file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)

    def header(i):
        name, kind, _flags, _addr, offset, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
        return name, kind, offset, size

    _, _, str_off, str_size = header(shstrndx)
    names = data[str_off:str_off + str_size]
    sections = []
    for i in range(shnum):
        name, kind, offset, size = header(i)
        end = names.index(b"\0", name)
        sections.append((names[name:end].decode(), kind, data[offset:offset + size] if kind != 8 else b""))
    return sections


def elf_section(data, wanted):
    """The bytes of section `wanted`, or None."""
    return next((body for name, _, body in elf_sections(data) if name == wanted), None)


def elf_notes(data):
    """(owner, type) of every note in the file's SHT_NOTE sections."""
    notes = []
    for _, kind, body in elf_sections(data):
        offset = 0
        while kind == 7 and offset + 12 <= len(body):
            namesz, descsz, note_type = struct.unpack_from("<III", body, offset)
            offset += 12
            owner = body[offset:offset + namesz].rstrip(b"\0").decode("latin-1")
            offset += (namesz + 3) // 4 * 4 + (descsz + 3) // 4 * 4
            notes.append((owner, note_type))
    return notes


XEN_ELFNOTE_PHYS32_ENTRY = 18


def pvh_kernel(cache, package, version, vmlinuz):
    """The uncompressed kernel inside the bzImage, when it has a PVH entry point (Debian's has,
    CONFIG_PVH=y): QEMU's -kernel boots such an ELF directly, without the firmware loading and
    the decompressor (about 5 s of the boot under TCG). None when it cannot be had; then the
    bzImage is booted as it is. Cached next to the unpacked package."""
    target = os.path.join(cache, "kernel", f"{package}_{safe(version)}", "vmlinux")
    if os.path.exists(target):
        return target
    if os.path.exists(target + ".none"):
        return None
    os.makedirs(os.path.dirname(target), exist_ok=True)
    data = open(vmlinuz, "rb").read()
    reason = None
    try:
        setup_sects = data[0x1F1] or 4
        payload_offset, payload_length = struct.unpack_from("<II", data, 0x248)
        start = (setup_sects + 1) * 512 + payload_offset
        payload = data[start:start + payload_length]
        if payload.startswith(b"\xfd7zXZ\x00"):
            import lzma
            kernel = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(payload)
        elif payload.startswith(b"\x1f\x8b"):
            kernel = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(payload)
        else:
            kernel = None
            reason = f"payload compressed with {payload[:4].hex()} (only xz and gzip are read here)"
        if kernel is not None and ("Xen", XEN_ELFNOTE_PHYS32_ENTRY) not in elf_notes(kernel):
            reason, kernel = "no PVH entry note", None
    except (ValueError, struct.error, EOFError, OSError, zlib.error) as error:
        reason, kernel = str(error), None
    if kernel is None:
        log(f"booting the bzImage as it is: {reason}")
        open(target + ".none", "w").write(reason + "\n")
        return None
    write_atomically(target, kernel)
    return target


def read_module(path):
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".xz"):
        import lzma
        data = lzma.decompress(data)
    elif path.endswith(".gz"):
        data = gzip.decompress(data)
    elif path.endswith(".zst"):
        raise Unavailable(f"{path} is zstd-compressed; Python's standard library cannot read it")
    return data


def module_depends(path):
    info = elf_section(read_module(path), ".modinfo") or b""
    for field in info.split(b"\0"):
        if field.startswith(b"depends="):
            return [d for d in field[len(b"depends="):].decode().split(",") if d]
    return []


def kernel_modules(kernel_root):
    """(kernel release, {normalized name: path of .ko}) of the unpacked kernel package."""
    base = os.path.join(kernel_root, "lib", "modules")
    releases = sorted(os.listdir(base))
    if len(releases) != 1:
        raise StepFailed(f"expected one kernel release under {base}, found {releases}")
    release = releases[0]
    found = {}
    for folder, _, files in os.walk(os.path.join(base, release)):
        for name in files:
            match = re.match(r"(.+)\.ko(\.xz|\.gz|\.zst)?$", name)
            if match:
                found[match.group(1).replace("-", "_")] = os.path.join(folder, name)
    return release, found


def module_order(kernel_root, wanted):
    """Paths of `wanted` modules and their dependencies, each after what it depends on. Uses
    modules.dep when the package has one (it does not: depmod makes it at install time),
    otherwise each module's .modinfo depends= field."""
    release, found = kernel_modules(kernel_root)
    root = os.path.join(kernel_root, "lib", "modules", release)
    builtin = set()
    builtin_file = os.path.join(root, "modules.builtin")
    if os.path.exists(builtin_file):
        for line in open(builtin_file):
            builtin.add(os.path.basename(line.strip()).split(".ko")[0].replace("-", "_"))
    deps = {}
    dep_file = os.path.join(root, "modules.dep")
    if os.path.exists(dep_file):
        for line in open(dep_file):
            target, _, rest = line.partition(":")
            key = os.path.basename(target).split(".ko")[0].replace("-", "_")
            deps[key] = [os.path.basename(d).split(".ko")[0].replace("-", "_") for d in rest.split()]
    order, state = [], {}

    def visit(name):
        key = name.replace("-", "_")
        if state.get(key) == "done" or key in builtin:
            return
        if state.get(key) == "visiting":
            raise StepFailed(f"module dependency cycle at {key}")
        if key not in found:
            raise StepFailed(f"module {name} is neither in {root} nor built in")
        state[key] = "visiting"
        for dependency in deps[key] if key in deps else module_depends(found[key]):
            visit(dependency)
        state[key] = "done"
        order.append(found[key])

    for name in wanted:
        visit(name)
    return release, order


# ---------------------------------------------------------------------------------------------
# The initramfs: cpio "newc", gzip-compressed, written here (no cpio tool needed)


class Cpio:
    def __init__(self):
        self.parts = []
        self.inode = 1000
        self.names = set()

    def _entry(self, name, mode, data=b"", rdev=(0, 0)):
        name = name.lstrip("/")
        if name in self.names:
            return
        self.names.add(name)
        self.inode += 1
        encoded = name.encode() + b"\0"
        fields = [self.inode, mode, 0, 0, 2 if stat.S_ISDIR(mode) else 1, 0, len(data), 0, 0, rdev[0], rdev[1],
                  len(encoded), 0]
        header = b"070701" + b"".join(b"%08X" % v for v in fields)
        self.parts += [header, encoded, b"\0" * ((-len(header) - len(encoded)) % 4), data, b"\0" * (-len(data) % 4)]

    def directory(self, name):
        parts = name.strip("/").split("/")
        for i in range(1, len(parts) + 1):
            self._entry("/".join(parts[:i]), stat.S_IFDIR | 0o755)

    def _parent(self, name):
        parent = os.path.dirname(name.strip("/"))
        if parent:
            self.directory(parent)

    def file(self, name, data, mode=0o644):
        self._parent(name)
        self._entry(name, stat.S_IFREG | mode, data)

    def host_file(self, name, path):
        with open(path, "rb") as f:
            data = f.read()
        self.file(name, data, 0o755 if os.access(path, os.X_OK) else 0o644)

    def symlink(self, name, target):
        self._parent(name)
        self._entry(name, stat.S_IFLNK | 0o777, target.encode())

    def char_device(self, name, major, minor):
        self._parent(name)
        self._entry(name, stat.S_IFCHR | 0o600, rdev=(major, minor))

    def compressed(self, level=6):
        """The archive, gzip-compressed (level 0: the plain cpio, which the kernel takes as well)."""
        self._entry("TRAILER!!!", 0)
        data = b"".join(self.parts)
        return gzip.compress(data, compresslevel=level, mtime=0) if level else data


def elf_interpreter_and_libraries(path):
    """The dynamic loader and shared libraries `ldd` lists for path (empty for a static file)."""
    result = run_cmd(["ldd", path], timeout=60, check=False)
    text = result.stdout + result.stderr
    if "not a dynamic executable" in text or "statically linked" in text:
        return []
    if result.returncode != 0:
        raise StepFailed(f"ldd {path} failed: {text.strip()}")
    libraries = []
    for line in result.stdout.splitlines():
        line = line.strip()
        match = re.match(r"\S+\s+=>\s+(/\S+)", line) or re.match(r"(/\S+)\s+\(0x", line)
        if match:
            libraries.append(match.group(1))
        elif "=> not found" in line:
            raise StepFailed(f"ldd {path}: {line}")
    return libraries


def add_elf(cpio, host_path, guest_path):
    """The program and, at their own paths, the libraries and loader it needs (from this host)."""
    cpio.host_file(guest_path, host_path)
    for library in elf_interpreter_and_libraries(host_path):
        cpio.host_file(library, os.path.realpath(library))


def build_probe(cache):
    """guest/rkprobe.c compiled on this host: static, with libevdev.a; cached by content."""
    source = os.path.join(GUEST, "rkprobe.c")
    libevdev_a = next((p for p in ["/usr/lib/x86_64-linux-gnu/libevdev.a", "/usr/lib/libevdev.a"]
                       if os.path.exists(p)), None)
    digest = hashlib.sha256(open(source, "rb").read())
    if libevdev_a:
        digest.update(open(libevdev_a, "rb").read())
    target = os.path.join(cache, "build", f"rkprobe-{digest.hexdigest()[:16]}")
    if os.path.exists(target):
        return target
    os.makedirs(os.path.dirname(target), exist_ok=True)
    if not shutil.which("gcc"):
        raise Unavailable("gcc is not installed (it builds the guest program)")
    include = "-I/usr/include/libevdev-1.0"
    scratch = f"{target}.{os.getpid()}.tmp"
    if libevdev_a:
        argv = ["gcc", "-O2", "-Wall", "-static", include, "-o", scratch, source, libevdev_a]
    else:  # no static archive: link dynamically; the initramfs then gets the libraries ldd lists
        argv = ["gcc", "-O2", "-Wall", include, "-o", scratch, source, "-levdev"]
    result = run_cmd(argv, timeout=120, check=False)
    if result.returncode != 0:
        raise Unavailable(f"could not build the guest program (is libevdev-dev installed?): {result.stderr.strip()[-800:]}")
    os.replace(scratch, target)
    return target


def build_base_initramfs(cache, kernel_root, busybox_root, probe):
    release, modules = module_order(kernel_root, MODULES)
    busybox = os.path.join(busybox_root, "bin", "busybox")
    cpio = Cpio()
    for folder in ["bin", "sbin", "usr/bin", "usr/sbin", "proc", "sys", "dev", "tmp", "rk/run", "rk/bin"]:
        cpio.directory(folder)
    cpio.char_device("dev/console", 5, 1)
    cpio.host_file("bin/busybox", busybox)
    applets = run_cmd([busybox, "--list-full"], timeout=30).stdout.split()
    for applet in applets:
        if applet not in ("bin/busybox",):
            cpio.symlink(applet, "/bin/busybox")
    cpio.host_file("init", os.path.join(GUEST, "init"))
    for name in sorted(os.listdir(os.path.join(GUEST, "run"))):
        cpio.host_file(f"rk/run/{name}", os.path.join(GUEST, "run", name))
    names = []
    for path in modules:
        name = os.path.basename(path)
        cpio.host_file(f"rk/modules/{name}", path)
        names.append(name)
    cpio.file("rk/modules.list", ("\n".join(names) + "\n").encode())
    add_elf(cpio, probe, "rk/bin/rkprobe")
    data = cpio.compressed()
    key = hashlib.sha256(data).hexdigest()[:16]
    target = os.path.join(cache, "initramfs", f"base-{key}.cpio.gz")
    if not os.path.exists(target):
        os.makedirs(os.path.dirname(target), exist_ok=True)
        write_atomically(target, data)
    return target, release, names


def prepare(cache):
    """Everything a run needs, from the cache when it is there. Returns the manifest."""
    started = time.monotonic()
    os.makedirs(cache, exist_ok=True)
    state_file = os.path.join(cache, "state.json")
    packages = resolve_packages(apt_updated=False)
    downloaded = False
    if packages is None:
        if not os.path.exists(state_file):
            raise Unavailable(f"apt cannot name a Debian kernel package ({KERNEL_META}) and the cache {cache} "
                              "has none: is the Debian archive reachable, and is this run as root?")
        packages = json.load(open(state_file))["packages"]
        log(f"apt cannot tell; using the cached {packages['kernel']['package']} {packages['kernel']['version']}")
    try:
        kernel_root, fresh_k = fetch_and_unpack(cache, packages["kernel"]["package"], packages["kernel"]["version"])
        busybox_root, fresh_b = fetch_and_unpack(cache, packages["busybox"]["package"], packages["busybox"]["version"])
        downloaded = fresh_k or fresh_b
    except Unavailable:
        # A newer version could not be had: fall back to what the cache has, if anything.
        if not os.path.exists(state_file):
            raise
        cached = json.load(open(state_file))["packages"]
        if cached == packages:
            raise
        log(f"falling back to the cached {cached['kernel']['package']} {cached['kernel']['version']}")
        packages = cached
        kernel_root, _ = fetch_and_unpack(cache, packages["kernel"]["package"], packages["kernel"]["version"])
        busybox_root, _ = fetch_and_unpack(cache, packages["busybox"]["package"], packages["busybox"]["version"])
    vmlinuz = [f for f in os.listdir(os.path.join(kernel_root, "boot")) if f.startswith("vmlinuz-")]
    if len(vmlinuz) != 1:
        raise StepFailed(f"expected one vmlinuz in {kernel_root}/boot, found {vmlinuz}")
    bzimage = os.path.join(kernel_root, "boot", vmlinuz[0])
    pvh = pvh_kernel(cache, packages["kernel"]["package"], packages["kernel"]["version"], bzimage)
    probe = build_probe(cache)
    initramfs, release, modules = build_base_initramfs(cache, kernel_root, busybox_root, probe)
    manifest = {
        "cache": cache,
        "packages": packages,
        "kernel": pvh or bzimage,
        "bzimage": bzimage,
        "release": release,
        "initramfs": initramfs,
        "modules": modules,
        "probe": probe,
        "downloaded": downloaded,
        "seconds": round(time.monotonic() - started, 2),
    }
    write_atomically(state_file, json.dumps({"packages": packages}, indent=2).encode())
    return manifest


# ---------------------------------------------------------------------------------------------
# QEMU and QMP


class QMP:
    """QEMU's machine protocol over its Unix socket: JSON objects, one a line."""

    def __init__(self, path, deadline, alive):
        self.events = []
        self.event_cursor = 0
        self.log = []
        self.next_id = 0
        self.buffer = b""
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                self.sock.close()
                if time.monotonic() > deadline or not alive():
                    raise StepFailed(f"QEMU's QMP socket {path} did not come up")
                time.sleep(0.05)
        greeting = self._read(deadline)
        if "QMP" not in greeting:
            raise StepFailed(f"unexpected QMP greeting {greeting}")
        self.execute("qmp_capabilities")

    def _read(self, deadline):
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise StepFailed("QMP: no answer in time")
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                continue
            if not chunk:
                raise StepFailed("QMP: QEMU closed the socket")
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        message = json.loads(line)
        if "event" in message:
            message["host_time"] = time.monotonic()
            self.events.append(message)
        return message

    def execute(self, command, arguments=None, timeout=10.0):
        self.next_id += 1
        request = {"execute": command, "id": self.next_id}
        if arguments is not None:
            request["arguments"] = arguments
        sent = time.monotonic()
        self.sock.sendall(json.dumps(request).encode() + b"\n")
        deadline = sent + timeout
        while True:
            message = self._read(deadline)
            if message.get("id") == self.next_id:
                self.log.append({"command": request, "reply": message, "host_time": sent})
                if "error" in message:
                    raise StepFailed(f"QMP {command} {arguments}: {message['error']}")
                return message.get("return")

    def wait_event(self, name, timeout):
        """The next event `name` not yet waited for."""
        deadline = time.monotonic() + timeout
        while True:
            for index in range(self.event_cursor, len(self.events)):
                if self.events[index]["event"] == name:
                    self.event_cursor = index + 1
                    return self.events[index]
            self._read(deadline)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Lines:
    """Lines of the guest's serial ports as they arrive in their files, each with the host time
    it was seen at: a thread reads the files every 5 ms, so that the times hold while the
    harness sleeps between keys."""

    def __init__(self, files):
        self.files = files  # channel → path
        self.offsets = {c: 0 for c in files}
        self.partial = {c: b"" for c in files}
        self.lines = []  # (host_time, channel, text)
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        while not self.stopping.wait(0.005):
            self.poll()

    def poll(self):
        with self.lock:
            for channel, path in self.files.items():
                try:
                    with open(path, "rb") as f:
                        f.seek(self.offsets[channel])
                        chunk = f.read()
                except FileNotFoundError:
                    continue
                if not chunk:
                    continue
                self.offsets[channel] += len(chunk)
                data = self.partial[channel] + chunk
                *complete, self.partial[channel] = data.split(b"\n")
                now = time.monotonic()
                for raw in complete:
                    self.lines.append((now, channel, raw.decode("utf-8", "replace").rstrip("\r")))

    def snapshot(self):
        with self.lock:
            return list(self.lines)

    def stop(self):
        self.stopping.set()
        self.thread.join(timeout=2)
        self.poll()


class Guest:
    """One QEMU process, started and stopped by this harness only (by its PID)."""

    # The initramfs lives in the guest's memory twice while the kernel unpacks it (the archive and
    # its files): the switchscan overlay is about 150 MB uncompressed (the debug build and the
    # libraries ldd lists), so 512 MB stopped unpacking ("Initramfs unpacking failed: write error").
    def __init__(self, manifest, workdir, run, accel, overlay=None, memory=1024):
        self.workdir = workdir
        self.console = os.path.join(workdir, "console.log")
        self.trace = os.path.join(workdir, "trace.log")
        self.qmp_path = os.path.join(workdir, "qmp.sock")
        initrd = manifest["initramfs"]
        if overlay is not None:  # the kernel unpacks concatenated cpio archives, later ones on top
            initrd = os.path.join(workdir, "initrd.cpio.gz")
            base = open(manifest["initramfs"], "rb").read()
            with open(initrd, "wb") as out:
                out.write(base + b"\0" * (-len(base) % 4))  # each archive starts 4-byte aligned
                out.write(overlay)
        qemu = shutil.which("qemu-system-x86_64")
        if not qemu:
            raise Unavailable("qemu-system-x86_64 is not installed (Debian package qemu-system-x86; scripts/setup "
                              "installs it)")
        self.argv = [
            qemu, "-machine", "q35", "-accel", accel, "-m", str(memory), "-smp", "1",
            "-nodefaults", "-no-user-config", "-display", "none", "-monitor", "none", "-no-reboot",
            "-kernel", manifest["kernel"], "-initrd", initrd,
            "-append", f"console=ttyS0 quiet panic=-1 {KERNEL_ARGS} rk.run={run}",
            "-serial", f"file:{self.console}",  # ttyS0: kernel and init messages
            "-serial", f"file:{self.trace}",    # ttyS1: the "@@RK" protocol (and later switchscan's trace)
            "-device", "qemu-xhci,id=xhci",
            "-device", "usb-kbd,id=kbd,bus=xhci.0",
            "-qmp", f"unix:{self.qmp_path},server=on,wait=off",
        ]
        self.process = None
        self.qmp = None
        self.lines = Lines({"console": self.console, "trace": self.trace})
        self.cursor = 0
        self.started = None

    def start(self, deadline):
        self.started = time.monotonic()
        self.process = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL, preexec_fn=die_with_parent,
                                        stdout=open(os.path.join(self.workdir, "qemu.log"), "wb"),
                                        stderr=subprocess.STDOUT)
        try:
            self.qmp = QMP(self.qmp_path, min(deadline, time.monotonic() + 20), lambda: self.process.poll() is None)
        except StepFailed as error:
            raise StepFailed(f"{error}; QEMU said: {self.qemu_said()}")

    def qemu_said(self):
        try:
            with open(os.path.join(self.workdir, "qemu.log"), "rb") as f:
                return f.read()[-1500:].decode("utf-8", "replace").strip() or "nothing"
        except OSError:
            return "nothing"

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def wait_line(self, pattern, timeout, channel="trace"):
        """The first line on `channel` after the cursor matching pattern; moves the cursor past it.
        A "@@RK FAIL" line or QEMU's exit ends the wait with StepFailed."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            lines = self.lines.snapshot()
            for index in range(self.cursor, len(lines)):
                host_time, ch, text = lines[index]
                if ch != channel:
                    continue
                if text.startswith("@@RK FAIL"):
                    raise StepFailed(f"guest: {text}")
                if regex.search(text):
                    self.cursor = index + 1
                    return host_time, text
            if not self.alive():
                raise StepFailed(f"QEMU exited ({self.process.returncode}) while waiting for /{pattern}/; "
                                 f"QEMU said: {self.qemu_said()}")
            if time.monotonic() > deadline:
                raise StepFailed(f"no line matching /{pattern}/ within {timeout:.0f} s")
            time.sleep(0.01)

    def stop(self, grace=5.0):
        """Ends the QEMU process this harness started: SIGTERM, then SIGKILL. Nothing else."""
        if self.qmp:
            self.qmp.close()
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=grace)


def key_event(qcode, down):
    return {"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": qcode}}}


# ---------------------------------------------------------------------------------------------
# The scenario's host side (the guest side is rkprobe's run_scenario)

HOLD_S = 0.1  # how long a key stays down: the USB keyboard is polled, a down and up in one poll merge
GAP_S = 0.1

DEVICE_ADD = {"driver": "usb-kbd", "id": "kbd", "bus": "xhci.0"}

def unplug_replug_steps(suffix):
    """Hold Space, unplug the keyboard, let go of Space, plug it back, tap Space and Enter."""
    return [
        ("wait", rf"^@@RK PHASE unplug{suffix} ", 30),
        ("key", "spc", True),
        ("wait", r"^@@RK HELD A\b", 30),
        ("qmp", "device_del", {"id": "kbd"}),
        ("qmp_event", "DEVICE_DELETED", 30),
        ("wait", r"^@@RK ENODEV A\b", 30),
        ("key", "spc", False),  # QEMU's own key state: released while no keyboard is there
        ("wait", rf"^@@RK PHASE replug{suffix} ", 30),
        ("qmp", "device_add", DEVICE_ADD),
        ("wait", r"^@@RK REOPENED A\b", 30),
        ("wait", rf"^@@RK PHASE resumed{suffix} ", 30),
        ("tap", ["spc", "ret"]),
    ]


PROBE_STEPS = [
    ("wait", r"^@@RK PHASE plain ", 120),
    ("tap", ["spc", "ret"]),
    ("wait", r"^@@RK PHASE grab ", 30),
    ("tap", ["spc", "ret"]),
    ("wait", r"^@@RK PHASE ungrabbed ", 30),
    ("tap", ["spc", "ret"]),
    *unplug_replug_steps(""),
    *unplug_replug_steps("-busy"),
    ("wait", r"^@@RK DONE\b", 30),
    ("wait", r"^@@RK EXIT\b", 30),
]

# `switchscan run --input evdev:auto` in the guest (guest/run/switchscan), its trace on the trace
# port as JSON lines. Waits on trace lines use the JSON text as switchscan writes it.
def trace_input(switch, edge):
    return rf'"kind":"input","switch":"{switch}","edge":"{edge}"'


USB_KEYBOARD_STATUS = r'"kind":"status","text":"[^"]*\\"QEMU QEMU USB Keyboard\\"'

SWITCHSCAN_STEPS = [
    # B alone reads the keyboard. Space stays down while switchscan starts.
    ("wait", r"^@@RK PHASE plain ", 120),
    ("tap", ["spc", "ret"]),
    ("key", "spc", True),
    # switchscan finds a key down: it grabs only once it is released (as keyd does). From the
    # grab on, B must read nothing.
    ("wait", r"^@@RK PHASE switchscan ", 30),
    ("wait", USB_KEYBOARD_STATUS + r".* is a switch device: .*; waiting for its keys to be released to grab it", 30),
    ("key", "spc", False),
    ("wait", USB_KEYBOARD_STATUS + r" \(usb 0627:0001\): grabbed", 30),
    # Enter: next (Btn 1); Space: select (its menu); Enter: next entry (Exit menu); Space: select.
    ("tap", ["ret", "spc", "ret", "spc"]),
    ("wait", trace_input("space", "up"), 30),
    ("wait", trace_input("space", "up"), 30),
    # Unplugged while Enter is held (long enough for the kernel's autorepeat, from 250 ms),
    # switchscan waiting in poll().
    ("key", "ret", True),
    ("wait", trace_input("enter", "down"), 30),
    ("wait", trace_input("enter", "repeat"), 30),
    ("qmp", "device_del", {"id": "kbd"}),
    ("qmp_event", "DEVICE_DELETED", 30),
    ("wait", USB_KEYBOARD_STATUS + r".*: unplugged", 30),
    ("key", "ret", False),
    # Back, without a restart.
    ("qmp", "device_add", DEVICE_ADD),
    ("wait", USB_KEYBOARD_STATUS + r".* is back: ", 30),
    ("tap", ["spc"]),
    ("wait", trace_input("space", "up"), 30),
    # Unplugged while Enter is held, switchscan stopped meanwhile (the guest's STOPPED): it reads
    # ENODEV at once, the kernel's release is lost, switchscan makes its own.
    ("key", "ret", True),
    ("wait", r"^@@RK STOPPED\b", 30),
    ("qmp", "device_del", {"id": "kbd"}),
    ("qmp_event", "DEVICE_DELETED", 30),
    ("wait", r"^@@RK CONTINUED\b", 30),
    ("wait", USB_KEYBOARD_STATUS + r".*: unplugged", 30),
    ("key", "ret", False),
    ("qmp", "device_add", DEVICE_ADD),
    ("wait", USB_KEYBOARD_STATUS + r".* is back: ", 30),
    # Enter held while switchscan is stopped for 3.5 s: the autorepeat overflows its buffer
    # (SYN_DROPPED); Enter is released meanwhile, and the resync brings the release.
    ("key", "ret", True),
    ("wait", r"^@@RK STOPPED-SYNC\b", 30),
    ("sleep", 2.5),
    ("key", "ret", False),
    ("wait", r"^@@RK CONTINUED-SYNC\b", 30),
    ("wait", r'"kind":"status","text":"[^"]*SYN_DROPPED', 30),
    ("wait", trace_input("enter", "up"), 30),
    ("tap", ["spc"]),
    ("wait", trace_input("space", "up"), 30),
    # The end: a USB mouse plugged in tells the guest to stop switchscan (SIGTERM).
    ("qmp", "device_add", {"driver": "usb-mouse", "id": "stop", "bus": "xhci.0"}),
    ("wait", r"^@@RK SWITCHSCAN-END\b", 30),
    # switchscan gone: a new reader gets the keys (the grab went with it).
    ("wait", r"^@@RK PHASE released ", 30),
    ("tap", ["spc", "ret"]),
    ("wait", r"^@@RK DONE\b", 30),
    ("wait", r"^@@RK EXIT\b", 30),
]

SCENARIOS = {"probe": ("probe", PROBE_STEPS), "switchscan": ("switchscan", SWITCHSCAN_STEPS)}

PACKAGE_ROOT = os.path.dirname(os.path.dirname(HERE))


def overlay_for_switchscan(binary):
    """The program (with the libraries ldd lists), the scene and the generic keyboard profile
    (found as ../share/switchscan/switches beside /rk/bin/switchscan, as an installed program finds its data)."""
    if not binary or not os.path.exists(binary):
        raise StepFailed(f"no switchscan program at {binary}: build it first (swift build --product switchscan)")
    cpio = Cpio()
    add_elf(cpio, binary, "rk/bin/switchscan")
    cpio.host_file("rk/scene.yaml", os.path.join(PACKAGE_ROOT, "Scenarios", "switch-control-groups.yaml"))
    cpio.host_file("rk/share/switchscan/switches/generic-keyboard.yaml",
                   os.path.join(PACKAGE_ROOT, "Devices", "switches", "generic-keyboard.yaml"))
    return cpio.compressed(level=0)


def drive(guest, steps, deadline, record):
    """Runs the steps; every one bounded by its own timeout and the run's deadline."""

    def left(limit):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise StepFailed("the run's time limit passed")
        return min(limit, remaining)

    for step in steps:
        kind = step[0]
        started = time.monotonic()
        if kind == "wait":
            host_time, text = guest.wait_line(step[1], left(step[2]))
            record.append({"step": "wait", "pattern": step[1], "host_time": host_time, "line": text})
        elif kind == "tap":
            for qcode in step[1]:
                for down in (True, False):
                    guest.qmp.execute("input-send-event", {"events": [key_event(qcode, down)]}, timeout=left(10))
                    record.append({"step": "key", "qcode": qcode, "down": down, "host_time": time.monotonic()})
                    time.sleep(HOLD_S if down else GAP_S)
        elif kind == "key":
            guest.qmp.execute("input-send-event", {"events": [key_event(step[1], step[2])]}, timeout=left(10))
            record.append({"step": "key", "qcode": step[1], "down": step[2], "host_time": time.monotonic()})
        elif kind == "qmp":
            reply = guest.qmp.execute(step[1], step[2], timeout=left(10))
            record.append({"step": "qmp", "command": step[1], "arguments": step[2], "reply": reply,
                           "host_time": started})
        elif kind == "sleep":
            time.sleep(min(step[1], left(step[1])))
        elif kind == "qmp_event":
            event = guest.qmp.wait_event(step[1], left(step[2]))
            record.append({"step": "qmp_event", "event": event})
        else:
            raise ValueError(f"unknown step {step}")


def parse_trace(lines):
    """The "@@RK" lines of the trace port: events with the phase they came in, and the rest."""
    events, markers = [], []
    phase = "start"
    for host_time, channel, text in lines:
        if channel != "trace" or not text.startswith("@@RK "):
            continue
        words = text[5:].split()
        if not words:
            continue
        if words[0] == "EV" and len(words) == 6:
            sec, kind, code, value = words[2], int(words[3]), int(words[4]), int(words[5])
            events.append({"reader": words[1], "phase": phase, "time": float(sec), "type": kind, "code": code,
                           "value": value, "host_time": host_time})
            continue
        fields = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        label = words[1] if len(words) > 1 and "=" not in words[1] else None
        if words[0] == "PHASE":
            phase = words[1]
        markers.append({"kind": words[0], "label": label, "fields": fields, "phase": phase, "line": text,
                        "host_time": host_time})
    return events, markers


def parse_switchscan_trace(lines):
    """switchscan's trace lines on the trace port (JSON objects), with the phase they came in."""
    found = []
    phase = "start"
    for host_time, channel, text in lines:
        if channel != "trace":
            continue
        if text.startswith("@@RK PHASE "):
            phase = text.split()[2]
        if not text.startswith("{"):
            continue
        try:
            json.loads(text)
        except ValueError:
            continue
        found.append({"phase": phase, "host_time": host_time, "line": text})
    return found


def summarize(events, markers, record, started):
    """Figures for people; the Swift test asserts on the raw events and markers itself."""
    def first(kind, label=None):
        return next((m for m in markers if m["kind"] == kind and (label is None or m["label"] == label)), None)

    keys = [e for e in events if e["type"] == 1]
    summary = {"key_events": {}}
    for reader in sorted({e["reader"] for e in keys}):
        for phase in sorted({e["phase"] for e in keys}):
            seen = [f"{e['code']}:{e['value']}" for e in keys if e["reader"] == reader and e["phase"] == phase]
            if seen:
                summary["key_events"][f"{reader}/{phase}"] = seen
    timings = {}
    for name, marker in [("init", first("INIT")), ("modules", first("MODULES")), ("device", first("DEVICE", "A")),
                         ("ready", next((m for m in markers if m["kind"] == "PHASE"), None)),
                         ("exit", first("EXIT"))]:
        if marker:
            timings[f"boot_to_{name}_s"] = round(marker["host_time"] - started, 2)
    first_key = next((r for r in record if r["step"] == "key"), None)
    first_event = next((e for e in keys if e["reader"] == "A"), None)
    if first_key and first_event:
        timings["boot_to_first_event_s"] = round(first_event["host_time"] - started, 2)
        timings["first_key_to_event_s"] = round(first_event["host_time"] - first_key["host_time"], 3)
    return summary, timings


def run_guest(manifest, args, steps, run, overlay=None):
    workdir = tempfile.mkdtemp(prefix="switchscan-realkernel-")
    report = {"ok": False, "error": None, "manifest": manifest, "accel": args.accel, "workdir": workdir}
    started = time.monotonic()
    deadline = started + args.timeout
    guest = None
    record = []
    try:
        guest = Guest(manifest, workdir, run, args.accel, overlay)
        report["qemu_argv"] = guest.argv
        guest.start(deadline)
        report["qemu_pid"] = guest.process.pid
        try:
            drive(guest, steps, deadline, record)
            report["ok"] = True
        except StepFailed as error:
            report["error"] = str(error)
            unpacking = [t for _, c, t in guest.lines.snapshot() if c == "console" and "Initramfs unpacking failed" in t]
            if unpacking:
                report["error"] += f"; the guest kernel said: {unpacking[0].strip()} (the initramfs does not fit the guest's memory)"
        # The guest powers off after EXIT; wait for that, then make sure.
        if guest.alive():
            try:
                guest.process.wait(timeout=max(1.0, min(15.0, deadline - time.monotonic())))
            except subprocess.TimeoutExpired:
                try:
                    guest.qmp.execute("quit", timeout=5)
                except (StepFailed, OSError):
                    pass
        report["qemu_exit"] = guest.process.poll()
    finally:
        if guest is not None:
            guest.stop()
            guest.lines.stop()
            lines = guest.lines.snapshot()
            events, markers = parse_trace(lines)
            report["events"] = events
            report["markers"] = markers
            report["switchscan"] = parse_switchscan_trace(lines)
            report["steps"] = record
            report["qmp"] = guest.qmp.log if guest.qmp else []
            report["qmp_events"] = guest.qmp.events if guest.qmp else []
            # The same, flat, for the Swift test: each command with its arguments and outcome.
            report["qmp_summary"] = [
                {"command": x["command"]["execute"], "arguments": json.dumps(x["command"].get("arguments", {})),
                 "ok": "return" in x["reply"]} for x in report["qmp"]]
            report["qmp_event_names"] = [e["event"] for e in report["qmp_events"]]
            report["summary"], report["timings"] = summarize(events, markers, record, started)
            report["timings"]["run_s"] = round(time.monotonic() - started, 2)
            report["console_tail"] = [t for _, c, t in lines if c == "console"][-60:]
            report["trace"] = [t for _, c, t in lines if c == "trace"]
        if args.keep:
            log(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
            report["workdir"] = None
    return report


# ---------------------------------------------------------------------------------------------
# Command line


def on_signal(number, _frame):
    raise SystemExit(128 + number)  # unwinds through the finally blocks: QEMU stopped, files removed


def overlay_for_exec(adds, elfs, command):
    cpio = Cpio()
    for spec in adds:
        host, _, guest = spec.partition(":")
        cpio.host_file(guest or f"rk/bin/{os.path.basename(host)}", host)
    for spec in elfs:
        host, _, guest = spec.partition(":")
        add_elf(cpio, host, guest or f"rk/bin/{os.path.basename(host)}")
    script = "#!/bin/sh\n# Written by harness.py exec.\ncd /rk\n" + \
             "echo '@@RK EXEC-START'\n" + \
             " ".join("'" + a.replace("'", "'\\''") + "'" for a in command) + "\nstatus=$?\n" + \
             "echo \"@@RK EXEC-END status=$status\"\n"
    # stdout and stderr of the command go to the trace port
    cpio.file("rk/run/exec", ("#!/bin/sh\n/rk/run/exec-body > /dev/ttyS1 2>&1\n").encode(), 0o755)
    cpio.file("rk/run/exec-body", script.encode(), 0o755)
    # Not compressed: a large program (switchscan is about 60 MB) compresses slowly here and
    # unpacks slowly in the guest under TCG.
    return cpio.compressed(level=0)


def follow_parent():
    """The harness never outlives the test runner that started it: a thread waits on a pidfd of
    the parent (readable when it exits, SIGKILL included) and then sends this process SIGTERM,
    whose handler stops QEMU as on any other stop. No polling: the thread sleeps in select."""
    parent = os.getppid()
    if parent <= 1:
        return
    try:
        descriptor = os.pidfd_open(parent)
    except (AttributeError, OSError):
        return  # an old kernel: the run's own timeout still ends it

    def wait():
        select.select([descriptor], [], [])
        log(f"the process that started the harness ({parent}) is gone; stopping")
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=wait, name="follow-parent", daemon=True).start()


def die_with_parent():
    """For QEMU's Popen (preexec_fn): PR_SET_PDEATHSIG, SIGKILL when the harness's main thread
    (which starts QEMU and lives until the harness ends) is gone."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", default=default_cache_dir(), help="download and build cache (default %(default)s)")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("prepare", help="download, unpack and build what a run needs")
    for name in ("run", "exec"):
        p = sub.add_parser(name)
        p.add_argument("--report", help="write the JSON report here (default: stdout)")
        p.add_argument("--timeout", type=float, default=170.0, help="the whole run's limit in seconds")
        p.add_argument("--accel", default=os.environ.get("SWITCHSCAN_REAL_KERNEL_ACCEL", "tcg"),
                       help="QEMU accelerator (default tcg; kvm where /dev/kvm works)")
        p.add_argument("--keep", action="store_true", help="keep the work folder (logs, initrd)")
        if name == "run":
            p.add_argument("--scenario", default="probe", choices=sorted(SCENARIOS))
            p.add_argument("--switchscan", default=os.path.join(PACKAGE_ROOT, ".build", "debug", "switchscan"),
                           help="the switchscan program for --scenario switchscan (default %(default)s)")
        else:
            p.add_argument("--add", action="append", default=[], help="HOST[:GUEST] file into the initramfs")
            p.add_argument("--add-elf", action="append", default=[],
                           help="HOST[:GUEST] program, with the shared libraries ldd lists (from this host)")
            p.add_argument("argv", nargs=argparse.REMAINDER, help="-- COMMAND ARGS… (run in /rk)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    follow_parent()
    try:
        if args.command != "prepare" and not shutil.which("qemu-system-x86_64"):
            raise Unavailable("qemu-system-x86_64 is not installed (Debian package qemu-system-x86; "
                              "scripts/setup installs it)")
        try:
            manifest = prepare(args.cache)
        except OSError as error:
            raise Unavailable(f"the cache {args.cache} cannot be used: {error}")
        if args.command == "prepare":
            print(json.dumps(manifest, indent=2))
            return 0
        if args.command == "run":
            run, steps = SCENARIOS[args.scenario]
            overlay = overlay_for_switchscan(args.switchscan) if args.scenario == "switchscan" else None
            report = run_guest(manifest, args, steps, run, overlay)
        else:
            command = args.argv[1:] if args.argv[:1] == ["--"] else args.argv
            if not command:
                parser.error("exec needs -- COMMAND")
            overlay = overlay_for_exec(args.add, args.add_elf, command)
            report = run_guest(manifest, args, [("wait", r"^@@RK EXEC-END\b", args.timeout),
                                                ("wait", r"^@@RK EXIT\b", 30)], "exec", overlay)
            for line in report.get("trace", []):
                if not line.startswith("@@RK "):
                    print(line)
        text = json.dumps(report, indent=2)
        if args.report:
            with open(args.report, "w") as f:
                f.write(text + "\n")
        elif args.command == "run":
            print(text)
        if not report["ok"]:
            log(f"failed: {report['error']}")
            return 1
        log(f"done in {report['timings'].get('run_s')} s (prepare {manifest['seconds']} s): {report['timings']}")
        return 0
    except Unavailable as error:
        log(f"unavailable: {error}")
        return UNAVAILABLE
    except StepFailed as error:
        log(f"failed: {error}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
