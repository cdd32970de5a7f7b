#!/usr/bin/env python3
"""offload-arch-check.py OBJECT EMITDIR ARCH...: every kernel of the object
file (its descriptors written to EMITDIR) holds an image for each ARCH, read
back from the object file: its descriptor's image lines name places in the
loop's source, which follows the descriptor's string in the object's
read-only data; each image decodes to what its architecture needs: a CUDA
ELF (machine 190) for sm_XX, PTX for compute_XX (its .target the
architecture's), an AMD GPU ELF (machine 224) for gfxNNN."""
import base64
import glob
import re
import struct
import sys

obj = open(sys.argv[1], "rb").read()
archs = sys.argv[3:]
descs = sorted(glob.glob(sys.argv[2] + "/*.desc"))
assert descs, "no descriptors in " + sys.argv[2]
checked = 0
for path in descs:
    desc = open(path).read()
    name = re.search(r"^kernel (\S+)", desc, re.M).group(1)
    if desc.encode() not in obj:
        continue  # another object's loop
    # The loop's source: the kernels' text (it begins with the plugin's
    # comment), then the images.
    text_at = obj.index(b"// weft kernel for the loop at", obj.index(desc.encode()))
    images = {}
    for kernel in desc.split("\nalternative\n"):
        for arch, offset, length in re.findall(r"^image (\S+) (\d+) (\d+)$", kernel, re.M):
            raw = obj[text_at + int(offset):text_at + int(offset) + int(length)]
            images.setdefault(arch, []).append(base64.b64decode(raw, validate=True))
    for arch in archs:
        assert arch in images, "%s: no %s image (has %s)" % (name, arch, sorted(images))
        for image in images[arch]:
            if arch.startswith("sm_"):
                assert image[:4] == b"\x7fELF", (name, arch, image[:16])
                assert struct.unpack_from("<H", image, 18)[0] == 190, (name, arch, "not CUDA")
            elif arch.startswith("compute_"):
                ptx = image.decode()
                assert ".target sm_" + arch[8:] in ptx, (name, arch, ptx[:300])
            else:
                assert image[:4] == b"\x7fELF", (name, arch, image[:16])
                assert struct.unpack_from("<H", image, 18)[0] == 224, (name, arch, "not AMDGPU")
            checked += 1
assert checked, "no image checked"
print("offload-arch OK: %d images" % checked)
