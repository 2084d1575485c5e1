#!/usr/bin/env python3
"""Zero the CUDA fat-binary payloads that a given GPU architecture cannot use.

Usage: fatbin_slim.py [--arch 90] [--dry-run] DIR_OR_FILE...

Every shared library (*.so, *.so.N...) under the given paths is scanned for
CUDA fat-binary containers.  Inside each container the payload of every entry
the target architecture does not need is overwritten with zero bytes.  No
offset, size or header is changed, so the ELF file stays valid and the zeros
compress to almost nothing (the point: ship cuGraph's wheels for one GPU).

Which entries are kept, per container (arch = --arch, default 90):
  * the container has an ELF (cubin) entry for `arch`:
        keep every ELF entry for `arch` (sm_90 and sm_90a both carry 90),
        zero all other ELF entries and all PTX entries;
  * otherwise: keep the PTX entry with the highest arch <= `arch` (the one
        the driver would JIT for this GPU), zero everything else.  A
        container with neither is unusable on this GPU anyway; all zeroed.

Layout relied on (little-endian), see the report / sources:
  container header, 16 bytes (NVIDIA's fatbinary.h, struct fatBinaryHeader):
     +0 u32 magic 0xBA55ED50   +4 u16 version (1)   +6 u16 headerSize (16)
     +8 u64 fatSize = bytes of entries that follow the header
  entry header ("fat text header"), at least 64 bytes:
     +0 u16 kind (1 = PTX, 2 = ELF/cubin, others seen: 0x10 ELF alt, 0x40)
     +2 u16 (unknown, usually 0x0101)
     +4 u32 header size of this entry (64, 80, 112 ...)
     +8 u64 payload size (bytes after the entry header up to the next entry,
            8-byte aligned)
    +16 u32 compressed / real data size   +20 u32 options offset
    +24 u16 minor, u16 major (code version)
    +28 u32 arch (SM number, e.g. 90)
  next entry = entry + header size + payload size; the entries exactly fill
  fatSize.
Sources: NVIDIA fatbinary.h (CUDA include dir, fatBinaryHeader);
  github.com/GrigoryEvko/nvopen-tools fatbin/FORMAT_SPECIFICATION.md
  (entry layout, traversal), and independent public parsers with the same
  field offsets (a Kaitai "fatbin" spec: kind u2, unknown u2, header_size u4,
  size u8, compressed_size u4, unknown u4, minor u2, major u2, arch u4).

Zeroing: the whole payload of a dropped entry becomes zero bytes.  If the
entry is zstd-compressed (flags bit 15 set, payload starts 28 B5 2F FD; as in
all CUDA 13 wheels looked at), a tiny zstd frame of RLE blocks that
decompresses to the entry's uncompressed size (u64 at +56) of zero bytes is
written at the start of the zeroed payload and the u32 data size at +16 is set
to its length.  Tools that decompress every entry (cuobjdump --list-elf does)
then still work; the driver never selects those entries on an sm_90 GPU.
Entry flags seen: +40 u64, 0x8000 compressed, 0x100000 on sm_90a cubins.

Candidates: the whole file is searched for the magic.  A hit whose header is
not (version 1, headerSize 16, fits in the file) is ignored when it lies
outside the .nv_fatbin section (random bytes), and is an error inside it.  A
hit with a valid header whose entries do not parse exactly is an error.

On any error nothing is modified (all files are parsed before any is
written); each file is rewritten through a temporary file and rename.
Exit status: 0 ok, 1 parse failure (nothing written), 2 usage.
"""
import argparse
import mmap
import os
import struct
import sys
import tempfile

MAGIC = b"\x50\xed\x55\xba"  # 0xBA55ED50 little-endian
KIND_PTX = 1
ELF_KINDS = (2, 0x10)


ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
FLAG_COMPRESSED = 0x8000   # entry flags (u64 at +40), bit 15: payload compressed


class ParseError(Exception):
    pass


def stub_elf(arch):
    """A 208-byte empty CUDA cubin: ELF header, a .shstrtab and two section
    headers (null, .shstrtab); lets tools that validate every entry
    (cuobjdump) accept a dropped one."""
    ident = b"\x7fELF" + bytes([2, 1, 1, 0x41, 8]) + bytes(7)
    ehdr = ident + struct.pack("<HHIQQQIHHHHHH", 2, 190, 1, 0, 0, 80,
                               (arch & 0xFF) << 8, 64, 56, 0, 64, 2, 1)
    strtab = b"\0.shstrtab\0".ljust(16, b"\0")
    shdr = bytes(64) + struct.pack("<IIQQQQIIQQ", 1, 3, 0, 0, 64, 11, 0, 0, 1, 0)
    return ehdr + strtab + shdr


def zstd_zero_frame(n, head=b""):
    """A zstd frame (RFC 8878) that decompresses to `head` followed by zero
    bytes, n bytes in all: frame header with single-segment flag and an 8-byte
    content size, one raw block holding `head`, then RLE blocks of at most
    128 KiB (4 bytes each)."""
    out = bytearray(ZSTD_MAGIC)
    out.append(0xE0)                      # FCS flag 3 (8 bytes), single segment
    out += struct.pack("<Q", n)
    if len(head) > n:
        head = b""
    if n == 0:
        out += (1 | (0 << 1)).to_bytes(3, "little")   # last, raw, size 0
        return bytes(out)
    if head:
        n -= len(head)
        out += ((1 if n == 0 else 0) | (0 << 1) | (len(head) << 3)).to_bytes(3, "little")
        out += head
    while n > 0:
        k = min(n, 128 * 1024)
        n -= k
        hdr = (1 if n == 0 else 0) | (1 << 1) | (k << 3)   # RLE block
        out += hdr.to_bytes(3, "little") + b"\0"
    return bytes(out)


def nv_fatbin_range(mm):
    """(start, end) file range of the .nv_fatbin section, or None."""
    if mm[:4] != b"\x7fELF" or mm[4] != 2 or mm[5] != 1:
        return None
    e_shoff, = struct.unpack_from("<Q", mm, 0x28)
    e_shentsize, e_shnum, e_shstrndx = struct.unpack_from("<HHH", mm, 0x3A)
    if e_shoff == 0 or e_shnum == 0 or e_shoff + e_shnum * e_shentsize > len(mm):
        return None
    def sh(i):
        return struct.unpack_from("<IIQQQQIIQQ", mm, e_shoff + i * e_shentsize)
    stroff = sh(e_shstrndx)[4]
    for i in range(e_shnum):
        name, typ, _f, _a, off, size = sh(i)[:6]
        end = mm.find(b"\0", stroff + name)
        if mm[stroff + name:end] == b".nv_fatbin" and typ != 8:  # not NOBITS
            return (off, off + size)
    return None


def parse_container(mm, pos, arch):
    """Return (end, entries, zero, kept_bytes, kept_ptx_bytes); raises ParseError."""
    n = len(mm)
    version, hsize, fatsize = struct.unpack_from("<HHQ", mm, pos + 4)
    end = pos + hsize + fatsize
    if version != 1 or hsize != 16 or end > n:
        raise ParseError("bad container header at 0x%x (version %d, headerSize %d, fatSize %d)"
                         % (pos, version, hsize, fatsize))
    entries = []
    p = pos + hsize
    while p < end:
        if p + 64 > end:
            raise ParseError("truncated entry header at 0x%x in container 0x%x" % (p, pos))
        kind, _u, ehs, psize = struct.unpack_from("<HHIQ", mm, p)
        earch, = struct.unpack_from("<I", mm, p + 28)
        if ehs < 64 or ehs > 4096 or p + ehs + psize > end:
            raise ParseError("bad entry at 0x%x in container 0x%x (kind %d, header %d, payload %d)"
                             % (p, pos, kind, ehs, psize))
        entries.append((kind, earch, p + ehs, psize, p))
        p += ehs + psize
    if p != end:
        raise ParseError("entries overrun container 0x%x" % pos)
    has_cubin = any(e[0] in ELF_KINDS and e[1] == arch for e in entries)
    keep = set()
    if has_cubin:
        keep = {i for i, e in enumerate(entries) if e[0] in ELF_KINDS and e[1] == arch}
    else:
        ptx = [(e[1], i) for i, e in enumerate(entries) if e[0] == KIND_PTX and e[1] <= arch]
        if ptx:
            keep = {max(ptx)[1]}
    # zero: (payload offset, payload size, filler bytes written at the payload
    # start, header offset of the u32 data-size field to set to len(filler))
    zero = []
    for i, (_k, _a, o, s, h) in enumerate(entries):
        if i in keep or s == 0:
            continue
        flags, = struct.unpack_from("<Q", mm, h + 40)
        usize, = struct.unpack_from("<Q", mm, h + 56)
        csize, = struct.unpack_from("<I", mm, h + 16)
        if flags & FLAG_COMPRESSED and mm[o:o + 4] == ZSTD_MAGIC and csize <= s:
            fr = zstd_zero_frame(usize, stub_elf(_a) if _k in ELF_KINDS else b"")
            if len(fr) <= s:
                zero.append((o, s, fr, h + 16))
                continue
        zero.append((o, s, b"", None))
    kept = sum(e[3] for i, e in enumerate(entries) if i in keep)
    kept_ptx = sum(e[3] for i, e in enumerate(entries) if i in keep and e[0] == KIND_PTX)
    return end, entries, zero, kept, kept_ptx


def plan_file(path, arch):
    """Parse one file; return dict with zero ranges and statistics."""
    st = {"path": path, "containers": 0, "entries": 0, "kept": 0, "zeroed": 0,
          "ignored_hits": 0, "kept_ptx": 0, "zero": [], "size": os.path.getsize(path),
          "no_target": 0}
    if st["size"] == 0:
        return st
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        sect = nv_fatbin_range(mm)
        pos = mm.find(MAGIC)
        while pos != -1:
            in_sect = sect is not None and sect[0] <= pos < sect[1]
            ok_hdr = (pos + 16 <= len(mm)
                      and struct.unpack_from("<HH", mm, pos + 4) == (1, 16)
                      and pos + 16 + struct.unpack_from("<Q", mm, pos + 8)[0] <= len(mm))
            if not ok_hdr and not in_sect:
                st["ignored_hits"] += 1
                pos = mm.find(MAGIC, pos + 1)
                continue
            end, entries, zero, kept, kept_ptx = parse_container(mm, pos, arch)
            st["kept_ptx"] += kept_ptx
            st["containers"] += 1
            st["entries"] += len(entries)
            st["kept"] += kept
            st["zeroed"] += sum(z[1] for z in zero)
            if kept == 0:
                st["no_target"] += 1
            st["zero"].extend(zero)
            pos = mm.find(MAGIC, end)
    return st


def apply_file(st):
    path = st["path"]
    d = os.path.dirname(path) or "."
    mode = os.stat(path).st_mode
    fd, tmp = tempfile.mkstemp(prefix=".fatbin_slim.", dir=d)
    try:
        with os.fdopen(fd, "r+b") as out, open(path, "rb") as src:
            while True:
                buf = src.read(1 << 24)
                if not buf:
                    break
                out.write(buf)
            chunk = bytes(1 << 20)
            for off, size, filler, size_field in st["zero"]:
                out.seek(off)
                while size > 0:
                    k = min(size, len(chunk))
                    out.write(chunk[:k])
                    size -= k
                if filler:
                    out.seek(off)
                    out.write(filler)
                    out.seek(size_field)
                    out.write(struct.pack("<I", len(filler)))
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def is_shared_lib(name):
    return name.endswith(".so") or ".so." in name


def collect(paths):
    out = []
    for p in paths:
        if os.path.isfile(p) and not os.path.islink(p):
            out.append(p)
            continue
        for root, _dirs, files in os.walk(p):
            for fn in files:
                fp = os.path.join(root, fn)
                if is_shared_lib(fn) and not os.path.islink(fp):
                    out.append(fp)
    return sorted(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("paths", nargs="+", help="directories (searched for *.so*) or files")
    ap.add_argument("--arch", type=int, default=90, help="SM architecture to keep (default 90)")
    ap.add_argument("--dry-run", action="store_true", help="parse and report, write nothing")
    a = ap.parse_args()
    files = collect(a.paths)
    plans = []
    bad = 0
    for fp in files:
        try:
            plans.append(plan_file(fp, a.arch))
        except (ParseError, struct.error, ValueError) as e:
            print("ERROR %s: %s" % (fp, e), file=sys.stderr)
            bad += 1
    if bad:
        print("fatbin_slim: %d file(s) could not be parsed; nothing was modified" % bad,
              file=sys.stderr)
        return 1
    tot_k = tot_z = 0
    print("%12s %12s %12s %6s %6s %5s  %s" % ("kept_B", "of_it_PTX_B", "zeroed_B", "cont",
                                             "entr", "none", "library"))
    for st in plans:
        if st["containers"] == 0:
            continue
        tot_k += st["kept"]
        tot_z += st["zeroed"]
        print("%12d %12d %12d %6d %6d %5d  %s%s" % (st["kept"], st["kept_ptx"], st["zeroed"],
              st["containers"],
              st["entries"], st["no_target"], st["path"],
              ("  (ignored %d stray magic)" % st["ignored_hits"]) if st["ignored_hits"] else ""))
    print("%12d %12s %12d  TOTAL over %d libraries with fatbins (of %d scanned)%s"
          % (tot_k, "", tot_z, sum(1 for s in plans if s["containers"]), len(plans),
             " [dry run]" if a.dry_run else ""))
    if not a.dry_run:
        for st in plans:
            if st["zero"]:
                apply_file(st)
    return 0


if __name__ == "__main__":
    sys.exit(main())
