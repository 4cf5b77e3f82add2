import fs from 'node:fs';
import path from 'node:path';
import { CatalogError, CatalogStore } from '../../core/catalog/store';
import { DefinitionsFolderError, loadSemanticFolder, semanticCatalog } from '../../core/semantic';
import { defaultCatalogPath } from '../../core/util/home';
import { parseArgs, stringFlag } from '../args';
import { EXIT_CHECK_FAILED, EXIT_OK, EXIT_OPERATIONAL } from '../command';
import type { CliCommand } from '../command';

const USAGE = 'schemabrain check [--workspace DIR] [--catalog PATH] [--json]';

/**
 * Checks the semantic-layer definitions in `<workspace>/.schemabrain/` against the catalog: unknown tables and
 * columns (drift), bad references, strict-key violations. Exit 0 clean, 1 problems found, 2 could not check.
 */
export const checkCommand: CliCommand = {
  name: 'check',
  summary: 'Check .schemabrain/ definitions against the catalog (drift, bad references); exit 1 on problems',
  usage: USAGE,
  async run(argv, io) {
    const p = parseArgs(argv, { workspace: 'string', catalog: 'string', json: 'boolean' });
    const workspace = path.resolve(stringFlag(p, 'workspace') ?? process.cwd());
    const dir = path.join(workspace, '.schemabrain');
    const catalogPath = path.resolve(stringFlag(p, 'catalog') ?? defaultCatalogPath(io.env));
    if (!fs.existsSync(dir)) {
      io.stderr.write(`schemabrain check: no definitions folder at ${dir}\n  next: create ${dir} with entities, joins and metrics YAML files\n`);
      return EXIT_OPERATIONAL;
    }
    let store: CatalogStore;
    try {
      store = await CatalogStore.open(catalogPath);
    } catch (e) {
      const msg = e instanceof CatalogError ? e.message : String(e);
      io.stderr.write(`schemabrain check: ${msg}\n  next: run 'schemabrain index --source …' first\n`);
      return EXIT_OPERATIONAL;
    }
    let result;
    try {
      const sources = store.listSources().map((s) => ({ source: s.info.name, tables: store.loadTables(s.info.id) }));
      result = await loadSemanticFolder(dir, semanticCatalog(sources));
    } catch (e) {
      // a .schemabrain that is a regular file, or a folder that cannot be listed: nothing could be checked
      if (!(e instanceof DefinitionsFolderError)) throw e;
      io.stderr.write(`schemabrain check: ${e.message}\n  next: make ${dir} a folder of entities, joins and metrics YAML files\n`);
      return EXIT_OPERATIONAL;
    } finally {
      store.close();
    }
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    if (p.flags.json) {
      io.stdout.write(`${JSON.stringify({ files: result.files.length, entities: result.model.entities.size, joins: result.model.joins.size, metrics: result.model.metrics.size, diagnostics: result.diagnostics })}\n`);
    } else {
      for (const d of result.diagnostics) {
        io.stdout.write(`${path.relative(workspace, d.file)}:${d.line}:${d.col}: ${d.severity} ${d.code}: ${d.message}${d.fix ? ` (fix: ${d.fix.title})` : ''}\n`);
      }
      io.stdout.write(
        `${result.files.length} file(s): ${result.model.entities.size} entities, ${result.model.joins.size} joins, ${result.model.metrics.size} metrics; ` +
          `${errors.length} error(s), ${result.diagnostics.length - errors.length} warning(s)\n`,
      );
    }
    return errors.length ? EXIT_CHECK_FAILED : EXIT_OK;
  },
};
