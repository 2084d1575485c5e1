"""Where the package's programs run: on a GPU (irgl._cuda, the programs
irglc writes for CUDA) or on the CPU (irgl._core, their sequential builds).

Every algorithm takes device=: "cpu", "cuda" (GPU 0), "cuda:N", or None,
which is the IRGL_DEVICE environment variable when set, else "cuda" where a
GPU can run the package's kernels, else "cpu". A graph's copy on a GPU is
made by its first call there and kept with the graph
(Graph.drop_gpu_copies() frees it).
"""

import os
import re

from . import _core

try:
    from . import _cuda
except ImportError as error:  # a package built without its GPU module
    _cuda = None
    _IMPORT_ERROR = str(error)

_usable = {}  # GPU number -> "" (usable) or why not, asked once per process


def _unusable_reason(gpu):
    if _cuda is None:
        return "the package has no GPU module (%s)" % _IMPORT_ERROR
    if gpu not in _usable:
        _usable[gpu] = _cuda.unusable_reason(gpu)
    return _usable[gpu]


def gpus():
    """The GPUs the package can run on, one summary line each (name,
    architecture, memory); empty without any."""
    if _cuda is None:
        return []
    return [_cuda.device_summary(gpu) for gpu in range(_cuda.device_count())
            if not _unusable_reason(gpu)]


def default_device():
    """What device=None means now: IRGL_DEVICE, else "cuda" when GPU 0 is
    usable, else "cpu"."""
    chosen = os.environ.get("IRGL_DEVICE")
    if chosen:
        return chosen
    return "cpu" if _unusable_reason(0) else "cuda"


def gpu_of(device):
    """The GPU number device names, or None for the CPU. Refuses an unknown
    name and a GPU the package cannot use, saying why."""
    name = default_device() if device is None else device
    if isinstance(name, int) and not isinstance(name, bool):
        name = "cuda:%d" % name
    if name == "cpu":
        return None
    match = re.fullmatch(r"cuda(?::(\d+))?", name) if isinstance(name, str) else None
    if not match:
        where = " (from IRGL_DEVICE)" if device is None else ""
        raise ValueError("device %r%s: use \"cpu\", \"cuda\" or \"cuda:N\"" % (name, where))
    gpu = int(match.group(1) or 0)
    why = _unusable_reason(gpu)
    if why:
        raise ValueError("device %r: %s" % (name, why))
    return gpu


def gpu_copy(graph, gpu, in_edges):
    """graph's copy on GPU gpu (with its in-edges when in_edges), uploaded
    by the first call that needs it and kept with the graph."""
    copies = getattr(graph, "_gpu_copies", None)
    if copies is None:
        copies = graph._gpu_copies = {}
    copy = copies.get(gpu)
    if copy is None or (in_edges and not copy.has_in_edges):
        if in_edges:
            _core.ensure_transpose(graph)
        copies.pop(gpu, None)  # one copy per GPU: free the old before uploading
        copy = copies[gpu] = _cuda.upload(graph, gpu, in_edges)
    return copy


def checked(graph, key, check):
    """Runs check() (the CPU build's check_graph for the program named by
    key, which raises ValueError where that build would refuse graph) the
    first time graph meets key: the GPU build cannot read the edges to check
    its require(), and graphs do not change."""
    seen = getattr(graph, "_checked", None)
    if seen is None:
        seen = graph._checked = set()
    if key not in seen:
        check()
        seen.add(key)


def drop_gpu_copies(graph):
    """Frees graph's copies on GPUs (the next GPU call uploads it again)."""
    graph._gpu_copies = {}
