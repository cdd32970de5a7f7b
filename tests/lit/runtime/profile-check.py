#!/usr/bin/env python3
"""profile-check.py FILE [host]: checks WEFT_PROFILE's JSON of profile.cpp
against its schema (docs/reference.md, "Profile") and its exact counts."""
import json
import sys

doc = json.load(open(sys.argv[1]))
host = len(sys.argv) > 2
FIELDS = {"location": str, "device_calls": int, "host_calls": int,
          "host_reason": (str, type(None)), "device_seconds": (int, float),
          "host_seconds": (int, float), "load_seconds": (int, float),
          "loads": int, "bytes_to_device": int, "bytes_to_host": int,
          "kernel": (str, type(None)), "geometry": (str, type(None)),
          "advice": (str, type(None))}
assert doc["version"] == 1 and doc["clock"] == "host", doc
assert doc["backend"] == ("host" if host else "sim"), doc["backend"]
for loop in doc["loops"]:
    assert set(loop) == set(FIELDS), sorted(loop)
    for key, kind in FIELDS.items():
        assert isinstance(loop[key], kind), (key, loop[key])
axpy, scale = doc["loops"]
assert axpy["location"].endswith("profile.cpp:26:3"), axpy["location"]
assert scale["location"].endswith("profile.cpp:34:3"), scale["location"]
if host:
    assert (axpy["device_calls"], axpy["host_calls"]) == (0, 3), axpy
    assert (scale["device_calls"], scale["host_calls"]) == (0, 3), scale
    assert axpy["bytes_to_device"] == axpy["bytes_to_host"] == 0, axpy
    assert axpy["host_reason"] == "WEFT_BACKEND=host", axpy
else:
    assert (axpy["device_calls"], axpy["host_calls"]) == (3, 0), axpy
    assert (axpy["bytes_to_device"], axpy["bytes_to_host"]) == (24000, 12000), axpy
    assert axpy["loads"] == 1 and axpy["kernel"].startswith("weft_profile_L26_"), axpy
    assert "a region around the code that calls it" in axpy["advice"], axpy
    assert scale["advice"] is None, scale
    assert (scale["device_calls"], scale["host_calls"]) == (2, 1), scale
    assert (scale["bytes_to_device"], scale["bytes_to_host"]) == (0, 4000), scale
    assert scale["host_reason"] == "its if clause was false", scale
print("profile OK")
