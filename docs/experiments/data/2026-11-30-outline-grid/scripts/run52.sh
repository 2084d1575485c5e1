#!/usr/bin/env bash
# cuGraph beside irglc, the lean pack unpacked by run51 plus CUDA 13.5's nvJitLink.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
S=/tmp/cgsite; mkdir -p $S/nvjl /tmp/r52 && xz -dc nvjx/libnvJitLink.so.13.xz > $S/nvjl/libnvJitLink.so.13
NV=$(python3 -c 'import nvidia; print(list(nvidia.__path__)[0])')
export LD_LIBRARY_PATH=$S/nvjl:$(ls -d $S/*/lib64 | tr '\n' ':')$(find $NV -name 'lib*.so*' -printf '%h\n' | sort -u | tr '\n' ':')
export PYTHONPATH=$S
python3 -c 'import numpy, cupy, pylibcugraph; print("pylibcugraph", pylibcugraph.__version__, "cupy", cupy.__version__, "numpy", numpy.__version__)' 2>&1 | tail -3
echo 4b20d01 > "$root/REVISION"
bin=/tmp/s49/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
timeout 60 python3 $root/tools/bench/cugraph-run.py --app bfs --graph $data/tiny/karate.mtx.xz --source 0 --trials 3 2>&1 | tail -2
roads=road/minnesota.mtx.xz,road/rome99.gr.xz,road/monaco.wel.xz,road/luxembourg_osm.mtx.xz,road/usroads.mtx.xz,road/moscow_roads.txt.xz,road/moscow_roads.gr.xz
web=powerlaw/musae_git_edges.csv.xz,powerlaw/ego-twitter-undirected.txt.xz,powerlaw/cnr-2000.txt.xz,powerlaw/uk-2007-05-100000.txt.xz
left=$(( 330 - ($(date +%s) - start) ))
stamp peers
timeout $left python3 $root/tools/bench/irgl-bench run peers --apps bfs,sssp,cc,pr --schedules auto,afforest,near-far,cugraph \
  --bin $bin --data $data --graphs $roads,$web,rmat:scale=22 --out /tmp/r52/peers \
  --work-dir /tmp/b52 --runs 7 --budget $(( left - 25 )) > /tmp/r52/peers.log 2>&1
echo "peers exit $?: $(tail -1 /tmp/r52/peers.log)"
stamp done
tar -C /tmp -cJf $OUT/r52.tar.xz r52
