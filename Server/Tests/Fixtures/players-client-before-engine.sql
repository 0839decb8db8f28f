-- A players client database as the release before the engine's client left it (encrypted file): made by that release's code (a throwaway test at 80311db+): players added and synced through players-server (the engine's store), an edit that lost to another device's (one conflict kept), then queued: Dora's edit sent and applied by the server with its answer lost (sentAt set) and edited again, Arthur's edit, Cédric's delete, Éva new; the synced digest and the stored remote URL and cursor. Dumped with the sqlcipher shell's .dump. The server database it synced with is players-client-before-engine.server.sql.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO "grdb_migrations" VALUES('v1');
INSERT INTO "grdb_migrations" VALUES('v2-sync-identity');
INSERT INTO "grdb_migrations" VALUES('v3-sync-state');
INSERT INTO "grdb_migrations" VALUES('v4-outbox');
INSERT INTO "grdb_migrations" VALUES('v5-name-order');
INSERT INTO "grdb_migrations" VALUES('v6-sync-digest');
CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "uuid" TEXT NOT NULL UNIQUE, "name" TEXT NOT NULL, "score" INTEGER NOT NULL, "version" INTEGER, "nameOrderKey" TEXT);
INSERT INTO "player" VALUES(1,'00000000-0000-4000-8000-000000000001','Arthur',110,1,'arthur');
INSERT INTO "player" VALUES(2,'00000000-0000-4000-8000-000000000002','Barbara | Zoé',250,5,'barbara | zoe');
INSERT INTO "player" VALUES(4,'00000000-0000-4000-8000-000000000004','Dora',460,4,'dora');
INSERT INTO "player" VALUES(5,'00000000-0000-4000-8000-000000000005','Éva',500,NULL,'eva');
CREATE TABLE "syncState" ("name" TEXT PRIMARY KEY NOT NULL, "remoteURL" TEXT, "cursorEndpoint" TEXT, "cursor" TEXT, "etag" TEXT, "digestPlayers" INTEGER, "digestChecksum" TEXT);
INSERT INTO "syncState" VALUES('players','http://127.0.0.1:43541','http://127.0.0.1:43541/v1/players','5.62f56f577caf7345.36617EB2-B950-414F-9428-0CB4E2EC8CA7',NULL,4,'68aa5130941f9bc9');
CREATE TABLE "pendingChange" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "mutationID" TEXT NOT NULL UNIQUE, "playerUUID" TEXT NOT NULL, "kind" TEXT NOT NULL CHECK ("kind" IN ('save', 'delete')), "name" TEXT, "score" INTEGER, "baseVersion" INTEGER, "sentAt" DATETIME, "createdAt" DATETIME NOT NULL);
INSERT INTO "pendingChange" VALUES(6,'71A08C9A-C860-4546-A4B9-4E5B8D7153C7','00000000-0000-4000-8000-000000000004','save','Dora',450,4,'2026-11-28 03:54:47.068','2026-11-28 03:54:47.068');
INSERT INTO "pendingChange" VALUES(7,'6F00E2EC-86D4-4516-BE8E-5979AEA4C883','00000000-0000-4000-8000-000000000004','save','Dora',460,4,NULL,'2026-11-28 03:54:47.076');
INSERT INTO "pendingChange" VALUES(8,'14176B36-1A1D-48EB-865B-C53F69322BFF','00000000-0000-4000-8000-000000000001','save','Arthur',110,1,NULL,'2026-11-28 03:54:47.078');
INSERT INTO "pendingChange" VALUES(9,'DC0604F0-9241-432D-814E-E426015A5235','00000000-0000-4000-8000-000000000003','delete',NULL,NULL,3,NULL,'2026-11-28 03:54:47.079');
INSERT INTO "pendingChange" VALUES(10,'8F299BEF-9A63-4F14-B32F-A125D68E9AE8','00000000-0000-4000-8000-000000000005','save','Éva',500,NULL,NULL,'2026-11-28 03:54:47.080');
CREATE TABLE "playerConflict" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "playerUUID" TEXT NOT NULL, "localName" TEXT, "localScore" INTEGER, "serverName" TEXT, "serverScore" INTEGER, "serverVersion" INTEGER, "changedAt" DATETIME NOT NULL, "detectedAt" DATETIME NOT NULL);
INSERT INTO "playerConflict" VALUES(1,'00000000-0000-4000-8000-000000000002','Barbara II',200,'Barbara | Zoé',250,5,'2026-11-28 03:54:47.043','2026-11-28 03:54:47.051');
CREATE TABLE "syncedPlayerDigest" ("id" INTEGER PRIMARY KEY CHECK ("id" = 1), "players" INTEGER NOT NULL, "checksum" INTEGER NOT NULL);
INSERT INTO "syncedPlayerDigest" VALUES(1,3,-2162295252873386184);
DELETE FROM sqlite_sequence;
INSERT INTO "sqlite_sequence" VALUES('player',5);
INSERT INTO "sqlite_sequence" VALUES('pendingChange',10);
INSERT INTO "sqlite_sequence" VALUES('playerConflict',1);
CREATE INDEX "pendingChange_on_playerUUID" ON "pendingChange"("playerUUID");
CREATE INDEX "playerConflict_on_playerUUID" ON "playerConflict"("playerUUID");
CREATE INDEX player_on_nameOrderKey ON player(nameOrderKey, name);
CREATE TRIGGER player_nameOrderKey_insert AFTER INSERT ON player BEGIN
    UPDATE player SET nameOrderKey = players_name_order_key(NEW.name) WHERE id = NEW.id;
END;
CREATE TRIGGER player_nameOrderKey_update AFTER UPDATE OF name ON player BEGIN
    UPDATE player SET nameOrderKey = players_name_order_key(NEW.name) WHERE id = NEW.id;
END;
CREATE TRIGGER player_syncedDigest_insert AFTER INSERT ON player WHEN NEW.version IS NOT NULL BEGIN
    UPDATE syncedPlayerDigest SET players = players + 1, checksum = CASE WHEN NEW.version IS NOT NULL THEN players_digest_toggle(checksum, NEW.uuid, NEW.name, NEW.score, NEW.version) ELSE checksum END;
END;
CREATE TRIGGER player_syncedDigest_delete AFTER DELETE ON player WHEN OLD.version IS NOT NULL BEGIN
    UPDATE syncedPlayerDigest SET players = players - 1, checksum = CASE WHEN OLD.version IS NOT NULL THEN players_digest_toggle(checksum, OLD.uuid, OLD.name, OLD.score, OLD.version) ELSE checksum END;
END;
CREATE TRIGGER player_syncedDigest_update AFTER UPDATE OF uuid, name, score, version ON player BEGIN
    UPDATE syncedPlayerDigest SET players = players + (NEW.version IS NOT NULL) - (OLD.version IS NOT NULL),
        checksum = CASE WHEN NEW.version IS NOT NULL THEN players_digest_toggle(CASE WHEN OLD.version IS NOT NULL THEN players_digest_toggle(checksum, OLD.uuid, OLD.name, OLD.score, OLD.version) ELSE checksum END, NEW.uuid, NEW.name, NEW.score, NEW.version) ELSE CASE WHEN OLD.version IS NOT NULL THEN players_digest_toggle(checksum, OLD.uuid, OLD.name, OLD.score, OLD.version) ELSE checksum END END;
END;
COMMIT;
