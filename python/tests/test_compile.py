"""irgl.compile(): a user's .irgl program built for the CPU and called from
Python, its parameters and outputs, its errors, and the build cache."""
import os
import textwrap

import numpy as np
import pytest

import irgl

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(REPO, "lang-examples")
KARATE = os.path.join(REPO, "tests", "data", "karate.mtx")

# A program of the user's own: a vertex output and two reductions.
DEGREES = textwrap.dedent("""\
    #include <irgl.h>
    NodeData<uint32_t> heavy;
    Sum<uint64_t> edges;
    Max<uint32_t> largest;

    kernel void count(const Graph& g, uint32_t threshold) {
      for (Node n : g.nodes()) {
        const uint32_t degree = g.out_degree(n);
        heavy[n] = degree >= threshold ? 1 : 0;
        edges += degree;
        largest.reduce(degree);
      }
    }

    program void degrees(Graph& g, uint32_t threshold = 10) {
      count(g, threshold);
      output(heavy);
      output(edges);
      output(largest);
    }
    """)


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return str(tmp_path_factory.mktemp("programs"))


def test_an_example_gives_the_packaged_answer(cache):
    sssp = irgl.compile(os.path.join(EXAMPLES, "sssp.irgl"), cache_dir=cache)
    assert (sssp.name, sssp.parameters, sssp.outputs) == ("sssp", ["source"], ["dist"])
    g = irgl.load(KARATE, weights="hash:10")
    assert np.array_equal(sssp(g, source=5)["dist"], irgl.sssp(g, 5))
    assert np.array_equal(sssp(g)["dist"], irgl.sssp(g, 0))  # the default source


def test_in_edges_are_built_for_a_pull_program(cache):
    pr = irgl.compile(os.path.join(EXAMPLES, "pr.irgl"), cache_dir=cache)
    g = irgl.load(KARATE)
    assert np.allclose(pr(g, tolerance=1e-7)["rank"], irgl.pagerank(g, tolerance=1e-7), atol=1e-7)


def test_a_users_program_with_reductions(cache, tmp_path):
    source = tmp_path / "degrees.irgl"
    source.write_text(DEGREES)
    degrees = irgl.compile(source, cache_dir=cache)
    g = irgl.load(KARATE)
    result = degrees(g, threshold=6)
    counts = np.diff(g.indptr.astype(np.int64))
    assert np.array_equal(result["heavy"], (counts >= 6).astype(np.uint32))
    assert result["edges"] == g.num_edges and result["largest"] == counts.max()
    assert isinstance(result["edges"], int)


def test_a_program_without_a_graph(cache):
    game = irgl.compile(os.path.join(EXAMPLES, "tasks", "four_in_a_row.irgl"), cache_dir=cache)
    assert game.signature["takes_graph"] is False
    first = game(lookahead=2)
    assert first == game(lookahead=2) and set(first) == set(game.outputs)
    with pytest.raises(TypeError, match="takes no graph"):
        game(irgl.load(KARATE))


def test_the_cache_skips_the_second_build(cache):
    path = os.path.join(EXAMPLES, "bfs.irgl")
    first = irgl.compile(path, cache_dir=cache)
    built = sorted(os.listdir(cache))
    second = irgl.compile(path, cache_dir=cache)
    assert sorted(os.listdir(cache)) == built
    g = irgl.load(KARATE)
    assert np.array_equal(first(g)["level"], second(g)["level"])


def test_bad_parameters(cache):
    bfs = irgl.compile(os.path.join(EXAMPLES, "bfs.irgl"), cache_dir=cache)
    g = irgl.load(KARATE)
    with pytest.raises(ValueError, match="source 34 is not a vertex"):
        bfs(g, source=34)
    with pytest.raises(ValueError, match=r"source = -1 is not an integer in \[0, 4294967295\]"):
        bfs(g, source=-1)
    with pytest.raises(ValueError, match="is not an integer"):
        bfs(g, source=1.5)
    with pytest.raises(TypeError, match="no parameter sorce"):
        bfs(g, sorce=1)
    with pytest.raises(TypeError, match="takes an irgl.Graph"):
        bfs("karate.mtx")


def test_a_graph_the_program_cannot_read(cache):
    sssp = irgl.compile(os.path.join(EXAMPLES, "sssp.irgl"), cache_dir=cache)
    with pytest.raises(ValueError, match="int32 edge weights"):
        sssp(irgl.load(KARATE))


def test_diagnostics_come_back_with_their_location(cache, tmp_path):
    bad = tmp_path / "bad.irgl"
    bad.write_text("#include <irgl.h>\nprogram void f(Graph& g) { missing(); }\n")
    with pytest.raises(irgl.CompileError, match=r"bad.irgl:2:28: error: use of undeclared"):
        irgl.compile(bad, cache_dir=cache)
    assert not [name for name in os.listdir(cache) if name.startswith(".build-")]
    with pytest.raises(FileNotFoundError):
        irgl.compile(tmp_path / "absent.irgl", cache_dir=cache)


def test_the_device_is_chosen_when_compiling(cache):
    on_cpu = irgl.compile(os.path.join(EXAMPLES, "bfs.irgl"), cache_dir=cache, device="cpu")
    assert on_cpu.device == "cpu" and repr(on_cpu).endswith("on cpu>")
    expected = "cpu" if irgl.default_device() == "cpu" else "cuda:0"
    assert irgl.compile(os.path.join(EXAMPLES, "bfs.irgl"), cache_dir=cache).device == expected
    with pytest.raises(ValueError, match="use \"cpu\", \"cuda\" or \"cuda:N\""):
        irgl.compile(os.path.join(EXAMPLES, "bfs.irgl"), cache_dir=cache, device="gpu")


def gpu_or_skip():
    why = irgl.devices._unusable_reason(0)
    if why:
        pytest.skip("no usable GPU: %s" % why)


def test_gpu_builds_agree_with_cpu_builds(cache, tmp_path):
    gpu_or_skip()
    source = tmp_path / "degrees.irgl"
    source.write_text(DEGREES)
    on_gpu = irgl.compile(source, cache_dir=cache, device="cuda")
    on_cpu = irgl.compile(source, cache_dir=cache, device="cpu")
    assert on_gpu.device == "cuda:0"
    g = irgl.load(KARATE)
    gpu, cpu = on_gpu(g, threshold=4), on_cpu(g, threshold=4)
    assert np.array_equal(gpu["heavy"], cpu["heavy"])
    assert (gpu["edges"], gpu["largest"]) == (cpu["edges"], cpu["largest"])
    pr = irgl.compile(os.path.join(EXAMPLES, "pr.irgl"), cache_dir=cache, device="cuda")
    assert np.abs(pr(g)["rank"] - irgl.pagerank(g, device="cpu")).sum() < 1e-5


def test_gpu_builds_refuse_what_the_cpu_builds_refuse(cache):
    gpu_or_skip()
    sssp = irgl.compile(os.path.join(EXAMPLES, "sssp.irgl"), cache_dir=cache, device="cuda")
    with pytest.raises(ValueError, match="int32 edge weights"):
        sssp(irgl.load(KARATE))
    cc = irgl.compile(os.path.join(EXAMPLES, "cc.irgl"), cache_dir=cache, device="cuda")
    directed = irgl.from_edges([0, 1], [1, 2])
    with pytest.raises(ValueError, match="symmetric"):
        cc(directed)
    assert not getattr(directed, "_gpu_copies", {})
    with pytest.raises(ValueError, match="source 34 is not a vertex"):
        sssp(irgl.load(KARATE, weights="unit"), source=34)
