#!/usr/bin/env bash
# Holds the shared library to the ABI committed in abi/ (abidiff from
# abigail-tools). New functions and members appended to the structs that
# carry their size (abi/suppressions.abignore) pass; any other change to
# what the library exports passes only with a new soname, and then the
# baseline is to be made again with `make abi-baseline`.
#
#   check-abi.sh BASELINE.abi SUPPRESSIONS LIBRARY HEADERS_DIR
set -uo pipefail
baseline=$1 suppressions=$2 library=$3 headers=$4
command -v abidiff >/dev/null || { echo "error: abidiff is needed: apt-get install abigail-tools" >&2; exit 1; }

abidiff --no-added-syms --suppressions "$suppressions" --headers-dir2 "$headers" "$baseline" "$library"
status=$?
# abidiff's status is a bit field: 1 an error, 2 a usage error, 4 an ABI
# change, 8 one it knows to be incompatible. With additions and appended
# members left out, any change left is one an old program may trip on.
if (( status & 3 )); then
  echo "error: abidiff could not compare $library with $baseline (status $status)" >&2
  exit 1
fi
old_soname=$(sed -n "s/.*<abi-corpus [^>]*soname='\([^']*\)'.*/\1/p" "$baseline" | head -n 1)
new_soname=$(readelf -d "$library" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
if (( status & 12 )); then
  if [[ "$old_soname" == "$new_soname" ]]; then
    echo "error: an incompatible ABI change without a new soname ($new_soname): bump SOVERSION, or keep the change compatible" >&2
    exit 1
  fi
  echo "an incompatible change with a new soname ($old_soname -> $new_soname): make abi-baseline and commit it"
  exit 0
fi
echo "ABI of $new_soname: compatible with the baseline"
