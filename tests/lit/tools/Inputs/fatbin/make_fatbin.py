"""make_fatbin.py OUT [--broken]: a file standing in for a shared library
with one CUDA fat-binary container (tools/bench/fatbin_slim.py's layout):
an sm_80 cubin, an sm_90 cubin and an sm_80 PTX entry, uncompressed, each
payload filled with its own byte (0x80, 0x90, 0x50) between filler bytes.
--broken: the container's size runs past its last entry."""
import struct
import sys


def entry(kind, arch, fill, size=64):
    header = struct.pack("<HHIQIIHHI", kind, 0x0101, 64, size, size, 0, 0, 8, arch)
    return header.ljust(64, b"\0") + bytes([fill]) * size


def main():
    entries = entry(2, 80, 0x80) + entry(2, 90, 0x90) + entry(1, 80, 0x50)
    size = len(entries) + (8 if "--broken" in sys.argv else 0)
    container = struct.pack("<IHHQ", 0xBA55ED50, 1, 16, size) + entries
    with open(sys.argv[1], "wb") as out:
        out.write(b"\x11" * 32 + container + b"\x22" * 32)


main()
