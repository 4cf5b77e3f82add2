/**
 * Ranking: BM25F per query term, where each term contributes its best evidence for a table — a literal match in
 * some field, or (at a lower weight) a shared WordNet/thesaurus concept — plus value-index hits, table-name
 * coverage, FK-graph signals (junction tables between matched tables, paths that connect the top hits), and a
 * deterministic order. BM25F as in Robertson & Zaragoza, "The Probabilistic Relevance Framework" (2009), §3.
 * Scores accumulate in typed arrays; reasons are worked out afterwards for the returned hits only.
 */
import { cachedConcepts, nameDocs, NO_DOCS, valueKey, type IndexData } from './build';
import { isThesaurusConcept } from './lexicon';
import { parseQuery, type ParsedQuery } from './query';
import { correctQuestion } from './spelling';
import { stem } from './tokenize';
import type { SearchHit, SearchOptions, SearchResult } from './types';
import { RANKING } from './ranking';
import { coverage, idfOf, piece, topCandidates, type QueryState } from './query-state';
import { besides, CALENDAR_WORDS, inTableName, isCatalogTerm, isLabelWord, isMeasureWord, isPerforming, isVerbForm, labelGroupHead, laterSenses, literalWords, MEASURE_UNITS, MEMBERSHIP_WORDS, namedMention, NO_WORDS, positionOf, prefixBase, synonymHeld, termAfter, termAt, TIME_WORDS, UNIT_WORDS, withNegatedTerms, withoutCatalogNames, withoutStructureWords, wordConcepts } from './question-words';
import { hubDegree, isAttributeTable, isListOf, isThing, isWholeName, namesOwnWord, partStems, relationHub, sideJunctions, standsApart } from './table-shape';
import { fillPaths, joinTree } from './key-paths';
import { addKindLookups, addMentions, addModifierLookups, addNeighbours, addRoleJunctions, addRoleLookups, addSelfRelations, addTaxonomy, addValueHits, addValueLookups, keepShares, spreadGuesses } from './word-raises';
import { addAttributeHomes, addBridges, addContainment, addFocusTables, addJunctionEnds, addLevelTable, addMentionPaths, addNameHolders, addParents, addPartChains, addQualifiers, addTitleHolders, focusScore, placeApart, placeViews } from './structure-raises';
import { cachedAreas, centralTables, centralWhy, explain, listAll, noMatch, round } from './answer';

export { RANKING };

const DEFAULT_LIMIT = 10;

/**
 * The longest question read, in characters (find_relevant_tables takes no more). Every caller is bounded here, not
 * only the tools: some steps cost time that grows with the square of a word's length, so a prompt argument or a
 * completion of 100,000 characters in one word held the server for minutes. A longer text is cut at the last space
 * before the bound, or at the bound when it has none.
 */
export const MAX_QUERY_CHARS = 1000;

function bounded(query: string): string {
  if (query.length <= MAX_QUERY_CHARS) return query;
  const cut = query.slice(0, MAX_QUERY_CHARS);
  const space = cut.search(/\s\S*$/);
  return space > 0 ? cut.slice(0, space) : cut;
}

export function searchIndex(data: IndexData, whole: string, opts: SearchOptions = {}): SearchResult {
  const query = bounded(whole);
  // "prodcuts", "adress": a slip of one letter is read as the catalog's word, unless the catalog stores it as a value.
  const isValue = (w: string): boolean => data.values.has(valueKey(w));
  const corrected = correctQuestion(query, data.vocab, isValue);
  const result = searchText(data, query, corrected, opts);
  // A question that reaches nothing so may have slipped on a synonym of a catalog word ("longest moveis", where the
  // catalog says `film`): read so, only where that reaches a table.
  if (result.totalMatches === 0 && RANKING.synonymSlips > 0) {
    const again = correctQuestion(query, data.vocab, isValue, true);
    if (again !== corrected) {
      const second = searchText(data, query, again, opts);
      if (second.totalMatches > 0) return second;
    }
  }
  return result;
}

function searchText(data: IndexData, query: string, corrected: string, opts: SearchOptions): SearchResult {
  const limit = Math.max(0, Math.floor(opts.limit ?? DEFAULT_LIMIT));
  const mask = filterMask(data, opts);
  const allowed = mask === null ? (): boolean => true : (d: number): boolean => mask[d] === 1;
  const text = withoutStructureWords(data, corrected);
  const parsed = withoutCatalogNames(data, withNegatedTerms(data, parseQuery(text, data.vocab, data.lexicon)));
  if (parsed.isListAll) return listAll(data, allowed, limit, opts);
  if (parsed.terms.length === 0 && parsed.quoted.length === 0 && parsed.mentions.length === 0) {
    // Nothing to search for: blank, or only words that ask ("show me everything", "what tables are there?"). A blank
    // query gets nothing; the rest get the map a question none of whose words matched gets, never a dead end.
    return query.trim() === '' ? { hits: [], totalMatches: 0, terms: [] } : noMatch(data, parsed, allowed, limit, opts, 'no_words');
  }
  const literal = literalWords(parsed);
  const ranking = (shown: number, o: SearchOptions): SearchResult => {
    const { score, evidenceBits, seen } = data.scratch;
    const touched: number[] = [];
    const touch = (d: number): void => {
      if (seen[d] === 0) {
        seen[d] = 1;
        touched.push(d);
      }
    };
    const st: QueryState = { score, evidenceBits, pieces: [], wordPieces: new Map(), extra: new Map(), touched, touch, guesses: new Map(), prefixes: new Map(), literal };
    try {
      return rankQuery(data, parsed, st, allowed, shown, o);
    } finally {
      // The scratch arrays are shared by every query on this index: clear only what this one wrote.
      for (let t = 0; t < touched.length; t++) {
        const d = touched[t]!;
        score[d] = 0;
        evidenceBits[d] = 0;
        seen[d] = 0;
      }
    }
  };
  // The steps that complete an answer (join paths, code lists, parents) look at its first `limit` places. An answer
  // longer than the default starts with the default answer whole and goes on with a ranking completed for the longer
  // one: asking for more than the default never reorders what the default showed.
  if (limit <= DEFAULT_LIMIT) return ranking(limit, opts);
  const plain = { ...opts, withJoinTree: false };
  return extendAnswer(data, ranking(DEFAULT_LIMIT, plain), ranking(limit, plain), limit, opts);
}

/**
 * The default answer `head` followed by the tables of the longer `tail` it does not hold, up to `limit`. A table of
 * the tail is shown with no higher a score than the table before it, so scores still fall down the list.
 */
function extendAnswer(data: IndexData, head: SearchResult, tail: SearchResult, limit: number, opts: SearchOptions): SearchResult {
  const shown = head.hits.map((h) => docOf(data, h.sourceName, h.qualifiedName));
  const hits = [...head.hits];
  let floor = hits.length > 0 ? hits[hits.length - 1]!.score : 1;
  for (const h of tail.hits) {
    if (hits.length >= limit) break;
    const d = docOf(data, h.sourceName, h.qualifiedName);
    if (shown.includes(d)) continue;
    shown.push(d);
    floor = Math.min(floor, h.score);
    hits.push(h.score > floor ? { ...h, score: floor } : h);
  }
  const result: SearchResult = { ...head, hits, totalMatches: Math.max(head.totalMatches, tail.totalMatches) };
  return opts.withJoinTree ? { ...result, joinTree: joinTree(data, shown) } : result;
}

const docsByKey = new WeakMap<IndexData, ReadonlyMap<string, number>>();

/** The doc of a table, by source and qualified name (each names one doc). */
function docOf(data: IndexData, source: string, qualifiedName: string): number {
  let byKey = docsByKey.get(data);
  if (byKey === undefined) {
    const m = new Map<string, number>();
    data.docs.forEach((doc, d) => m.set(`${doc.source}\u0000${doc.qualifiedName}`, d));
    docsByKey.set(data, (byKey = m));
  }
  return byKey.get(`${source}\u0000${qualifiedName}`)!;
}

/**
 * Ranks the catalog for one parsed question and returns its first `limit` tables; the steps that complete an answer
 * look at those places.
 */
function rankQuery(data: IndexData, parsed: ParsedQuery, st: QueryState, allowed: (d: number) => boolean, limit: number, opts: SearchOptions): SearchResult {
  const n = data.searchable;
  const { termIds, start, doc, sat } = data.postings;
  const best = data.scratch.best;

  // Rare words first; on a large catalog, words in more than `commonShare` of the tables only refine tables that a
  // rarer word found (the "common terms" idea of Lucene's CommonTermsQuery,
  // https://lucene.apache.org/core/8_11_0/queries/org/apache/lucene/queries/CommonTermsQuery.html): `id` or
  // `name` then cost a pass over their postings but never flood the candidate set.
  const dfOf = (term: string): number => {
    const id = termIds.get(term);
    return id === undefined ? 0 : tableDf(data, id);
  };
  const ordered = parsed.terms.map((qt) => ({ qt, df: dfOf(qt.term) })).sort((a, b) => a.df - b.df);
  const commonDf = n >= RANKING.commonMinTables ? RANKING.commonShare * n : Infinity;
  const local = data.scratch.local;
  const unmatched: string[] = [];
  // Words with no literal match anywhere in the catalog (a related word may still match): candidate values.
  const literalless = new Set<string>();
  // Words of a proper name ("Dolly Parton") live in the table of people or places, not in a code list.
  // So are the words of a title ("Blue Monday"): they name a row, not a code list's label.
  const mentionWords = new Set([...parsed.mentions.filter((m) => m.adjective !== true).map((m) => m.text), ...parsed.titles, ...(RANKING.issuerWords > 0 ? parsed.issuers.map((i) => i.name) : [])].flatMap((t) => t.toLowerCase().split(/[^\p{L}\p{N}]+/u)));
  let kindSynonym: { word: string; terms: ReadonlySet<string> } | null = null;
  let kindThing: string | null = null;
  for (const { qt, df } of ordered) {
    const id = termIds.get(qt.term);
    const from = id === undefined ? 0 : start[id]!;
    const to = id === undefined ? 0 : start[id + 1]!;
    const idf = idfOf(n, df);
    const refineOnly = df > commonDf && st.touched.length > 0;
    local.length = 0;
    const w = qt.weight * idf;
    for (let i = from; i < to; i++) {
      const d = doc[i]!;
      if (!allowed(d) || (refineOnly && data.scratch.seen[d] === 0)) continue;
      best[d] = w * sat[i]!;
      local.push(d);
    }
    // Related catalog words (shared WordNet/thesaurus concept) count at a reduced weight; each table keeps the
    // better of its literal and related evidence for this query word.
    const related = new Map<string, number>();
    const labelHeads = new Set<string>();
    // A word written with a capital inside a sentence is part of a name ("Kind of Blue", "Abbey Road"): its
    // dictionary senses say nothing about the catalog, only its letters may (a literal match above).
    const named = parsed.properWords.has(qt.surface);
    const literalOnly = st.literal.has(qt.surface);
    const later = from === to && !literalOnly ? laterSenses(data, parsed, qt) : [];
    const near = RANKING.ownWordsOnce > 0 ? besides(parsed, qt) : NO_WORDS;
    for (const concept of literalOnly ? [] : later.length > 0 ? [...wordConcepts(data, parsed, qt), ...later] : wordConcepts(data, parsed, qt)) {
      const words = data.conceptTerms.get(concept);
      if (words === undefined) continue;
      const factor = isThesaurusConcept(concept) ? RANKING.thesaurus : RANKING.wordnet;
      const head = labelGroupHead(concept, qt.term);
      if (head !== null) labelHeads.add(head);
      for (const term of words.keys()) if (term !== qt.term && !near.has(term) && (related.get(term) ?? 0) < factor) related.set(term, factor);
    }
    // A word the catalog does not write and the dictionary does not relate to it may be a longer word made on a
    // catalog word ("filmography" on `film`): that word counts at the weight of a related one.
    if (from === to && related.size === 0 && !literalOnly && !mentionWords.has(qt.surface)) {
      const base = prefixBase(data, parsed, qt);
      if (base !== null) {
        related.set(base, RANKING.prefixWord);
        st.prefixes.set(qt.surface, base);
      }
    }
    const codePiece = RANKING.codePieces > 0 && qt.code === true;
    // A word only views write (a view's column `pedal`) is none the tables write: views are computed from them.
    let viewsOnly = RANKING.viewWords > 0 && from < to;
    for (let i = from; viewsOnly && i < to; i++) if (!data.docs[doc[i]!]!.derived) viewsOnly = false;
    if ((from === to || viewsOnly) && !qt.phrasal && !codePiece && !mentionWords.has(qt.surface) && !parsed.properWords.has(qt.surface) && isLabelWord(data, qt.surface)) literalless.add(qt.surface);
    // "choirs", "orchestras": a plural the catalog does not write, a thesaurus synonym of a table's name, names a kind
    // of that table's rows. Without such a synonym, a plural for a thing that only related words find ("bikes", which
    // the comments call bicycles) names a kind of the rows of the best table in the answer that keeps kinds.
    if (kindSynonym === null && from === to && !qt.phrasal && !named && /[^s]s$/.test(qt.surface)) {
      const terms = [...related].filter(([, f]) => f === RANKING.thesaurus).map(([t]) => t);
      if (terms.length > 0) kindSynonym = { word: qt.surface, terms: new Set(terms) };
      // Not a unit ("five minutes", "in kilos"): what rows are measured by, no kind of them.
      else if (kindThing === null && related.size > 0 && !data.lexicon.isPerson(qt.surface) && !data.lexicon.isPlace(qt.surface) && !data.lexicon.isRole(qt.surface) && !(RANKING.unitKinds > 0 && (UNIT_WORDS.has(qt.surface) || MEASURE_UNITS.has(qt.surface)))) kindThing = qt.surface;
    }
    for (const [term, factor] of related) {
      const rid = termIds.get(term);
      if (rid === undefined) continue;
      const rFrom = start[rid]!;
      const rTo = start[rid + 1]!;
      const rDf = tableDf(data, rid);
      // A related word that is itself common adds a near-constant trickle to most tables: skip it on large catalogs.
      if (rDf > commonDf) continue;
      const f = qt.weight * factor * Math.min(idfOf(n, rDf), idf + 1);
      // A table whose whole name is a thesaurus synonym of the word ("albums" → `release`) is what the word means: it
      // counts with the word's own rarity, not with that of a name many tables share (`release_label`, `l_artist_release`).
      const fNamed = factor === RANKING.thesaurus ? qt.weight * factor * Math.min(Math.max(idfOf(n, rDf), idf), idf + 1) : f;
      // Only a table named with the term can be named by it whole or be its list: the others keep their words packed.
      // Both lists are ascending, so one pass over the named ones follows the postings.
      const withName = fNamed !== f || labelHeads.has(term) ? nameDocs(data, term) : NO_DOCS;
      let j = 0;
      for (let i = rFrom; i < rTo; i++) {
        const d = doc[i]!;
        if (!allowed(d) || (refineOnly && data.scratch.seen[d] === 0)) continue;
        while (j < withName.length && withName[j]! < d) j++;
        const dd = j < withName.length && withName[j] === d ? data.docs[d]! : null;
        // A label group's member ("vinyl") is a label of the list its group's first word names (`medium_format`).
        const fList = dd !== null && labelHeads.has(term) && isListOf(dd, term) ? (fNamed * RANKING.labelMember) / factor : fNamed;
        const s = (fNamed !== f && dd !== null && (isWholeName(dd, term) || isListOf(dd, term)) ? fList : f) * sat[i]!;
        if (best[d] === 0) local.push(d);
        if (s > best[d]!) best[d] = s;
      }
    }
    if (local.length === 0 && !qt.phrasal && !codePiece && !mentionWords.has(qt.surface)) unmatched.push(qt.surface);
    // A phrasal verb counts only where it matched: its words are pieces of their own.
    let bit = 0;
    if (!qt.phrasal || local.length > 0) {
      st.wordPieces.set(qt.surface, st.pieces.length);
      bit = piece(st, idf * qt.weight, local.length > 0);
    }
    for (const d of local) {
      if (best[d] === 0) continue;
      st.touch(d);
      st.score[d]! += best[d]!;
      st.evidenceBits[d]! |= bit;
      best[d] = 0;
    }
  }

  // Tables that a word of the question reached (not only a proper name's class of people or places).
  const lexical = new Set<number>();
  for (const d of st.touched) if (st.score[d]! > 0) lexical.add(d);
  addMentions(data, parsed, st, allowed);
  addValueHits(data, parsed, st, allowed, lexical);

  // Name coverage and graph signals on the strongest candidates only.
  let ranked = topCandidates(data, st, RANKING.candidates);
  const queryTerms = new Set(parsed.terms.map((t) => t.term));
  const queryConcepts = new Set(parsed.terms.flatMap((t) => wordConcepts(data, parsed, t)));
  const maxDegreeLog = Math.max(1, Math.log2(1 + data.maxDegree));
  // An auxiliary table (raw imports, aliases, redirects, annotations…) whose marking word the question does not use.
  const unaskedMemo = new Map<number, boolean>();
  const unasked = (d: number): boolean => {
    let u = unaskedMemo.get(d);
    if (u === undefined) {
      const doc = data.docs[d]!;
      const asked = (w: string): boolean => queryTerms.has(w) || cachedConcepts(data.conceptCache, data.lexicon, w).some((c) => queryConcepts.has(c));
      u = doc.role === 'auxiliary' && !doc.auxWords.some(asked);
      // A table of custom attributes (`artist_attribute`) is one too, unless the question names its last word.
      if (!u && isAttributeTable(data, d)) u = !asked(doc.nameStems[doc.nameStems.length - 1]!) && !asked(doc.nameWords[doc.nameWords.length - 1]!);
      unaskedMemo.set(d, u);
    }
    return u;
  };
  const side = sideJunctions(data);
  for (const d of ranked) {
    // A run-together name counts by its parts when the question names every part (`productcategory` for "product
    // categories"); otherwise by its words as written.
    const doc = data.docs[d]!;
    const parts = doc.nameParts.length !== doc.nameWords.length ? partStems(data, d) : null;
    const whole = parts !== null && parts.every((p) => queryTerms.has(p));
    const words = whole ? doc.nameParts : doc.nameWords;
    const nameStems = whole ? parts : doc.nameStems;
    if (words.length === 0) continue;
    let cover = 0;
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (queryTerms.has(nameStems[i]!)) cover += 1;
      else if (cachedConcepts(data.conceptCache, data.lexicon, w).some((c) => queryConcepts.has(c))) cover += 0.5;
    }
    st.score[d]! *= (1 + (RANKING.nameCoverage * cover) / words.length) * (1 - RANKING.nameUncovered * (1 - cover / words.length));
    // Hub prior: a table many others join to is more often what a question is about (an order header rather
    // than the archive that repeats its words).
    // An auxiliary table (`artist_alias`) is as central as the entity it shadows: "aliases" reaches every alias table
    // alike, and the alias of the catalog's main entity is the likelier one.
    st.score[d]! *= 1 + (RANKING.centrality * Math.log2(1 + hubDegree(data, d))) / maxDegreeLog;
    if (unasked(d) || side[d] === 1) st.score[d]! *= RANKING.auxiliary;
    // A view (not a mirror: those have no postings) is computed from relations of the catalog, which the question
    // reaches on their own: it comes after them unless the question names it ("sales by store").
    else if (doc.derived && !nameStems.every((w) => w.length < 3 || queryTerms.has(w))) st.score[d]! *= RANKING.view;
    else if (RANKING.apart < 1 && standsApart(data, d) && !namesOwnWord(data, d, queryTerms)) st.score[d]! *= RANKING.apart;
  }
  // Tables with evidence of their own (words, values, names); graph signals below only lend score.
  const evidence = new Set<number>();
  for (const d of st.touched) if (st.score[d]! > 0) evidence.add(d);
  addNeighbours(data, ranked, queryTerms, queryConcepts, st, allowed);
  ranked = topCandidates(data, st, RANKING.candidates);
  // "longest", "most": a measure of the rows, not a label stored in a code list.
  const valueWords = unmatched.filter((w) => !isMeasureWord(data, w) && isLabelWord(data, w));
  if (valueWords.length > 0) {
    addValueLookups(data, ranked.slice(0, RANKING.valueLookupTop), valueWords, st, allowed, RANKING.valueLookup, queryTerms);
    ranked = topCandidates(data, st, RANKING.candidates);
  }
  const modifierLinks = literalless.size > 0 ? addModifierLookups(data, ranked, parsed, literalless, new Set(unmatched), st, allowed) : [];
  if (modifierLinks.length > 0) ranked = topCandidates(data, st, RANKING.candidates);
  addBridges(data, ranked, evidence, lexical, unasked, st, allowed);
  ranked = topCandidates(data, st, RANKING.candidates);
  const pathPairs = new Map<number, number[] | null>();
  ranked = fillPaths(data, ranked, lexical, unasked, st, allowed, pathPairs);
  ranked = addQualifiers(data, ranked, limit, evidence, st, allowed, parsed);
  ranked = addParents(data, ranked, limit, unasked, st, allowed);
  ranked = addJunctionEnds(data, ranked, lexical, st, allowed, parsed);
  if (parsed.asksNames) ranked = addNameHolders(data, ranked, st, allowed);
  if (parsed.titles.length > 0 || parsed.issuers.length > 0) ranked = addTitleHolders(data, ranked, parsed, st, allowed);
  for (const kind of ['person', 'place'] as const) {
    const m = namedMention(parsed, kind);
    if (m !== undefined) ranked = addMentionPaths(data, ranked, limit, m, unasked, st, allowed);
  }
  if (RANKING.levelTable > 0) {
    const m = namedMention(parsed, 'place');
    if (m !== undefined) ranked = addLevelTable(data, ranked, limit, m, st, allowed);
  }
  if (RANKING.containment > 0 && parsed.kindNouns.place.length > 0) {
    const m = namedMention(parsed, 'place') ?? parsed.mentions.find((x) => x.kind === 'place');
    if (m !== undefined) ranked = addContainment(data, ranked, limit, m, parsed.kindNouns.place[0]!, st, allowed);
  }
  // A role that no table or column names ("producers", "the lyricist"), or its verb in a question about someone ("songs
  // Quincy Jones produced", "who composed"), is a type of relationship, where the catalog keeps people's roles in one
  // (MusicBrainz `link_type`).
  // A word of the question that names a person by a role, and that the catalog leaves unnamed as `absent` says.
  const roleWord = (absent: (t: ParsedQuery['terms'][number]) => boolean): string | undefined =>
    parsed.terms.find((t) => !t.part && !parsed.properWords.has(t.surface) && data.lexicon.isRole(t.surface) && absent(t))?.surface;
  // A job title ("listed as Purchasing Manager") names its role by its last word, though written with capitals.
  const jobRole = RANKING.jobTitles > 0 && parsed.jobTitles.length > 0 ? parsed.jobTitles[0]!.split(/\s+/).pop()!.toLowerCase() : undefined;
  const role =
    jobRole ??
    roleWord((t) => !isCatalogTerm(data, t.surface)) ??
    parsed.roleVerbs.find((w) => !isCatalogTerm(data, w)) ??
    parsed.terms.find((t) => MEMBERSHIP_WORDS.has(t.surface) && !inTableName(data, t.term))?.surface;
  const roleDone = role !== undefined && relationHub(data) !== null;
  if (roleDone) {
    const named = (d: number): boolean => data.docs[d]!.nameWords.some((w, i) => queryTerms.has(data.docs[d]!.nameStems[i]!) || cachedConcepts(data.conceptCache, data.lexicon, w).some((c) => queryConcepts.has(c)));
    // A role that modifies the noun behind it ("user ratings") asks for no people of its own.
    const next = termAfter(parsed, role);
    const modifier = next !== undefined && !data.lexicon.isPerson(next.surface);
    // Whether any role of the question is one of playing or singing ("recordings made at … a guest guitarist").
    const performing = parsed.terms.some((t) => !t.part && !parsed.properWords.has(t.surface) && isPerforming(data, t.surface));
    ranked = addRoleLookups(data, ranked, limit, role, named, st, allowed, modifier, performing);
  }
  if (!roleDone && RANKING.roleJunctions > 0) {
    // A column may hold a role's word (`document.owner`) where the role of people at a thing is kept elsewhere.
    const part = role ?? roleWord((t) => !inTableName(data, t.term));
    // The word right behind the role: a role that modifies it ("dealer network") is no one's part.
    // The word after a job title is no noun that the role modifies.
    if (part !== undefined) ranked = addRoleJunctions(data, ranked, limit, part, part === jobRole ? undefined : termAfter(parsed, part)?.term, lexical, st, allowed);
  }
  if (RANKING.madeOf > 0 && parsed.madeOf.length > 0) ranked = addSelfRelations(data, ranked, limit, parsed.madeOf[0]!, st, allowed);
  // A kind of place or person that no table or column names ("recording studios") is a label of a kind code list.
  for (const [nouns, strength] of [[parsed.kindNouns.place, data.placeTable], [parsed.kindNouns.person, data.personTable]] as const) {
    const word = nouns.find((w) => !isCatalogTerm(data, w) && !(roleDone && w === role));
    if (word !== undefined) ranked = addKindLookups(data, ranked, limit, (d) => strength[d]! > 0, word, lexical, st, allowed);
  }
  // The rows asked for first: a kind of them ("which choirs") is a label of their kind list, below.
  const focus = addFocusTables(data, ranked, parsed, st, allowed);
  ranked = focus.ranked;
  // "Labels classed as reissue labels": a kind of the rows asked for, or of the table the word before the verb names.
  const classed = RANKING.classedAs > 0 ? parsed.classedAs[0] : undefined;
  if (classed !== undefined) {
    const ofStem = classed.of === undefined ? undefined : stem(classed.of);
    const things = focus.asked.length > 0 ? focus.asked : ranked.filter((d) => ofStem !== undefined && isWholeName(data.docs[d]!, ofStem));
    if (things.length > 0) ranked = addKindLookups(data, ranked, limit, (d) => things.includes(d) && isThing(data, d), classed.kind, lexical, st, allowed);
  }
  // A word the catalog does not hold, in a question about those rows ("which … releases came in a digipak"), is most
  // likely a label of one of their own code lists.
  // Not a verb's form ("sitting", "came"), which says what happened to the rows; not a word of time ("now"); not an
  // adjective of a place or a language ("Japanese"), which names a row of a list of its own.
  const labelNouns = valueWords.filter((w) => !isVerbForm(w) && !TIME_WORDS.has(w) && !data.lexicon.isPlaceAdjective(w));
  // Where a value word stands before the noun of a table ("vampire superheroes"), the modifier's own rule has placed it.
  if (RANKING.valueFocus > 0 && labelNouns.length > 0 && modifierLinks.length === 0) {
    const asked = focus.asked.filter((d) => data.docs[d]!.role !== 'lookup');
    if (asked.length > 0) {
      addValueLookups(data, asked, labelNouns, st, allowed, RANKING.valueFocus);
      ranked = topCandidates(data, st, RANKING.candidates);
    }
  }
  if (RANKING.attributeHome > 0) ranked = addAttributeHomes(data, ranked, parsed, mentionWords, st, allowed);
  if (kindSynonym !== null) {
    const { word, terms } = kindSynonym;
    // A synonym of the thing's own name ("albums" of `release_group`) names its main kind, not one of the many kinds a
    // row may have besides (`release_group_secondary_type`, behind a junction), unless a word before it says which
    // ("live albums", "soundtrack albums"; not a name: "TWICE albums").
    const at = positionOf(parsed, word);
    const before = at === undefined ? undefined : termAt(parsed, at - 1);
    const said = before !== undefined && !parsed.properWords.has(before.surface);
    ranked = addKindLookups(data, ranked, limit, (d) => isThing(data, d) && data.docs[d]!.nameStems.some((t) => terms.has(t)), word, lexical, st, allowed, focusScore(ranked, parsed, word, st), !(RANKING.synonymKinds > 0) || said);
  }
  // Not for people, places or roles: those have their own kind lists above.
  else if (kindThing !== null) ranked = addKindLookups(data, ranked, limit, (d) => isThing(data, d), kindThing, lexical, st, allowed, focusScore(ranked, parsed, kindThing, st));
  if (keepShares(modifierLinks, st)) ranked = topCandidates(data, st, RANKING.candidates);
  if (RANKING.taxonomy > 0) {
    const found = [...literalless].filter((w) => !mentionWords.has(w) && !(RANKING.taxonomySynonyms > 0 && synonymHeld(data, w)) && !TIME_WORDS.has(w) && !CALENDAR_WORDS.has(w) && !MEASURE_UNITS.has(w) && w.length > 2 && (data.lexicon.concepts(w).length > 0 || !data.lexicon.has(w)) && !isVerbForm(w) && !isMeasureWord(data, w) && isLabelWord(data, w) && !data.lexicon.isPerson(w) && !data.lexicon.isPlace(w) && !data.lexicon.isRole(w) && !data.lexicon.isPlaceAdjective(w) && !data.lexicon.isLanguageName(w));
    // A word before a noun of places says what kind of place that is ("bike shops"), not a kind of the catalog's
    // things; before a noun of people it may well be one ("tire suppliers": the people who supply tires).
    const beforeHolder = (w: string): boolean => {
      const next = termAfter(parsed, w);
      return next !== undefined && data.lexicon.isPlace(next.surface);
    };
    const nouns = RANKING.kindOfHolder > 0 ? found.filter((w) => !beforeHolder(w)) : found;
    // One word the catalog leaves unexplained, or two joined by "and"/"or" ("tires and tubes"): a question with more
    // has other things to say (who is asking, what for), and its words need not name a kind at all.
    // A kind is written as a plural ("handlebars"), as a word no dictionary has ("seatpost"), or before a noun of the
    // catalog ("touring frame bill of materials"); a singular word elsewhere is as often a verb ("that come in red").
    const kindLike = (w: string): boolean => {
      if (/[^s]s$/.test(w) || !data.lexicon.has(w)) return true;
      const next = termAfter(parsed, w);
      return next !== undefined && isCatalogTerm(data, next.surface);
    };
    const [first, second] = nouns.map((w) => positionOf(parsed, w) ?? -9);
    const one = (nouns.length === 1 || (nouns.length === 2 && Math.abs(first! - second!) === 2)) && kindLike(nouns[0]!);
    // Of several, a man-made thing ("helmets and water bottles", "the accessories range") names the kind: the rest of
    // the question says who asks and why.
    const goods = one || !(RANKING.goodsKinds > 0) ? [] : nouns.filter((w) => data.lexicon.isArtifact(w));
    if (one) ranked = addTaxonomy(data, ranked, limit, nouns[0]!, st, allowed);
    else if (goods.length > 0) ranked = addTaxonomy(data, ranked, limit, goods[0]!, st, allowed);
  }
  // The join set once more: tables that rose since the first pass (the rows asked for, kind lists, names) need the
  // tables between them and the rest ("the cities where customers rented": `address` between `customer` and `city`).
  ranked = fillPaths(data, ranked, lexical, unasked, st, allowed, pathPairs);
  if (RANKING.partChains > 0) ranked = addPartChains(data, ranked, limit, lexical, st, allowed);
  // A junction that only the signals since then brought into the answer (the path to a named person, a role, the rows
  // asked for) needs its qualifiers as much as one the question's words found; a kind of person asked for by name
  // ("which employee placed each order") needs the table that holds the names.
  ranked = addQualifiers(data, ranked, limit, evidence, st, allowed, parsed);
  if (parsed.asksNames) ranked = addNameHolders(data, ranked, st, allowed);
  ranked = spreadGuesses(data, ranked, limit, st);
  ranked = placeViews(data, ranked, limit, queryTerms, st);
  ranked = placeApart(data, ranked, limit, queryTerms, st);

  const top = ranked[0];
  const coverageTop = top === undefined ? 0 : coverage(st, top);
  const topScore = top === undefined ? 1 : st.score[top]!;
  const hits: SearchHit[] = ranked.slice(0, limit).map((d) => {
    const { why, columns } = explain(data, parsed, st, d);
    const docData = data.docs[d]!;
    return {
      sourceName: docData.source,
      qualifiedName: docData.qualifiedName,
      score: round(Math.min(1, (st.score[d]! / topScore) * (0.4 + 0.6 * coverageTop))),
      why,
      matchedColumns: columns,
    };
  });
  let totalMatches = 0;
  for (const d of st.touched) if (st.score[d]! > 0) totalMatches++;
  if (ranked.length === 0) return noMatch(data, parsed, allowed, limit, opts);
  // Words that reached only views reached no table: the central tables follow them, as for a question that matched
  // nothing ("markup on helmets", where a related word touched a column of a reporting view only).
  const shown = ranked.slice(0, limit);
  if (shown.length < limit && shown.every((d) => data.docs[d]!.derived)) {
    const floor = hits.length > 0 ? Math.min(...hits.map((h) => h.score)) : 1;
    for (const d of centralTables(data, allowed)) {
      if (shown.length >= limit) break;
      if (shown.includes(d)) continue;
      shown.push(d);
      hits.push({ sourceName: data.docs[d]!.source, qualifiedName: data.docs[d]!.qualifiedName, score: round(floor * 0.5 * (1 - (shown.length - 1) / limit)), why: [`no word of the question reached a table; ${centralWhy(data, d)}`], matchedColumns: [] });
    }
  }
  const weak = coverageTop < RANKING.weakCoverage || shown.some((d) => !data.docs[d]!.derived && st.score[d]! === 0);
  const result: SearchResult = {
    hits,
    totalMatches,
    terms: parsed.terms.map((t) => t.term),
    ...(weak ? { fallback: { reason: 'weak_match' as const, areas: cachedAreas(data, opts, allowed) } } : {}),
  };
  return opts.withJoinTree ? { ...result, joinTree: joinTree(data, shown) } : result;
}

/** Per-filter membership bytes, cached on the index: the filter check runs for every posting visited. */
function filterMask(data: IndexData, opts: SearchOptions): Uint8Array | null {
  if (opts.source === undefined && opts.schema === undefined) return null;
  const key = `${opts.source ?? ''}\u0000${opts.schema ?? ''}\u0000${opts.source === undefined ? 0 : 1}${opts.schema === undefined ? 0 : 1}`;
  const cache = data.filterMasks;
  let mask = cache.get(key);
  if (mask === undefined) {
    mask = new Uint8Array(data.docs.length);
    data.docs.forEach((docData, d) => {
      if ((opts.source === undefined || docData.source === opts.source) && (opts.schema === undefined || docData.schema === opts.schema)) mask![d] = 1;
    });
    if (cache.size > 256) cache.clear();
    cache.set(key, mask);
  }
  return mask;
}

/** How many tables (not views) hold the term: its document frequency (build.ts, IndexData.tableDf). */
function tableDf(data: IndexData, id: number): number {
  const { start, doc } = data.postings;
  if (!data.hasViews || data.viewsOnly) return start[id + 1]! - start[id]!;
  let df = data.tableDf[id]!;
  if (df < 0) {
    df = 0;
    for (let i = start[id]!; i < start[id + 1]!; i++) if (!data.docs[doc[i]!]!.derived) df++;
    data.tableDf[id] = df;
  }
  return df;
}
