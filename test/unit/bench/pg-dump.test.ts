import assert from 'node:assert/strict';
import { parsePgDump } from '../../../bench/retrieval/pg-dump';

// pg_dump writes a plain table's constraints with ALTER TABLE ONLY, and a partitioned table's without ONLY (they apply
// to its partitions too); both are constraints of the logical table.
const DUMP = `
CREATE TABLE music.artist (
    id integer NOT NULL,
    name character varying NOT NULL
);

CREATE TABLE music.release (
    id integer NOT NULL,
    name character varying NOT NULL
);

CREATE TABLE music.artist_release (
    is_track_artist boolean NOT NULL,
    artist integer NOT NULL,
    release integer NOT NULL
)
PARTITION BY LIST (is_track_artist);

CREATE TABLE music.artist_release_va (
    is_track_artist boolean NOT NULL,
    artist integer NOT NULL,
    release integer NOT NULL
);

ALTER TABLE ONLY music.artist_release ATTACH PARTITION music.artist_release_va FOR VALUES IN (true);

ALTER TABLE ONLY music.artist
    ADD CONSTRAINT artist_pkey PRIMARY KEY (id);

ALTER TABLE music.artist_release
    ADD CONSTRAINT artist_release_fk_artist FOREIGN KEY (artist) REFERENCES music.artist(id) ON DELETE CASCADE;

ALTER TABLE ONLY music.artist_release_va
    ADD CONSTRAINT artist_release_va_fk_release FOREIGN KEY (release) REFERENCES music.release(id);
`;

describe('bench: the pg_dump parser of the retrieval benchmark', () => {
  it('keeps the keys of a partitioned table, written without ONLY, and folds its partitions into it', () => {
    const tables = parsePgDump(DUMP);
    assert.deepEqual(tables.map((t) => t.name).sort(), ['artist', 'artist_release', 'release']);
    const ar = tables.find((t) => t.name === 'artist_release')!;
    assert.deepEqual(ar.foreignKeys.map((f) => `${f.columns.join()}→${f.targetTable}`).sort(), ['artist→artist', 'release→release']);
    assert.deepEqual(tables.find((t) => t.name === 'artist')!.primaryKey?.columns, ['id']);
  });
});
