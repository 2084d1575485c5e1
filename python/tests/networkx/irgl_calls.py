"""A pytest plugin for networkx's own tests run against the irgl backend
(python/tests/networkx/run.sh): counts, per test, the calls irgl answered
and declined (NotImplementedError: networkx then ran its own code), and
prints how the tests that irgl answered ended."""
import collections

import irgl.nx_backend as backend

_answered = collections.Counter()  # test id -> calls irgl answered
_declined = collections.defaultdict(set)  # test id -> why irgl declined
_outcomes = {}
_current = [None]


def _counting(name, function):
    def call(*args, **kwargs):
        try:
            result = function(*args, **kwargs)
        except NotImplementedError as why:
            _declined[_current[0]].add(str(why))
            raise
        _answered[_current[0]] += 1
        return result
    return staticmethod(call)


def pytest_configure(config):
    for name in backend._FUNCTIONS:
        setattr(backend.BackendInterface, name,
                _counting(name, getattr(backend.BackendInterface, name)))


def pytest_runtest_setup(item):
    _current[0] = item.nodeid


def pytest_runtest_logreport(report):
    if report.when == "call" or report.outcome != "passed":
        previous = _outcomes.get(report.nodeid)
        if previous in (None, "passed"):
            _outcomes[report.nodeid] = "xfailed" if hasattr(report, "wasxfail") else report.outcome


def pytest_terminal_summary(terminalreporter):
    answered = collections.Counter(_outcomes.get(test, "?") for test in _answered)
    declined_only = [test for test in _declined if test not in _answered]
    terminalreporter.write_line(
        "irgl backend: %d tests had calls answered by irgl (%s); %d more had every call "
        "declined (networkx answered)" % (
            len(_answered), ", ".join("%d %s" % (n, o) for o, n in sorted(answered.items())),
            len(declined_only)))
    for test in sorted(t for t in _answered if _outcomes.get(t) != "passed"):
        terminalreporter.write_line("  not passed: %s (%s)" % (test, _outcomes.get(test)))
    reasons = collections.Counter(why for test in declined_only for why in _declined[test])
    for why, count in reasons.most_common():
        terminalreporter.write_line("  declined in %d tests: %s" % (count, why))
