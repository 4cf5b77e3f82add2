import { buildSearchIndex } from '../../src/core/search/index';
import { key, spiderSets } from './datasets';
const set = spiderSets().find((s) => s.name === 'spider-dev-pooled')!;
const q = set.questions.find((x) => x.id === process.argv[2])!;
const index = buildSearchIndex({ tables: set.tables });
const res = index.search(q.text, { limit: 8, ...(q.source ? { source: q.source } : {}) });
console.log(q.text, JSON.stringify(q.gold));
for (const h of res.hits) console.log(h.score, key(h.sourceName, h.qualifiedName), h.why.join(' | '));
