# Types of the C extension synagree.io._scanc (see _scanc.c).
from typing import Any, Dict, List, Optional, Tuple

def table() -> object: ...
def scan(text: str, begin: int, end: int, table: object) -> Tuple[
    int, int, bytes, bytes, bytes, bytes, int, bytes, bytes, bytes, List[List[str]],
    List[Dict[str, Optional[str]]], List[List[str]]]: ...
def brackets(text: str, table: object) -> Optional[List[Tuple[int, List[Any]]]]: ...

SOURCE_SHA256: str
