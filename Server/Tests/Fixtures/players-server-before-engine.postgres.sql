-- The same on PostgreSQL (pg_dump --no-owner --no-privileges), by the same release's PostgresPlayersStore.
--
-- PostgreSQL database dump
--

\restrict oruo38clixur4TO4Lw2hCpRxb5hzqJgtAV8lfcilTRuUzjXCRBWU8xyMaDKgHAC

-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: players_digest_deleted(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.players_digest_deleted() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE change_counter SET player_count = player_count - removed.n, checksum = checksum # removed.x
    FROM (SELECT count(*) AS n, coalesce(bit_xor(players_digest_hash(uuid, name, score, version)), 0) AS x
          FROM old_players) AS removed
    WHERE id = 1;
    RETURN NULL;
END $$;


--
-- Name: players_digest_hash(uuid, text, bigint, bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.players_digest_hash(uuid uuid, name text, score bigint, version bigint) RETURNS bigint
    LANGUAGE sql IMMUTABLE STRICT
    AS $$ SELECT ('x' || left(md5(convert_to(uuid::text || '|' || version::text || '|' || score::text || '|' || name, 'UTF8')),
                         16))::bit(64)::bigint $$;


--
-- Name: players_digest_inserted(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.players_digest_inserted() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE change_counter SET player_count = player_count + added.n, checksum = checksum # added.x
    FROM (SELECT count(*) AS n, coalesce(bit_xor(players_digest_hash(uuid, name, score, version)), 0) AS x
          FROM new_players) AS added
    WHERE id = 1;
    RETURN NULL;
END $$;


--
-- Name: players_digest_truncated(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.players_digest_truncated() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE change_counter SET player_count = 0, checksum = 0 WHERE id = 1;
    RETURN NULL;
END $$;


--
-- Name: players_digest_updated(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.players_digest_updated() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE change_counter SET checksum = checksum # before.x # after.x
    FROM (SELECT coalesce(bit_xor(players_digest_hash(uuid, name, score, version)), 0) AS x FROM old_players) AS before,
         (SELECT coalesce(bit_xor(players_digest_hash(uuid, name, score, version)), 0) AS x FROM new_players) AS after
    WHERE id = 1;
    RETURN NULL;
END $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: applied_mutation; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.applied_mutation (
    mutation_id uuid NOT NULL,
    result text NOT NULL,
    applied_at timestamp with time zone NOT NULL
);


--
-- Name: change_counter; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.change_counter (
    id integer NOT NULL,
    value bigint NOT NULL,
    floor bigint NOT NULL,
    player_count bigint DEFAULT 0 NOT NULL,
    checksum bigint DEFAULT 0 NOT NULL,
    CONSTRAINT change_counter_id_check CHECK ((id = 1))
);


--
-- Name: history_epoch; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.history_epoch (
    "position" integer NOT NULL,
    epoch text NOT NULL,
    start bigint NOT NULL
);


--
-- Name: player; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.player (
    uuid uuid NOT NULL,
    name text NOT NULL,
    score bigint NOT NULL,
    version bigint NOT NULL
);


--
-- Name: schema_version; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_version (
    id integer NOT NULL,
    version integer NOT NULL,
    CONSTRAINT schema_version_id_check CHECK ((id = 1))
);


--
-- Name: server_identity; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.server_identity (
    id integer NOT NULL,
    server uuid NOT NULL,
    player_table oid NOT NULL,
    CONSTRAINT server_identity_id_check CHECK ((id = 1))
);


--
-- Name: tombstone; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tombstone (
    uuid uuid NOT NULL,
    version bigint NOT NULL,
    deleted_at timestamp with time zone NOT NULL
);


--
-- Data for Name: applied_mutation; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.applied_mutation (mutation_id, result, applied_at) FROM stdin;
00000000-0000-4000-8000-000000000105	{"change":{"baseVersion":3,"kind":"delete","mutationID":"00000000-0000-4000-8000-000000000105","uuid":"00000000-0000-4000-8000-000000000003"},"result":{"mutationID":"00000000-0000-4000-8000-000000000105","status":"applied","version":7}}	2026-11-28 00:54:00.813956+00
00000000-0000-4000-8000-000000000106	{"change":{"baseVersion":2,"kind":"save","mutationID":"00000000-0000-4000-8000-000000000106","name":"Bob","score":22,"uuid":"00000000-0000-4000-8000-000000000002"},"result":{"mutationID":"00000000-0000-4000-8000-000000000106","player":{"name":"Barbara | Zoé","score":21,"uuid":"00000000-0000-4000-8000-000000000002","version":6},"status":"conflict"}}	2026-11-28 00:54:00.813956+00
00000000-0000-4000-8000-000000000107	{"change":{"kind":"save","mutationID":"00000000-0000-4000-8000-000000000107","name":"Éric","score":50,"uuid":"00000000-0000-4000-8000-000000000005"},"result":{"mutationID":"00000000-0000-4000-8000-000000000107","status":"applied","version":8}}	2026-11-28 00:54:00.813956+00
00000000-0000-4000-8000-000000000108	{"change":{"baseVersion":1,"kind":"save","mutationID":"00000000-0000-4000-8000-000000000108","name":"Arthur","score":11,"uuid":"00000000-0000-4000-8000-000000000001"},"result":{"mutationID":"00000000-0000-4000-8000-000000000108","status":"applied","version":9}}	2026-11-28 00:54:00.891502+00
\.


--
-- Data for Name: change_counter; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.change_counter (id, value, floor, player_count, checksum) FROM stdin;
1	9	5	3	-7330411663783189239
\.


--
-- Data for Name: history_epoch; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.history_epoch ("position", epoch, start) FROM stdin;
1	45dcb4c580c744c6	0
2	cd62529e222f4986	8
\.


--
-- Data for Name: player; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.player (uuid, name, score, version) FROM stdin;
00000000-0000-4000-8000-000000000002	Barbara | Zoé	21	6
00000000-0000-4000-8000-000000000005	Éric	50	8
00000000-0000-4000-8000-000000000001	Arthur	11	9
\.


--
-- Data for Name: schema_version; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.schema_version (id, version) FROM stdin;
1	3
\.


--
-- Data for Name: server_identity; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.server_identity (id, server, player_table) FROM stdin;
1	f476d041-edd1-4a94-940b-ec7d57a5fe47	42465
\.


--
-- Data for Name: tombstone; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.tombstone (uuid, version, deleted_at) FROM stdin;
00000000-0000-4000-8000-000000000003	7	2026-11-28 00:54:00.813956+00
\.


--
-- Name: applied_mutation applied_mutation_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.applied_mutation
    ADD CONSTRAINT applied_mutation_pkey PRIMARY KEY (mutation_id);


--
-- Name: change_counter change_counter_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_counter
    ADD CONSTRAINT change_counter_pkey PRIMARY KEY (id);


--
-- Name: history_epoch history_epoch_epoch_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.history_epoch
    ADD CONSTRAINT history_epoch_epoch_key UNIQUE (epoch);


--
-- Name: history_epoch history_epoch_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.history_epoch
    ADD CONSTRAINT history_epoch_pkey PRIMARY KEY ("position");


--
-- Name: player player_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.player
    ADD CONSTRAINT player_pkey PRIMARY KEY (uuid);


--
-- Name: player player_version_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.player
    ADD CONSTRAINT player_version_key UNIQUE (version);


--
-- Name: schema_version schema_version_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_version
    ADD CONSTRAINT schema_version_pkey PRIMARY KEY (id);


--
-- Name: server_identity server_identity_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.server_identity
    ADD CONSTRAINT server_identity_pkey PRIMARY KEY (id);


--
-- Name: tombstone tombstone_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tombstone
    ADD CONSTRAINT tombstone_pkey PRIMARY KEY (uuid);


--
-- Name: tombstone tombstone_version_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tombstone
    ADD CONSTRAINT tombstone_version_key UNIQUE (version);


--
-- Name: applied_mutation_applied_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX applied_mutation_applied_at ON public.applied_mutation USING btree (applied_at);


--
-- Name: tombstone_deleted_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tombstone_deleted_at ON public.tombstone USING btree (deleted_at);


--
-- Name: player player_digest_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER player_digest_delete AFTER DELETE ON public.player REFERENCING OLD TABLE AS old_players FOR EACH STATEMENT EXECUTE FUNCTION public.players_digest_deleted();


--
-- Name: player player_digest_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER player_digest_insert AFTER INSERT ON public.player REFERENCING NEW TABLE AS new_players FOR EACH STATEMENT EXECUTE FUNCTION public.players_digest_inserted();


--
-- Name: player player_digest_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER player_digest_truncate AFTER TRUNCATE ON public.player FOR EACH STATEMENT EXECUTE FUNCTION public.players_digest_truncated();


--
-- Name: player player_digest_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER player_digest_update AFTER UPDATE ON public.player REFERENCING OLD TABLE AS old_players NEW TABLE AS new_players FOR EACH STATEMENT EXECUTE FUNCTION public.players_digest_updated();


--
-- PostgreSQL database dump complete
--

\unrestrict oruo38clixur4TO4Lw2hCpRxb5hzqJgtAV8lfcilTRuUzjXCRBWU8xyMaDKgHAC

