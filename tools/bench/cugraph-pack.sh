#!/usr/bin/env bash
# cugraph-pack.sh - build a one-architecture, carry-sized copy of the cuGraph
# Python stack (pylibcugraph, cupy, numpy and their CUDA wheels) for a GPU
# machine without network access.  See --help.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
wheels=/tmp/cgw
work=/tmp/cgw-pack
out=
arch=90
part_size=60M
threads=0
python=/usr/bin/python3
cuobjdump=
excludes=()
keep_site=1

usage() {
  cat <<EOF
Usage: $(basename "$0") [options]

Install downloaded wheels into a directory, zero every CUDA fat-binary entry
the target GPU cannot use (fatbin_slim.py; offsets and sizes unchanged), then
tar + xz -9 the directory and split it into parts for the device carry.

Options:
  --wheels DIR       wheels to install (default $wheels), e.g. fetched with
                       $python -m pip download --only-binary=:all: -d DIR \\
                         'pylibcugraph-cu13==26.10.*' cupy-cuda13x numpy
  --work DIR         scratch directory (default $work); the slimmed tree is
                     DIR/site, the parts go to DIR/out unless --out is given
  --out DIR          where to write cugraph-site.tar.xz.partNN (e.g.
                     .device-carry/cugraph, which git ignores)
  --arch N           SM architecture to keep (default $arch)
  --exclude GLOB     skip wheels whose file name matches GLOB (repeatable),
                     e.g. --exclude 'nvidia_cufft-*' (cuGraph does not link
                     cuFFT; only cupy.fft would need it)
  --part-size SIZE   split size for split(1) (default $part_size = 60 MiB)
  --threads N        xz threads (default 0 = all cores)
  --python PATH      interpreter whose pip installs the wheels (default $python)
  --cuobjdump PATH   after slimming, check one library with cuobjdump: the
                     sm_$arch cubins are listed and extract byte-identical to
                     the ones from the unslimmed wheel
  -h, --help         this text

On the GPU machine (the tree is a flat site-packages directory):
  B=/tmp/cgpy; S=\$B/lib/python3.11/site-packages   # python3 -V must be 3.11
  mkdir -p \$S && cat cugraph-site.tar.xz.part* | xz -d | tar -x -C \$S
  PYTHONUSERBASE=\$B python3 -c 'import numpy, cupy, pylibcugraph'
PYTHONPATH=\$S alone is NOT enough: libkvikio (imported by pylibcugraph)
loads libcufile through cuda.pathfinder, which looks only in
site.getsitepackages() and the user site, not in sys.path.  Either use
PYTHONUSERBASE as above (user site = \$S), or
  PYTHONPATH=\$S LD_LIBRARY_PATH=\$S/nvidia/cu13/lib python3 ...

A lean pack (--exclude 'nvidia_*' --exclude 'cupy*' --exclude 'numpy*'
--exclude 'cuda_*': 108 MB, carried in four parts) uses the GPU machine's
own CUDA wheels; libcuvs needs nvJitLink 13.3 or newer (its symbol
__nvJitLinkCreate_13_3), which that machine's lacked: carry the
libnvJitLink.so.13 of the nvidia_nvjitlink wheel, its folder first:
  LD_LIBRARY_PATH=NVJITLINK_DIR:\$(ls -d \$S/*/lib64 | tr '\n' :)NVIDIA_LIB_DIRS
  PYTHONPATH=\$S python3 ...
(NVIDIA_LIB_DIRS: the folders of the lib*.so* under python3's nvidia
package; ran with pylibcugraph 26.10 on an H200, 2026-11-30).

Exit status non-zero on any failure; a fatbin that cannot be parsed makes
fatbin_slim.py refuse before writing anything, and the half-built site
directory and parts are removed.
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --wheels) wheels=$2; shift 2;;
    --work) work=$2; shift 2;;
    --out) out=$2; shift 2;;
    --arch) arch=$2; shift 2;;
    --exclude) excludes+=("$2"); shift 2;;
    --part-size) part_size=$2; shift 2;;
    --threads) threads=$2; shift 2;;
    --python) python=$2; shift 2;;
    --cuobjdump) cuobjdump=$2; shift 2;;
    -h|--help) usage; exit 0;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2;;
  esac
done
[ -n "$out" ] || out=$work/out
site=$work/site
prefix=cugraph-site.tar.xz.part

shopt -s nullglob
sel=()
for w in "$wheels"/*.whl; do
  b=$(basename "$w"); skip=0
  for g in "${excludes[@]+"${excludes[@]}"}"; do
    # shellcheck disable=SC2053
    [[ $b == $g ]] && skip=1
  done
  [ $skip = 1 ] && echo "excluded: $b" || sel+=("$w")
done
[ ${#sel[@]} -gt 0 ] || { echo "no wheels in $wheels" >&2; exit 1; }

cleanup_fail() {
  echo "cugraph-pack: FAILED; removing $site and partial parts" >&2
  rm -rf "$site"
  rm -f "$out/$prefix"* "$out/SHA256SUMS"
}
trap cleanup_fail ERR

echo "== wheels (${#sel[@]})"
ls -l "${sel[@]}" | awk '{printf "%12d  %s\n", $5, $NF}'

echo "== install into $site"
rm -rf "$site"; mkdir -p "$site" "$out"
"$python" -m pip install --quiet --no-deps --no-index --no-compile \
  --target "$site" "${sel[@]}"
find "$site" -name __pycache__ -type d -prune -exec rm -rf {} +
echo "unpacked: $(du -sb "$site" | cut -f1) bytes"

if [ -n "$cuobjdump" ]; then
  probe=$(cd "$site" && ls libcugraph/lib64/libcugraph_c.so 2>/dev/null || true)
  if [ -n "$probe" ]; then
    rm -rf "$work/orig"; mkdir -p "$work/orig"; cp "$site/$probe" "$work/orig/"
  fi
fi

echo "== slim fat binaries to sm_$arch"
"$python" "$here/fatbin_slim.py" --arch "$arch" "$site"
echo "slimmed tree: $(du -sb "$site" | cut -f1) bytes (same apparent size; zeros)"

if [ -n "$cuobjdump" ] && [ -n "${probe:-}" ]; then
  echo "== cuobjdump check on $probe"
  chk=$work/cuobjdump-check; rm -rf "$chk"; mkdir -p "$chk/a" "$chk/b"
  echo "cubins listed in slimmed lib, by arch:"
  "$cuobjdump" --list-elf "$site/$probe" | sed 's/.*\.\(sm_[0-9a-z]*\)\.cubin$/\1/' \
    | sort | uniq -c
  echo "PTX listed: $("$cuobjdump" --list-ptx "$site/$probe" | wc -l)"
  (cd "$chk/a" && "$cuobjdump" -xelf all "$work/orig/$(basename "$probe")" >/dev/null)
  (cd "$chk/b" && "$cuobjdump" -xelf all "$site/$probe" >/dev/null)
  n=0
  for f in "$chk/a"/*.sm_"$arch"*.cubin; do
    cmp "$f" "$chk/b/$(basename "$f")"; n=$((n+1))
  done
  echo "cubins extracted: original $(ls "$chk/a" | wc -l), slimmed $(ls "$chk/b" | wc -l)"
  [ $n -gt 0 ] || { echo "no sm_$arch cubin extracted" >&2; false; }
  echo "sm_$arch cubins byte-identical to the original: $n"
fi

echo "== tar | xz -9 -T$threads | split -b $part_size"
rm -f "$out/$prefix"* "$out/SHA256SUMS"
tar -C "$site" --owner=0 --group=0 --numeric-owner -cf - . \
  | xz -9 -T"$threads" -c \
  | split -b "$part_size" -d -a 2 - "$out/$prefix"
(cd "$out" && sha256sum "$prefix"* > SHA256SUMS)
ls -l "$out/$prefix"* | awk '{printf "%12d  %s\n", $5, $NF}'
echo "total xz: $(cat "$out/$prefix"* | wc -c) bytes in $(ls "$out/$prefix"* | wc -l) parts"
trap - ERR
