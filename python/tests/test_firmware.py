# Owns: etmem.firmware (the package's client of api::CheckFirmware): a linked Arm image (the Arm
# runner's pool declarations of tests/firmware/runner_pools.cpp, the builder's CNN embedded as
# its model_pte.h, linked here with arm-none-eabi-g++; skipped, saying so, without it) checked
# from a path and from bytes, the dict equal to `etmem firmware --format json`, the text equal to
# its text, and bad input as one line naming it. Not: the checks themselves (tests/firmware/firmware_test.cpp).
import json
import shutil
import subprocess

import pytest

import etmem

from conftest import SOURCE_DIR

FIRMWARE = SOURCE_DIR / "tests" / "firmware"


def link(cnn, directory, method_pool):
    if shutil.which("arm-none-eabi-g++") is None:
        pytest.skip("arm-none-eabi-g++ is not installed: no firmware image to link")
    data = cnn.read_bytes()
    (directory / "model_pte.h").write_text(
        '__attribute__((section("network_model_sec"), aligned(16))) unsigned char model_pte[] = {'
        + ",".join(str(b) for b in data) + "};\n")
    elf = directory / f"app_{method_pool}.elf"
    subprocess.run(
        ["arm-none-eabi-g++", "-mcpu=cortex-m4", "-mthumb", "-O2", "-ffreestanding",
         "-fno-exceptions", "-fno-rtti", "-nostdlib", "-DRUNNER_ARM_BAREMETAL",
         f"-DMETHOD_POOL_BYTES={method_pool}", "-DTEMP_POOL_BYTES=2048", f"-I{directory}",
         str(FIRMWARE / "runner_pools.cpp"), "-T", str(FIRMWARE / "firmware.ld"),
         "-Wl,--defsym=POOL_SKIP=0x100", "-o", str(elf)], check=True, capture_output=True)
    return elf


def cli(etmem_binary, *args):
    return subprocess.run([str(etmem_binary), *map(str, args)], capture_output=True, text=True)


def test_a_pool_too_small_from_a_path_and_from_bytes(cnn, tmp_path, etmem_binary):
    elf = link(cnn, tmp_path, 32768)
    r = etmem.firmware(elf, runtime="1.4.1")
    assert r["fits"] is False
    method = r["methods"][0]["pools"][0]
    assert (method["symbol"], method["bytes"], method["address"], method["align"]) == (
        "method_allocation_pool", 32768, 0x60000100, 256)
    assert (method["needed"], method["short"]) == (36080, 3312)
    assert method["log"][0] == ("Memory allocation failed: 33168B requested (adjusted for "
                                "alignment), 32768B available")
    temp = r["methods"][0]["pools"][1]
    assert temp["id"] == "temp" and temp["needed"] == max(temp["load_peak"], temp["run_peak"])
    assert r["programs"][0]["name"] == "model_pte"
    assert r["components"]["flash_total"] == r["components"]["section_flash_bytes"]
    # The RAM total of the ExecuTorch part: a line per part with its source, the stack's from the
    # stack section (the image's call graph) when it has an entry, else said not computed.
    (ram,) = r["ram"]
    lines = {line["what"]: line for line in ram["lines"]}
    assert lines["pool method (method_allocation_pool)"]["bytes"] == 32768
    assert lines["stack"]["bytes"] == ram["stack_bytes"]
    if ram["stack_bytes"] is None:
        assert lines["stack"]["unknown"].startswith("not computed")
    if any(line["bytes"] is None for line in ram["lines"]):
        assert ram["complete"] is False
    assert ram["known_bytes"] == sum(line["bytes"] for line in ram["lines"]
                                     if line["bytes"] is not None and not line["inside"])
    # Exactly what the command line prints.
    want = cli(etmem_binary, "firmware", elf, "--runtime", "1.4.1", "--format", "json")
    assert want.returncode == 1
    assert r == json.loads(want.stdout)
    assert etmem.firmware(str(elf), runtime="1.4.1", format="text") == cli(
        etmem_binary, "firmware", elf, "--runtime", "1.4.1").stdout
    # From bytes (bytes, bytearray, memoryview), named as asked.
    data = elf.read_bytes()
    for b in (data, bytearray(data), memoryview(data)):
        from_bytes = etmem.firmware(b, runtime="1.4.1", name=str(elf))
        assert from_bytes == r


def test_a_pool_that_fits_and_the_options(cnn, tmp_path):
    elf = link(cnn, tmp_path, 36080)
    r = etmem.firmware(elf, runtime="1.4.1", components=False)
    assert r["fits"] is True
    assert r["methods"][0]["pools"][0]["spare"] == 0
    assert "components" not in r
    forced = etmem.firmware(elf, runtime="1.4.1", runner="zephyr-hello")
    assert forced["assumptions"]["runner"] == "zephyr-hello"
    assert forced["assumptions"]["runner_source"] == "--runner"
    on_board = etmem.firmware(elf, runtime="1.4.1", board="corstone-300")
    assert [g["name"] for g in on_board["components"]["regions"]] == ["DTCM", "SRAM", "DDR"]
    assert all(g["size"] is not None for g in on_board["components"]["regions"])


def test_bad_input_is_one_line_naming_it(cnn, tmp_path):
    elf = link(cnn, tmp_path, 32768)
    with pytest.raises(ValueError) as e:
        etmem.firmware(elf.read_bytes()[:200], runtime="1.4.1", name="cut.elf")
    assert str(e.value).startswith("cut.elf") and "\n" not in str(e.value)
    with pytest.raises(ValueError) as e:
        etmem.firmware(elf, runtime="")
    assert "pass runtime VERSION" in str(e.value) and str(e.value).startswith(str(elf))
    with pytest.raises(OSError) as e:
        etmem.firmware(tmp_path / "absent.elf", runtime="1.4.1")
    assert "absent.elf" in str(e.value)
    with pytest.raises(TypeError) as e:
        etmem.firmware(12, runtime="1.4.1")
    assert "image" in str(e.value)
    with pytest.raises(ValueError) as e:
        etmem.firmware(elf, runtime="1.4.1", format="csv")
    assert "format csv" in str(e.value)
    with pytest.raises(TypeError):
        etmem.firmware(elf)  # runtime is required: an image does not show its release
