"""What the url package hands its sibling modules, and the one place they take it from.

``arrow`` drives the URL columns (the Python side of the C Arrow drivers, in
:mod:`._columns`) and ``idna`` runs UTS #46 processing (:mod:`._idna`); neither is the
public API of :mod:`percent_encoding.url`, so they are re-exported here rather than from
its ``__init__``, and no sibling imports a private module of url directly.

Specs: the URL Standard §4.4 (the parser behind the columns) and UTS #46 §4 (processing).
"""

from __future__ import annotations

from ._columns import COMPONENTS as COMPONENTS
from ._columns import check_chunk as check_chunk
from ._columns import chunk_values as chunk_values
from ._columns import malformed_array_error as malformed_array_error
from ._columns import url_can_parse as url_can_parse
from ._columns import url_component as url_component
from ._columns import url_parse as url_parse
from ._idna import IDNAError as IDNAError
from ._idna import ascii_labels as ascii_labels
from ._idna import uts46_map as uts46_map
from ._idna import uts46_process as uts46_process
