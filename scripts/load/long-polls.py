#!/usr/bin/env python3
"""Holds N idle long-polls on players-server, then wakes them with one write.

The long-polls wait for the players' delta (GET /v1/sync/rows?since=CURSOR
&wait=60&tables=player, as `players sync --watch` asks); the write creates
a player (POST /v1/rows/player).

Usage: long-polls.py PORT PID N
Prints the server's resident memory before and with the long-polls open,
the gauge of /metrics, how long the one write took to answer them all, and
the server's CPU time meanwhile (this client runs on the same cores).

Each long-poll has a connection of its own, kept open after its answer as
a watcher keeps it for its next long-poll: what is timed is the wake, until
the last answer is read whole, not the closing of N connections. The
client is one epoll loop over plain sockets, the write among them, so that
it takes as little as it can of the cores it shares with the server.
"""
import json
import os
import selectors
import sys
import time
import urllib.request

import wire

port, pid, count = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])


def cpu_seconds():
    # utime and stime, fields 14 and 15 of /proc/PID/stat, in clock ticks.
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def get(path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as response:
        return response.read().decode()


def open_polls():
    for line in get("/metrics").splitlines():
        if line.startswith("players_server_long_polls_open"):
            return int(float(line.split()[-1]))
    return -1


def main():
    # The cursor of a snapshot's first page, as a watching players client
    # asks for its table.
    cursor = json.loads(get("/v1/sync/rows?tables=player&limit=1"))["cursor"]
    before = wire.rss_mb(pid)
    host = f"Host: 127.0.0.1:{port}\r\n"
    poll = f"GET /v1/sync/rows?since={cursor}&wait=60&tables=player HTTP/1.1\r\n{host}\r\n".encode()
    polls = [wire.connect(port, poll) for _ in range(count)]
    deadline = time.monotonic() + 120
    while open_polls() < count and time.monotonic() < deadline:
        time.sleep(0.5)
    held = open_polls()
    during = wire.rss_mb(pid)

    selector = selectors.DefaultSelector()
    for sock in polls:
        selector.register(sock, selectors.EVENT_READ, bytearray())
    body = b'{"values":{"name":"Wake","score":1}}'
    cpu_before = cpu_seconds()
    start = time.monotonic()
    write = wire.connect(port, f"POST /v1/rows/player HTTP/1.1\r\n{host}Content-Type: application/json\r\n"
                    f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    selector.register(write, selectors.EVENT_READ, bytearray())
    statuses, last_answer = [], start
    while len(statuses) < count:
        for key, _ in selector.select(timeout=120):
            received = key.fileobj.recv(65536)
            if not received:
                raise RuntimeError("the server closed a long-poll's connection before its answer")
            key.data.extend(received)
            status = wire.complete(key.data)
            if status is None:
                continue
            selector.unregister(key.fileobj)
            if key.fileobj is not write:
                statuses.append(status)
                last_answer = time.monotonic()
    server_cpu = cpu_seconds() - cpu_before
    for sock in polls + [write]:
        sock.close()
    ok = sum(1 for status in statuses if b" 200 " in status)
    print(json.dumps({
        "long_polls": count, "held": held, "answered_200": ok,
        "rss_before_mb": round(before, 1), "rss_held_mb": round(during, 1),
        "kb_per_long_poll": round((during - before) * 1024 / max(held, 1), 1),
        "all_answered_after_write_ms": round((last_answer - start) * 1000, 1),
        # The server's own CPU time meanwhile: this client shares the cores.
        "server_cpu_ms_during_wake": round(server_cpu * 1000, 1),
    }))


main()
