# Types of the C extension synagree.io._conlluc (see _conlluc.c).
from typing import Dict, List, Optional, Tuple

def table() -> object: ...
def scan(chunk: str, table: object) -> Tuple[
    int, bytes, bytes, bytes, bytes, int, bytes, bytes, bytes, List[List[str]],
    List[Dict[str, Optional[str]]], List[List[str]]]: ...

SOURCE_SHA256: str
