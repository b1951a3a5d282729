#!/bin/bash
# The embedding contract: `meson install --destdir` into a fresh folder, then
# examples/sass_per_line.c built with nothing but the installed headers and
# tkdump.pc (pkg-config --cflags --libs tkdump) and run on a sample bundle
# with the installed library.  TAP.
# Usage: example.sh BUILD_DIR SOURCE_ROOT PREFIX LIBDIR SANITIZE CC
set -u
build=$1 src=$2 prefix=$3 libdir=$4 sanitize=$5 cc=$6
work=$(mktemp -d "${TMPDIR:-/tmp}/example.XXXXXX") || exit 1
echo "1..4"
failed=0
ok() { echo "ok $*"; }
no() { echo "not ok $*"; failed=1; }

if meson install -C "$build" --no-rebuild --destdir "$work/root" --quiet >"$work/install.log" 2>&1
then ok "1 - meson install --destdir"
else no "1 - meson install --destdir"; sed 's/^/# /' "$work/install.log"; fi

# Every public header is installed (a header includes its neighbours).
have=$(cd "$src/dumpers/include/tkdump" && ls *.h)
got=$(cd "$work/root$prefix/include/tkdump" 2>/dev/null && ls *.h)
if [ "$have" = "$got" ]; then ok "2 - every header of dumpers/include/tkdump installed"
else no "2 - headers installed differ from dumpers/include/tkdump:"
     diff <(echo "$have") <(echo "$got") | sed 's/^/# /'; fi

case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
lib=$work/root$libdir
# tkdump.pc names its final prefix: a copy that names the staged one (not
# --define-variable, which would move GLib's prefix too).
mkdir -p "$work/pc"
sed "s|^prefix=.*|prefix=$work/root$prefix|" "$lib/pkgconfig/tkdump.pc" >"$work/pc/tkdump.pc"
export PKG_CONFIG_PATH=$work/pc
flags=$(pkg-config --cflags --libs tkdump)
# A sanitized build's library needs the program built the same way.
[ "$sanitize" = none ] || flags="$flags -fsanitize=$sanitize"
if "$cc" -std=c17 -Wall -Werror -o "$work/sass_per_line" "$src/examples/sass_per_line.c" \
      $flags >"$work/cc.log" 2>&1
then ok "3 - sass_per_line.c built with pkg-config tkdump: $flags"
else no "3 - sass_per_line.c built with pkg-config tkdump: $flags"; sed 's/^/# /' "$work/cc.log"; fi

# sample_dumps/vector_add_sum/add_sum_kernel-a4183f2c/add_sum_kernel.sass_gi:
#   15: //## File ".../vector_add_sum.py", line 12
#   16:         /*0000*/  LDC R1, c[0x0][0x28] ;
#   17: //## File ".../vector_add_sum.py", line 14
# line 12 has one instruction, its own (no inline frames: exact = called);
# no `//## File` comment names line 19 (grep -c 'line 19': 0), so none of
# its SASS is its own (exact 0), but its tl.sum is (called > 0).
unset LD_LIBRARY_PATH
if LD_LIBRARY_PATH=$lib "$work/sass_per_line" "$src/sample_dumps/vector_add_sum" >"$work/out" 2>&1 &&
   grep -qx 'vector_add_sum\.py:12 1 1' "$work/out" &&
   grep -Eqx 'vector_add_sum\.py:19 0 [1-9][0-9]*' "$work/out"
then ok "4 - run with the installed library: line 12 exact 1, line 19 exact 0 and called > 0"
else no "4 - run with the installed library"; sed 's/^/# /' "$work/out"; fi

if ((failed)); then echo "# kept for a look: $work"; else rm -rf "$work"; fi
exit 0
