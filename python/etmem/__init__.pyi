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
    # model options; positional
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["null", "nonnull", "runner"] = "runner",
    pool: Optional[Size] = None,
    external_data: Union[bool, PathLike, bytes] = False,
    backends: Optional[Union[str, Sequence[str]]] = None,
    runner: Optional[PathLike] = None,
    *,
    temp_pool: Optional[Size] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
    method: Optional[str] = None,
    # end model options
) -> Any: ...
def report(
    program: Program,
    format: Literal["text", "csv", "md"] = "text",
    # model options; positional
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["null", "nonnull", "runner"] = "runner",
    pool: Optional[Size] = None,
    external_data: Union[bool, PathLike, bytes] = False,
    backends: Optional[Union[str, Sequence[str]]] = None,
    runner: Optional[PathLike] = None,
    *,
    temp_pool: Optional[Size] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
    method: Optional[str] = None,
    # end model options
    allocations: bool = False,
) -> str: ...
def per_op(
    program: Program,
    sort: Literal["index", "live", "temp", "constant", "stack"] = "index",
    format: Literal["json", "text", "csv", "md"] = "json",
    # model options; positional
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["null", "nonnull", "runner"] = "runner",
    pool: Optional[Size] = None,
    external_data: Union[bool, PathLike, bytes] = False,
    backends: Optional[Union[str, Sequence[str]]] = None,
    runner: Optional[PathLike] = None,
    *,
    temp_pool: Optional[Size] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
    method: Optional[str] = None,
    # end model options
) -> Any: ...
def summary(
    program: Program,
    format: Literal["json", "text"] = "json",
    # model options; positional
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["null", "nonnull", "runner"] = "runner",
    pool: Optional[Size] = None,
    external_data: Union[bool, PathLike, bytes] = False,
    backends: Optional[Union[str, Sequence[str]]] = None,
    runner: Optional[PathLike] = None,
    *,
    temp_pool: Optional[Size] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
    method: Optional[str] = None,
    # end model options
) -> Any: ...
def check_budget(
    program: Program,
    budget: Union[str, Mapping[str, Union[int, str]], None] = None,
    *,
    budget_file: Optional[PathLike] = None,
    # model options
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["null", "nonnull", "runner"] = "runner",
    temp_pool: Optional[Size] = None,
    external_data: Union[bool, PathLike, bytes] = False,
    backends: Optional[Union[str, Sequence[str]]] = None,
    runner: Optional[PathLike] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
    pool: Optional[Size] = None,
    method: Optional[str] = None,
    # end model options
) -> BudgetResult: ...
def header(
    program: Program,
    # model options; positional; without pool
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["null", "nonnull", "runner"] = "runner",
    external_data: Union[bool, PathLike, bytes] = False,
    backends: Optional[Union[str, Sequence[str]]] = None,
    runner: Optional[PathLike] = None,
    *,
    temp_pool: Optional[Size] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
    method: Optional[str] = None,
    # end model options
    margin: Union[str, int, None] = None,
    define_pools: bool = False,
    section: Optional[str] = None,
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
    # model options; without pool method
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["null", "nonnull", "runner"] = "runner",
    temp_pool: Optional[Size] = None,
    external_data: Union[bool, PathLike, bytes] = False,
    backends: Optional[Union[str, Sequence[str]]] = None,
    runner: Optional[PathLike] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
    # end model options
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
    # model options; without pool method
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["null", "nonnull", "runner"] = "runner",
    temp_pool: Optional[Size] = None,
    external_data: Union[bool, PathLike, bytes] = False,
    backends: Optional[Union[str, Sequence[str]]] = None,
    runner: Optional[PathLike] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
    # end model options
    board: BoardSpec = None,
    reserve: Reserve = None,
) -> str: ...
def fit(
    program: Program,
    board: Union[str, os.PathLike[str], bytes, bytearray, memoryview],
    *,
    reserve: Reserve = None,
    # model options; without pool
    runtime: Optional[str] = None,
    target: PathLike = "cortex-m",
    pool_align: Optional[Size] = None,
    temp: Literal["null", "nonnull", "runner"] = "runner",
    temp_pool: Optional[Size] = None,
    external_data: Union[bool, PathLike, bytes] = False,
    backends: Optional[Union[str, Sequence[str]]] = None,
    runner: Optional[PathLike] = None,
    kernels: Optional[Union[str, Sequence[str]]] = None,
    method: Optional[str] = None,
    # end model options
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
