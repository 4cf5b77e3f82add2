/**
 * What an answer shows besides its order: the reasons and matched columns of a hit (explain), and the answers given
 * without a ranking: every table in scope for '*' (listAll), or, when no word of the question matched, the central
 * tables with the map of the catalog's areas (noMatch).
 */
import { cachedConcepts, cachedTerms, type IndexData } from './build';
import { schemaAreas } from './areas';
import { isThesaurusConcept } from './lexicon';
import type { ParsedQuery } from './query';
import { stem, textTerms } from './tokenize';
import type { SchemaArea, SearchHit, SearchOptions, SearchResult } from './types';
import { RANKING } from './ranking';
import type { QueryState } from './query-state';
import { besides, isFraming, laterSenses, NO_WORDS, wordConcepts } from './question-words';
import { isThing, isTypingRecord } from './table-shape';
import { joinTree } from './key-paths';

/** The tables of things in scope (entities, and junctions that name their rows), most joined first (every table in scope where there are none). */
export function centralTables(data: IndexData, allowed: (d: number) => boolean): number[] {
  const ds: number[] = [];
  for (let d = 0; d < data.docs.length; d++) if (allowed(d) && isThing(data, d)) ds.push(d);
  if (ds.length === 0) for (let d = 0; d < data.docs.length; d++) if (allowed(d)) ds.push(d);
  const degree = new Map<number, number>();
  for (const d of ds) degree.set(d, centralLinks(data, d));
  ds.sort((x, y) => degree.get(y)! - degree.get(x)! || data.order[x]! - data.order[y]!);
  return ds;
}

export function centralWhy(data: IndexData, d: number): string {
  return `a central table (${centralLinks(data, d)} foreign-key links)`;
}

/**
 * How many FK links join a table to others; for a record with no name of its own that qualifies junctions
 * (isQualifierRecord), the junctions that point at it are not counted: `link`, with 109 links all but a few from `l_*` relationship rows, is their type,
 * not the centre of the catalog.
 */
function centralLinks(data: IndexData, d: number): number {
  if (!(RANKING.centralThings > 0) || !isTypingRecord(data, d)) return data.edges[d]!.length;
  let n = 0;
  for (const e of data.edges[d]!) if (e.outgoing || data.docs[e.to]!.role !== 'bridge') n++;
  return n;
}

/**
 * Never a dead end: a question none of whose words the catalog knows gets the most connected tables in scope as
 * candidates and the map of the catalog's areas, so the caller can browse rather than stop.
 */
export function noMatch(data: IndexData, parsed: ParsedQuery, allowed: (d: number) => boolean, limit: number, opts: SearchOptions, reason: 'no_match' | 'no_words' = 'no_match'): SearchResult {
  // A question that names someone, somewhere or something ("remixes of Blue Monday") asks about a row of a table that
  // can hold that name: those come first, most joined first.
  const holds = namedHolder(data, parsed);
  const central = centralTables(data, allowed);
  const top = (holds === null ? central : [...central.filter(holds.test), ...central.filter((d) => !holds.test(d))]).slice(0, limit);
  const lead = reason === 'no_words' ? 'the question has no word to search for' : 'no word of the question matched';
  const hits: SearchHit[] = top.map((d, i) => ({
    sourceName: data.docs[d]!.source,
    qualifiedName: data.docs[d]!.qualifiedName,
    score: round(0.2 * (1 - i / Math.max(1, top.length))),
    why: [holds?.test(d) ? `${lead}; a central table that can hold ${holds.what}` : `${lead}; ${centralWhy(data, d)}`],
    matchedColumns: [],
  }));
  const result: SearchResult = {
    hits,
    totalMatches: 0,
    terms: parsed.terms.map((t) => t.term),
    ...(top.length > 0 ? { fallback: { reason, areas: cachedAreas(data, opts, allowed) } } : {}),
  };
  return opts.withJoinTree ? { ...result, joinTree: joinTree(data, top) } : result;
}

/** Which tables can hold what the question names: people, places, or titles of things (tables with names of their own). */
function namedHolder(data: IndexData, parsed: ParsedQuery): { test: (d: number) => boolean; what: string } | null {
  const person = parsed.mentions.find((m) => m.kind === 'person');
  if (person !== undefined) return { test: (d) => data.personTable[d]! > 0, what: `people, for '${person.text}'` };
  const place = parsed.mentions.find((m) => m.kind === 'place');
  if (place !== undefined) return { test: (d) => data.placeTable[d]! > 0, what: `places, for '${place.text}'` };
  const title = parsed.titles[0];
  if (title !== undefined) return { test: (d) => data.docs[d]!.hasName && data.personTable[d]! === 0 && data.placeTable[d]! === 0, what: `names of things, for '${title}'` };
  return null;
}

export function cachedAreas(data: IndexData, opts: SearchOptions, allowed: (d: number) => boolean): readonly SchemaArea[] {
  const key = `${opts.source ?? ''}\u0000${opts.schema ?? ''}`;
  let areas = data.areaCache.get(key);
  if (areas === undefined) {
    areas = schemaAreas(data, allowed);
    if (data.areaCache.size > 64) data.areaCache.clear();
    data.areaCache.set(key, areas);
  }
  return areas;
}

/** Reasons and matched columns for one returned hit, recomputed from the table itself. */
export function explain(data: IndexData, parsed: ParsedQuery, st: QueryState, d: number): { why: string[]; columns: string[] } {
  const doc = data.docs[d]!;
  const t = doc.table;
  const reasons: Array<{ weight: number; text: string }> = [];
  const colWeight = new Map<string, number>();
  const termsOf = (name: string) => cachedTerms(data.termCache, data.vocab, name);
  const conceptsOf = (w: string) => cachedConcepts(data.conceptCache, data.lexicon, w);
  const nameTerms = termsOf(t.name);
  const schemaTerms = termsOf(t.schema);
  // Tokenised once per table and kept (bounded): wide tables have hundreds of described columns, and the same
  // tables come back for query after query.
  let tok = data.explainCache.get(d);
  if (tok === undefined) {
    tok = {
      commentTerms: t.comment ? textTerms(t.comment) : [],
      columnTerms: t.columns.map((c) => new Set(termsOf(c.name).map((x) => x.term))),
      columnCommentTerms: t.columns.map((c) => (c.comment ? new Set(textTerms(c.comment).map((x) => x.term)) : null)),
    };
    if (data.explainCache.size >= 1024) data.explainCache.clear();
    data.explainCache.set(d, tok);
  }
  const { commentTerms, columnTerms, columnCommentTerms } = tok;
  for (const qt of parsed.terms) {
    const w = qt.surface;
    const has = (terms: ReadonlyArray<{ term: string }>): boolean => terms.some((x) => x.term === qt.term);
    const cols = t.columns.filter((_, i) => columnTerms[i]!.has(qt.term)).map((c) => c.name);
    const commentCols = t.columns.filter((_, i) => columnCommentTerms[i]?.has(qt.term) === true).map((c) => c.name);
    const sem = doc.semantic.find((s) => has(s.terms));
    let text: string | null = null;
    let weight = 1;
    if (has(nameTerms)) [text, weight] = [`name matches '${w}'`, 3];
    else if (sem !== undefined) [text, weight] = [`${sem.label} matches '${w}'`, 2.5];
    else if (has(commentTerms)) [text, weight] = [`comment mentions '${w}'`, 1.5];
    else if (cols.length > 0) [text, weight] = [`column ${cols.slice(0, 2).join(', ')} matches '${w}'`, 1.2];
    else if (commentCols.length > 0) [text, weight] = [`comment on ${commentCols[0]} mentions '${w}'`, 0.8];
    else if (has(schemaTerms)) [text, weight] = [`schema matches '${w}'`, 0.5];
    else {
      const role = data.roleWords[d]?.find((r) => termsOf(r.word).some((x) => x.term === qt.term));
      if (role !== undefined) [text, weight] = [`referenced as '${role.word}' by ${role.via}`, 1.4];
    }
    for (const c of [...cols, ...commentCols]) colWeight.set(c, (colWeight.get(c) ?? 0) + weight);
    if (text === null && qt.part !== true && !isFraming(w) && !st.literal.has(w)) {
      const id = data.postings.termIds.get(qt.term);
      const literal = id !== undefined && data.postings.start[id + 1]! > data.postings.start[id]!;
      // The senses the ranking read (wordConcepts): a word of a name or a title reads none, or only a kind of thing.
      const qc = new Set([...wordConcepts(data, parsed, qt), ...(literal ? [] : laterSenses(data, parsed, qt))]);
      const lemma = data.lexicon.lemma(w);
      if (qc.size === 0) {
        // A longer word the ranking read as made on a catalog word (prefixBase): "filmography" → `film`.
        const base = st.prefixes.get(w);
        const nameWord = base === undefined ? undefined : nameTerms.find((x) => x.term === base);
        if (nameWord !== undefined) reasons.push({ weight: 2 * qt.weight, text: `word made on '${nameWord.surface}': ${w}` });
        continue;
      }
      const near = RANKING.ownWordsOnce > 0 ? besides(parsed, qt) : NO_WORDS;
      const related = (word: string): boolean => conceptsOf(word).some((c) => qc.has(c)) && (near.size === 0 || !near.has(stem(word)));
      const viaThesaurus = (word: string): boolean => conceptsOf(word).some((c) => isThesaurusConcept(c) && qc.has(c));
      const kind = (word: string): string => (viaThesaurus(word) ? 'synonym' : 'related word');
      const nameWord = nameTerms.find((x) => related(x.surface));
      if (nameWord !== undefined) [text, weight] = [`${kind(nameWord.surface)} ${lemma}→${nameWord.surface}`, 2];
      else {
        const col = t.columns.find((c) => termsOf(c.name).some((x) => related(x.surface)));
        if (col !== undefined) {
          const word = termsOf(col.name).find((x) => related(x.surface))!.surface;
          [text, weight] = [`${kind(word)} ${lemma}→${word} in ${col.name}`, 0.9];
          colWeight.set(col.name, (colWeight.get(col.name) ?? 0) + weight);
        } else {
          const cw = commentTerms.find((x) => related(x.surface));
          if (cw !== undefined) [text, weight] = [`comment: ${kind(cw.surface)} ${lemma}→${cw.surface}`, 0.8];
        }
      }
    }
    if (text !== null) reasons.push({ weight: weight * qt.weight, text });
  }
  for (const r of st.extra.get(d) ?? []) {
    reasons.push({ weight: r.show ?? (r.text.startsWith('value') ? 2.8 : 2.6), text: r.text });
    if (r.column !== undefined) colWeight.set(r.column, (colWeight.get(r.column) ?? 0) + 3);
  }
  const seenText = new Set<string>();
  const why = reasons
    .sort((x, y) => y.weight - x.weight || (x.text < y.text ? -1 : 1))
    .filter((r) => (seenText.has(r.text) ? false : (seenText.add(r.text), true)))
    .slice(0, 5)
    .map((r) => r.text);
  if (why.length === 0) why.push('weak match on table text');
  const columns = [...colWeight.entries()]
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
    .slice(0, 8)
    .map(([c]) => c);
  return { why, columns };
}

export function listAll(data: IndexData, allowed: (d: number) => boolean, limit: number, opts: SearchOptions): SearchResult {
  const ds: number[] = [];
  for (let d = 0; d < data.docs.length; d++) if (allowed(d)) ds.push(d);
  ds.sort((x, y) => data.edges[y]!.length - data.edges[x]!.length || data.order[x]! - data.order[y]!);
  const hits = ds.slice(0, limit).map((d) => ({
    sourceName: data.docs[d]!.source,
    qualifiedName: data.docs[d]!.qualifiedName,
    score: 1,
    why: [`listed by '*' (${data.edges[d]!.length} foreign-key links)`],
    matchedColumns: [],
  }));
  const result: SearchResult = { hits, totalMatches: ds.length, terms: [] };
  return opts.withJoinTree ? { ...result, joinTree: joinTree(data, ds.slice(0, limit)) } : result;
}

export function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
