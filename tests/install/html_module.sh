#!/bin/bash
# The report module (html/README.md): `tkview` links neither libxml2 nor
# ICU, libstdc++ or cmark; the program `meson install --destdir` put in a
# fresh folder writes a report with the module installed beside it; a file
# that is not the module is refused, naming it.  TAP.
# Usage: html_module.sh BUILD_DIR SOURCE_ROOT PREFIX BINDIR LIBDIR TKVIEW
set -u
build=$1 src=$2 prefix=$3 bindir=$4 libdir=$5 tkview=$6
work=$(mktemp -d "${TMPDIR:-/tmp}/html-module.XXXXXX") || exit 1
echo "1..4"
failed=0
ok() { echo "ok $*"; }
no() { echo "not ok $*"; failed=1; }
sample=$src/sample_dumps/vector_add_sum

needed=$(readelf -d "$tkview" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
if echo "$needed" | grep -Eq 'libxml2|libicu|libstdc\+\+|libcmark'
then no "1 - tkview needs none of libxml2, ICU, libstdc++, cmark:"; echo "$needed" | sed 's/^/# /'
else ok "1 - tkview needs none of libxml2, ICU, libstdc++, cmark"; fi

case $bindir in /*) ;; *) bindir=$prefix/$bindir ;; esac
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
root=$work/root
if meson install -C "$build" --no-rebuild --destdir "$root" --quiet >"$work/install.log" 2>&1 &&
   [ -f "$root$libdir/tkview/libtkview-html.so" ]
then ok "2 - meson install puts libtkview-html.so in LIBDIR/tkview"
else no "2 - meson install puts libtkview-html.so in LIBDIR/tkview"; sed 's/^/# /' "$work/install.log"; fi

# The installed program, run from its staged folder: the module it finds
# is the staged one (no build tree beside it, no TKVIEW_HTML_MODULE).
unset TKVIEW_HTML_MODULE
if LD_LIBRARY_PATH=$root$libdir "$root$bindir/tkview" --html "$work/report" "$sample" \
       >"$work/html.log" 2>&1 && [ -f "$work/report/index.html" ]
then ok "3 - the installed tkview writes a report with its installed module"
else no "3 - the installed tkview writes a report with its installed module"; sed 's/^/# /' "$work/html.log"; fi

# A shared library that is not the module (libtkdump) is refused by name.
not_module=$(ls "$root$libdir"/libtkdump.so.* | head -1)
LD_LIBRARY_PATH=$root$libdir TKVIEW_HTML_MODULE=$not_module \
    "$root$bindir/tkview" --html "$work/report2" "$sample" >"$work/bad.log" 2>&1
rc=$?
if [ $rc = 2 ] && grep -qF "$not_module: not tkview's report module" "$work/bad.log" &&
   [ ! -e "$work/report2" ]
then ok "4 - another library named by TKVIEW_HTML_MODULE is refused, exit 2"
else no "4 - another library named by TKVIEW_HTML_MODULE is refused, exit 2 (got $rc)"; sed 's/^/# /' "$work/bad.log"; fi

if ((failed)); then echo "# kept for a look: $work"; else rm -rf "$work"; fi
exit 0
