"""device=: choosing the CPU or a GPU, refusing what names neither, the
graph's GPU copy kept between calls, and the GPU builds agreeing with the
CPU builds (irglc's reference) on a graph large enough to spread over
many thread blocks."""
import numpy as np
import pytest

import irgl
from irgl import devices


def gpu_or_skip():
    why = devices._unusable_reason(0)
    if why:
        pytest.skip("no usable GPU: %s" % why)


def power_law_edges(scale=13, edge_factor=16, seed=11):
    """An R-MAT-like graph (skewed degrees, a few huge vertices) as arrays."""
    rng = np.random.default_rng(seed)
    count = edge_factor << scale
    sources = np.zeros(count, dtype=np.int64)
    targets = np.zeros(count, dtype=np.int64)
    for bit in range(scale):
        quadrant = rng.choice(4, size=count, p=[0.57, 0.19, 0.19, 0.05])
        sources |= (quadrant >> 1) << bit
        targets |= (quadrant & 1) << bit
    return sources, targets, 1 << scale


@pytest.mark.parametrize("name", ["gpu", "cuda:x", "cuda:-1", "CPU", True, 1.0])
def test_unknown_device_names_are_refused(name):
    with pytest.raises(ValueError, match="use \"cpu\", \"cuda\" or \"cuda:N\""):
        irgl.bfs(irgl.from_edges([0], [1]), device=name)


def test_irgl_device_sets_the_default(monkeypatch):
    monkeypatch.setenv("IRGL_DEVICE", "cpu")
    assert irgl.default_device() == "cpu"
    assert list(irgl.bfs(irgl.from_edges([0], [1]))) == [0, 1]
    monkeypatch.setenv("IRGL_DEVICE", "tpu")
    with pytest.raises(ValueError, match="'tpu' \\(from IRGL_DEVICE\\)"):
        irgl.bfs(irgl.from_edges([0], [1]))


def test_the_default_is_a_usable_gpu_else_the_cpu(monkeypatch):
    monkeypatch.delenv("IRGL_DEVICE", raising=False)
    usable = not devices._unusable_reason(0)
    assert irgl.default_device() == ("cuda" if usable else "cpu")
    assert len(irgl.gpus()) >= (1 if usable else 0)


def test_a_gpu_that_is_not_there_is_refused_saying_why():
    count = devices._cuda.device_count() if devices._cuda else 0
    with pytest.raises(ValueError, match="device 'cuda:%d': " % (count + 3)):
        irgl.bfs(irgl.from_edges([0], [1]), device="cuda:%d" % (count + 3))


def test_the_gpu_copy_is_kept_and_grows_in_edges_when_needed():
    gpu_or_skip()
    g = irgl.from_edges([0, 1, 2], [1, 2, 0])
    irgl.bfs(g, device="cuda")
    first = g._gpu_copies[0]
    assert not first.has_in_edges
    irgl.connected_components(irgl.from_edges([0, 1], [1, 0]), device=0)
    irgl.bfs(g, device="cuda:0")
    assert g._gpu_copies[0] is first
    irgl.pagerank(g, device="cuda")  # reads in-edges: uploaded again, with them
    assert g._gpu_copies[0] is not first and g._gpu_copies[0].has_in_edges
    second = g._gpu_copies[0]
    irgl.bfs(g, device="cuda")
    assert g._gpu_copies[0] is second
    g.drop_gpu_copies()
    assert not g._gpu_copies
    assert list(irgl.bfs(g, device="cuda")) == [0, 1, 2]


def test_a_refused_graph_is_never_uploaded():
    gpu_or_skip()
    g = irgl.from_edges([0], [1])
    with pytest.raises(ValueError, match="symmetric"):
        irgl.connected_components(g, device="cuda")
    assert not getattr(g, "_gpu_copies", {})


def test_gpu_builds_agree_with_the_cpu_builds():
    gpu_or_skip()
    sources, targets, n = power_law_edges()
    directed = irgl.from_edges(sources, targets, num_vertices=n, weight_rule="hash:100")
    simple = irgl.from_edges(sources, targets, num_vertices=n, simple=True)
    hub = int(np.argmax(np.diff(directed.indptr.astype(np.int64))))
    for call in (lambda d: irgl.bfs(directed, hub, device=d),
                 lambda d: irgl.sssp(directed, hub, device=d),
                 lambda d: irgl.connected_components(simple, device=d),
                 lambda d: irgl.strongly_connected_components(directed, device=d),
                 lambda d: irgl.kcore(simple, 8, device=d),
                 lambda d: irgl.triangles(simple, device=d)):
        assert np.array_equal(call("cpu"), call("cuda"))
    cpu_ranks = irgl.pagerank(directed, device="cpu")
    gpu_ranks = irgl.pagerank(directed, device="cuda")
    assert np.abs(cpu_ranks - gpu_ranks).sum() < 1e-4
    independent = irgl.maximal_independent_set(simple, device="cuda")
    colors = irgl.coloring(simple, device="cuda")
    row = np.repeat(np.arange(n), np.diff(simple.indptr.astype(np.int64)))
    column = simple.indices
    assert not (independent[row] & independent[column]).any()
    assert (independent | np.bincount(row[independent[column]], minlength=n).astype(bool)).all()
    assert (colors[row] != colors[column]).all()


def test_calls_from_threads_get_their_own_answers(device):
    """A program's vertex data are file-scope in the generated code: calls
    of one program from several threads (the GIL is released while they
    run) take turns; calls of different programs run at once and share the
    runtime's pools (idle worklists, recorded outputs), which must keep
    them apart."""
    from concurrent.futures import ThreadPoolExecutor
    graphs = []
    for n in (500, 2000, 5000, 9000):
        rng = np.random.default_rng(n)
        sources, targets = rng.integers(0, n, 8 * n), rng.integers(0, n, 8 * n)
        graphs.append(irgl.from_edges(sources, targets, num_vertices=n, weight_rule="hash:50"))
    programs = [lambda g: irgl.bfs(g, 1, device=device),
                lambda g: irgl.sssp(g, 1, device=device),
                lambda g: irgl.strongly_connected_components(g, device=device)]
    expected = [[program(g) for g in graphs] for program in programs]
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda i: programs[i % 3](graphs[i % 4]), range(96)))
    for i, values in enumerate(answers):
        assert np.array_equal(values, expected[i % 3][i % 4])


def _gpu_array_module():
    for name in ("cupy", "torch"):
        try:
            return __import__(name)
        except ImportError:
            pass
    pytest.skip("neither CuPy nor PyTorch to read a DLPack array on the GPU")


def test_results_can_stay_on_the_gpu():
    gpu_or_skip()
    sources, targets, n = power_law_edges(scale=11)
    directed = irgl.from_edges(sources, targets, num_vertices=n, weight_rule="hash:100")
    simple = irgl.from_edges(sources, targets, num_vertices=n, simple=True)
    calls = [(lambda **kw: irgl.bfs(directed, 1, device="cuda", **kw)),
             (lambda **kw: irgl.sssp(directed, 1, device="cuda", **kw)),
             (lambda **kw: irgl.pagerank(directed, device="cuda", **kw)),
             (lambda **kw: irgl.connected_components(simple, device="cuda", **kw)),
             (lambda **kw: irgl.kcore(simple, 4, device="cuda", **kw)),
             (lambda **kw: irgl.maximal_independent_set(simple, device="cuda", **kw))]
    arrays = _gpu_array_module()
    for call in calls:
        on_gpu = call(result="gpu")
        assert on_gpu.__dlpack_device__() == (2, 0)  # kDLCUDA, GPU 0
        values = arrays.from_dlpack(on_gpu)
        host = values.get() if hasattr(values, "get") else values.cpu().numpy()
        expected = call()
        assert np.array_equal(host.astype(expected.dtype), expected)
    # A result on the GPU is the run's own memory, handed over: later calls,
    # on the host or the GPU, and one that reuses a freed result's memory,
    # leave it alone.
    first = irgl.bfs(directed, 1, device="cuda", result="gpu")
    irgl.bfs(directed, 2, device="cuda")
    second = irgl.bfs(directed, 2, device="cuda", result="gpu")
    del second
    third = irgl.bfs(directed, 3, device="cuda", result="gpu")
    for source, result in ((1, first), (3, third)):
        again = arrays.from_dlpack(result)
        host = again.get() if hasattr(again, "get") else again.cpu().numpy()
        assert np.array_equal(host, irgl.bfs(directed, source, device="cpu"))


@pytest.mark.parametrize("call, message", [
    (lambda: irgl.bfs(irgl.from_edges([0], [1]), device="cpu", result="gpu"), "needs a GPU device"),
    (lambda: irgl.bfs(irgl.from_edges([0], [1]), result="cupy"), "use \"numpy\" or \"gpu\""),
])
def test_result_choices_are_checked(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_calls_alternate_between_gpus():
    """The generated programs keep their vertex data at file scope: a call
    on another GPU must reallocate it there, not reuse the first GPU's."""
    if not devices._cuda or devices._cuda.device_count() < 2 or devices._unusable_reason(1):
        pytest.skip("fewer than two usable GPUs")
    sources, targets, n = power_law_edges(scale=12)
    g = irgl.from_edges(sources, targets, num_vertices=n, weight_rule="hash:100")
    expected = {name: call("cpu") for name, call in (
        ("bfs", lambda d: irgl.bfs(g, 3, device=d)),
        ("sssp", lambda d: irgl.sssp(g, 3, device=d)))}
    # Each launch site keeps a State, an outlined loop's memory, per GPU:
    # pagerank's ALB inspection, bc's two pipe loops on a deep path (DAG
    # reports) and on the power-law graph (levels walked back).
    path = irgl.from_edges(np.arange(99), np.arange(1, 100), symmetrize=True)
    ranks = irgl.pagerank(g, device="cpu")
    centrality = {graph: irgl.betweenness_centrality(graph, range(8), device="cpu")
                  for graph in (g, path)}
    for _ in range(3):
        for gpu in ("cuda:0", "cuda:1"):
            assert np.array_equal(irgl.bfs(g, 3, device=gpu), expected["bfs"])
            assert np.array_equal(irgl.sssp(g, 3, device=gpu), expected["sssp"])
            assert np.abs(irgl.pagerank(g, device=gpu) - ranks).sum() < 1e-4
            for graph, values in centrality.items():
                assert np.allclose(irgl.betweenness_centrality(graph, range(8), device=gpu),
                                   values, rtol=1e-9)
    assert set(g._gpu_copies) == {0, 1}
    on_gpu = irgl.bfs(g, 3, device="cuda:1", result="gpu")
    assert on_gpu.__dlpack_device__() == (2, 1)
