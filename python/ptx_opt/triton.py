"""Run ptx-opt on every kernel Triton compiles, between its PTX and ptxas.

    import ptx_opt.triton
    ptx_opt.triton.install()                      # default<O2>
    ptx_opt.triton.install("lop3-fuse,dce", dump_dir="ptx-dump", on_error="keep")
    ptx_opt.triton.uninstall()

Triton 3.9 has one slot for this, ``triton.knobs.runtime.add_stages_inspection_hook``,
called two ways: with no arguments for the cache key (it returns ``(key, hash)``,
and the key goes into the on-disk cache key, so a different pipeline is a
different cache entry), and with ``(backend, stages, options, language,
capability)`` on a cache miss, to change ``stages`` in place. ``install``
wraps ``stages["ptx"]``; it chains to a hook already in the slot (its key
and its stage changes come first) and ``uninstall`` puts that hook back.
"""

from __future__ import annotations

import hashlib
import os
import re
import warnings
from typing import Any, Callable, List, Optional

from . import __version__, optimize

__all__ = ["install", "uninstall", "installed", "PtxOptHook"]


class PtxOptHook:
    """The stages hook :func:`install` puts in Triton's slot."""

    def __init__(
        self,
        passes: str,
        target: Optional[str],
        dump_dir: Optional[str],
        on_error: str,
        previous: Optional[Callable[..., Any]],
    ):
        if on_error not in ("raise", "keep"):
            raise ValueError(f"on_error must be 'raise' or 'keep', not {on_error!r}")
        # A bad pipeline or target fails here, not in the middle of a compile.
        optimize(_PROBE, passes, target)
        self.passes = passes
        self.target = target
        self.dump_dir = dump_dir
        self.on_error = on_error
        self.previous = previous
        #: Names of the kernels whose PTX went through ptx-opt, in order.
        self.kernels: List[str] = []
        #: Names of the kernels whose PTX ptx-opt could not process (kept as
        #: Triton wrote it, under ``on_error="keep"``).
        self.failed: List[str] = []

    def key(self) -> str:
        """What goes into Triton's cache key for this hook."""
        return f"ptx-opt-{__version__}[{self.passes}][{self.target or ''}]"

    def __call__(self, *args: Any) -> Any:
        if not args:
            key = self.key()
            if self.previous is not None:
                prev_key, prev_hash = self.previous()
                key = f"{prev_key}{key}"
                return key, hashlib.sha256(f"{prev_hash}{key}".encode()).hexdigest()
            return key, hashlib.sha256(key.encode()).hexdigest()
        if self.previous is not None:
            self.previous(*args)
        stages = args[1]
        inner = stages.get("ptx")
        if inner is None:
            return None

        def ptx_stage(src: Any, metadata: dict) -> str:
            ptx = inner(src, metadata)
            name = metadata.get("name") or _entry_name(ptx) or "kernel"
            try:
                out = optimize(ptx, self.passes, self.target)
            except Exception as e:  # PtxError, RuntimeError
                if self.on_error != "keep":
                    raise RuntimeError(f"ptx-opt failed on Triton kernel '{name}': {e}") from e
                warnings.warn(
                    f"ptx-opt failed on Triton kernel '{name}', keeping Triton's PTX: {e}",
                    RuntimeWarning,
                    stacklevel=2,
                )
                self.failed.append(name)
                out = ptx
            else:
                self.kernels.append(name)
            if self.dump_dir is not None:
                os.makedirs(self.dump_dir, exist_ok=True)
                stem = os.path.join(self.dump_dir, _safe(name))
                with open(f"{stem}.before.ptx", "w") as f:
                    f.write(ptx)
                with open(f"{stem}.after.ptx", "w") as f:
                    f.write(out)
            return out

        stages["ptx"] = ptx_stage
        return None


def install(
    passes: str = "default<O2>",
    *,
    target: Optional[str] = None,
    dump_dir: Optional[str] = None,
    on_error: str = "raise",
) -> PtxOptHook:
    """Put ptx-opt in Triton's stages hook and return the hook.

    ``passes`` and ``target`` mean what ``ptx_opt.optimize`` takes;
    ``dump_dir`` receives ``NAME.before.ptx`` and ``NAME.after.ptx`` per
    kernel compiled; ``on_error="keep"`` warns and keeps Triton's own PTX
    where ptx-opt fails, instead of raising (the error names the kernel).
    Installing again replaces the earlier ptx-opt hook, still chaining to
    whatever was there before it.
    """
    knobs = _knobs()
    previous = knobs.runtime.add_stages_inspection_hook
    if isinstance(previous, PtxOptHook):
        previous = previous.previous
    hook = PtxOptHook(passes, target, dump_dir, on_error, previous)
    knobs.runtime.add_stages_inspection_hook = hook
    return hook


def uninstall() -> None:
    """Take the ptx-opt hook out, putting back the hook it chained to."""
    knobs = _knobs()
    current = knobs.runtime.add_stages_inspection_hook
    if isinstance(current, PtxOptHook):
        knobs.runtime.add_stages_inspection_hook = current.previous


def installed() -> Optional[PtxOptHook]:
    """The ptx-opt hook in Triton's slot, if any."""
    current = _knobs().runtime.add_stages_inspection_hook
    return current if isinstance(current, PtxOptHook) else None


def _knobs() -> Any:
    try:
        from triton import knobs
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ImportError("ptx_opt.triton needs Triton 3.9 or newer (pip install triton)") from e
    if not hasattr(knobs.runtime, "add_stages_inspection_hook"):
        raise ImportError("this Triton has no runtime.add_stages_inspection_hook (needs 3.9+)")
    return knobs


def _entry_name(ptx: str) -> Optional[str]:
    m = re.search(r"\.entry\s+([A-Za-z_$][\w$]*)", ptx)
    return m.group(1) if m else None


def _safe(name: str) -> str:
    return re.sub(r"[^\w.-]", "_", name)


# A minimal module for checking a pipeline and target at install time.
_PROBE = """.version 7.0
.target sm_80
.address_size 64
.visible .entry probe(.param .u64 p)
{
.reg .b32 %r<2>;
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [p];
mov.u32 %r1, 1;
st.global.u32 [%rd1], %r1;
ret;
}
"""
