/**
 * Facts about a table's shape, read from its name, keys and the frame's flags and worked out once per index (memoised
 * per IndexData, or kept in DocDerived): things, kind lists, typing and qualifier records, the relationship hub and its
 * junctions, tables of custom attributes, shared vocabularies, wholes and ordered parts, subset tables, copies and
 * tables set apart, a table's own columns and their words, and the labels a code list holds.
 */
import type { ColumnInfo } from '../catalog/model';
import { cachedConcepts, cachedTerms, mayHoldText, type DocData, type DocDerived, type IndexData } from './build';
import { isThesaurusConcept } from './lexicon';
import type { Mention } from './query';
import { stem } from './tokenize';
import { RANKING } from './ranking';
import { thesaurusConcepts } from './question-words';

/** Whether a table is a code list whose name ends in the word whose stem is `term` (`medium_format` for "format"). */
export function isListOf(doc: DocData, term: string): boolean {
  return doc.role === 'lookup' && doc.nameStems[doc.nameStems.length - 1] === term;
}

/** Whether a table's name is the one word whose stem is `term` (`release` for "releas"). */
export function isWholeName(doc: DocData, term: string): boolean {
  return doc.nameStems.length === 1 && doc.nameStems[0] === term;
}

/** The stems that are some table's whole name (isWholeName), worked out once per index. */
const wholeNamesMemo = new WeakMap<IndexData, ReadonlySet<string>>();
export function wholeNameStems(data: IndexData): ReadonlySet<string> {
  let names = wholeNamesMemo.get(data);
  if (names === undefined) {
    names = new Set(data.docs.flatMap((doc) => (doc.nameStems.length === 1 ? [doc.nameStems[0]!] : [])));
    wholeNamesMemo.set(data, names);
  }
  return names;
}

/** The tables that hold people or places, and how surely each does (0 when it does not). */
export function holdersOf(data: IndexData, kind: Mention['kind']): { docs: Int32Array; strength: Float32Array } {
  return kind === 'person' ? { docs: data.personDocs, strength: data.personTable } : { docs: data.placeDocs, strength: data.placeTable };
}

/** The column holds a code list's labels (a small table read whole; see ColumnInfo.codeValues). */
export function isCodeColumn(data: IndexData, d: number, column: string): boolean {
  return data.docs[d]!.table.columns.some((c) => c.name === column && c.codeValues !== undefined);
}

/**
 * Whether a code list's labels, all known (a small table read whole: ColumnInfo.codeValues), rule out that it holds
 * any of `words`: no label has a word of the same stem or a related one. Guessing that `language` may hold
 * 'radiohead' is then no guess: the catalog has read every language it holds.
 */
export function labelsRefute(data: IndexData, d: number, words: readonly string[]): boolean {
  if (!(RANKING.knownLabels > 0) || words.length === 0) return false;
  const known = labelWords(data, d);
  if (known === null) return false;
  const { stems, concepts } = known;
  return words.every((phrase) =>
    phrase
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 0)
      .every((w) => !stems.has(stem(w)) && !cachedConcepts(data.conceptCache, data.lexicon, w).some((c) => concepts.has(c))),
  );
}

const labelMemo = new WeakMap<IndexData, Map<number, { stems: ReadonlySet<string>; concepts: ReadonlySet<string> } | null>>();

/** The stems and concepts of the words of a code list's labels (ColumnInfo.codeValues), or null when none were read. */
function labelWords(data: IndexData, d: number): { stems: ReadonlySet<string>; concepts: ReadonlySet<string> } | null {
  let memo = labelMemo.get(data);
  if (memo === undefined) {
    memo = new Map();
    labelMemo.set(data, memo);
  }
  let known = memo.get(d);
  if (known === undefined) {
    const labels = data.docs[d]!.table.columns.flatMap((c) => c.codeValues ?? []);
    const words = new Set(labels.flatMap((l) => l.toLowerCase().split(/[^\p{L}\p{N}]+/u)).filter((w) => w.length > 0));
    known = labels.length === 0 ? null : { stems: new Set([...words].map((w) => stem(w))), concepts: new Set([...words].flatMap((w) => cachedConcepts(data.conceptCache, data.lexicon, w))) };
    memo.set(d, known);
  }
  return known;
}

/**
 * The table the catalog keeps compositions in: a named table whose name is one word of the thesaurus group of
 * compositions (`work`), worked out once per index; -1 when there is none, or more than one.
 */
const compositionMemo = new WeakMap<IndexData, number>();
export function compositionTable(data: IndexData, allowed: (d: number) => boolean): number {
  let found = compositionMemo.get(data);
  if (found === undefined) {
    const group = thesaurusConcepts(data, 'composition');
    const hits = data.docs.flatMap((doc, d) => (doc.role !== 'bridge' && doc.role !== 'auxiliary' && doc.hasName && !doc.derived && doc.nameWords.length === 1 && cachedConcepts(data.conceptCache, data.lexicon, doc.nameWords[0]!).some((c) => group.has(c)) ? [d] : []));
    found = hits.length === 1 ? hits[0]! : -1;
    compositionMemo.set(data, found);
  }
  return found >= 0 && allowed(found) ? found : -1;
}

/**
 * The typed relationship (isTypedRelation) of `whole` with the catalog's strongest table of people (`l_artist_release`
 * of `release`), -1 when there is none or more than one.
 */
export function creditJunction(data: IndexData, whole: number, allowed: (d: number) => boolean): number {
  let best = -1;
  let strength = 0;
  let ties = 0;
  for (const e of data.edges[whole]!) {
    const j = e.to;
    if (e.outgoing || j === whole || !allowed(j) || !isTypedRelation(data, j)) continue;
    for (const e2 of data.edges[j]!) {
      const p = e2.to;
      if (!e2.outgoing || p === whole || p === j || !isPeopleEntity(data, p)) continue;
      const s = data.personTable[p]!;
      if (s > strength) [best, strength, ties] = [j, s, 0];
      else if (s === strength && j !== best) ties++;
    }
  }
  return ties === 0 ? best : -1;
}

/** A junction whose rows are typed by a shared relationship record (isTypingRecord): `l_artist_recording` → `link`. */
export function isTypedRelationship(data: IndexData, d: number): boolean {
  for (const e of data.edges[d]!) if (e.outgoing && e.to !== d && isTypingRecord(data, e.to)) return true;
  return false;
}

/**
 * The named tables that chains of ordered parts lead up to (`track` → `medium` → `release`), most chains first, worked
 * out once per index; mainWhole takes the first the search may return, or -1.
 */
const wholesMemo = new WeakMap<IndexData, readonly number[]>();
export function mainWhole(data: IndexData, allowed: (d: number) => boolean): number {
  let order = wholesMemo.get(data);
  if (order === undefined) {
    const count = new Map<number, number>();
    for (let d = 0; d < data.docs.length; d++) {
      if (data.docs[d]!.role === 'auxiliary' || !isOrderedPart(data, d)) continue;
      const chain = wholesOf(data, d, () => true);
      const top = chain[chain.length - 1];
      if (top === undefined || isOrderedPart(data, top) || !data.docs[top]!.hasName || data.docs[top]!.role === 'lookup' || data.docs[top]!.role === 'auxiliary') continue;
      // Longer chains say more surely that the top holds the others.
      count.set(top, (count.get(top) ?? 0) + 1 + chain.length);
    }
    order = [...count.keys()].sort((a, b) => count.get(b)! - count.get(a)! || data.order[a]! - data.order[b]!);
    wholesMemo.set(data, order);
  }
  return order.find(allowed) ?? -1;
}

/** A table whose rows are kept in order within something: a column says where (DocData.ordered, from the frame). */
export function isOrderedPart(data: IndexData, d: number): boolean {
  return data.docs[d]!.ordered;
}

/**
 * The tables an ordered part belongs to, nearest first, up to the whole (`track` → `medium` → `release`): from each
 * table, the one table it points at that is itself ordered, and past the first step the one table it points at (code
 * lists and auxiliary tables aside). Empty when the way up is not one table.
 */
export function wholesOf(data: IndexData, d: number, allowed: (d: number) => boolean): number[] {
  const out: number[] = [];
  const seen = new Set([d]);
  let at = d;
  for (let step = 0; step < 3; step++) {
    const ups = data.edges[at]!.filter((e) => e.outgoing && !seen.has(e.to) && allowed(e.to) && data.docs[e.to]!.role !== 'lookup' && data.docs[e.to]!.role !== 'auxiliary').map((e) => e.to);
    const ordered = [...new Set(ups.filter((u) => isOrderedPart(data, u)))];
    const single = [...new Set(ups)];
    const up = ordered.length === 1 ? ordered[0]! : step > 0 && single.length === 1 ? single[0]! : -1;
    if (up < 0) break;
    out.push(up);
    seen.add(up);
    if (!isOrderedPart(data, up)) break;
    at = up;
  }
  return out;
}

const bareMemo = new WeakMap<IndexData, Uint8Array>();

/** The catalog's marks of bare tables of keys (isBareSupertype fills them as it is asked), or null when the rule is off. */
export function bareMarks(data: IndexData): Uint8Array | null {
  return RANKING.subtypeSiblings > 0 ? marksOf(data, bareMemo) : null;
}

/** One mark per table of the catalog, kept with the index (0 while a fact about the table is not yet worked out). */
function marksOf(data: IndexData, memo: WeakMap<IndexData, Uint8Array>): Uint8Array {
  let marks = memo.get(data);
  if (marks === undefined) {
    marks = new Uint8Array(data.docs.length);
    memo.set(data, marks);
  }
  return marks;
}

/**
 * Whether a table is only the shared key of its subtypes: no name of its own, no key to another table, and at least
 * two tables are subtypes of it (AdventureWorks `businessentity` of `person`, `vendor`, `store`). A join through it
 * equates their keys, so the tables on either side join each other directly: it is no table a question needs between
 * them.
 */
export function isBareSupertype(data: IndexData, d: number, marks: Uint8Array | null = bareMarks(data)): boolean {
  if (marks === null) return false;
  if (marks[d] === 0) {
    // 1: bare, 2: not. Keys, shape and the frame's flags only: no table is read.
    const doc = data.docs[d]!;
    const edges = data.edges[d]!;
    let bare = doc.role === 'entity' && !doc.isBridge && edges.every((e) => !e.outgoing) && edges.length >= 2 && !doc.hasName;
    if (bare) {
      let subtypes = 0;
      for (const e of edges) if (e.to !== d && e.subtype) subtypes++;
      bare = subtypes >= 2;
    }
    marks[d] = bare ? 1 : 2;
  }
  return marks[d] === 1;
}

/** Last words of a code list that sorts the rows of the table it qualifies into kinds (`place_type`, `product_category`). */
const KIND_WORDS: ReadonlySet<string> = new Set(['type', 'kind', 'category', 'subcategory', 'class', 'classification']);

/** A code list named as a list of kinds (`place_type`, `contacttype`, `link_type`). */
export function isKindList(data: IndexData, d: number): boolean {
  const doc = data.docs[d]!;
  return doc.role === 'lookup' && KIND_WORDS.has(doc.nameParts[doc.nameParts.length - 1]!);
}

/** Junctions that must point at a table for it to be a hub of relationships. */
const HUB_MIN_JUNCTIONS = 5;
const hubMemo = new WeakMap<IndexData, { hub: number; list: number } | null>();

/**
 * The catalog's hub of typed relationships, if it has one: a table with no name of its own that many junctions point
 * at and that points at a kind list (MusicBrainz: `link` → `link_type`, the `l_<a>_<b>` tables pointing at `link`;
 * `artist`, which they also point at, has a name). The one with most junctions.
 */
export function relationHub(data: IndexData): { hub: number; list: number } | null {
  let found = hubMemo.get(data);
  if (found !== undefined) return found;
  found = null;
  let most = HUB_MIN_JUNCTIONS - 1;
  data.docs.forEach((doc, h) => {
    if (doc.role === 'bridge' || doc.role === 'lookup') return;
    const junctions = data.edges[h]!.filter((e) => !e.outgoing && e.to !== h && data.docs[e.to]!.role === 'bridge').length;
    if (junctions <= most) return;
    const list = data.edges[h]!.find((e) => e.outgoing && e.to !== h && isKindList(data, e.to));
    if (list === undefined || doc.hasName) return;
    most = junctions;
    found = { hub: h, list: list.to };
  });
  hubMemo.set(data, found);
  return found;
}

/**
 * Whether a junction is a typed relationship: one that points at the catalog's relationship hub (MusicBrainz
 * `l_genre_recording` → `link`). Its ends are things related to each other in some way its type names (a genre, a
 * mood), not a list of kinds the rows are sorted by, as behind a plain junction (`release_group_secondary_type_join`).
 */
function isTypedRelation(data: IndexData, j: number): boolean {
  if (!(RANKING.relatedNoList > 0)) return false;
  return shapeMark(data, typedMemo, j, () => {
    const rel = relationHub(data);
    return rel !== null && j !== rel.hub && data.edges[j]!.some((e) => e.outgoing && e.to === rel.hub);
  });
}

const typedMemo = new WeakMap<IndexData, Uint8Array>();
const attributeTableMemo = new WeakMap<IndexData, Uint8Array>();

/** A fact about a table's shape, worked out once per index: 1 yes, 2 no, 0 not yet asked. */
function shapeMark(data: IndexData, memo: WeakMap<IndexData, Uint8Array>, d: number, compute: () => boolean): boolean {
  const marks = marksOf(data, memo);
  if (marks[d] === 0) marks[d] = compute() ? 1 : 2;
  return marks[d] === 1;
}

/**
 * Whether the code lists behind a junction may sort the rows of its other end into kinds, and so hold a word of the
 * question: a plain junction (`release_group_secondary_type_join`), not a typed relationship or a table of custom
 * attributes, whose lists name relationships or attributes.
 */
export function sortsIntoLists(data: IndexData, j: number): boolean {
  return data.docs[j]!.role === 'bridge' && !isTypedRelation(data, j) && !isAttributeTable(data, j);
}

/**
 * Whether a list is a vocabulary the whole catalog shares: three or more junctions point at it (MusicBrainz `tag`,
 * through `artist_tag`, `recording_tag`, `release_tag`…). Any thing may carry any of its words, so a word of the
 * question that the catalog does not hold is no more likely there than anywhere: it is offered no guess.
 */
export function isSharedVocabulary(data: IndexData, l: number): boolean {
  return RANKING.sharedLists > 0 && junctionsAt(data, l) >= SHARED_LIST_JUNCTIONS;
}

/** Junctions that must point at a list for it to be a vocabulary shared across the catalog. */
const SHARED_LIST_JUNCTIONS = 3;

/**
 * Whether a junction holds custom attributes of a thing: it points at a list named after itself and a word of kinds
 * (MusicBrainz `artist_attribute` → `artist_attribute_type`). The thing's own columns and tables hold what a
 * question asks of it; such a table is a second, open-ended store that questions seldom mean.
 */
export function isAttributeTable(data: IndexData, d: number): boolean {
  const doc = data.docs[d]!;
  if (!(RANKING.attributeTables > 0) || !doc.isBridge || doc.nameWords.length < 2) return false;
  return shapeMark(data, attributeTableMemo, d, () =>
    data.edges[d]!.some((e) => {
      if (!e.outgoing || e.to === d) return false;
      const words = data.docs[e.to]!.nameWords;
      return words.length === doc.nameWords.length + 1 && doc.nameWords.every((w, i) => words[i] === w) && /^(?:type|kind)$/.test(words[words.length - 1]!);
    }),
  );
}

const sideMemo = new WeakMap<IndexData, Uint8Array>();

/**
 * Junctions of the hub of typed relationships whose two ends the catalog also joins without one, in at most one join
 * more (MusicBrainz: `l_area_artist` beside `artist.area`, `l_recording_release` beside `track` → `medium`,
 * `l_release_release_group` beside `release.release_group`). Their names only repeat their ends: they are a second,
 * rarer way between tables the question joins the plain way unless it names the kind of relationship.
 */
export function sideJunctions(data: IndexData): Uint8Array {
  let side = sideMemo.get(data);
  if (side !== undefined) return side;
  side = new Uint8Array(data.docs.length);
  sideMemo.set(data, side);
  const rel = relationHub(data);
  if (rel === null) return side;
  const n = data.docs.length;
  // Which tables are junctions of the hub (the hub itself counts), worked out once.
  const junction = new Uint8Array(n);
  junction[rel.hub] = 1;
  for (const e of data.edges[rel.hub]!) if (!e.outgoing && data.docs[e.to]!.role === 'bridge') junction[e.to] = 1;
  // A table reached along an outgoing or an incoming key, as [2 × table + direction]: marked with the number of the
  // junction whose walk reached it, so no walk clears the marks of the one before.
  const seen = new Int32Array(2 * n);
  let walk = 0;
  for (const e of data.edges[rel.hub]!) {
    const j = e.to;
    if (e.outgoing || j === rel.hub || junction[j] === 0) continue;
    const ends = [...new Set(data.edges[j]!.filter((x) => x.outgoing && x.to !== rel.hub && x.to !== j).map((x) => x.to))];
    if (ends.length !== 2) continue;
    // Up to one join more than the junction's two, never through a typed relationship or an auxiliary table, and
    // never down to a shared target and back up (`artist` → `area` ← `place` says both are somewhere, not related).
    walk++;
    let frontier: Array<[number, boolean]> = [[ends[0]!, false]];
    seen[2 * ends[0]!] = walk;
    let found = false;
    for (let depth = 0; depth < 3 && frontier.length > 0 && !found; depth++) {
      const next: Array<[number, boolean]> = [];
      for (const [u, down] of frontier) {
        for (const x of data.edges[u]!) {
          if (down && !x.outgoing && data.docs[x.to]!.role !== 'bridge') continue;
          if (x.to === ends[1]) found = true;
          const k = 2 * x.to + (x.outgoing ? 1 : 0);
          if (seen[k] === walk || junction[x.to] === 1 || data.docs[x.to]!.role === 'auxiliary') continue;
          seen[k] = walk;
          next.push([x.to, x.outgoing]);
        }
      }
      frontier = next;
    }
    if (found) side[j] = 1;
  }
  return side;
}

export function isPeopleEntity(data: IndexData, d: number): boolean {
  return data.personTable[d]! > 0 && data.docs[d]!.role === 'entity';
}

const relationPeopleMemo = new WeakMap<IndexData, ReadonlyMap<number, number>>();

/** The tables of people that junctions of the relationship hub point at, with how many junctions do (a catalog constant). */
export function relationPeople(data: IndexData, hub: number): ReadonlyMap<number, number> {
  let ends = relationPeopleMemo.get(data);
  if (ends !== undefined) return ends;
  const count = new Map<number, number>();
  for (const e of data.edges[hub]!) {
    if (e.outgoing || e.to === hub || data.docs[e.to]!.role !== 'bridge') continue;
    for (const x of data.edges[e.to]!) if (x.outgoing && x.to !== hub && isPeopleEntity(data, x.to)) count.set(x.to, (count.get(x.to) ?? 0) + 1);
  }
  ends = count;
  relationPeopleMemo.set(data, ends);
  return ends;
}

/** Of the tables counted, the one with the highest count in scope (the first in catalog order on a tie), or -1. */
export function mostJoined(data: IndexData, counts: ReadonlyMap<number, number>, allowed: (d: number) => boolean): number {
  let best = -1;
  for (const [d, n] of counts) if (allowed(d) && (best < 0 || n > counts.get(best)! || (n === counts.get(best)! && data.order[d]! < data.order[best]!))) best = d;
  return best;
}

const attributeMemo = new WeakMap<IndexData, { via: number; list: number } | null>();

/**
 * The hub's junction to a list of attributes of its relationships: a junction with two keys, one to the hub and one to
 * another table (not people, not a second end of a relationship), the most referenced such table (MusicBrainz
 * `link_attribute` → `link_attribute_type`, which the credited and text attribute lists point at too), or null.
 */
export function attributeList(data: IndexData, hub: number): { via: number; list: number } | null {
  let found = attributeMemo.get(data);
  if (found !== undefined) return found;
  found = null;
  let most = -1;
  for (const e of data.edges[hub]!) {
    const j = e.to;
    if (e.outgoing || j === hub || data.docs[j]!.role !== 'bridge') continue;
    const outs = data.edges[j]!.filter((x) => x.outgoing && x.to !== j);
    const targets = outs.filter((x) => x.to !== hub).map((x) => x.to);
    if (outs.length !== 2 || targets.length !== 1 || data.personTable[targets[0]!]! > 0) continue;
    const t = targets[0]!;
    const refs = data.edges[t]!.filter((x) => !x.outgoing && x.to !== t).length;
    if (refs > most) {
      most = refs;
      found = { via: j, list: t };
    }
  }
  attributeMemo.set(data, found);
  return found;
}

/**
 * A table of things: an entity, or a table with keys to several others that names its rows (MusicBrainz `release`,
 * which points at its group, status, packaging, language and script, has a name of its own).
 */
export function isThing(data: IndexData, d: number): boolean {
  const doc = data.docs[d]!;
  return doc.role === 'entity' || (doc.role === 'bridge' && doc.hasName);
}

/**
 * A table of `owner`'s own, given that it points at `owner`: its name is the owner's and more (`release_country`,
 * `recording_first_release_date`), and it is no alias, redirect or history of it.
 */
export function isOwnTable(owner: DocData, d: DocData): boolean {
  return d.role !== 'auxiliary' && d.nameParts.length > owner.nameParts.length && owner.nameParts.every((w, i) => d.nameParts[i] === w);
}

/**
 * Stemmed words of a table's column names, and their thesaurus concepts (`rating`: the concept of "score"); not of its
 * keys to other tables (`recording_attribute.recording` holds no recording of its own), nor the table's own name words.
 */
export function columnWords(data: IndexData, d: number): ReadonlySet<string> {
  const out = new Set<string>();
  const doc = data.docs[d]!;
  for (const c of ownColumns(doc)) {
    for (const t of cachedTerms(data.termCache, data.vocab, c.name)) {
      // The table's own name in a column's (`recording_attribute_text`) says whose it is, not what it holds.
      if (doc.nameStems.includes(t.term)) continue;
      out.add(t.term);
      if (RANKING.attributeSynonyms > 0) for (const k of cachedConcepts(data.conceptCache, data.lexicon, t.surface)) if (isThesaurusConcept(k)) out.add(k);
    }
  }
  return out;
}

/** A table's columns other than its keys to other tables (`recording_attribute.recording` holds no recording of its own). */
function ownColumns(doc: DocData): readonly ColumnInfo[] {
  const keys = new Set(doc.table.foreignKeys.flatMap((k) => k.columns));
  return doc.table.columns.filter((c) => !keys.has(c.name));
}

/** Stems of the words of columns that hold a time or a part of one (`date_year`, `begin_time`, `month`). */
const TIME_TERMS: ReadonlySet<string> = new Set(['dat', 'year', 'tim', 'month', 'day', 'hour']);

/** How many of a table's own columns (not its keys) hold a time or a part of one. */
export function timeColumns(data: IndexData, d: number): number {
  return ownColumns(data.docs[d]!).filter((c) => cachedTerms(data.termCache, data.vocab, c.name).some((t) => TIME_TERMS.has(t.term))).length;
}

/** Last words of a table that collects rows of the table named by its other words (`release_group`, `product_set`). */
const COLLECTIVE_WORDS: ReadonlySet<string> = new Set(['group', 'set', 'family', 'collection', 'series', 'batch', 'bundle', 'cluster']);

/** FK degree for the hub prior: an auxiliary table counts its entity's (the whole it belongs to) when that is larger. */
export function hubDegree(data: IndexData, d: number): number {
  const doc = data.docs[d]!;
  if (doc.role !== 'auxiliary') return data.edges[d]!.length;
  const x = derived(data, d);
  if (x.hubDegree === undefined) {
    let degree = data.edges[d]!.length;
    for (const e of data.edges[d]!) if (e.outgoing && e.to !== d && isWholeOf(data.docs[e.to]!, doc)) degree = Math.max(degree, data.edges[e.to]!.length);
    x.hubDegree = degree;
  }
  return x.hubDegree;
}

/**
 * Whether `parent`, which `child` points at, is the whole `child` is part of, by their names:
 * - `release` for `release_country`, `salesorderheader` for `salesorderdetail`: the same words but the last (a
 *   junction such as `artist_tag` belongs to both its ends alike, so only its header sibling counts);
 * - `release_group` for `release`: the same words and a collective one.
 */
export function isWholeOf(parent: DocData, child: DocData): boolean {
  if (parent.role === 'lookup' || parent.role === 'auxiliary') return false;
  const pw = parent.nameParts;
  const words = child.nameParts;
  const sharesFirst = (n: number): boolean => words.slice(0, n).every((w, i) => pw[i] === w);
  if (pw.length === words.length + 1) return COLLECTIVE_WORDS.has(pw[pw.length - 1]!) && sharesFirst(words.length);
  if (words.length < 2 || parent.role !== 'entity') return false;
  const sibling = pw.length === words.length && pw[pw.length - 1] !== words[words.length - 1];
  const sameStem = sibling || (pw.length === words.length - 1 && child.role !== 'bridge');
  return sameStem && sharesFirst(words.length - 1);
}

/** The relations of its own source that a view's SQL names after FROM or JOIN. */
export function viewBases(data: IndexData, v: number): readonly number[] {
  const x = derived(data, v);
  if (x.bases !== undefined) return x.bases;
  const doc = data.docs[v]!;
  const sql = doc.table.viewDefinition ?? '';
  const names = new Set<string>();
  for (const m of sql.matchAll(/\b(?:from|join)\s+([`"\w.$]+)/gi)) {
    const parts = m[1]!.split('.').map((p) => p.replace(/^[`"]|[`"]$/g, '').toLowerCase());
    names.add(parts.slice(-2).join('.'));
    if (parts.length === 1) names.add(`${doc.schema.toLowerCase()}.${parts[0]!}`);
  }
  const bases: number[] = [];
  if (names.size > 0) {
    for (let d = 0; d < data.docs.length; d++) {
      const o = data.docs[d]!;
      if (d !== v && o.source === doc.source && (names.has(`${o.schema}.${o.name}`.toLowerCase()) || names.has(o.name.toLowerCase()))) bases.push(d);
    }
  }
  x.bases = bases;
  return bases;
}

/** What the ranking derives from a doc's table alone, kept for the next query. */
function derived(data: IndexData, d: number): DocDerived {
  let x = data.docCache.get(d);
  if (x === undefined) data.docCache.set(d, (x = {}));
  return x;
}

/** Share of the relations (views aside) that keys must join for a table no key joins to stand apart (standsApart). */
const JOINED_SHARE = 0.8;
const joinedMemo = new WeakMap<IndexData, boolean>();

/**
 * A table of a catalog whose relations keys mostly join (JOINED_SHARE) that no key joins to any other: kept beside the
 * model rather than in it. A catalog with few keys (many warehouses, most BIRD databases) has no such tables.
 */
export function standsApart(data: IndexData, d: number): boolean {
  const doc = data.docs[d]!;
  if (doc.derived || data.edges[d]!.some((e) => e.to !== d)) return false;
  let joined = joinedMemo.get(data);
  if (joined === undefined) {
    let tables = 0;
    let linked = 0;
    data.docs.forEach((x, i) => {
      if (x.derived) return;
      tables++;
      if (data.edges[i]!.some((e) => e.to !== i)) linked++;
    });
    joined = tables > 0 && linked >= JOINED_SHARE * tables;
    joinedMemo.set(data, joined);
  }
  return joined;
}

/**
 * Whether the question has a stem of the table's name (its run-together parts included) that no other table's name
 * has: "archived" for `transactionhistoryarchive`. Only the stems the question has are looked up, and only the
 * tables their postings hold are read, up to the first other one named with the stem.
 */
export function namesOwnWord(data: IndexData, d: number, queryTerms: ReadonlySet<string>): boolean {
  const { termIds, start, doc } = data.postings;
  const named = (x: number, w: string): boolean => data.docs[x]!.nameStems.includes(w) || partStems(data, x).includes(w);
  return [...data.docs[d]!.nameStems, ...partStems(data, d)].some((w) => {
    if (!queryTerms.has(w)) return false;
    const id = termIds.get(w);
    if (id === undefined) return true;
    for (let i = start[id]!; i < start[id + 1]!; i++) if (doc[i] !== d && named(doc[i]!, w)) return false;
    return true;
  });
}

/**
 * A copy kept beside the model: a table named for two or more tables it points at (`artist_release` → `artist`,
 * `release`), that no table points at, no junction (more columns than its keys and a few), with the name column of
 * one of them copied (`name`, the release's). A junction that names what it joins in its own way
 * (`artist_credit_name`: the name an artist is credited under) is no copy.
 */
export function copiesNames(data: IndexData, d: number): boolean {
  return shapeMark(data, copiesMemo, d, () => copiesNamesOf(data, d));
}
const copiesMemo = new WeakMap<IndexData, Uint8Array>();

function copiesNamesOf(data: IndexData, d: number): boolean {
  const doc = data.docs[d]!;
  if (doc.derived || doc.isBridge || !doc.hasName || doc.nameWords.length < 2 || data.edges[d]!.some((e) => !e.outgoing && e.to !== d)) return false;
  const targets = data.edges[d]!.filter((e) => e.outgoing && e.to !== d).map((e) => e.to);
  const named = targets.filter((t) => data.docs[t]!.nameWords.every((w) => doc.nameWords.includes(w)));
  if (new Set(named).size < 2) return false;
  const own = new Set(doc.table.columns.map((c) => c.name));
  return named.some((t) => data.docs[t]!.table.columns.some((c) => /^(?:name|title)$/i.test(c.name) && own.has(c.name)));
}

export function partStems(data: IndexData, d: number): readonly string[] {
  const x = derived(data, d);
  return (x.partStems ??= data.docs[d]!.nameParts.map(stem));
}

/**
 * The table a subset table extends, or -1: its key is wholly its FK to that table, it holds no text of its own
 * (`country_area (area)`, `premium_member (customer_id, since)`) and the table it extends has a name or title
 * column, so its rows are named there. (`salesperson` extends `employee`, but its people are named further on.)
 */
export function subsetOf(data: IndexData, d: number): number {
  const x = derived(data, d);
  return (x.subsetOf ??= extendedTable(data, d));
}

function extendedTable(data: IndexData, d: number): number {
  const doc = data.docs[d]!;
  if (doc.isBridge || doc.role === 'auxiliary') return -1;
  // Keys and the frame's flags first; the table's own columns (read on demand) last.
  const e = data.edges[d]!.find((x) => x.outgoing && x.to !== d && x.subtype);
  if (e === undefined || !data.docs[e.to]!.hasName) return -1;
  const pk = doc.table.primaryKey?.columns ?? [];
  return doc.table.columns.some((c) => !pk.includes(c.name) && mayHoldText(c.dataType)) ? -1 : e.to;
}

/** How many junctions point at `d`. */
export function junctionsAt(data: IndexData, d: number): number {
  const x = derived(data, d);
  if (x.junctions === undefined) {
    let n = 0;
    for (const e of data.edges[d]!) if (!e.outgoing && e.to !== d && data.docs[e.to]!.isBridge) n++;
    x.junctions = n;
  }
  return x.junctions;
}

/** A record with no name of its own that qualifies junctions (isQualifierRecord): the type of a relationship row (`link`). */
export function isTypingRecord(data: IndexData, d: number): boolean {
  return isQualifierRecord(data, d) && !data.docs[d]!.hasName;
}

/**
 * A record that qualifies junctions: several junctions point at it and it points at nothing but code lists
 * (`link` → `link_type`), unlike an entity at the end of a junction (`release` → `release_group`, `artist_credit`).
 */
export function isQualifierRecord(data: IndexData, d: number): boolean {
  const x = derived(data, d);
  if (x.qualifierRecord === undefined) {
    let outgoing = 0;
    let codeLists = true;
    for (const e of data.edges[d]!) {
      if (e.to === d || !e.outgoing) continue;
      if (data.docs[e.to]!.role !== 'lookup') codeLists = false;
      outgoing++;
    }
    x.qualifierRecord = codeLists && outgoing > 0 && junctionsAt(data, d) >= RANKING.qualifierShared;
  }
  return x.qualifierRecord;
}
