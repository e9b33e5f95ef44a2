from ._native import (
    CheckVerdict as CheckVerdict,
    Module as Module,
    PtxError as PtxError,
    __version__ as __version__,
    check_each as check_each,
    optimize as optimize,
    passes as passes,
)
