# Owns: the type stubs of the package etmem (etmem/__init__.py), for type checkers and editors.
# Not: documentation beyond the signatures (the docstrings in __init__.py).
import os
from typing import Any, Dict, List, Literal, Mapping, Optional, Sequence, TypedDict, Union, overload

Program = Union[str, os.PathLike[str], bytes, bytearray, memoryview]
PathLike = Union[str, os.PathLike[str]]
# A built-in board's name, a board file's path, or a board file's JSON as bytes.
BoardSpec = Union[str, os.PathLike[str], bytes, bytearray, memoryview, None]
# Bytes: an int, or a str in the command line's grammar ("4096", "4K", "1M", "0x1000").
Size = Union[int, str]
# "REGION=BYTES", a list of them, or {"REGION": BYTES}.
Reserve = Union[str, Sequence[str], Mapping[str, Union[int, str]], None]

__version__: str

class InvalidProgramError(ValueError): ...
class UnsupportedProgramError(ValueError): ...

class BudgetItem(TypedDict):
    item: str  # "ram" or "flash"
    scope: str
    breakdown: str
    used: int
    limit: int
    lower_bound: bool
    over: bool
    message: Optional[str]

class BudgetResult(TypedDict):
    fits: bool
    items: List[BudgetItem]

# With runtime="all" or target="all" the result is a list of such dicts.
def analyze(
    program: Program,
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["runner", "null", "nonnull"] = "runner",
    pool: Optional[Size] = None,
    external_data: bool = False,
    backends: Optional[Sequence[str]] = None,
    runner: Optional[PathLike] = None,
    *,
    method: Optional[str] = None,
    temp_pool: Optional[Size] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
) -> Any: ...
def report(
    program: Program,
    format: Literal["text", "csv", "md"] = "text",
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["runner", "null", "nonnull"] = "runner",
    pool: Optional[Size] = None,
    external_data: bool = False,
    backends: Optional[Sequence[str]] = None,
    runner: Optional[PathLike] = None,
    *,
    method: Optional[str] = None,
    allocations: bool = False,
    temp_pool: Optional[Size] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
) -> str: ...
def per_op(
    program: Program,
    sort: Literal["index", "live", "temp", "constant", "stack"] = "index",
    format: Literal["json", "text", "csv", "md"] = "json",
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["runner", "null", "nonnull"] = "runner",
    pool: Optional[Size] = None,
    external_data: bool = False,
    backends: Optional[Sequence[str]] = None,
    runner: Optional[PathLike] = None,
    *,
    method: Optional[str] = None,
    temp_pool: Optional[Size] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
) -> Any: ...
def summary(
    program: Program,
    format: Literal["json", "text"] = "json",
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["runner", "null", "nonnull"] = "runner",
    pool: Optional[Size] = None,
    external_data: bool = False,
    backends: Optional[Sequence[str]] = None,
    runner: Optional[PathLike] = None,
    *,
    method: Optional[str] = None,
    temp_pool: Optional[Size] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
) -> Any: ...
def check_budget(
    program: Program,
    budget: Union[str, Mapping[str, Union[int, str]], None] = None,
    *,
    budget_file: Optional[PathLike] = None,
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["runner", "null", "nonnull"] = "runner",
    pool: Optional[Size] = None,
    external_data: bool = False,
    backends: Optional[Sequence[str]] = None,
    runner: Optional[PathLike] = None,
    method: Optional[str] = None,
    temp_pool: Optional[Size] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
) -> BudgetResult: ...
def header(
    program: Program,
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["runner", "null", "nonnull"] = "runner",
    external_data: bool = False,
    backends: Optional[Sequence[str]] = None,
    runner: Optional[PathLike] = None,
    *,
    margin: Union[str, int, None] = None,
    define_pools: bool = False,
    section: Optional[str] = None,
    method: Optional[str] = None,
    temp_pool: Optional[Size] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
    board: BoardSpec = None,
    reserve: Reserve = None,
) -> str: ...
@overload
def plan(
    program: Program,
    method: Optional[str] = None,
    alignment: Size = 16,
    format: Literal["json"] = "json",
    columns: int = 64,
    *,
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["runner", "null", "nonnull"] = "runner",
    external_data: bool = False,
    backends: Optional[Sequence[str]] = None,
    runner: Optional[PathLike] = None,
    temp_pool: Optional[Size] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
    board: BoardSpec = None,
    reserve: Reserve = None,
) -> Dict[str, Any]: ...
@overload
def plan(
    program: Program,
    method: Optional[str] = None,
    alignment: Size = 16,
    *,
    format: Literal["text", "html"],
    columns: int = 64,
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["runner", "null", "nonnull"] = "runner",
    external_data: bool = False,
    backends: Optional[Sequence[str]] = None,
    runner: Optional[PathLike] = None,
    temp_pool: Optional[Size] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
    board: BoardSpec = None,
    reserve: Reserve = None,
) -> str: ...
def fit(
    program: Program,
    board: Union[str, os.PathLike[str], bytes, bytearray, memoryview],
    *,
    reserve: Reserve = None,
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["runner", "null", "nonnull"] = "runner",
    external_data: bool = False,
    backends: Optional[Sequence[str]] = None,
    runner: Optional[PathLike] = None,
    method: Optional[str] = None,
    temp_pool: Optional[Size] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
    fitted_program: bool = False,
) -> Dict[str, Any]: ...
def firmware(
    image: Program,
    program: Optional[PathLike] = None,
    *,
    runtime: str,
    target: Optional[PathLike] = None,
    runner: Optional[PathLike] = None,
    method: Optional[str] = None,
    temp: Literal["runner", "null", "nonnull"] = "runner",
    kernels: Union[str, Sequence[str], None] = None,
    board: BoardSpec = None,
    components: bool = True,
    format: Literal["json", "text"] = "json",
    name: str = "<firmware bytes>",
) -> Any: ...  # format "json": Dict[str, Any]; "text": str
def boards() -> List[str]: ...
def replan(program: Program, alignment: Size = 16) -> bytes: ...
def releases() -> List[str]: ...
def runners() -> List[str]: ...
def targets() -> List[str]: ...
