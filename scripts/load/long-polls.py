#!/usr/bin/env python3
"""Holds N idle long-polls on players-server, then wakes them with one write.

Usage: long-polls.py PORT PID N
Prints the server's resident memory before and with the long-polls open,
the gauge of /metrics, how long the one write took to answer them all, and
the server's CPU time meanwhile (this client runs on the same cores).
"""
import asyncio
import json
import os
import sys
import time
import urllib.request

port, pid, count = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])


def rss_mb():
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


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


async def poll(cursor, answered):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /v1/players?since={cursor}&wait=60 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    await writer.drain()
    status = await reader.readline()
    answered.append(time.monotonic())
    writer.close()
    return status


async def main():
    cursor = json.loads(get("/v1/players?limit=1"))["cursor"]
    before = rss_mb()
    answered = []
    tasks = [asyncio.create_task(poll(cursor, answered)) for _ in range(count)]
    deadline = time.monotonic() + 120
    while open_polls() < count and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
    held = open_polls()
    during = rss_mb()
    cpu_before = cpu_seconds()
    start = time.monotonic()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/players", data=b'{"name":"Wake","score":1}',
                                     headers={"Content-Type": "application/json"}, method="POST")
    urllib.request.urlopen(request).read()
    statuses = await asyncio.gather(*tasks)
    server_cpu = cpu_seconds() - cpu_before
    ok = sum(1 for status in statuses if b" 200 " in status)
    print(json.dumps({
        "long_polls": count, "held": held, "answered_200": ok,
        "rss_before_mb": round(before, 1), "rss_held_mb": round(during, 1),
        "kb_per_long_poll": round((during - before) * 1024 / max(held, 1), 1),
        "all_answered_after_write_ms": round((max(answered) - start) * 1000, 1),
        # The server's own CPU time meanwhile: this client shares the cores.
        "server_cpu_ms_during_wake": round(server_cpu * 1000, 1),
    }))


asyncio.run(main())
