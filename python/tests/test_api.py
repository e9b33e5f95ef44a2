"""The Python API: what optimize, Module, passes and check_each do, the
errors they raise, and that the GIL is released while a pipeline runs."""

import threading
import time
from pathlib import Path

import pytest

import ptx_opt

REPO = Path(__file__).resolve().parents[2]
SAXPY = (REPO / "docs/examples/saxpy.ptx").read_text()

CONST = """.version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
.reg .b32 %r<4>;
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [p];
mov.u32 %r1, 6;
mul.lo.s32 %r2, %r1, 7;
st.global.u32 [%rd1], %r2;
ret;
}
"""


def test_optimize_folds_and_prints_ptx():
    out = ptx_opt.optimize(CONST)
    assert ".entry k(" in out
    assert "42" in out and "mul.lo" not in out


def test_optimize_round_trip_is_idempotent():
    once = ptx_opt.optimize(SAXPY, "")
    assert ptx_opt.optimize(once, "") == once
    assert ".entry" in once


def test_optimize_matches_the_cli_pipeline_names():
    out = ptx_opt.optimize(CONST, "const-fold,dce")
    assert "42" in out
    with pytest.raises(ValueError, match="no-such-pass"):
        ptx_opt.optimize(CONST, "no-such-pass")
    with pytest.raises(ValueError, match="invalid target"):
        ptx_opt.optimize(CONST, target="gfx90a")


def test_target_means_what_the_cli_target_means():
    vote = CONST.replace("mul.lo.s32 %r2, %r1, 7;", "vote.ballot.b32 %r2, 1;").replace(
        ".version 7.0", ".version 6.0"
    ).replace(".target sm_80", ".target sm_60")
    # The legalize pass rewrites non-sync vote for a Volta+ target only,
    # and the module is retargeted (.target, and .version raised to 7.8).
    assert "vote.ballot.b32" in ptx_opt.optimize(vote, "legalize")
    out = ptx_opt.optimize(vote, "legalize", target="sm_90")
    assert "vote.sync.ballot.b32" in out
    assert out.startswith(".version 7.8\n.target sm_90\n"), out[:40]
    kept = ptx_opt.optimize(vote, "legalize", target="sm_90", keep_target=True)
    assert "vote.sync.ballot.b32" in kept and ".target sm_60\n" in kept


def test_ptx_error_carries_line_col_and_message():
    bad = CONST.replace("mul.lo.s32 %r2, %r1, 7;", "mul.lo.s32 %r2, %r1;")
    with pytest.raises(ptx_opt.PtxError) as info:
        ptx_opt.optimize(bad)
    e = info.value
    lines = bad.splitlines()
    assert e.line == next(i for i, l in enumerate(lines, 1) if l.startswith("mul.lo"))
    assert e.col >= 1
    assert e.message and e.message in e.rendered
    assert f"<input>:{e.line}:{e.col}: error:" in e.rendered
    assert "^" in e.rendered  # the caret line
    assert str(e).startswith("<input>:")


def test_ptx_error_from_module_parse():
    with pytest.raises(ptx_opt.PtxError) as info:
        ptx_opt.Module.parse(".version 7.0\n.target sm_80\nfrob;\n")
    assert (info.value.line, info.value.col) == (3, 1)


def test_module_parse_functions_run_and_str():
    m = ptx_opt.Module.parse(SAXPY)
    assert m.functions and all(isinstance(n, str) for n in m.functions)
    before = str(m)
    m.run("default<O2>")
    after = str(m)
    assert ".entry" in after
    assert ptx_opt.Module.parse(after).functions == m.functions
    assert "Module" in repr(m)
    with pytest.raises(ValueError):
        m.run("frobnicate")
    assert before.count(".entry") == after.count(".entry")


def test_passes_lists_the_registry():
    names = dict(ptx_opt.passes())
    for p in ["dce", "cse", "set-fold", "lop3-fuse", "lower-vsub2", "default<O2>"]:
        assert p in names
    assert all(names.values())


def test_check_each_reports_what_it_compared():
    v = ptx_opt.check_each(CONST, "default<O2>", launches=8)
    assert v["ok"] and v["error"] is None
    assert v["checks"] > 0 and v["compared"] > 0 and v["drawn"] >= v["compared"]
    with pytest.raises(ptx_opt.PtxError):
        ptx_opt.check_each("garbage")


def _big_module(copies: int) -> str:
    """SAXPY's kernel repeated under distinct names: a few MB of PTX."""
    head, sep, body = SAXPY.partition(".visible .entry")
    assert sep
    parts = [head]
    for i in range(copies):
        parts.append(sep + body.replace("saxpy", f"saxpy_{i}", 1))
    return "".join(parts)


def test_optimize_releases_the_gil():
    """While one thread is inside `optimize`, others keep running Python.

    Not a speed-up measurement (that depends on the machine's load): the
    main thread records when each of its loop iterations runs while a
    worker optimises a few MB; with the GIL held through the call, one gap
    between iterations would span the whole call.
    """
    src = _big_module(16000)
    ptx_opt.optimize(src, threads=1)  # warm up
    results = []
    span = []

    def work():
        t0 = time.perf_counter()
        results.append(ptx_opt.optimize(src, threads=1))
        span.append((t0, time.perf_counter()))

    worker = threading.Thread(target=work)
    ticks = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
    worker.join()
    (start, end) = span[0]
    inside = [t for t in ticks if start <= t <= end]
    assert len(results) == 1 and results[0]
    assert len(inside) > 1, "the main thread never ran during optimize"
    longest = max(b - a for a, b in zip(inside, inside[1:]))
    assert longest < 0.5 * (end - start), (
        f"the main thread stalled {longest:.3f} s of a {end - start:.3f} s call"
    )