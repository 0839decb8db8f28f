-- A players-server database as the release before the sync engine's store left it (embedded, encrypted file): made by that release's code with players created, edited, deleted, a tombstone purged (floor 5), answers kept, a restore (second epoch); dumped with the sqlcipher shell's .dump.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO "grdb_migrations" VALUES('server-v1');
INSERT INTO "grdb_migrations" VALUES('server-v2-applied-mutations');
INSERT INTO "grdb_migrations" VALUES('server-v3-history');
INSERT INTO "grdb_migrations" VALUES('server-v4-digest');
CREATE TABLE "player" ("uuid" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL, "score" INTEGER NOT NULL, "version" INTEGER NOT NULL UNIQUE);
INSERT INTO "player" VALUES('00000000-0000-4000-8000-000000000001','Arthur',11,9);
INSERT INTO "player" VALUES('00000000-0000-4000-8000-000000000002','Barbara | Zoé',21,6);
INSERT INTO "player" VALUES('00000000-0000-4000-8000-000000000005','Éric',50,8);
CREATE TABLE "tombstone" ("uuid" TEXT PRIMARY KEY NOT NULL, "version" INTEGER NOT NULL UNIQUE, "deletedAt" DATETIME NOT NULL);
INSERT INTO "tombstone" VALUES('00000000-0000-4000-8000-000000000003',7,'2026-11-28 00:54:00.610');
CREATE TABLE "changeCounter" ("id" INTEGER PRIMARY KEY CHECK ("id" = 1), "value" INTEGER NOT NULL, "floor" INTEGER NOT NULL, "playerCount" INTEGER NOT NULL DEFAULT 0, "checksum" INTEGER NOT NULL DEFAULT 0);
INSERT INTO "changeCounter" VALUES(1,9,5,3,-7330411663783189239);
CREATE TABLE "appliedMutation" ("mutationID" TEXT PRIMARY KEY NOT NULL, "result" TEXT NOT NULL, "appliedAt" DATETIME NOT NULL);
INSERT INTO "appliedMutation" VALUES('00000000-0000-4000-8000-000000000105','{"change":{"baseVersion":3,"kind":"delete","mutationID":"00000000-0000-4000-8000-000000000105","uuid":"00000000-0000-4000-8000-000000000003"},"result":{"mutationID":"00000000-0000-4000-8000-000000000105","status":"applied","version":7}}','2026-11-28 00:54:00.610');
INSERT INTO "appliedMutation" VALUES('00000000-0000-4000-8000-000000000106','{"change":{"baseVersion":2,"kind":"save","mutationID":"00000000-0000-4000-8000-000000000106","name":"Bob","score":22,"uuid":"00000000-0000-4000-8000-000000000002"},"result":{"mutationID":"00000000-0000-4000-8000-000000000106","player":{"name":"Barbara | Zoé","score":21,"uuid":"00000000-0000-4000-8000-000000000002","version":6},"status":"conflict"}}','2026-11-28 00:54:00.610');
INSERT INTO "appliedMutation" VALUES('00000000-0000-4000-8000-000000000107','{"change":{"kind":"save","mutationID":"00000000-0000-4000-8000-000000000107","name":"Éric","score":50,"uuid":"00000000-0000-4000-8000-000000000005"},"result":{"mutationID":"00000000-0000-4000-8000-000000000107","status":"applied","version":8}}','2026-11-28 00:54:00.610');
INSERT INTO "appliedMutation" VALUES('00000000-0000-4000-8000-000000000108','{"change":{"baseVersion":1,"kind":"save","mutationID":"00000000-0000-4000-8000-000000000108","name":"Arthur","score":11,"uuid":"00000000-0000-4000-8000-000000000001"},"result":{"mutationID":"00000000-0000-4000-8000-000000000108","status":"applied","version":9}}','2026-11-28 00:54:00.645');
CREATE TABLE "serverIdentity" ("id" INTEGER PRIMARY KEY CHECK ("id" = 1), "server" TEXT NOT NULL, "isBackupCopy" BOOLEAN NOT NULL DEFAULT 0);
INSERT INTO "serverIdentity" VALUES(1,'04495B72-2CEA-458C-8FFE-CB7B4FBDA827',0);
CREATE TABLE "historyEpoch" ("position" INTEGER PRIMARY KEY, "epoch" TEXT NOT NULL UNIQUE, "start" INTEGER NOT NULL);
INSERT INTO "historyEpoch" VALUES(1,'a6fc5905f318f6c5',0);
INSERT INTO "historyEpoch" VALUES(2,'6f57e653711384fc',8);
CREATE INDEX "appliedMutation_on_appliedAt" ON "appliedMutation"("appliedAt");
CREATE TRIGGER player_digest_insert AFTER INSERT ON player WHEN 1 BEGIN
    UPDATE changeCounter SET playerCount = playerCount + 1, checksum = CASE WHEN 1 THEN players_digest_toggle(checksum, NEW.uuid, NEW.name, NEW.score, NEW.version) ELSE checksum END;
END;
CREATE TRIGGER player_digest_delete AFTER DELETE ON player WHEN 1 BEGIN
    UPDATE changeCounter SET playerCount = playerCount - 1, checksum = CASE WHEN 1 THEN players_digest_toggle(checksum, OLD.uuid, OLD.name, OLD.score, OLD.version) ELSE checksum END;
END;
CREATE TRIGGER player_digest_update AFTER UPDATE OF uuid, name, score, version ON player BEGIN
    UPDATE changeCounter SET playerCount = playerCount + (1) - (1),
        checksum = CASE WHEN 1 THEN players_digest_toggle(CASE WHEN 1 THEN players_digest_toggle(checksum, OLD.uuid, OLD.name, OLD.score, OLD.version) ELSE checksum END, NEW.uuid, NEW.name, NEW.score, NEW.version) ELSE CASE WHEN 1 THEN players_digest_toggle(checksum, OLD.uuid, OLD.name, OLD.score, OLD.version) ELSE checksum END END;
END;
COMMIT;
