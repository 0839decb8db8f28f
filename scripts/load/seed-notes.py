#!/usr/bin/env python3
"""make load: seeds a players-server that serves Notes' declaration
(players-server --schema) with NOTEBOOKS notebooks and NOTES notes, pushed
as a device pushes them (POST /v1/sync/changes, 500 changes a batch), and
prints the cursor of the state they make and the id of the first notebook.

    seed-notes.py PORT NOTEBOOKS NOTES
"""
import json
import sys
import urllib.request
import uuid

port, notebooks, notes = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
base = f"http://127.0.0.1:{port}"


def push(changes):
    body = json.dumps({"protocolVersion": 1, "changes": changes}).encode()
    request = urllib.request.Request(f"{base}/v1/sync/changes", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        answer = json.load(response)
    refused = [result for result in answer["results"] if result["status"] != "applied"]
    if refused:
        sys.exit(f"seed-notes: the server refused {len(refused)} changes, the first: {refused[0]}")


def upserts(table, rows):
    return [{"mutationID": str(uuid.uuid4()).upper(), "table": table, "id": row_id, "operation": "upsert",
             "values": values} for row_id, values in rows]


books = [str(uuid.uuid4()).upper() for _ in range(notebooks)]
rows = [(book, {"name": f"Notebook {index}"}) for index, book in enumerate(books)]
rows_of_notes = [(str(uuid.uuid4()).upper(),
                  {"notebook": books[index % notebooks], "title": f"Note {index}", "body": "A body of some seventy characters, as a short note has. " + str(index)})
                 for index in range(notes)]
changes = upserts("notebook", rows) + upserts("note", rows_of_notes)
for start in range(0, len(changes), 500):
    push(changes[start:start + 500])
with urllib.request.urlopen(f"{base}/v1/sync/rows?limit=1") as response:
    print(json.load(response)["cursor"], books[0])
