"""Stand-in for CuPy in irglc's tool tests, which run without a GPU: the
"device" arrays are NumPy arrays. It has only what tools/bench/cugraph-run.py
calls (and the stand-in pylibcugraph beside it)."""
import types

import numpy

__version__ = "0+stand-in"


def asarray(a, dtype=None):
    """A copy, as an upload to the device is."""
    return numpy.array(a, dtype=dtype)


def arange(*args, **kwargs):
    return numpy.arange(*args, **kwargs)


def asnumpy(a):
    return numpy.array(a)


def _device_count():
    return 1


def _synchronize():
    pass


cuda = types.SimpleNamespace(runtime=types.SimpleNamespace(
    getDeviceCount=_device_count, deviceSynchronize=_synchronize))
