#!/usr/bin/env bash
# Installs the system packages a part of pagelab needs, and nothing else.
#
#   scripts/setup.sh core     gcc, make, zlib (native core, CLI, sanitizers, gzip traces)
#   scripts/setup.sh wasm     Debian's emscripten (the core as WebAssembly)
#   scripts/setup.sh browser  Debian's chromium (Playwright drives it; never downloaded)
#   scripts/setup.sh kernel   linux-source-6.1, qemu, busybox-static, ccache, build deps,
#                             bubblewrap (the grader's sandbox)
#   scripts/setup.sh traces   valgrind (labs/traces/make-traces.sh records real programs'
#                             memory accesses with its Lackey tool)
#   scripts/setup.sh node     npm dependencies of the workspaces (npm ci / npm install)
#   scripts/setup.sh reference  a Python virtual environment with libCacheSim's bindings
#                             (PyPI libcachesim, pinned), the outside reference the core's
#                             differential test compares miss counts with; in
#                             $PAGELAB_REFERENCE_VENV (default ~/.cache/pagelab/libcachesim-VERSION)
#
# Each group first checks for the commands it needs; only when one is missing does it
# call apt-get, which needs root.  A failed install stops with the package named:
# nothing is allowed to pass by luck because a tool happened to be on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'setup: %s\n' "$*" >&2; }

apt_updated=
# Another apt (an unattended upgrade, a second suite) may hold the lock: wait, don't fail.
apt_wait="-o DPkg::Lock::Timeout=300"
apt_install() {
	if [ "$(id -u)" != 0 ]; then
		log "missing packages: $* — run 'sudo apt-get install $*' (or rerun as root)"
		exit 1
	fi
	# One installer at a time: scripts/test.sh sets up the kernel group beside the
	# other suites, and a second apt-get update would fail on the lists' lock.
	exec 8>/var/lock/pagelab-setup.lock
	flock 8
	if [ -z "$apt_updated" ]; then
		log "apt-get update"
		DEBIAN_FRONTEND=noninteractive apt-get $apt_wait update -qq >&2 ||
			{ log "apt-get update failed"; exit 1; }
		apt_updated=1
	fi
	log "apt-get install $*"
	DEBIAN_FRONTEND=noninteractive apt-get $apt_wait install -y -qq --no-install-recommends "$@" >&2 ||
		{ log "apt-get install $* failed"; exit 1; }
	flock -u 8
}

# need CHECK PACKAGE...: install PACKAGE... unless CHECK (a shell test) already holds.
need() {
	local check=$1
	shift
	if ! eval "$check" >/dev/null 2>&1; then
		apt_install "$@"
		eval "$check" >/dev/null 2>&1 || { log "still missing after install: $check"; exit 1; }
	fi
}

setup_core() {
	need 'command -v gcc && command -v make' gcc make libc6-dev
	need 'test -f /usr/include/zlib.h' zlib1g-dev
}

setup_traces() {
	setup_core
	need 'command -v valgrind' valgrind
	need 'test -x /usr/bin/python3' python3
}

setup_wasm() {
	setup_core
	need 'command -v emcc' emscripten
}

setup_browser() {
	need 'test -x /usr/bin/chromium' chromium fonts-dejavu-core
}

setup_kernel() {
	setup_core
	need 'test -f /usr/src/linux-source-6.1.tar.xz' linux-source-6.1
	need 'command -v qemu-system-x86_64' qemu-system-x86
	need 'test -x /bin/busybox' busybox-static
	need 'command -v ccache' ccache
	need 'command -v flex && command -v bison && command -v bc && command -v perl' \
		flex bison bc perl
	need 'test -f /usr/include/libelf.h' libelf-dev
	need 'test -f /usr/include/openssl/ssl.h' libssl-dev
	need 'command -v xz && command -v lz4 && command -v cpio && command -v mke2fs' \
		xz-utils lz4 cpio e2fsprogs
	# the autograder: Python (standard library only), patch for submissions and base
	# patches, static libc for the guest programs
	need 'command -v python3 && command -v patch' python3 patch
	need 'test -f /usr/lib/x86_64-linux-gnu/libc.a' libc6-dev
	# the sandbox every submission's patch, build, checkpatch and boot run in: bubblewrap,
	# with util-linux's unshare (mounts the build's overlay) and prlimit (resource limits)
	need 'command -v bwrap' bubblewrap
	need 'command -v unshare && command -v prlimit' util-linux
}

setup_node() {
	if [ -f package-lock.json ]; then
		if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
			log "npm ci"
			npm ci --no-audit --no-fund >&2
		fi
	else
		npm install --no-audit --no-fund >&2
	fi
}

# Kept in step with wasm-core/tests/test_libcachesim.sh, which uses the same default.
LIBCACHESIM_VERSION=0.3.5
setup_reference() {
	local venv=${PAGELAB_REFERENCE_VENV:-$HOME/.cache/pagelab/libcachesim-$LIBCACHESIM_VERSION}
	local check="import libcachesim; assert libcachesim.__version__ == '$LIBCACHESIM_VERSION'"

	[ -x "$venv/bin/python" ] && "$venv/bin/python" -c "$check" 2>/dev/null && return
	need 'command -v python3' python3
	python3 -c 'import venv, ensurepip' 2>/dev/null || need 'false' python3-venv
	log "python3 -m venv $venv; pip install libcachesim==$LIBCACHESIM_VERSION"
	rm -rf "$venv.new"
	mkdir -p "$(dirname "$venv")"
	python3 -m venv "$venv.new" >&2 || { log "python3 -m venv $venv.new failed"; exit 1; }
	"$venv.new/bin/python" -m pip install -q --disable-pip-version-check \
		"libcachesim==$LIBCACHESIM_VERSION" >&2 ||
		{ log "pip install libcachesim==$LIBCACHESIM_VERSION failed"; rm -rf "$venv.new"; exit 1; }
	rm -rf "$venv"
	mv "$venv.new" "$venv"
	"$venv/bin/python" -c "$check" ||
		{ log "libcachesim $LIBCACHESIM_VERSION does not import from $venv"; exit 1; }
}

[ $# -gt 0 ] || { log "usage: scripts/setup.sh core|wasm|browser|kernel|node|reference|traces..."; exit 2; }
for group in "$@"; do
	case "$group" in
	core | wasm | browser | kernel | node | reference | traces) "setup_$group" ;;
	*) log "unknown group '$group'"; exit 2 ;;
	esac
done
