/**
 * Scale figures on the synthetic catalog: `npx tsx bench/retrieval/scale.ts [--quick]` prints them; run.ts imports
 * `scaleFigures` for the committed results.
 */
import { buildSearchIndex, deserializeIndex, serializeIndex, type SearchIndex } from '../../src/core/search/index';
import { syntheticCatalog, syntheticQueries } from './synthetic';

const round = (x: number, d: number): number => Math.round(x * 10 ** d) / 10 ** d;
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

const FIXED = ['customer orders by region', 'unpaid invoice payments last month', 'stock level per warehouse', 'employee department budget', 'patient visit doctor claim', 'campaign lead conversion rate', 'vehicle driver route shipment', 'subscription plan price discount'];

export function scaleFigures(quick: boolean): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [label, n, c] of [['2k', 2000, 20], ['10k', 10000, 20]] as const) {
    const tables = syntheticCatalog({ tables: n, columnsPerTable: c });
    const t0 = performance.now();
    const index: SearchIndex = buildSearchIndex({ tables });
    out[`build_ms_${label}`] = round(performance.now() - t0, 1);
    const s0 = performance.now();
    const bytes = serializeIndex(index);
    out[`serialize_ms_${label}`] = round(performance.now() - s0, 1);
    out[`serialized_kib_${label}`] = Math.round(bytes.length / 1024);
    const d0 = performance.now();
    const loaded = deserializeIndex(bytes, { tables });
    out[`load_ms_${label}`] = round(performance.now() - d0, 1);
    if (loaded === null) throw new Error('serialized index did not load');
    const queries = [...FIXED, ...syntheticQueries(tables, 32)];
    for (const q of queries) loaded.search(q, { limit: 10, withJoinTree: true });
    const lat: number[] = [];
    for (let r = 0; r < (quick ? 3 : 10); r++) {
      for (const q of queries) {
        const q0 = performance.now();
        loaded.search(q, { limit: 10, withJoinTree: true });
        lat.push(performance.now() - q0);
      }
    }
    out[`p50_ms_${label}`] = round(pct(lat, 50), 3);
    out[`p99_ms_${label}`] = round(pct(lat, 99), 3);
  }
  return out;
}

if (require.main === module) process.stderr.write(`${JSON.stringify(scaleFigures(process.argv.includes('--quick')))}\n`);
