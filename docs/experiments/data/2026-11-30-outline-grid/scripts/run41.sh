#!/usr/bin/env bash
# Outlined loops' grid: --outline-blocks 64..512 on the road and web graphs
# (bfs/sssp/cc, checked), and where sssp's time goes on minnesota (nsys).
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s40 && tar -xJf s40.tar.xz -C /tmp/s40
cp REVISION "$root/REVISION"
bin=/tmp/s40/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r41
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
graphs=road/minnesota.mtx.xz,road/rome99.gr.xz,road/monaco.wel.xz,road/luxembourg_osm.mtx.xz,road/usroads.mtx.xz,road/moscow_roads.txt.xz,powerlaw/ego-twitter-undirected.txt.xz,powerlaw/cnr-2000.txt.xz,powerlaw/uk-2007-05-100000.txt.xz
bench() {  # OUT-NAME BUILDS [PROGRAM-OPTIONS] [GRAPHS] [APPS]
  local left=$(( 400 - ($(date +%s) - start) ))
  [ $left -lt 30 ] && { echo "skip $1: no time"; return; }
  timeout $left python3 $root/tools/bench/irgl-bench run peers --apps ${5:-bfs,sssp,cc} --schedules $2 \
    --bin $bin --gap /tmp/s40/gap --data $data --graphs ${4:-$graphs} --out /tmp/r41/$1 \
    --work-dir /tmp/b41 --runs 7 --budget $(( left - 20 )) ${3:+--program-options "$3"} > /tmp/r41/$1.log 2>&1
  echo "$1 exit $?: $(tail -1 /tmp/r41/$1.log)"
}
stamp sweep
bench default auto
for b in 64 128 256 512 100000; do bench blocks$b auto "--outline-blocks $b"; done
stamp nsys
which nsys ncu
m=$(pwd)/data/road/minnesota.mtx.xz
for b in 0 32 100000; do
  opt=""; [ $b != 0 ] && opt="--outline-blocks $b"
  timeout 60 nsys profile -t cuda --stats=false -o /tmp/r41/sssp-minnesota-$b --force-overwrite true \
    $bin/sssp-cuda-auto $m --source 2417 --weights=hash:100 --runs 5 $opt > /tmp/r41/nsys-$b.log 2>&1
  timeout 60 nsys stats -r cuda_gpu_kern_sum,cuda_api_sum,cuda_gpu_trace -f csv -o /tmp/r41/stats-$b /tmp/r41/sssp-minnesota-$b.nsys-rep >> /tmp/r41/nsys-$b.log 2>&1
  echo "nsys $b exit $?"
done
stamp done
rm -f /tmp/r41/*.nsys-rep /tmp/r41/*.sqlite
tar -C /tmp -cJf $OUT/r41.tar.xz r41
