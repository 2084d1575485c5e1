#!/usr/bin/env bash
# pack.sh NAME FILE... : strips the named binaries (build/bin or
# build/tests/bin) into .device-carry/NAME.tar.xz; a name a=b copies a as b.
set -eu
cd /work/main
name=$1; shift
rm -rf /tmp/pack-$name && mkdir -p /tmp/pack-$name/bin
for f in "$@"; do
  src=${f%%=*}; dst=${f#*=}
  path=build/bin/$src; [ -e "$path" ] || path=build/tests/bin/$src
  cp "$path" /tmp/pack-$name/bin/$dst && strip /tmp/pack-$name/bin/$dst
done
tar -C /tmp/pack-$name -cf - bin | xz -T2 -6 > .device-carry/$name.tar.xz
ls -la .device-carry/$name.tar.xz
