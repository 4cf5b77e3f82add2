/**
 * Ranking inspector for tuning on the dev split: `npx tsx bench/retrieval/explain.ts SET (QUESTION_ID | "free text") [--limit N]`.
 * Prints the ranked hits with scores, reasons and whether each is gold. Only dev questions can be looked up by id.
 */
import { buildSearchIndex } from '../../src/core/search/index';
import { blindSets, isUntuned } from './blind-sets';
import { birdSets, key, ownSets, spider2Set, spiderSets, type BenchSet } from './datasets';

const [setName, what, ...rest] = process.argv.slice(2);
const limit = rest.includes('--limit') ? Number(rest[rest.indexOf('--limit') + 1]) : 12;
const all = (): BenchSet[] => {
  const own = ownSets();
  return [...own, ...blindSets(own), ...spiderSets(), ...birdSets(), spider2Set()];
};
const set = all().find((s) => s.name === setName);
if (set === undefined || what === undefined) {
  process.stderr.write('usage: explain.ts SET (QUESTION_ID | "free text") [--limit N]\n');
  process.exit(2);
}
const index = buildSearchIndex({ tables: set.tables });
const q = set.questions.find((x) => x.id === what);
if (q !== undefined && (!q.dev || isUntuned(set.name))) {
  process.stderr.write('only dev questions of the rounds open to tuning may be inspected\n');
  process.exit(2);
}
const text = q?.text ?? what;
const source = q?.source ?? (rest.includes('--source') ? rest[rest.indexOf('--source') + 1] : undefined);
const gold = new Set(q?.gold.flat() ?? []);
const res = index.search(text, { limit, source });
process.stdout.write(`${text}\nterms: ${res.terms.join(' ')}\ngold: ${[...gold].join(', ')}\n`);
for (const h of res.hits) {
  const k = key(h.sourceName, h.qualifiedName);
  process.stdout.write(`${gold.has(k) ? '*' : ' '} ${h.score.toFixed(3)} ${h.qualifiedName}  ${h.why.join(' | ')}\n`);
}
