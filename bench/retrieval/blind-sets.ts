/**
 * Blind question sets: `blind/<db>.json` holds questions written by someone who read only a description of the
 * domain and the application, never the table names (each with a fixed `split`, dev or heldout); `blind/gold-<db>.json`
 * holds the gold tables, labelled afterwards from the schema and committed before any ranking run on them. The
 * catalogs are the same pg_dump schemas as the hand-written sets.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { birdSets, key, ownSets, spider2Set, spiderSets, type BenchQuestion, type BenchSet } from './datasets';

const BLIND_DIR = path.join(__dirname, 'blind');

interface BlindQuestion {
  readonly id: string;
  readonly question?: string;
  readonly text?: string;
  readonly split?: string;
  readonly style?: string;
}

interface GoldFile {
  /** Question id → minimal set of `schema.table` names a correct answer needs (`a|b`: either one). */
  readonly gold: Readonly<Record<string, readonly string[]>>;
}

function readQuestions(file: string): BlindQuestion[] {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const list = Array.isArray(raw) ? raw : ((raw as { questions?: unknown }).questions ?? []);
  return list as BlindQuestion[];
}

/**
 * Rounds of blind questions: the first (`blind/`) is split into dev and held-out halves; the second (`blind/round2/`)
 * was written after the engine was tuned on the first round's dev halves and is held-out as a whole; the third
 * (`blind/round3/`), the fourth (`blind/round4/`), the fifth (`blind/round5/`), the sixth (`blind/round6/`), the seventh (`blind/round7/`), the eighth (`blind/round8/`), the ninth (`blind/round9/`), the tenth (`blind/round10/`), the eleventh (`blind/round11/`), the twelfth (`blind/round12/`), the thirteenth (`blind/round13/`), the fourteenth (`blind/round14/`), the fifteenth (`blind/round15/`), the sixteenth (`blind/round16/`), the seventeenth (`blind/round17/`), the eighteenth (`blind/round18/`), the nineteenth (`blind/round19/`), the twentieth (`blind/round20/`), the twenty-first (`blind/round21/`), the twenty-second (`blind/round22/`), the twenty-third (`blind/round23/`), the twenty-fourth (`blind/round24/`), the twenty-fifth (`blind/round25/`), the twenty-sixth (`blind/round26/`), the twenty-seventh (`blind/round27/`), the twenty-eighth (`blind/round28/`), the twenty-ninth (`blind/round29/`), the thirtieth (`blind/round30/`), the thirty-first (`blind/round31/`), the thirty-second (`blind/round32/`), the thirty-third (`blind/round33/`), the thirty-fourth (`blind/round34/`) and the thirty-fifth (`blind/round35/`; these twenty-two MusicBrainz and AdventureWorks only) are split again, so that tuning can
 * go on with questions the engine was not fitted to.
 */
const ROUNDS: ReadonlyArray<{ dir: string; suffix: string }> = [
  { dir: BLIND_DIR, suffix: '-blind' },
  { dir: path.join(BLIND_DIR, 'round2'), suffix: '-blind2' },
  { dir: path.join(BLIND_DIR, 'round3'), suffix: '-blind3' },
  { dir: path.join(BLIND_DIR, 'round4'), suffix: '-blind4' },
  { dir: path.join(BLIND_DIR, 'round5'), suffix: '-blind5' },
  { dir: path.join(BLIND_DIR, 'round6'), suffix: '-blind6' },
  { dir: path.join(BLIND_DIR, 'round7'), suffix: '-blind7' },
  { dir: path.join(BLIND_DIR, 'round8'), suffix: '-blind8' },
  { dir: path.join(BLIND_DIR, 'round9'), suffix: '-blind9' },
  { dir: path.join(BLIND_DIR, 'round10'), suffix: '-blind10' },
  { dir: path.join(BLIND_DIR, 'round11'), suffix: '-blind11' },
  { dir: path.join(BLIND_DIR, 'round12'), suffix: '-blind12' },
  { dir: path.join(BLIND_DIR, 'round13'), suffix: '-blind13' },
  { dir: path.join(BLIND_DIR, 'round14'), suffix: '-blind14' },
  { dir: path.join(BLIND_DIR, 'round15'), suffix: '-blind15' },
  { dir: path.join(BLIND_DIR, 'round16'), suffix: '-blind16' },
  { dir: path.join(BLIND_DIR, 'round17'), suffix: '-blind17' },
  { dir: path.join(BLIND_DIR, 'round18'), suffix: '-blind18' },
  { dir: path.join(BLIND_DIR, 'round19'), suffix: '-blind19' },
  { dir: path.join(BLIND_DIR, 'round20'), suffix: '-blind20' },
  { dir: path.join(BLIND_DIR, 'round21'), suffix: '-blind21' },
  { dir: path.join(BLIND_DIR, 'round22'), suffix: '-blind22' },
  { dir: path.join(BLIND_DIR, 'round23'), suffix: '-blind23' },
  { dir: path.join(BLIND_DIR, 'round24'), suffix: '-blind24' },
  { dir: path.join(BLIND_DIR, 'round25'), suffix: '-blind25' },
  { dir: path.join(BLIND_DIR, 'round26'), suffix: '-blind26' },
  { dir: path.join(BLIND_DIR, 'round27'), suffix: '-blind27' },
  { dir: path.join(BLIND_DIR, 'round28'), suffix: '-blind28' },
  { dir: path.join(BLIND_DIR, 'round29'), suffix: '-blind29' },
  { dir: path.join(BLIND_DIR, 'round30'), suffix: '-blind30' },
  { dir: path.join(BLIND_DIR, 'round31'), suffix: '-blind31' },
  { dir: path.join(BLIND_DIR, 'round32'), suffix: '-blind32' },
  { dir: path.join(BLIND_DIR, 'round33'), suffix: '-blind33' },
  { dir: path.join(BLIND_DIR, 'round34'), suffix: '-blind34' },
  { dir: path.join(BLIND_DIR, 'round35'), suffix: '-blind35' },
];

/**
 * Rounds kept out of tuning in both halves, as a second held-out measure: the tuning aids (dev-compare, devmiss,
 * explain) leave their dev halves alone too.
 */
export const UNTUNED_ROUNDS: readonly string[] = ['-blind11', '-blind12'];

/** Whether a blind set belongs to a round that no tuning decision may look at. */
export function isUntuned(setName: string): boolean {
  return UNTUNED_ROUNDS.some((suffix) => setName.endsWith(suffix));
}

/** The database a blind set's questions are asked of (`musicbrainz` for `musicbrainz-blind12`), or null for another set. */
export function blindDatabase(setName: string): string | null {
  return /^(.+)-blind\d*$/.exec(setName)?.[1] ?? null;
}

/** One of the three parts a blind database's goal is read from, with the halves of its sets that make it up. */
export interface GoalPart<S> {
  readonly label: 'held-out' | 'dev' | 'untuned rounds';
  readonly halves: S[];
  /** Whether the goal is judged on this part (the held-out halves of the rounds open to tuning). */
  readonly judged: boolean;
}

/**
 * Every blind round of database `db` pooled three ways: the held-out halves of the rounds open to tuning (the goal is
 * judged on these), their dev halves, and both halves of the untuned rounds. `half` gives a set's result for one half,
 * or null when the set has none; a part with no halves is left out.
 */
export function goalParts<R extends { readonly name: string }, S>(results: readonly R[], db: string, half: (r: R, split: 'dev' | 'heldOut') => S | null): GoalPart<S>[] {
  const sets = results.filter((r) => blindDatabase(r.name) === db);
  const tuned = sets.filter((r) => !isUntuned(r.name));
  const untuned = sets.filter((r) => isUntuned(r.name));
  const halves = (list: readonly R[], splits: ReadonlyArray<'dev' | 'heldOut'>): S[] => list.flatMap((r) => splits.map((x) => half(r, x)).filter((h): h is S => h !== null));
  const parts: GoalPart<S>[] = [
    { label: 'held-out', halves: halves(tuned, ['heldOut']), judged: true },
    { label: 'dev', halves: halves(tuned, ['dev']), judged: false },
    { label: 'untuned rounds', halves: halves(untuned, ['dev', 'heldOut']), judged: false },
  ];
  return parts.filter((p) => p.halves.length > 0);
}

/** The blind sets that have both questions and gold labels, on the catalogs of `ownSets()`. */
export function blindSets(catalogs: readonly BenchSet[] = ownSets()): BenchSet[] {
  return ROUNDS.flatMap(({ dir, suffix }) => roundSets(dir, suffix, catalogs));
}

function roundSets(dir: string, suffix: string, catalogs: readonly BenchSet[]): BenchSet[] {
  const out: BenchSet[] = [];
  for (const cat of catalogs) {
    const qFile = path.join(dir, `${cat.name}.json`);
    const gFile = path.join(dir, `gold-${cat.name}.json`);
    if (!existsSync(qFile) || !existsSync(gFile)) continue;
    const gold = (JSON.parse(readFileSync(gFile, 'utf8')) as GoldFile).gold;
    const known = new Set(cat.tables.map((t) => `${t.table.schema}.${t.table.name}`));
    const questions: BenchQuestion[] = [];
    for (const q of readQuestions(qFile)) {
      const tables = gold[q.id];
      const text = q.question ?? q.text;
      if (tables === undefined || text === undefined) throw new Error(`${gFile}: no gold or text for ${q.id}`);
      // `a|b`: either table answers the question (two equally valid joins).
      const groups = tables.map((entry) => entry.split('|'));
      for (const t of groups.flat()) if (!known.has(t)) throw new Error(`${gFile}: ${q.id} names unknown table ${t}`);
      questions.push({ id: q.id, text, source: undefined, gold: groups.map((g) => g.map((t) => key(cat.name, t))), dev: (q.split ?? '').toLowerCase() === 'dev', ...(q.style === undefined ? {} : { style: q.style }) });
    }
    const dev = questions.filter((q) => q.dev).length;
    out.push({
      name: `${cat.name}${suffix}`,
      note: `${cat.note.replace(/; \d+ hand-written questions$/, '')}; ${questions.length} blind questions (${dev > 0 ? `${dev} dev` : 'held out as a whole'}), gold labelled from the schema before any ranking run`,
      tables: cat.tables,
      questions,
    });
  }
  return out;
}

/** A set the tuning aids run on the dev questions of, the group its figures pool into and the metric they count. */
export interface TuningSet {
  readonly set: BenchSet;
  readonly group: string;
  /** `full10`: complete answers of ten (blind databases); `r5`: recall at five (Spider, BIRD, Spider 2.0-lite). */
  readonly metric: 'full10' | 'r5';
}

/**
 * The sets tuning may look at (dev-compare.ts, ablation.ts): every blind round open to tuning (UNTUNED_ROUNDS left
 * out) grouped by database, then, unless `blindOnly`, Spider and BIRD per database and Spider 2.0-lite. Only their dev
 * questions are to be run.
 */
export function tuningSets(blindOnly = false): TuningSet[] {
  return [
    ...blindSets(ownSets())
      .filter((set) => !isUntuned(set.name))
      .map((set) => ({ set, group: blindDatabase(set.name) ?? set.name, metric: 'full10' as const })),
    ...(blindOnly
      ? []
      : [
          ...spiderSets().filter((s) => s.name === 'spider-dev-per-db').map((set) => ({ set, group: 'spider per database', metric: 'r5' as const })),
          ...birdSets().filter((s) => s.name === 'bird-dev-per-db').map((set) => ({ set, group: 'bird per database', metric: 'r5' as const })),
          { set: spider2Set(), group: 'spider 2.0-lite', metric: 'r5' as const },
        ]),
  ];
}
