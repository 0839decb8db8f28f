#!/usr/bin/env python3
"""make load: seeds a players-server of Notes' declaration under signed
identities (--auth jwt, an HS256 key file) with USERS users of ROWS rows
each (a notebook and ROWS - 1 notes, pushed with the user's token as a
device pushes them), then 50 more notes of the first user after its
cursor (the delta workload). Writes one line per user to OUT:
"TOKEN NOTEBOOK CURSOR" (the cursor before the 50 notes, for the first
user), and the token of an operator (role metrics) to OUT.ops.

    seed-users.py PORT KEY_FILE USERS ROWS OUT

The tokens are signed here (HMAC-SHA256 of the standard library) for the
load test alone; the server verifies them with jwt-kit.
"""
import base64
import hashlib
import hmac
import json
import sys
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor

port, key_file, users, rows, out = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
base = f"http://127.0.0.1:{port}"
with open(key_file, "rb") as file:
    secret = file.read()
if secret.endswith(b"\n"):
    secret = secret[:-1]


def encoded(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def token(sub, roles=()):
    header = encoded(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = encoded(json.dumps({"sub": sub, "roles": list(roles), "exp": int(time.time()) + 86_400}).encode())
    signature = hmac.new(secret, f"{header}.{payload}".encode(), hashlib.sha256).digest()
    return f"{header}.{payload}.{encoded(signature)}"


def request(path, bearer, body=None):
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Authorization": f"Bearer {bearer}"}
    if data is not None:
        headers["Content-Type"] = "application/json"
    with urllib.request.urlopen(urllib.request.Request(f"{base}{path}", data=data, headers=headers,
                                                       method="POST" if data else "GET")) as response:
        return json.load(response)


def push(bearer, changes):
    answer = request("/v1/sync/changes", bearer, {"protocolVersion": 1, "changes": changes})
    refused = [result for result in answer["results"] if result["status"] != "applied"]
    if refused:
        sys.exit(f"seed-users: the server refused {len(refused)} changes, the first: {refused[0]}")


def upsert(table, row_id, values):
    return {"mutationID": str(uuid.uuid4()).upper(), "table": table, "id": row_id, "operation": "upsert", "values": values}


def note(notebook, index):
    return upsert("note", str(uuid.uuid4()).upper(), {"notebook": notebook, "title": f"Note {index}",
                                                       "body": "A body of some seventy characters, as a short note has. " + str(index)})


def seed(index):
    bearer = token(f"user{index}")
    notebook = str(uuid.uuid4()).upper()
    push(bearer, [upsert("notebook", notebook, {"name": f"Notebook of user {index}"})]
         + [note(notebook, n) for n in range(rows - 1)])
    return bearer, notebook


with ThreadPoolExecutor(max_workers=4) as pool:
    seeded = list(pool.map(seed, range(users)))
lines = []
for bearer, notebook in seeded:
    lines.append(f"{bearer} {notebook} {request('/v1/sync/rows?limit=1', bearer)['cursor']}")
first_token, first_notebook = seeded[0]
push(first_token, [note(first_notebook, rows + n) for n in range(50)])
with open(out, "w") as file:
    file.write("\n".join(lines) + "\n")
with open(out + ".ops", "w") as file:
    file.write(token("ops", ["metrics"]) + "\n")
