#!/bin/sh
# unpack-dump.sh TARBALL DESTDIR NAME STAMP: unpacks one shared capture once.
set -eu
tarball=$1 dest=$2 name=$3 stamp=$4
mkdir -p "$dest"
if [ ! -d "$dest/$name" ]; then
  tmp=$(mktemp -d "$dest/.unpack.XXXXXX")
  tar -xJf "$tarball" -C "$tmp"
  mv "$tmp/$name" "$dest/$name"
  rmdir "$tmp"
fi
touch "$stamp"
