#!/usr/bin/env bash
# Runs the README's set-up commands, verbatim, on a fresh minimal Debian 12.
#
# Why: a machine that has been used for a while has packages nobody listed
# (debug symbols, /usr/bin/time, runtimes pulled in by hand); tests pass there
# and fail for every new user.  This builds a new system each time with
# debootstrap (--variant=minbase bookworm), clones the committed tree into it
# with ../shared beside it, and runs the commands of README.md's "Set up"
# section as they are written there (read from the README, so they cannot
# drift), as root, each timed.
#
# Usage (as root): .ci/fresh-debian.sh [--test-only|--setup-only] [--keep] [--ref REF]
#                  .ci/fresh-debian.sh --in DIR COMMAND
#   --test-only  run only the README's test command (the second block), as CI does
#   --setup-only run only the README's first command (install, build, the sample):
#                with --keep, a system to run single tests in with --in
#   --keep       leave the system in place (its path is printed) for a look inside
#   --ref REF    the commit to clone (default HEAD; uncommitted changes are not seen)
#   --in DIR COMMAND  run COMMAND (one shell line) in /work/tkview of a system an
#                earlier --keep left in DIR, with the same mounts, and keep it: to
#                run again only the tests that failed, e.g.
#                --in DIR 'meson test -C build-ci --print-errorlogs test_viewer_bind'
# Environment:
#   FRESH_DIR        where to build the system (default: a new /var/tmp/tkview-fresh.*)
#   FRESH_LOGS       where logs go (default: that folder's name + .logs)
#   FRESH_APT_CACHE  a host folder bind-mounted on the system's apt archive cache (and
#                    debootstrap's, in its debootstrap/ folder), so a rerun downloads
#                    nothing again (the packages installed are the same)
#   FRESH_MIRROR     Debian mirror for debootstrap (default: this machine's first
#                    bookworm URI, else http://deb.debian.org/debian)
#
# What is copied from this machine, so apt and npm reach the registries the way
# they do here: apt sources, keyrings, pinning and Acquire:: settings (proxies),
# CA certificates (a proxy's own CA included), npm's global config and
# registry, resolv.conf.  Nothing else: the packages come from the README.
#
# Exit status: 0 when every command passed, 1 when one failed, 2 when the
# system could not be built.  Mounts are undone on every exit; a run killed
# outright (SIGKILL) leaves its system behind, and the next run removes it.
# When a command fails, the end of the output names the tests that failed with
# the end of their logs (.ci/test-failures.sh), for CI's reader.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
test_only=0 setup_only=0 keep=0 ref=HEAD in_dir='' in_cmd=''
while [ $# -gt 0 ]; do
    case $1 in
        --test-only) test_only=1 ;;
        --setup-only) setup_only=1 ;;
        --keep) keep=1 ;;
        --ref) ref=$2; shift ;;
        --in) [ $# -ge 3 ] || { echo "fresh-debian: --in DIR COMMAND" >&2; exit 2; }
              in_dir=$2 in_cmd=$3 keep=1; shift 2 ;;
        *) echo "fresh-debian: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
[ "$(id -u)" = 0 ] || { echo "fresh-debian: must run as root (debootstrap, chroot, mount)" >&2; exit 2; }
shared=$(cd "$here/.." && pwd)/shared
[ -d "$shared" ] || { echo "fresh-debian: no $shared (the tests read ../shared/dumps)" >&2; exit 2; }

# The file in a system that names the run using it: a system whose run is gone
# (killed before its clean-up could run) is removed by the next run.
owner_file=.tkview-fresh-owner
sweep_abandoned() {
    local d pid m
    for d in /var/tmp/tkview-fresh.*/; do
        d=${d%/}
        [ -f "$d/$owner_file" ] || continue
        pid=$(cat "$d/$owner_file" 2>/dev/null) || continue
        if [ -n "$pid" ] && tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -q fresh-debian; then
            continue
        fi
        echo "fresh-debian: removing $d, left by a run that was killed"
        kill_inside "$d"
        grep -E " $d(/| )" /proc/self/mounts | cut -d' ' -f2 | sort -r | while read -r m; do
            umount "$m" 2>/dev/null || umount -l "$m" || true
        done
        grep -qE " $d(/| )" /proc/self/mounts || rm -rf --one-file-system "$d"
    done
}
# Processes still running inside a system (an Xvfb or a browser left by a
# failed test) keep its mounts busy: they were started by this script.
kill_inside() {
    local p r
    for p in /proc/[0-9]*; do
        r=$(readlink "$p/root" 2>/dev/null) || continue
        case $r in "$1"|"$1"/*) kill -9 "${p#/proc/}" 2>/dev/null || true ;; esac
    done
}

if [ -n "$in_dir" ]; then
    [ -d "$in_dir/work/tkview" ] || { echo "fresh-debian: $in_dir is not a system kept by --keep" >&2; exit 2; }
    commit=$(git -C "$in_dir/work/tkview" rev-parse HEAD)
    cmds=("$in_cmd") names=(in)
else
    # --- The README's commands (.ci/readme-commands.sh reads them). ---
    # Those of the commit that is cloned, not of the working tree.
    commit=$(git -C "$here" rev-parse "$ref^{commit}")
    mapfile -t cmds < <("$here/.ci/readme-commands.sh" <(git -C "$here" show "$commit:README.md"))
    if [ "${#cmds[@]}" -ne 2 ]; then
        echo "fresh-debian: README.md's Set up section has ${#cmds[@]} command lines, expected 2 (set-up, test)" >&2
        exit 2
    fi
    names=(setup test)
    if [ "$test_only" = 1 ]; then cmds=("${cmds[1]}"); names=(test); fi
    if [ "$setup_only" = 1 ]; then cmds=("${cmds[0]}"); names=(setup); fi

    command -v debootstrap >/dev/null || {
        echo "fresh-debian: installing debootstrap on this machine" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y -qq --no-install-recommends debootstrap >&2 ||
            { apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends debootstrap >&2; } ||
            { echo "fresh-debian: could not install debootstrap" >&2; exit 2; }
    }
    sweep_abandoned
fi

root=${in_dir:-${FRESH_DIR:-$(mktemp -d /var/tmp/tkview-fresh.XXXXXX)}}
mkdir -p "$root"
root=$(cd "$root" && pwd)
logs=${FRESH_LOGS:-$root.logs}
mkdir -p "$logs"
echo $$ >"$root/$owner_file"
mounted=()

cleanup() {
    local rc=$? i m
    set +e
    kill_inside "$root"
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
        m=${mounted[i]}
        umount "$m" 2>/dev/null || umount -l "$m" || echo "fresh-debian: could not unmount $m" >&2
    done
    if [ "$keep" = 1 ]; then
        rm -f "$root/$owner_file"
        echo "fresh-debian: system kept in $root"
    elif grep -q " $root/" /proc/self/mounts || grep -q " $root " /proc/self/mounts; then
        echo "fresh-debian: something is still mounted under $root; not deleting it" >&2
    else
        rm -rf --one-file-system "$root"
    fi
    echo "fresh-debian: logs in $logs"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

mnt() { # mnt TARGET MOUNT-ARGS...: mount and remember it for cleanup
    local target=$1; shift
    mkdir -p "$target"
    mount "$@" "$target"
    mounted+=("$target")
}
now() { date +%s; }
dur() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# --- The system. ---
debootstrap_system() {
    local mirror=${FRESH_MIRROR:-} cache=()
    if [ -z "$mirror" ]; then
        mirror=$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
        mirror=${mirror:-http://deb.debian.org/debian}
    fi
    if [ -n "${FRESH_APT_CACHE:-}" ]; then
        mkdir -p "$FRESH_APT_CACHE/debootstrap"
        cache=(--cache-dir="$FRESH_APT_CACHE/debootstrap")
    fi
    echo "fresh-debian: debootstrap --variant=minbase bookworm $root $mirror"
    if ! debootstrap "${cache[@]}" --variant=minbase bookworm "$root" "$mirror" >"$logs/debootstrap.log" 2>&1; then
        tail -20 "$logs/debootstrap.log" >&2
        echo "fresh-debian: debootstrap failed" >&2
        exit 2
    fi
}
t0=$(now)
[ -n "$in_dir" ] || debootstrap_system
t_boot=$(($(now) - t0))

copy_settings() {
    # apt: this machine's sources (not the disabled ones), keys, pinning and
    # Acquire:: settings (proxies, date checks); not its caches or hooks.
    rm -f "$root/etc/apt/sources.list"
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources \
             /etc/apt/trusted.gpg /etc/apt/trusted.gpg.d/* /etc/apt/keyrings/* /etc/apt/preferences.d/*; do
        [ -f "$f" ] && install -D -m 644 "$f" "$root$f"
    done
    for f in /etc/apt/apt.conf /etc/apt/apt.conf.d/*; do
        [ -f "$f" ] && grep -q 'Acquire::' "$f" && install -D -m 644 "$f" "$root$f"
    done
    # Keyrings the sources name by path (Signed-By) outside /etc/apt.
    for k in $(sed -n 's/^Signed-By: *\(\/[^ ]*\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null); do
        [ -f "$k" ] && [ ! -e "$root$k" ] && install -D -m 644 "$k" "$root$k"
    done
    # CA certificates: the bundle, and the local CAs that update-ca-certificates
    # adds back when a package installs ca-certificates in the system later.
    if [ -d /usr/local/share/ca-certificates ]; then
        mkdir -p "$root/usr/local/share/ca-certificates"
        cp -a /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
    fi
    [ -f /etc/ssl/certs/ca-certificates.crt ] && install -D -m 644 /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
    # npm: global config (CA file) and this machine's registry.
    for f in /etc/npmrc /usr/etc/npmrc; do
        [ -f "$f" ] && install -D -m 644 "$f" "$root$f"
    done
    if command -v npm >/dev/null; then
        reg=$(npm config get registry 2>/dev/null || true)
        case $reg in http*) grep -q '^registry=' "$root/etc/npmrc" 2>/dev/null || echo "registry=$reg" >>"$root/etc/npmrc" ;; esac
    fi
    cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
}
[ -n "$in_dir" ] || copy_settings

mnt "$root/proc" -t proc proc
mnt "$root/sys" -t sysfs sysfs
mnt "$root/dev" --bind /dev
# Private: the pts and shm mounted on it next must not show up in this
# machine's own /dev through mount propagation.
mount --make-private "$root/dev"
mnt "$root/dev/pts" -t devpts devpts -o newinstance,ptmxmode=0666
mnt "$root/dev/shm" -t tmpfs shm -o mode=1777
mnt "$root/work/shared" --bind "$shared"
mount -o remount,bind,ro "$root/work/shared"
if [ -n "${FRESH_APT_CACHE:-}" ]; then
    mkdir -p "$FRESH_APT_CACHE/partial"
    mnt "$root/var/cache/apt/archives" --bind "$FRESH_APT_CACHE"
fi

# The tree: a clean clone of the commit, as a new user gets it.
if [ -z "$in_dir" ]; then
    git clone -q --no-hardlinks "$here" "$root/work/tkview"
    git -C "$root/work/tkview" checkout -q "$commit"
    git -C "$here" diff --quiet HEAD 2>/dev/null ||
        echo "fresh-debian: note: $here has uncommitted changes; they are not in the clone"
fi

# --- The commands, verbatim, each in a new login-like root environment. ---
echo "fresh-debian: system ready in $(dur "$t_boot"); commit $commit"
rc=0
results=()
for i in "${!cmds[@]}"; do
    cmd=${cmds[i]} name=${names[i]}
    echo "fresh-debian: [$name] $cmd"
    t0=$(now)
    # In the background, waited for: bash runs the INT/TERM/HUP trap (and the
    # clean-up) only once a foreground command ends, and this one takes an hour.
    set +e
    rm -f "$logs/$name.rc"
    { chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        DEBIAN_FRONTEND=noninteractive \
        /bin/bash -c "cd /work/tkview && $cmd" </dev/null 2>&1
      echo $? >"$logs/$name.rc"; } | tee "$logs/$name.log" &
    wait $!
    st=$(cat "$logs/$name.rc" 2>/dev/null || echo 1)
    set -e
    t=$(($(now) - t0))
    summary=$(grep -E '^(Ok|Expected Fail|Fail|Unexpected Pass|Skipped|Timeout): ' "$logs/$name.log" | tr -s ' ' | paste -sd ' ' - || true)
    res="[$name] exit $st in $(dur "$t")${summary:+; meson test: $summary}"
    results+=("$res")
    echo "fresh-debian: $res"
    if [ "$st" != 0 ]; then
        rc=1
        break
    fi
done
for f in build-ci/meson-logs/testlog.txt build/meson-logs/meson-log.txt; do
    [ -f "$root/work/tkview/$f" ] && cp "$root/work/tkview/$f" "$logs/${f//\//_}"
done
if [ "$rc" != 0 ]; then
    "$here/.ci/test-failures.sh" "$logs/$name.log" "$logs/build-ci_meson-logs_testlog.txt" 2>&1 || true
fi
echo "fresh-debian: summary (commit $commit, debootstrap $(dur "$t_boot")):"
printf '  %s\n' "${results[@]}"
[ "$rc" = 0 ] && echo "fresh-debian: PASS" || echo "fresh-debian: FAIL"
exit "$rc"
