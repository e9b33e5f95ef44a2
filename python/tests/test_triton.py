"""The Triton hook: every kernel Triton compiles goes through ptx-opt
before ptxas, the cache key follows the pipeline, dump_dir and
on_error="keep" do what they say. Compiles with no GPU (a GPUTarget is
given), so it runs in CI; skipped where Triton is not installed, except
under CI."""

import importlib.util
import os
import sys
import warnings
from pathlib import Path

import pytest

import ptx_opt
from ptx_opt.triton import PtxOptHook

REPO = Path(__file__).resolve().parents[2]
KERNELS = REPO / "corpus/real/src/triton"

try:
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
except ImportError:  # pragma: no cover
    if os.environ.get("CI"):
        raise
    triton = None

needs_triton = pytest.mark.skipif(triton is None, reason="Triton is not installed")


def _load(path):
    sys.dont_write_bytecode = True
    name = "ptx_opt_test_" + path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _specs():
    out = []
    for path in sorted(KERNELS.glob("*.py")):
        for spec in _load(path).KERNELS:
            out.append((f"{path.stem}.{spec.get('name', spec['fn'].__name__)}", spec))
    return out


def _compile(spec, cap):
    fn, sig = spec["fn"], spec["signature"]
    attrs = {}
    for idx, arg in enumerate(fn.arg_names):
        if sig[arg].startswith("*") or arg in spec.get("aligned_ints", ()):
            attrs[(idx,)] = [["tt.divisibility", 16]]
    options = {k: spec[k] for k in ("num_warps", "num_stages") if k in spec}
    src = ASTSource(fn=fn, signature=sig, constexprs=spec.get("constexprs"), attrs=attrs)
    return triton.compile(src, target=GPUTarget("cuda", cap, 32), options=options)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TRITON_DEFAULT_FP_FUSION", "1")
    yield tmp_path
    ptx_opt.triton.uninstall()


@needs_triton
@pytest.mark.parametrize("cap", [80, 90])
def test_every_kernel_goes_through_ptx_opt_to_cubin(cache, cap):
    specs = _specs()
    kinds = " ".join(name for name, _ in specs)
    for kind in ["matmul", "softmax", "layernorm", "reduction", "hash"]:
        assert kind in kinds, kinds
    # Triton's own PTX, without the hook (its own cache entries).
    plain = {name: _compile(spec, cap).asm["ptx"] for name, spec in specs}
    hook = ptx_opt.triton.install("default<O2>", dump_dir=str(cache / "dump"))
    for name, spec in specs:
        k = _compile(spec, cap)
        assert k.asm["cubin"], name
        # What ptxas got is ptx-opt's output for Triton's PTX.
        assert k.asm["ptx"] == ptx_opt.optimize(plain[name], "default<O2>"), name
        assert k.asm["ptx"] != plain[name], name
    assert len(hook.kernels) == len(specs) >= 5
    for kernel in hook.kernels:
        before = cache / "dump" / f"{kernel}.before.ptx"
        after = cache / "dump" / f"{kernel}.after.ptx"
        assert before.read_text() in plain.values()
        assert after.read_text() == ptx_opt.optimize(before.read_text(), "default<O2>")


@needs_triton
def test_cache_key_changes_with_the_pipeline(cache):
    name, spec = next(s for s in _specs() if s[0].startswith("vector_add"))
    hook = ptx_opt.triton.install("default<O2>")
    first = _compile(spec, 80)
    assert len(hook.kernels) == 1
    again = _compile(spec, 80)
    assert again.hash == first.hash and len(hook.kernels) == 1, "a cache hit runs no stage"
    other = ptx_opt.triton.install("dce")
    third = _compile(spec, 80)
    assert third.hash != first.hash
    assert len(other.kernels) == 1, "a new pipeline is a cache miss"
    ptx_opt.triton.uninstall()
    assert ptx_opt.triton.installed() is None
    fourth = _compile(spec, 80)
    assert fourth.hash not in (first.hash, third.hash)


@needs_triton
def test_install_chains_to_an_earlier_hook_and_uninstall_restores_it(cache):
    from triton import knobs

    calls = []

    def earlier(*args):
        calls.append(len(args))
        if not args:
            return "earlier", "0"
        return None

    knobs.runtime.add_stages_inspection_hook = earlier
    try:
        hook = ptx_opt.triton.install()
        assert hook.previous is earlier
        # Installing again replaces ours and still chains to the earlier one.
        hook2 = ptx_opt.triton.install("dce")
        assert hook2.previous is earlier
        key, _ = hook2()
        assert key.startswith("earlier") and "[dce]" in key
        _, spec = next(s for s in _specs() if s[0].startswith("vector_add"))
        _compile(spec, 80)
        assert 5 in calls and 0 in calls
        ptx_opt.triton.uninstall()
        assert knobs.runtime.add_stages_inspection_hook is earlier
    finally:
        knobs.runtime.add_stages_inspection_hook = None


def _stage_through(hook, text):
    stages = {"ptx": lambda src, metadata: text}
    hook(None, stages, None, None, 80)
    return stages["ptx"](None, {"name": "my_kernel"})


def test_on_error_keep_warns_and_keeps_the_ptx(tmp_path):
    hook = PtxOptHook("default<O2>", None, str(tmp_path), "keep", None)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = _stage_through(hook, "not ptx at all")
    assert out == "not ptx at all"
    assert hook.failed == ["my_kernel"] and hook.kernels == []
    assert any("my_kernel" in str(x.message) for x in w)
    assert (tmp_path / "my_kernel.before.ptx").read_text() == "not ptx at all"


def test_on_error_raise_names_the_kernel():
    hook = PtxOptHook("default<O2>", None, None, "raise", None)
    with pytest.raises(RuntimeError, match="my_kernel"):
        _stage_through(hook, "not ptx at all")


def test_bad_pipeline_fails_at_install_time():
    with pytest.raises(ValueError):
        PtxOptHook("no-such-pass", None, None, "raise", None)
    with pytest.raises(ValueError):
        PtxOptHook("dce", None, None, "ignore", None)
