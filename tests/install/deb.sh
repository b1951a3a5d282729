#!/bin/bash
# The Debian packages, built and run as a user gets them: builds tkview,
# libtkdump0 and libtkdump-dev with dpkg-buildpackage from a copy of the
# source tree (it writes ../*.deb, so never from the tree itself), unpacks
# them with dpkg -x into a fresh folder and runs the unpacked tkview on a
# sample bundle, with the unpacked library; then builds the example of
# examples/ against the unpacked headers and tkdump.pc, and runs lintian.
# Everything happens under one folder of $TMPDIR, removed when all passed.
# Skipped (77) with the reason when the packaging tools are not installed
# (the README says so); with them, a build dependency that is missing fails:
# debian/control asks for something debian-packages.txt does not install.
# TAP.  Usage: deb.sh SOURCE_ROOT
set -u
src=$1

skip() { echo "1..0 # SKIP $*"; exit 77; }
for tool in dpkg-buildpackage dpkg-checkbuilddeps dh; do
    command -v $tool >/dev/null ||
        skip "$tool is not installed (apt-get install dpkg-dev debhelper)"
done
missing=$(cd "$src" && dpkg-checkbuilddeps 2>&1) || {
    echo "Bail out! build dependencies of debian/control missing (debian-packages.txt lacks them?): ${missing##*:}"
    exit 1
}

# Not the build tree's library (meson test points LD_LIBRARY_PATH at it).
unset LD_LIBRARY_PATH
work=$(mktemp -d "${TMPDIR:-/tmp}/deb.XXXXXX") || exit 1
n=0 failed=0
check() {   # check WHAT COMMAND...: one TAP line; output kept in $work/log
    n=$((n + 1))
    local what=$1; shift
    if "$@" >"$work/out.$n" 2>&1; then echo "ok $n - $what"
    else
        echo "not ok $n - $what"; sed 's/^/# /' "$work/out.$n" | tail -40
        failed=1
    fi
}
echo "1..8"

# The tree as git knows it (tracked and not ignored), else all but builds.
mkdir -p "$work/src/tkview"
if git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1; then
    (cd "$src" && git ls-files -z -co --exclude-standard | tar -c --null -T - -f -)
else
    tar -C "$src" -c --exclude='./build*' --exclude=./.git -f - .
fi | tar -x -C "$work/src/tkview" -f -

# The tests of the package build are this suite's own, already run.
start=$SECONDS
check "dpkg-buildpackage -us -uc -b" \
    env DEB_BUILD_OPTIONS="nocheck parallel=2" \
    sh -c "cd '$work/src/tkview' && dpkg-buildpackage -us -uc -b"
echo "# dpkg-buildpackage took $((SECONDS - start)) s"

root=$work/root
check "dpkg -x tkview, libtkdump0, libtkdump-dev" sh -c "
    for p in tkview libtkdump0 libtkdump-dev; do
        dpkg -x '$work'/src/\${p}_*.deb '$root' || exit 1
    done"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
libdir=$root/usr/lib/$multiarch
export LD_LIBRARY_PATH=$libdir

# The unpacked program with the unpacked library, not the build tree's.
check "unpacked tkview links the unpacked libtkdump.so.0" \
    sh -c "ldd '$root/usr/bin/tkview' | grep -F 'libtkdump.so.0 => $libdir/libtkdump.so.0'"
# sample_dumps/vector_add_sum/manifest.json:19: "name" : "add_sum_kernel",
check "unpacked tkview info sample_dumps/vector_add_sum" \
    sh -c "'$root/usr/bin/tkview' info '$src/sample_dumps/vector_add_sum' | grep -w add_sum_kernel"
check "man page, completion, AppStream data and GSettings schema are in the package" \
    test -s "$root/usr/share/man/man1/tkview.1.gz" -a \
         -s "$root/usr/share/bash-completion/completions/tkview" -a \
         -s "$root/usr/share/metainfo/org.tkview.Viewer.metainfo.xml" -a \
         -s "$root/usr/share/glib-2.0/schemas/org.tkview.Viewer.gschema.xml"
# The completion it installs is loaded by bash-completion's loader only:
# a fresh shell completes tkview when the package pulls that in.
check "tkview recommends bash-completion" \
    sh -c "dpkg-deb -f '$work'/src/tkview_*.deb Recommends | tr ',' '\\n' | grep -x ' *bash-completion'"

# The embedding contract: the example, built with nothing but the unpacked
# -dev package's headers and tkdump.pc, run on a sample bundle.
# tkdump.pc names prefix /usr: a copy that names the unpacked one.
mkdir -p "$work/pc"
sed "s|^prefix=.*|prefix=$root/usr|" "$libdir/pkgconfig/tkdump.pc" >"$work/pc/tkdump.pc"
export PKG_CONFIG_PATH=$work/pc
# vector_add_sum.py:12 has one SASS instruction (add_sum_kernel.sass_gi:15-16,
# quoted in tests/install/example.sh).
ex=$root/usr/share/doc/libtkdump-dev/examples/sass_per_line.c
check "the packaged example built with pkg-config tkdump, run" \
    sh -c "cc -std=c17 -Wall -Werror -o '$work/sass_per_line' '$ex' \
             \$(pkg-config --cflags --libs tkdump) &&
           '$work/sass_per_line' '$src/sample_dumps/vector_add_sum' > '$work/example.out' &&
           grep -x 'vector_add_sum\.py:12 1 1' '$work/example.out'"

if command -v lintian >/dev/null; then
    # One run (lintian takes minutes on a busy machine): every tag shown,
    # only errors and warnings fail.
    check "lintian: no error or warning" \
        sh -c "lintian -I --pedantic --show-overrides --fail-on error,warning '$work'/src/tkview_*.changes"
    [ "$failed" = 0 ] && sed 's/^/# lintian: /' "$work/out.$n"
else
    check "lintian is installed (debian-packages.txt lists it)" false
fi

if ((failed)); then echo "# kept for a look: $work"; else rm -rf "$work"; fi
exit $failed
