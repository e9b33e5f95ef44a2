from typing import Optional, TypedDict

__version__: str

class PtxError(Exception):
    """Malformed PTX, located: 1-based ``line`` and ``col``."""

    line: int
    col: int
    message: str
    rendered: str

class CheckVerdict(TypedDict):
    ok: bool
    error: Optional[str]
    checks: int
    compared: int
    drawn: int

def optimize(
    ptx: str,
    passes: str = "default<O2>",
    target: Optional[str] = None,
    *,
    size_guard: Optional[bool] = None,
    threads: Optional[int] = None,
    keep_target: bool = False,
) -> str: ...
def check_each(
    ptx: str,
    passes: str = "default<O2>",
    launches: int = 64,
    target: Optional[str] = None,
) -> CheckVerdict: ...
def passes() -> list[tuple[str, str]]: ...

class Module:
    @staticmethod
    def parse(text: str) -> "Module": ...
    @property
    def functions(self) -> list[str]: ...
    def run(self, passes: str, target: Optional[str] = None) -> None: ...
