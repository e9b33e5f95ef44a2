"""ptx-opt from Python: optimise PTX text between a compiler and ptxas.

    >>> import ptx_opt
    >>> out = ptx_opt.optimize(ptx_text)                    # -O2, the module's target
    >>> out = ptx_opt.optimize(ptx_text, "lop3-fuse,dce", target="sm_90")

``optimize`` means what the ``ptx-opt`` command means: ``passes`` is
``-passes=`` (LLVM's new pass manager syntax), ``target`` is
``--target=``; the size guard is on for ``default<O1>``..``default<O3>``.
Malformed PTX raises :class:`PtxError` (with ``line``, ``col``,
``message`` and the ``rendered`` diagnostic); a bad pipeline or target
raises ``ValueError``. The GIL is released while a pipeline runs.

``ptx_opt.triton.install()`` puts ptx-opt between Triton's PTX and
its ptxas for every kernel Triton compiles.
"""

from ._native import (  # noqa: F401
    Module,
    PtxError,
    __version__,
    check_each,
    optimize,
    passes,
)

__all__ = ["Module", "PtxError", "__version__", "check_each", "optimize", "passes"]
