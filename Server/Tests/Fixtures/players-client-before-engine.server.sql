-- The players-server database (the engine's store, plaintext) that players-client-before-engine.sql synced with, as it was when that client stopped: Dora's sent edit applied (version 6), its answer kept. Dumped with the sqlcipher shell's .dump.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE sync_server_schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
INSERT INTO "sync_server_schema_version" VALUES(1,3);
CREATE TABLE sync_server_counter (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    value INTEGER NOT NULL,
    floor INTEGER NOT NULL);
INSERT INTO "sync_server_counter" VALUES(1,6,0);
CREATE TABLE sync_server_row (
    table_name TEXT NOT NULL,
    id TEXT NOT NULL,
    version INTEGER NOT NULL UNIQUE,
    row_values TEXT,
    column_versions TEXT,
    deleted_at REAL,
    PRIMARY KEY (table_name, id),
    CHECK ((row_values IS NULL) = (deleted_at IS NOT NULL))
) WITHOUT ROWID;
INSERT INTO "sync_server_row" VALUES('player','00000000-0000-4000-8000-000000000001',1,'{"name":"Arthur","score":100}','{"name":1,"score":1}',NULL);
INSERT INTO "sync_server_row" VALUES('player','00000000-0000-4000-8000-000000000002',5,'{"name":"Barbara | Zoé","score":250}','{"name":2,"score":5}',NULL);
INSERT INTO "sync_server_row" VALUES('player','00000000-0000-4000-8000-000000000003',3,'{"name":"Cédric","score":300}','{"name":3,"score":3}',NULL);
INSERT INTO "sync_server_row" VALUES('player','00000000-0000-4000-8000-000000000004',6,'{"name":"Dora","score":450}','{"name":4,"score":6}',NULL);
CREATE TABLE sync_server_reference (
    table_name TEXT NOT NULL,
    id TEXT NOT NULL,
    column_name TEXT NOT NULL,
    parent_table TEXT NOT NULL,
    parent_id TEXT NOT NULL,
    PRIMARY KEY (table_name, id, column_name)
) WITHOUT ROWID;
CREATE TABLE sync_server_answer (
    mutation_id BLOB PRIMARY KEY,
    table_name TEXT NOT NULL,
    row_id TEXT NOT NULL,
    operation TEXT NOT NULL,
    status TEXT NOT NULL,
    version INTEGER,
    server_values TEXT,
    answered_at REAL NOT NULL);
INSERT INTO "sync_server_answer" VALUES(X'AFEB984A541F43C6836C6348563273B1','player','00000000-0000-4000-8000-000000000001','upsert','applied',1,NULL,1.79583808695601963995e+09);
INSERT INTO "sync_server_answer" VALUES(X'2BC257FE50524393A0A08BC2E6D2B9BF','player','00000000-0000-4000-8000-000000000002','upsert','applied',2,NULL,1.79583808695601963995e+09);
INSERT INTO "sync_server_answer" VALUES(X'07B88A707D9F4E1590C2BF6BDCED4C6B','player','00000000-0000-4000-8000-000000000003','upsert','applied',3,NULL,1.79583808695601963995e+09);
INSERT INTO "sync_server_answer" VALUES(X'F27D8FD6A2854220AB324DCC2A0A3154','player','00000000-0000-4000-8000-000000000004','upsert','applied',4,NULL,1.79583808695601963995e+09);
INSERT INTO "sync_server_answer" VALUES(X'BBA283248F9649DDA1905AB7B6F3F7B4','player','00000000-0000-4000-8000-000000000002','upsert','applied',5,NULL,1.79583808701799631114e+09);
INSERT INTO "sync_server_answer" VALUES(X'BD9BFDB00CDB4B2EAF26C68B95579B8E','player','00000000-0000-4000-8000-000000000002','upsert','conflict',5,'{"name":"Barbara | Zoé","score":250}',1.79583808704747414594e+09);
INSERT INTO "sync_server_answer" VALUES(X'71A08C9AC8604546A4B94E5B8D7153C7','player','00000000-0000-4000-8000-000000000004','upsert','applied',6,NULL,1.79583808707111120222e+09);
CREATE TABLE sync_server_identity (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    server TEXT NOT NULL, is_backup_copy INTEGER NOT NULL DEFAULT 0);
INSERT INTO "sync_server_identity" VALUES(1,'36617EB2-B950-414F-9428-0CB4E2EC8CA7',0);
CREATE TABLE sync_server_epoch (
    position INTEGER PRIMARY KEY,
    epoch TEXT NOT NULL UNIQUE,
    start INTEGER NOT NULL);
INSERT INTO "sync_server_epoch" VALUES(1,'62f56f577caf7345',0);
CREATE TABLE sync_server_digest (
    table_name TEXT PRIMARY KEY,
    columns TEXT,
    row_count INTEGER NOT NULL,
    checksum INTEGER NOT NULL);
INSERT INTO "sync_server_digest" VALUES('player','["score","name"]',4,8660221333895169661);
CREATE INDEX sync_server_reference_parent ON sync_server_reference (parent_table, parent_id);
CREATE INDEX sync_server_answer_date ON sync_server_answer (answered_at);
COMMIT;
