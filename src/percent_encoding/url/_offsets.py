"""The component offsets of a serialized URL: the one description of their layout.

The C twin's parser (``src/csrc/url.h``, struct ``UrlParts``) writes a URL as its
href (the URL serializer's output, URL Standard §4.5) and nine integers that say
where each component of the URL record (§4.1) lies in it, the design of ada's
``url_components``.  A :class:`~percent_encoding.url.URL` that the C twin built
holds them as ``_parts``; its getters (§6.1) slice the href with them, and
:func:`._record.record_of` turns them back into a record.  Python reads them by
the names below, never by a bare index; ``tests/test_url_offsets.py`` holds these
names, their order and the host kinds to the C struct and enum.

For ``https://user:pass@example.com:8080/a/b?q=1#top``::

    https://user:pass@example.com:8080/a/b?q=1#top
         |      |    |          |    |   |   |
         |      |    |          |    |   |   FRAGMENT_START  42, the "#" (-1: none)
         |      |    |          |    |   QUERY_START         38, the "?" (-1: none)
         |      |    |          |    PATH_START              34
         |      |    |          HOST_END                     29
         |      |    HOST_START                              18
         |      USERNAME_END                                 12, the ":" or "@"
         SCHEME_END                                           5, the ":"

    PORT       8080: the port as a number (-1: none, or the scheme's default)
    HOST_KIND  HOST_DOMAIN (below)

- Without credentials, ``USERNAME_END == HOST_START == SCHEME_END + 3``; with a
  username only, ``USERNAME_END`` is at the "@", ``HOST_START - 1``.
- The password is ``href[USERNAME_END + 1:HOST_START - 1]``.
- The host and port are ``href[HOST_START:PATH_START]``.
- The path runs from ``PATH_START`` to the "?", the "#" or the end.
- Without a host (an opaque path, or ``sc:/a``) the host offsets sit at
  ``PATH_START`` and are empty.
"""

from __future__ import annotations

from typing import Final

# The offsets, in the order of UrlParts' fields.
SCHEME_END: Final = 0
USERNAME_END: Final = 1
HOST_START: Final = 2
HOST_END: Final = 3
PORT: Final = 4
PATH_START: Final = 5
QUERY_START: Final = 6
FRAGMENT_START: Final = 7
HOST_KIND: Final = 8

# UrlParts' field for each offset above, in the same order.
C_FIELDS: Final = ("s_end", "u_end", "h_start", "h_end", "port", "p_start", "q_start",
                   "f_start", "host_kind")

# The host kinds (HOST_KIND), as url.h's enum names them.
HOST_NONE: Final = 0  # no host, and an opaque path ("mailto:a")
HOST_DOMAIN: Final = 1  # a domain, or an opaque host
HOST_IPV4: Final = 2
HOST_IPV6: Final = 3
HOST_EMPTY: Final = 4  # the empty host ("file:///a")
HOST_NULL: Final = 5  # no host, and a list path ("sc:/a")

Parts = tuple[int, int, int, int, int, int, int, int, int]
