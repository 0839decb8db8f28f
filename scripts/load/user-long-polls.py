#!/usr/bin/env python3
"""make load, under signed identities: holds N idle long-polls of the
users of USERS_FILE (scripts/load/seed-users.py), long-poll i as user
i mod the number of users, then makes one change of the first user (a
note pushed to their notebook) and times until that user's long-polls
are answered; the others must stay held.

Usage: user-long-polls.py PORT PID N USERS_FILE
Prints the server's resident memory with the long-polls held, how many
the change woke (players_server_long_poll_wakes_total), how long its
user's long-polls took to be answered, and how many of the others were
answered within a second after that (none, when only the users who may
see a change are woken).
"""
import json
import selectors
import sys
import time
import urllib.request

import wire
import uuid

port, pid, count, users_file = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
with open(users_file) as file:
    users = [line.split() for line in file if line.strip()]
with open(users_file + ".ops") as file:
    ops = file.read().strip()


def get(path, bearer):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Authorization": f"Bearer {bearer}"})
    with urllib.request.urlopen(request) as response:
        return response.read().decode()


def metric(name):
    for line in get("/metrics", ops).splitlines():
        if line.startswith(name + " "):
            return int(float(line.split()[-1]))
    return 0


def main():
    # Each user's cursor now (the load before moved some).
    cursors = [json.loads(get("/v1/sync/rows?limit=1", token))["cursor"] for token, _, _ in users]
    host = f"Host: 127.0.0.1:{port}\r\n"
    polls = []
    for index in range(count):
        token = users[index % len(users)][0]
        polls.append((index % len(users), wire.connect(port,
            f"GET /v1/sync/rows?since={cursors[index % len(users)]}&wait=60 HTTP/1.1\r\n{host}"
            f"Authorization: Bearer {token}\r\n\r\n".encode())))
    deadline = time.monotonic() + 120
    while metric("players_server_long_polls_open") < count and time.monotonic() < deadline:
        time.sleep(0.5)
    held = metric("players_server_long_polls_open")
    rss = wire.rss_mb(pid)
    wakes_before = metric("players_server_long_poll_wakes_total")

    selector = selectors.DefaultSelector()
    for user, sock in polls:
        selector.register(sock, selectors.EVENT_READ, (user, bytearray()))
    token, notebook, _ = users[0]
    body = json.dumps({"protocolVersion": 1, "changes": [{
        "mutationID": str(uuid.uuid4()).upper(), "table": "note", "id": str(uuid.uuid4()).upper(), "operation": "upsert",
        "values": {"notebook": notebook, "title": "Wake", "body": None}}]}).encode()
    start = time.monotonic()
    write = wire.connect(port, f"POST /v1/sync/changes HTTP/1.1\r\n{host}Authorization: Bearer {token}\r\n"
                    f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
    selector.register(write, selectors.EVENT_READ, (None, bytearray()))
    own = sum(1 for user, _ in polls if user == 0)
    answered_own, answered_others, own_done = 0, 0, None
    while True:
        timeout = 120 if own_done is None else max(0, own_done + 1 - time.monotonic())
        events = selector.select(timeout=timeout)
        if not events and own_done is not None:
            break
        for key, _ in events:
            user, data = key.data
            received = key.fileobj.recv(65536)
            if not received:
                raise RuntimeError("the server closed a long-poll's connection before its answer")
            data.extend(received)
            if wire.complete(data) is None:
                continue
            selector.unregister(key.fileobj)
            if user == 0:
                answered_own += 1
                if answered_own == own:
                    own_done = time.monotonic()
            elif user is not None:
                answered_others += 1
    wakes = metric("players_server_long_poll_wakes_total") - wakes_before
    for _, sock in polls:
        sock.close()
    write.close()
    print(json.dumps({
        "long_polls": count, "users": len(users), "held": held, "rss_held_mb": round(rss, 1),
        "woken_by_one_change": wakes, "its_users_long_polls": own,
        "its_users_answered_after_ms": round((own_done - start) * 1000, 1),
        "others_answered_within_1s": answered_others,
    }))


main()
