/**
 * Dev-split misses of the blind sets at Full@10: `npx tsx bench/retrieval/devmiss.ts [musicbrainz-blind|...]`.
 * Prints, for each **dev** question whose gold is not all in the top 10, the gold, the rank of each missing table
 * in a search for thirty (0 = not in it) and the top 10. Held-out questions are never run, nor the rounds kept out of tuning.
 */
import { buildSearchIndex } from '../../src/core/search/index';
import { blindSets, isUntuned } from './blind-sets';
import { key, ownSets } from './datasets';
const only = process.argv[2];
for (const set of blindSets(ownSets())) {
  if ((only && set.name !== only) || isUntuned(set.name)) continue;
  const index = buildSearchIndex({ tables: set.tables });
  for (const q of set.questions) {
    if (!q.dev) continue;
    // The top ten as scored (a search for ten: some steps look at the requested limit), and where each missing table
    // stands in a search for thirty.
    const top = index.search(q.text, { limit: 10, source: q.source }).hits.map((h) => key(h.sourceName, h.qualifiedName));
    const ranked = index.search(q.text, { limit: 30, source: q.source }).hits.map((h) => key(h.sourceName, h.qualifiedName));
    const miss = q.gold.filter((g) => !g.some((t) => top.includes(t)));
    if (miss.length === 0) continue;
    const short = (s: string) => s.replace(/^[^:]*:/, '').replace(/^[a-z_]+\./, '');
    console.log(`${q.id} ${q.text}\n  gold: ${q.gold.map((g) => g.map(short).join('|')).join(', ')}\n  miss: ${miss.map((g) => g.map((t) => `${short(t)}@${ranked.indexOf(t) + 1}`).join('|')).join(', ')}\n  top: ${top.map(short).join(', ')}`);
  }
}
