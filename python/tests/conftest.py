"""The device every algorithm test runs on: the CPU, and GPU 0 where the
package can use one (elsewhere those cases are skipped, saying why)."""
import pytest

from irgl import devices


@pytest.fixture(params=["cpu", "cuda"])
def device(request):
    if request.param == "cuda":
        why = devices._unusable_reason(0)
        if why:
            pytest.skip("no usable GPU: %s" % why)
    return request.param
