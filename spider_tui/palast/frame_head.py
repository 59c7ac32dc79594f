"""The one piece of RFC 6455 §5.2 that the server's and the client's fast frame readers share:
where a frame's payload starts and how long it is (both hand every other case to websockets).
"""

from __future__ import annotations

__all__ = ["frame_head"]


def frame_head(data: bytes, i: int, size: int) -> tuple[int, int] | None:
    """The payload length and the header length (with the mask key, if any) of the frame that
    starts at ``data[i]``; None while its header isn't whole in ``data[:size]``.

    >>> frame_head(bytes([0x81, 0x85]) + b"keys" + b"hello", 0, 11)
    (5, 6)
    >>> frame_head(bytes([0x81, 126, 1]), 0, 3) is None
    True
    """
    n, head = data[i + 1] & 0x7F, 2
    if n == 126:
        if i + 4 > size:
            return None
        n, head = (data[i + 2] << 8) | data[i + 3], 4
    elif n == 127:
        if i + 10 > size:
            return None
        n, head = int.from_bytes(data[i + 2:i + 10], "big"), 10
    if data[i + 1] & 0x80:
        head += 4  # masked (every client's frame; a server's never is)
    return n, head
