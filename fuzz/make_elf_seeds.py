#!/usr/bin/env python3
"""Owns: making the ELF fuzz target's regression seeds (fuzz/regressions/elf/) from small linked
images: tests/firmware/runner_pools.cpp linked with a builder program (etmem-examples writes
them) by arm-none-eabi-g++ (and riscv64-unknown-elf-g++ when present), then damaged the ways
issue 23 names: truncated, overlapping sections, a huge section, a bad string table, a program
that spans its section's end, bad Arm attributes.

    fuzz/make_elf_seeds.py PROGRAM.pte OUTDIR
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = os.path.join(HERE, "..", "tests", "firmware")


def link(compiler, arch, runner, program, out):
    d = tempfile.mkdtemp()
    data = open(program, "rb").read()
    decl = ('__attribute__((section("network_model_sec"), aligned(16))) unsigned char model_pte[] = {'
            if runner == "RUNNER_ARM_BAREMETAL" else "alignas(16) static const unsigned char model_pte[] = {")
    with open(os.path.join(d, "model_pte.h"), "w") as f:
        f.write(decl + ",".join(str(b) for b in data) + "};\n")
    subprocess.check_call([compiler] + arch.split() + [
        "-O2", "-ffreestanding", "-fno-exceptions", "-fno-rtti", "-nostdlib", "-D" + runner,
        "-DMETHOD_POOL_BYTES=1024", "-DTEMP_POOL_BYTES=256", "-I" + d,
        os.path.join(SOURCES, "runner_pools.cpp"), "-T", os.path.join(SOURCES, "firmware.ld"),
        "-Wl,--defsym=POOL_SKIP=16", "-o", out])
    shutil.rmtree(d)


def sections(b):
    shoff, = struct.unpack_from("<I", b, 32)
    shnum, shstrndx = struct.unpack_from("<HH", b, 48)
    out = []
    for i in range(shnum):
        out.append((shoff + 40 * i,) + struct.unpack_from("<10I", b, shoff + 40 * i))
    strtab = out[shstrndx]
    names = []
    for s in out:
        off = strtab[5] + s[1]
        names.append(b[off:b.index(b"\0", off)].decode())
    return out, names


def main():
    program, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    arm = os.path.join(outdir, "arm_baremetal.elf")
    link("arm-none-eabi-g++", "-mcpu=cortex-m4 -mthumb", "RUNNER_ARM_BAREMETAL", program, arm)
    if shutil.which("riscv64-unknown-elf-g++"):
        link("riscv64-unknown-elf-g++", "-march=rv32imac -mabi=ilp32", "RUNNER_ESPRESSIF", program,
             os.path.join(outdir, "espressif_riscv32.elf"))
    good = bytearray(open(arm, "rb").read())
    secs, names = sections(good)

    def write(name, b):
        open(os.path.join(outdir, name), "wb").write(bytes(b))

    write("truncated_half.elf", good[:len(good) // 2])
    write("truncated_header.elf", good[:40])
    idx = {n: i for i, n in enumerate(names)}
    ddr, text = secs[idx[".ddr"]], secs[idx[".text"]]
    b = bytearray(good)  # .text's file bytes overlap .ddr's
    struct.pack_into("<I", b, text[0] + 16, ddr[5])
    write("overlapping_sections.elf", b)
    b = bytearray(good)  # .ddr 4 GiB - 1 long
    struct.pack_into("<I", b, ddr[0] + 20, 0xFFFFFFFF)
    write("huge_section.elf", b)
    b = bytearray(good)  # a section name past the name table's end
    struct.pack_into("<I", b, ddr[0], 0x7FFFFFFF)
    write("bad_section_name.elf", b)
    b = bytearray(good)  # the symbol string table points past the file
    strtab = secs[idx[".strtab"]]
    struct.pack_into("<I", b, strtab[0] + 16, len(good) - 4)
    write("bad_string_table.elf", b)
    b = bytearray(good)  # model_pte's size runs past .ddr's end
    symtab = secs[idx[".symtab"]]
    for i in range(symtab[6] // 16):
        at = symtab[5] + 16 * i
        name_off, value, size = struct.unpack_from("<III", b, at)
        off = strtab[5] + name_off
        if b[off:b.index(b"\0", off)] == b"model_pte":
            struct.pack_into("<I", b, at + 8, size + 4096)
    write("program_spans_section_end.elf", b)
    b = bytearray(good)  # .ARM.attributes with a subsection length past its end
    attrs = secs[idx[".ARM.attributes"]]
    struct.pack_into("<I", b, attrs[5] + 1, 0x7FFFFFFF)
    write("bad_arm_attributes.elf", b)
    b = bytearray(good)  # a LOAD segment whose file bytes run past the file
    phoff, = struct.unpack_from("<I", b, 28)
    struct.pack_into("<I", b, phoff + 16, 0x7FFFFFFF)
    write("segment_past_file.elf", b)


if __name__ == "__main__":
    main()
