import assert from 'node:assert/strict';
import { loadSqlGuard, type SqlGuard } from '../../../src/core/sql/guard';
import { checkAllowlist } from '../../../src/core/sql/allowlist';
import { tokenizeSqlite } from '../../../src/core/sql/sqlite-guard';
import { isAllowedPostgresFromFunction, isDeniedPostgresFunction } from '../../../src/core/sql/function-policy';
import type { GuardAccepted, GuardResult } from '../../../src/core/sql/types';

function accepted(r: GuardResult): GuardAccepted {
  assert.ok(r.ok, r.ok ? '' : `${r.reason}: ${r.message}`);
  return r;
}

describe('SQL guard (layer 1)', function () {
  let guard: SqlGuard;
  before(async function () {
    guard = await loadSqlGuard();
  });

  describe('PostgreSQL', function () {
    it('classifies SELECT, VALUES, TABLE and EXPLAIN statements', function () {
      assert.equal(accepted(guard.guard('SELECT 1', 'postgres')).statementKind, 'select');
      assert.equal(accepted(guard.guard('WITH a AS (SELECT 1) SELECT * FROM a', 'postgres')).statementKind, 'select');
      assert.equal(accepted(guard.guard('VALUES (1)', 'postgres')).statementKind, 'values');
      assert.equal(accepted(guard.guard('TABLE film', 'postgres')).statementKind, 'table');
      assert.equal(accepted(guard.guard('EXPLAIN SELECT 1', 'postgres')).statementKind, 'explain');
    });

    it('reports schema-qualified tables and aliases, and leaves CTE names out', function () {
      const r = accepted(
        guard.guard('WITH t AS (SELECT 1 AS id) SELECT * FROM public.customer c JOIN payment p USING (customer_id) JOIN t ON true', 'postgres'),
      );
      assert.deepEqual(r.tables, ['public.customer', 'payment']);
      assert.deepEqual(r.aliases, { c: 'public.customer', p: 'payment' });
    });

    it('finds tables inside subqueries, set operations and EXPLAIN', function () {
      assert.deepEqual(accepted(guard.guard('SELECT * FROM a WHERE x IN (SELECT x FROM s.b) UNION SELECT * FROM c', 'postgres')).tables, ['a', 's.b', 'c']);
      assert.deepEqual(accepted(guard.guard('EXPLAIN SELECT * FROM film', 'postgres')).tables, ['film']);
    });

    it('describes projections: raw columns, aggregates, windows and aliases', function () {
      const r = accepted(
        guard.guard('SELECT c.email, lower(c.name) AS n, count(*), max(c.ssn) m, sum(p.amount) OVER () AS running, 42 FROM customer c, payment p', 'postgres'),
      );
      const [email, lowerName, count, maxSsn, running, constant] = r.projections;
      assert.deepEqual(email, { expression: 'c.email', alias: 'email', sourceColumns: ['c.email'], aggregated: false, aggregateFunctions: [] });
      assert.deepEqual(lowerName, { expression: 'lower(c.name)', alias: 'n', sourceColumns: ['c.name'], aggregated: false, aggregateFunctions: [] });
      assert.deepEqual(count, { expression: 'count(*)', alias: null, sourceColumns: [], aggregated: true, aggregateFunctions: ['count'] });
      assert.equal(maxSsn.expression, 'max(c.ssn)');
      assert.equal(maxSsn.aggregated, true);
      assert.deepEqual(maxSsn.aggregateFunctions, ['max']);
      assert.equal(running.aggregated, false, 'a window over raw values is not an aggregate');
      assert.deepEqual(constant.sourceColumns, []);
      assert.deepEqual([...r.columns].sort(), ['c.email', 'c.name', 'c.ssn', 'p.amount']);
    });

    it('treats an expression mixing raw and aggregated columns as raw', function () {
      const r = accepted(guard.guard('SELECT name || count(email) FROM t GROUP BY name', 'postgres'));
      assert.equal(r.projections[0].aggregated, false);
      assert.deepEqual(r.projections[0].sourceColumns, ['name', 'email']);
    });

    it('gives the same fingerprint to queries differing only in constants, spacing, comments and keyword case', function () {
      const a = accepted(guard.guard("SELECT * FROM film WHERE title = 'A' AND length > 10", 'postgres'));
      const b = accepted(guard.guard("select *\n  from film /* x */ where title = 'B' and length > 99 -- y", 'postgres'));
      const c = accepted(guard.guard("SELECT * FROM film WHERE title = 'A' OR length > 10", 'postgres'));
      assert.match(a.fingerprint, /^[0-9a-f]{64}$/);
      assert.equal(a.fingerprint, b.fingerprint);
      assert.notEqual(a.fingerprint, c.fingerprint);
    });

    it('normalises away comments, extra whitespace and a trailing semicolon', function () {
      assert.equal(accepted(guard.guard('  SELECT  1 /* c */ ,\n 2 -- t\n ; ', 'postgres')).normalized, 'SELECT 1 , 2');
    });

    it('keeps non-ASCII identifiers and string slices intact', function () {
      const r = accepted(guard.guard("SELECT 'é' AS ü, \"naïve\" FROM café", 'postgres'));
      assert.deepEqual(r.tables, ['café']);
      assert.equal(r.projections[0].expression, "'é'");
      assert.equal(r.projections[1].expression, '"naïve"');
    });

    it('refuses with a reason, a seed-003 style message and the offending element', function () {
      const r = guard.guard("SELECT pg_catalog.pg_read_file('/etc/passwd')", 'postgres');
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.reason, 'forbidden_function');
      assert.equal(!r.ok && r.detail, 'pg_catalog.pg_read_file');
      assert.match(!r.ok ? r.message : '', /^argument 'sql' /);
    });

    it('reports parse errors, empty input and oversize input distinctly', function () {
      const parse = guard.guard('SELEC 1', 'postgres');
      assert.equal(!parse.ok && parse.reason, 'parse_error');
      const empty = guard.guard(' -- nothing\n ; ', 'postgres');
      assert.equal(!empty.ok && empty.reason, 'empty_statement');
      const long = guard.guard(`SELECT ${'1+'.repeat(60_000)}1`, 'postgres');
      assert.equal(!long.ok && long.reason, 'too_long');
    });

    it('lets harmless session-reading functions through and stops sequence advancement', function () {
      accepted(guard.guard("SELECT currval('s'), current_setting('search_path'), now()", 'postgres'));
      const r = guard.guard("SELECT nextval('s')", 'postgres');
      assert.equal(!r.ok && r.reason, 'forbidden_function');
    });
  });

  describe('SQLite', function () {
    it('tokenises quotes, brackets, blobs, parameters and unterminated comments like SQLite does', function () {
      const ts = tokenizeSqlite("SELECT 'a;b', \"c;d\", [e;f], `g;h`, x'3B', ?1, :n, @m, $p /* ; */ -- ;\n; /* open");
      assert.deepEqual(
        ts.filter((t) => t.kind !== 'comment').map((t) => t.text),
        ['SELECT', "'a;b'", ',', '"c;d"', ',', '[e;f]', ',', '`g;h`', ',', "x'3B'", ',', '?1', ',', ':n', ',', '@m', ',', '$p', ';'],
      );
      assert.equal(ts[ts.length - 1].kind, 'comment');
    });

    it('accepts SELECT, WITH … SELECT, VALUES and EXPLAIN QUERY PLAN', function () {
      assert.equal(accepted(guard.guard('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r LIMIT 3) SELECT n FROM r', 'sqlite')).statementKind, 'select');
      assert.equal(accepted(guard.guard('VALUES (1)', 'sqlite')).statementKind, 'values');
      assert.equal(accepted(guard.guard('EXPLAIN QUERY PLAN SELECT 1', 'sqlite')).statementKind, 'explain');
    });

    it('reports tables with aliases and projections with aggregates', function () {
      const r = accepted(guard.guard('SELECT a.Name, count(b.AlbumId) AS n FROM Artist a JOIN main.Album AS b ON a.ArtistId = b.ArtistId GROUP BY 1', 'sqlite'));
      assert.deepEqual(r.tables, ['Artist', 'main.Album']);
      assert.deepEqual(r.aliases, { a: 'Artist', b: 'main.Album' });
      assert.deepEqual(r.projections[0], { expression: 'a.Name', alias: 'Name', sourceColumns: ['a.Name'], aggregated: false, aggregateFunctions: [] });
      assert.deepEqual(r.projections[1], { expression: 'count(b.AlbumId)', alias: 'n', sourceColumns: ['b.AlbumId'], aggregated: true, aggregateFunctions: ['count'] });
    });

    it('does not mistake replace() for REPLACE INTO', function () {
      accepted(guard.guard("SELECT replace(Name, 'a', 'b') FROM Genre", 'sqlite'));
      const r = guard.guard("REPLACE INTO Genre VALUES (1, 'x')", 'sqlite');
      assert.equal(!r.ok && r.reason, 'not_read_only');
    });
  });

  describe('function policy', function () {
    it('denies by name whatever the schema and case', function () {
      for (const n of ['pg_read_file', 'pg_catalog.pg_sleep', 'lo_import', 'dblink_exec', 'pg_try_advisory_xact_lock', 'public.set_config']) {
        assert.equal(isDeniedPostgresFunction(n), true, n);
      }
      for (const n of ['lower', 'generate_series', 'currval', 'jsonb_each', 'percentile_cont']) assert.equal(isDeniedPostgresFunction(n), false, n);
    });

    it('limits system table functions in FROM to the allow-list but lets user functions through', function () {
      assert.equal(isAllowedPostgresFromFunction('pg_catalog.generate_series'), true);
      assert.equal(isAllowedPostgresFromFunction('pg_stat_get_activity'), false);
      assert.equal(isAllowedPostgresFromFunction('pg_catalog.anything'), false);
      assert.equal(isAllowedPostgresFromFunction('film_in_stock'), true);
    });
  });

  describe('schema allow-list', function () {
    it('passes tables in allowed schemas, resolving unqualified names to the default schema', function () {
      assert.equal(checkAllowlist(['public.film', 'film'], ['public']), null);
      assert.equal(checkAllowlist(['film'], undefined), null);
    });

    it('reports tables outside the allowed schemas with a widening hint', function () {
      const v = checkAllowlist(['public.film', 'hr.salaries', 'hr.staff'], ['public']);
      assert.ok(v);
      assert.deepEqual(v.tables, ['hr.salaries', 'hr.staff']);
      assert.deepEqual(v.schemasNeeded, ['hr']);
      assert.deepEqual(v.wideningHint.scope_requested, 'schema:hr');
      assert.equal(v.wideningHint.would_unblock, true);
    });

    it('refuses system catalogs unless named explicitly, and says widening would not help', function () {
      const v = checkAllowlist(['pg_authid'], undefined);
      assert.ok(v);
      assert.deepEqual(v.schemasNeeded, ['pg_catalog']);
      assert.equal(v.wideningHint.would_unblock, false);
      assert.equal(checkAllowlist(['information_schema.tables'], ['public', 'information_schema']), null);
    });
  });
});
