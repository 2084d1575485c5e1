#!/usr/bin/env bash
# cuGraph 26.10 (pylibcugraph, sm_90-only lean pack in four carried parts)
# beside irglc and GAP on the same graphs: bfs, sssp, cc, pr.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
mkdir -p /tmp/cgparts /tmp/r51 && cp cg/dp3/p3 /tmp/cgparts/ && ls -la /tmp/cgparts
sum=$(cat /tmp/cgparts/p0 /tmp/cgparts/p1 /tmp/cgparts/p2 /tmp/cgparts/p3 | sha256sum | cut -d' ' -f1)
echo "sha256 $sum expected $(cut -d' ' -f1 cg/dp3/SHA)"
S=/tmp/cgsite; rm -rf $S; mkdir -p $S
cat /tmp/cgparts/p0 /tmp/cgparts/p1 /tmp/cgparts/p2 /tmp/cgparts/p3 | xz -d | tar -x -C $S
stamp unpacked
NV=$(python3 -c 'import nvidia,os; print(list(nvidia.__path__)[0])')
export LD_LIBRARY_PATH=$(find $NV -name 'lib*.so*' -printf '%h\n' | sort -u | tr '\n' ':')${LD_LIBRARY_PATH:-}
export PYTHONPATH=$S
python3 -c 'import numpy, cupy, pylibcugraph; print("pylibcugraph", pylibcugraph.__version__, "cupy", cupy.__version__, "numpy", numpy.__version__)' 2>&1 | tail -5
[ -d /tmp/s49/bin ] || { mkdir -p /tmp/s49 && tar -xJf s49.tar.xz -C /tmp/s49; }
for a in bfs sssp cc pr; do ln -sf $a-cuda /tmp/s49/bin/$a-cuda-auto; done
echo 4b20d01 > "$root/REVISION"
bin=/tmp/s49/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
timeout 60 python3 $root/tools/bench/cugraph-run.py --app bfs --graph $data/tiny/karate.mtx.xz --source 0 --trials 3 2>&1 | tail -3
roads=road/minnesota.mtx.xz,road/rome99.gr.xz,road/monaco.wel.xz,road/luxembourg_osm.mtx.xz,road/usroads.mtx.xz,road/moscow_roads.txt.xz,road/moscow_roads.gr.xz
web=powerlaw/musae_git_edges.csv.xz,powerlaw/ego-twitter-undirected.txt.xz,powerlaw/cnr-2000.txt.xz,powerlaw/uk-2007-05-100000.txt.xz
left=$(( 420 - ($(date +%s) - start) ))
stamp peers
timeout $left python3 $root/tools/bench/irgl-bench run peers --apps bfs,sssp,cc,pr --schedules auto,afforest,near-far,cugraph,gap \
  --bin $bin --gap /tmp/s49/gap --data $data --graphs $roads,$web,rmat:scale=22 --out /tmp/r51/peers \
  --work-dir /tmp/b51 --runs 7 --budget $(( left - 25 )) > /tmp/r51/peers.log 2>&1
echo "peers exit $?: $(tail -1 /tmp/r51/peers.log)"
stamp done
tar -C /tmp -cJf $OUT/r51.tar.xz r51
