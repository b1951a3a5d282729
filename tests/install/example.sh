#!/bin/bash
# The embedding contract: `meson install --destdir` into a fresh folder, then
# examples/sass_per_line.c built with nothing but the installed headers and
# tkdump.pc (pkg-config --cflags --libs tkdump) and run on a sample bundle
# with the installed library.  TAP.
# Usage: example.sh BUILD_DIR SOURCE_ROOT PREFIX LIBDIR SANITIZE CC
set -u
build=$1 src=$2 prefix=$3 libdir=$4 sanitize=$5 cc=$6
work=$(mktemp -d "${TMPDIR:-/tmp}/example.XXXXXX") || exit 1
echo "1..3"
failed=0
ok() { echo "ok $*"; }
no() { echo "not ok $*"; failed=1; }

if meson install -C "$build" --no-rebuild --destdir "$work/root" --quiet >"$work/install.log" 2>&1
then ok "1 - meson install --destdir"
else no "1 - meson install --destdir"; sed 's/^/# /' "$work/install.log"; fi

case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
lib=$work/root$libdir
export PKG_CONFIG_PATH=$lib/pkgconfig
flags=$(pkg-config --define-variable=prefix="$work/root$prefix" --cflags --libs tkdump)
# A sanitized build's library needs the program built the same way.
[ "$sanitize" = none ] || flags="$flags -fsanitize=$sanitize"
if "$cc" -std=c17 -Wall -Werror -o "$work/sass_per_line" "$src/examples/sass_per_line.c" \
      $flags >"$work/cc.log" 2>&1
then ok "2 - sass_per_line.c built with pkg-config tkdump: $flags"
else no "2 - sass_per_line.c built with pkg-config tkdump: $flags"; sed 's/^/# /' "$work/cc.log"; fi

# The SASS of sample_dumps/vector_add_sum names vector_add_sum.py line 19
# in no `//## File ..., line 19` comment (grep -c 'line 19' on
# add_sum_kernel.sass_gi: 0), so none of its SASS is its own (exact 0), but
# its tl.sum is: some SASS has the line in its stack (called > 0).
unset LD_LIBRARY_PATH
if LD_LIBRARY_PATH=$lib "$work/sass_per_line" "$src/sample_dumps/vector_add_sum" >"$work/out" 2>&1 &&
   grep -Eq '^vector_add_sum\.py:19 0 [1-9][0-9]*$' "$work/out"
then ok "3 - run with the installed library: vector_add_sum.py:19 exact 0, called > 0"
else no "3 - run with the installed library"; sed 's/^/# /' "$work/out"; fi

if ((failed)); then echo "# kept for a look: $work"; else rm -rf "$work"; fi
exit 0
