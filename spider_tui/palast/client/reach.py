"""Why nothing answers at a Palast's address, in a sentence of our own (issue 33 item 8).

The operating system's words ("[Errno 111] Connect call failed ('127.0.0.1', 8765)", "Name or
service not known") are English, name a socket tuple, and mean little to a player: they never
reach the screen or the command line.  The common causes get a translated sentence each; any
other socket error gets one plain translated line.  Used by the app's sign-in
(``session._unreachable``) and by ``spider league`` and ``spider bots``: ``why``.
"""

from __future__ import annotations

import errno
import socket
import ssl
from urllib.parse import urlsplit

from spider_tui.i18n import N_, _, language
from spider_tui.palast import messages as m

#: errno → what it means for the player (each shown through _()).
BY_ERRNO: dict[int, str] = {
    errno.ECONNREFUSED: N_("Can't reach {url}: nothing answers there."),
    errno.ETIMEDOUT: N_("Can't reach {url}: no answer."),
    errno.EHOSTUNREACH: N_("Can't reach {url}: that computer can't be reached from here."),
    errno.ENETUNREACH: N_("Can't reach {url}: no network connection to it."),
    errno.EHOSTDOWN: N_("Can't reach {url}: that computer can't be reached from here."),
    errno.ENETDOWN: N_("Can't reach {url}: no network connection to it."),
    errno.ECONNRESET: N_("{url} cut the connection at once (is it a Palast?)."),
    errno.ECONNABORTED: N_("{url} cut the connection at once (is it a Palast?)."),
    errno.EPIPE: N_("{url} cut the connection at once (is it a Palast?)."),
    errno.EADDRNOTAVAIL: N_("{url} is not an address this computer can connect to."),
    errno.EACCES: N_("Can't reach {url}: this computer doesn't allow the connection."),
    errno.EPERM: N_("Can't reach {url}: this computer doesn't allow the connection."),
}
#: A host name that doesn't resolve.
NO_SUCH_HOST = N_("Can't reach {url}: no computer is called {host}.")
#: wss:// whose TLS fails (a certificate that can't be checked, or a server that speaks no TLS).
TLS_FAILED = N_("Can't reach {url}: the secure connection (wss://) failed.")
#: Every other socket error.
OTHER = N_("Can't reach {url}: the connection failed.")


def _errno_of(e: OSError) -> int | None:
    if e.errno is not None:
        return e.errno
    # asyncio's "Multiple exceptions: [Errno 111] Connect call failed (...), ..." (several
    # addresses for one name, each refused) carries no errno of its own.
    text = str(e)
    if "Multiple exceptions" in text and "Connect call failed" in text:
        return errno.ECONNREFUSED
    return None


def connect_failed(url: str, e: OSError) -> str:
    """One translated line for a socket error while connecting to ``url``; never the OS's text."""
    if isinstance(e, ssl.SSLError) or isinstance(e, ssl.CertificateError):
        return _(TLS_FAILED).format(url=url)
    if isinstance(e, socket.gaierror):
        host = urlsplit(url).hostname or url
        return _(NO_SUCH_HOST).format(url=url, host=host)
    if isinstance(e, ConnectionRefusedError):
        return _(BY_ERRNO[errno.ECONNREFUSED]).format(url=url)
    text = BY_ERRNO.get(_errno_of(e) or -1)
    return _(text if text is not None else OTHER).format(url=url)


def why(url: str, e: BaseException) -> tuple[str, m.Code | None]:
    """Why nothing usable answered at ``url``, one translated line, and its code:
    ``Code.UNREACHABLE`` when nothing answered at all (refused, no answer, no such host),
    ``Code.TOO_MANY`` for the server's limits, else None (it answered, but not as a Palast)."""
    from websockets.exceptions import InvalidHandshake, InvalidStatus, InvalidURI

    from spider_tui.safe_text import visible

    if isinstance(e, InvalidURI):
        return _("{url} is not a server address (ws://host:port).").format(url=url), None
    if isinstance(e, InvalidStatus) and e.response.status_code in (429, 503) and e.response.body:
        # the server's limits: it says why in one line ("The server is full; …")
        from spider_tui.palast.reasons import in_language  # said by the server before any hello: in English

        body = visible(in_language(e.response.body.decode("utf-8", "replace").strip(), language()), newlines=False)
        return (body if len(body) <= 200 else body[:199] + "…"), m.Code.TOO_MANY
    if isinstance(e, InvalidHandshake):
        return _("{url} is not a Palast server.").format(url=url), None
    if isinstance(e, TimeoutError):  # asyncio.TimeoutError is TimeoutError on Python 3.11
        return _(BY_ERRNO[errno.ETIMEDOUT]).format(url=url), m.Code.UNREACHABLE
    if isinstance(e, OSError):
        return connect_failed(url, e), m.Code.UNREACHABLE
    return _(OTHER).format(url=url), m.Code.UNREACHABLE
