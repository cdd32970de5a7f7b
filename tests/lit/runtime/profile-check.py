#!/usr/bin/env python3
"""profile-check.py FILE [host|nohost]: checks WEFT_PROFILE's JSON of
profile.cpp against its schema (docs/reference.md, "Profile") and its exact
counts: on the simulator with the host trial (the default), without it
(nohost), and on the host."""
import json
import sys

doc = json.load(open(sys.argv[1]))
mode = sys.argv[2] if len(sys.argv) > 2 else "sim"
NUMBER = (int, float)
FIELDS = {"location": str, "function": (str, type(None)),
          "device_calls": int, "host_calls": int, "trial_calls": int,
          "host_reason": (str, type(None)), "device_seconds": NUMBER,
          "host_seconds": NUMBER, "kernel_seconds": NUMBER,
          "kernels_timed": int, "kernel_bytes": int,
          "bandwidth_fraction": (int, float, type(None)),
          "host_loop_seconds": NUMBER, "host_loops_timed": int,
          "load_seconds": NUMBER, "loads": int, "cached_loads": int,
          "bytes_to_device": int, "bytes_to_host": int,
          "repeated": (dict, type(None)),
          "kernel": (str, type(None)), "mapping": (str, type(None)),
          "geometry": (str, type(None)),
          "advice": list}
REPEATED = {"data": list, "bytes_per_call": int, "calls": int, "between": list}
assert doc["version"] == 2 and doc["clock"] == "host", doc
assert set(doc) == {"version", "backend", "clock", "kernel_clock",
                    "memory_bytes_per_second", "loops"}, sorted(doc)
assert doc["backend"] == ("host" if mode == "host" else "sim"), doc["backend"]
assert doc["kernel_clock"] == "host", doc  # the simulator's, and the host's
assert doc["memory_bytes_per_second"] is None, doc
for loop in doc["loops"]:
    assert set(loop) == set(FIELDS), sorted(loop)
    for key, kind in FIELDS.items():
        assert isinstance(loop[key], kind), (key, loop[key])
    if loop["repeated"] is not None:
        assert set(loop["repeated"]) == set(REPEATED), loop["repeated"]
        for key, kind in REPEATED.items():
            assert isinstance(loop["repeated"][key], kind), (key, loop)
    assert all(isinstance(a, str) for a in loop["advice"]), loop["advice"]
    assert loop["bandwidth_fraction"] is None, loop
axpy, scale = doc["loops"]
assert axpy["location"].endswith("profile.cpp:33:3"), axpy["location"]
assert scale["location"].endswith("profile.cpp:41:3"), scale["location"]
assert (axpy["function"], scale["function"]) == ("axpy", "scale"), axpy
if mode == "host":
    assert (axpy["device_calls"], axpy["host_calls"]) == (0, 3), axpy
    assert (scale["device_calls"], scale["host_calls"]) == (0, 3), scale
    assert axpy["bytes_to_device"] == axpy["bytes_to_host"] == 0, axpy
    assert axpy["host_reason"] == "WEFT_BACKEND=host", axpy
    assert axpy["host_loops_timed"] == 3 and axpy["kernels_timed"] == 0, axpy
    assert axpy["repeated"] is None and axpy["advice"] == [], axpy
else:
    trial = mode == "sim"
    launched = 2 if trial else 3
    assert (axpy["device_calls"], axpy["host_calls"]) == (launched, 3 - launched), axpy
    assert (axpy["bytes_to_device"], axpy["bytes_to_host"]) == (
        8000 * launched, 4000 * launched), axpy
    # Each launch's kernel timed, over 4000 bytes of x read and 4000 of y
    # read and written.
    assert axpy["kernels_timed"] == launched, axpy
    assert axpy["kernel_bytes"] == 12000 * launched, axpy
    assert axpy["host_loops_timed"] == 3 - launched, axpy
    assert axpy["trial_calls"] == 3 - launched, axpy
    if trial:
        assert axpy["host_reason"] == "WEFT_PROFILE timed its host loop on this call", axpy
    assert axpy["loads"] == 1 and axpy["kernel"].startswith("weft_profile_L33_"), axpy
    assert axpy["mapping"] == "level 0 x 256 Span(1)", axpy
    rep = axpy["repeated"]
    assert sorted(rep["data"]) == ["'x'", "'y'"], rep
    assert (rep["calls"], rep["bytes_per_call"], rep["between"]) == (launched, 12000, []), rep
    assert "a region that holds them" in axpy["advice"][0], axpy
    # Whether the host loop beat the launches depends on the clock; without
    # the trial nothing compares them.
    if not trial:
        assert not any("runs faster on the host" in a for a in axpy["advice"]), axpy
    assert scale["repeated"] is None, scale
    assert (scale["device_calls"], scale["host_calls"]) == (2, 1), scale
    assert (scale["bytes_to_device"], scale["bytes_to_host"]) == (0, 4000), scale
    assert scale["host_reason"] == "its if clause was false", scale
    assert scale["kernels_timed"] == 2 and scale["host_loops_timed"] == 1, scale
print("profile OK")
