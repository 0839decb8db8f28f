"""make load: what the long-poll clients share (long-polls.py,
user-long-polls.py): the server's resident memory, a connection that sends
its request at once, and whether a response arrived whole."""
import socket


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def connect(port, request):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(request)
    sock.setblocking(False)
    return sock


def complete(response):
    """The status line of a whole HTTP response, or None while it is not."""
    head, separator, body = response.partition(b"\r\n\r\n")
    if not separator:
        return None
    lines = head.split(b"\r\n")
    length = next(int(line.split(b":", 1)[1]) for line in lines if line.lower().startswith(b"content-length:"))
    return lines[0] if len(body) >= length else None
