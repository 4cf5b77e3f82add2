/**
 * Ranking: BM25F per query term, where each term contributes its best evidence for a table — a literal match in
 * some field, or (at a lower weight) a shared WordNet/thesaurus concept — plus value-index hits, table-name
 * coverage, FK-graph signals (junction tables between matched tables, paths that connect the top hits), and a
 * deterministic order. BM25F as in Robertson & Zaragoza, "The Probabilistic Relevance Framework" (2009), §3.
 * Scores accumulate in typed arrays; reasons are worked out afterwards for the returned hits only.
 */
import type { ColumnInfo } from '../catalog/model';
import { BM25F, cachedConcepts, cachedTerms, isMirror, mayHoldText, valueKey, type DocData, type DocDerived, type IndexData } from './build';
import { schemaAreas } from './areas';
import { isThesaurusConcept, lemmaCandidates } from './lexicon';
import { CALENDAR_NAMES, parseQuery, type Mention, type ParsedQuery, type QueryTerm } from './query';
import { correctQuestion, knownWord } from './spelling';
import { LABEL_GROUPS, THESAURUS } from './thesaurus';
import { isIrregularVerbForm, stem, textTerms } from './tokenize';
import type { JoinEdge, SchemaArea, SearchHit, SearchOptions, SearchResult } from './types';

export const RANKING = {
  ...BM25F,
  /** Concept matches count this much of a literal match (thesaurus groups are curated, WordNet is broader). */
  thesaurus: 0.6,
  wordnet: 0.4,
  /** A label group's member ("vinyl") matches the list its group's first word names (`format`) this much (LABEL_GROUPS). */
  labelMember: 0.8,
  /** Value-index hit, relative to the idf of the value. */
  value: 1.5,
  /** 1: a value matches only a question word of the same form up to a plural (`edits` is no `'edited'`: sameForms). */
  valueForms: 1,
  /** A person-like or place-like proper name in the question, matched by tables that hold people or places. */
  mention: 2.0,
  /** Extra share of the place signal for a table named for the level of the named place (a state: `stateprovince`). */
  placeLevel: 0.5,
  /**
   * A place the dictionary knows the level of ("Mali", "Texas"), held by a table of places that points at another
   * (`place` → `area`, `address` → `stateprovince`) not at that level: this share of the weight.
   */
  placeWithin: 0.5,
  /** Share of `mention` for a question that asks "who" without naming anyone. */
  asksPerson: 0.5,
  /** The question's strongest word hits that tables of people and places are measured against. */
  mentionContext: 8,
  /** Share of a person or place signal lost by a table far (over two FK steps) from those hits. */
  mentionAway: 0.3,
  /** Nearness of a table two FK steps from one of those hits (1 for the hits and their neighbours). */
  mentionTwoSteps: 0.7,
  /** Catalogs with more tables of one kind than this skip the nearness measure. */
  mentionContextDocs: 64,
  /** Multiplier per fraction of the table name's words the question covers. */
  nameCoverage: 0.35,
  /** Largest boost of the hub prior, for the most joined table of the catalog (log of FK degree). */
  centrality: 0.25,
  /**
   * Share of the score lost by a table none of whose name words the question uses: `medium_attribute_type_allowed_format`
   * matched on one word ranks below `medium` matched on its whole name.
   */
  nameUncovered: 0.3,
  /**
   * FK neighbours of the top hits: a table the question names outright (every word of its name is a query word)
   * rises to this share of the hit it joins; any other neighbour gains `neighbour` of it.
   */
  namedNeighbour: 0.75,
  neighbour: 0.12,
  neighbourTop: 3,
  /**
   * Auxiliary tables (history, aliases, raw imports, redirects, edits…) keep this share of their score unless the
   * question uses the word that makes them auxiliary: they share every word with the entity they shadow. The
   * discount holds for what they gain as a junction or a join path too.
   */
  auxiliary: 0.45,
  /** Share of its score a view keeps among the candidates when the question does not name it. */
  view: 0.6,
  /**
   * A table no foreign key joins to anything, in a catalog whose tables keys mostly join (a cache, an archive, a copy:
   * MusicBrainz `artist_release`, AdventureWorks `transactionhistoryarchive`), ranks at this share, as a view does,
   * unless the question names a word of its name that no other table's name has ("archived").
   */
  apart: 0.6,
  /** 1: a copy of other tables' rows (copiesNames) comes after every other table the question reached (placeApart). */
  copies: 1,
  /** 1: the bare shared key of subtypes (isBareSupertype: `businessentity`) is placed as a table set apart (placeApart). */
  bareApart: 1,
  /**
   * Query words that match nothing in the catalog are often values ("horror", "French", "night"): the lookup tables
   * next to the top hits (directly, or behind a junction) rise to this share of the hit, where such values live (at most 40 % of the hit: on small schemas a lookup that outranks
   * the other tables a question needs costs recall).
   */
  valueLookup: 0.4,
  /** A code list's label that is also a word of the catalog keeps this share of its value boost. */
  codeValueNamed: 0.3,
  /** The tables that reference a code list whose label the question names gain this share of its boost. */
  codeValueReferrer: 0.5,
  valueLookupTop: 3,
  /**
   * A lookup that already scores above that share (its name shares the entity's words: `release_packaging`) adds this
   * share of it instead: two pieces of evidence, not the larger of them.
   */
  valueStack: 0.2,
  /** The code lists of the rows asked for rise to this share of them for such a word (0 turns it off). */
  valueFocus: 0.9,
  /** A kind list of those tables, when an unmatched word is a plural noun: this share of the table's score. */
  valueKind: 0.7,
  /**
   * A word the catalog does not contain, written just before a noun that names a table ("bootleg albums",
   * "vinyl LPs", "night shift"), is a value of one of that table's code lists: its lookups rise to this share of it.
   */
  modifierLookup: 0.95,
  modifierNamed: 2,
  /** Whether an irregular verb form ("bought") is no value word before a noun (1) or may be one (0). */
  irregularVerbs: 1,
  /** The share of that for a code list that is not a list of kinds (`*_type`, `*_category`): a packaging, a language. */
  modifierOther: 0.97,
  /** Whether a question word the catalog does not write reads its rarer senses too (1) or not (0). */
  laterSenses: 1,
  /** The weight of a catalog word that an otherwise unknown question word starts with (catalogPrefix); 0 turns it off. */
  prefixWord: 0.4,
  /** Code lists that only a guessed label raised ("may hold 'live'") keep at most this many places in the answer… */
  guessKeep: 3,
  /** …counting those for which the guess gave at least this share of the score; the others keep this share of theirs. */
  guessShare: 0.5,
  guessSpread: 0.8,
  /** Below this share of the question's idf covered by the best hit, the answer is a weak match and maps the areas. */
  weakCoverage: 0.2,
  /** Weight, in that share, of question words, names and values that nothing in the catalog matches. */
  unknownEvidence: 0.5,
  /** A table named by the noun a question asks for ("which artists") rises to the score of this rank. */
  focusRank: 3,
  /** Whether a junction whose whole name is the noun asked for counts as the rows asked for (1) or not (0). */
  focusBridges: 1,
  /** An attribute the leading entity lacks, held by a table of its own (`release_country.date_year`): rises to this share of the entity. */
  attributeHome: 0.9,
  /** 1: a code list a leading table points at by a column the question names is that attribute's home too. */
  attributeLookups: 1,
  /** 1: a count noun that counts what follows ("number of events") asks for no table of its own attribute. */
  countWords: 1,
  /** How many leading tables look for the homes of their attributes. */
  attributeTop: 3,
  /** 1: a column word that a thesaurus synonym of the question's word names counts (`rating` for "scores"). */
  attributeSynonyms: 1,
  /** Junction tables whose FK targets both match. */
  bridge: 0.5,
  /** Intermediate tables on a short FK path between top hits, relative to the weaker endpoint. */
  pathFill: 0.85,
  pathTop: 6,
  /**
   * Paths are completed between top hits scoring at least this share of the best one: a table the question reaches
   * only through a column ("what rentals they were for" → the film's rental rate) still ends a path worth joining.
   */
  pathFloor: 0.1,
  pathMaxHops: 3,
  /** Exponent of the higher end's score in the share a single table between two others gets (0: the lower end only). */
  pathMean: 0.1,
  /** 1: a word before a noun of places ("bike shops") names no kind of the catalog's things. */
  kindOfHolder: 1,
  /** 1: a word brings no second match, through a relation, of the word written beside it ("purchase orders"; besides). */
  ownWordsOnce: 1,
  /** 1: a junction's end reached only by an implied key (through another junction) rises as its end only where a word reached it. */
  impliedEnds: 1,
  /** Qualifiers of a junction in the answer (its relationship record or code list) rise to this share of it. */
  qualifier: 0.9,
  /** A non-lookup FK target of junctions is a shared qualifier when at least this many junctions point at it. */
  qualifierShared: 3,
  /** 1: a job title ("listed as Purchasing Manager") is a role's word (ParsedQuery.jobTitles), not the title of a work. */
  jobTitles: 1,
  /** 1: the letters of a code that mixes letters and digits ("GBAYE9300106") are no label a code list may hold. */
  codePieces: 1,
  /** 1: a code list the question reaches only by the word a value implies (`language` of "in Spanish") still qualifies a junction (addQualifiers). */
  impliedQualifiers: 1,
  /** 1: join paths are completed between the best tables, views left out (fillPaths). */
  pathViews: 1,
  /** 1: a word that only views write counts as one the catalog does not hold, for the rules of unexplained words. */
  viewWords: 1,
  /**
   * 1: one word the catalog does not hold (or two joined by "and"), in a question about things sorted into kinds within
   * wider kinds, names one of those kinds: both lists rise below the thing (addTaxonomy). Scales `kindLookup`.
   */
  taxonomy: 1,
  /**
   * How many leading tables addTaxonomy looks at for a thing sorted into kinds within wider kinds: seven, so that the
   * tables of places a "where" brings ("where are the helmets kept") do not hide it (five missed it).
   */
  taxonomyTop: 7,
  /** …and that thing rises to this share of the best table (0: it keeps its own score). */
  taxonomyLead: 0.6,
  /** 1: a word a thesaurus synonym explains (`baskets`: the catalog's `cart`) is no unexplained word there. */
  taxonomySynonyms: 1,
  /**
   * 1: of several unexplained words, the first that names a man-made thing (the dictionary's artifacts: "helmets",
   * "bottles") names the kind, as one unexplained word does.
   */
  goodsKinds: 1,
  /** The whole a part belongs to (`order` of `order_line`) rises to this share of the part. */
  parent: 0.97,
  /**
   * Entity ends of a junction among the `junctionEndTop` best hits rise to this share of it, capped at `junctionEndCap`
   * of the `junctionEndAfter`-th table's score (they fill the answer after the tables the words found first).
   */
  junctionEnd: 0.9,
  junctionEndTop: 10,
  junctionEndAfter: 5,
  junctionEndCap: 0.999,
  /** A title in the question: the named tables that one of the `titleTop` best hits points at rise to this share of it. */
  titleHolder: 0.9,
  /** A title written after "on" in a question about a role: the catalog's main whole (mainWhole) rises to this share of titleHolder. */
  titleWholes: 1,
  /** 1: any title of a question about producing a record, not only one after "on", names the main whole (titleWholes). */
  titleWholesAny: 1,
  /** A title something came out on (ParsedQuery.issuedOn): who issued it, behind a junction of the leading named table, rises to this share of titleHolder. */
  titleIssuers: 1,
  /** A name that issued what the word before it names (ParsedQuery.issuers): who issued it rises to this share of titleHolder. */
  nameIssuers: 1,
  /**
   * A title other things are versions of ("recordings of Summertime", "recorded Holst's The Planets"): the table the
   * catalog keeps compositions in rises to this share of the leading table, with its junction to it just below.
   */
  versionWorks: 1,
  /** 1: a word a thing is classed as ("labels classed as reissue labels") is a label of the kind lists of the leading things. */
  classedAs: 1,
  /**
   * A thing and the whole it is kept in by an ordered part, both in the answer (`recording` and `release`): the part and
   * the tables up to the whole (`track`, `medium`) rise to this share of the weaker of the two.
   */
  partChains: 0.9,
  /** With a title someone is credited on (titleWholes): the share of it the whole's relationship with the people gets. */
  titleCredits: 0.99,
  /** 1: a noun asked for that no table is named by alone may name the rows through a thesaurus synonym (addFocusTables). */
  focusUnnamed: 1,
  /** People named elsewhere: among the `nameHolderTop` best tables, a kind of person's table of names rises to this share of it. */
  nameHolder: 0.8,
  nameHolderTop: 3,
  titleTop: 3,
  /** 1: a title after "on"/"of"/"from" with a part kept in order among the best hits names that part's whole (wholesOf). */
  partWholes: 1,
  /**
   * The best table of an answer that asks for names, with no name of its own and no junction (`shoppingcartitem`), that
   * points at one named thing that is no person (`product`): that thing holds the names of what it lists and rises to
   * this share of it.
   */
  itemNames: 0.6,
  /** A named place's table at its level (`stateprovince` for "Oregon") rises to this share of the places pointing at it. */
  levelTable: 0.95,
  /**
   * 1: a person noun that is an adjective too, right before another word of the question ("official website", "major
   * labels"), brings no related words: no person like it (an `official` is no `editor`).
   */
  attributiveAdjectives: 1,
  /**
   * 1: a word of belonging ("lineup", "members") with no table of people in the answer is the people of the
   * relationships taking part in its best table ("festival au desert lineup": `artist` by way of `l_artist_event`).
   */
  lineupOfThings: 1,
  /**
   * 1: so is any role with no table of people in the answer ("works written by Mexican composers": `artist` by way of
   * `l_artist_work`), not only a word of belonging.
   */
  rolePeople: 1,
  /**
   * 1: in a catalog with no hub of typed relationships, a role that no table, column or synonym names ("the owners of
   * the bike shops", "the accounting manager contact for each store") is the part people play at a thing the answer
   * names: the junction that gives people a role at what that thing is (`businessentitycontact`: a person at a
   * business entity, which a store is) rises with its kind list (`contacttype`), though no word names either.
   */
  roleJunctions: 1,
  /**
   * 1: a record that qualifies many junctions (`link`, see isQualifierRecord) leads to no holder of a title: the tables
   * behind its junctions are the ends of every kind of relationship, not where the titled row is.
   */
  titleSkipsQualifiers: 1,
  /**
   * A plural noun for a kind of place or person that the catalog does not name: the kind code lists (`place_type`)
   * of the `kindTop` best-ranked tables of places or people in the answer rise to this share of them.
   */
  kindLookup: 0.9,
  kindTop: 2,
  /** 1: a unit ("minutes", "kilos") names no kind of the rows (kindThing). */
  unitKinds: 1,
  /** 1: behind a junction, a kind list of the rows' part in a relationship comes before one of what the junction holds. */
  kindRoles: 1,
  /** 1: a synonym of a thing's name read as a kind of it ("albums") brings no kind list behind a junction. */
  synonymKinds: 1,
  /** Whether a role's people must be an end of the relationships (1) or may be any table of people (0). */
  roleEnds: 1,
  /** Something made of a thing ("remixes of"): the thing's relationship with its own kind rises to this share of it. */
  madeOf: 0.9,
  /** The hub's attribute junction and list (attributeList) rise with a role to this share of its people. */
  roleAttributes: 0.85,
  /** 1: a role the only thing a question names that the catalog reaches ("theremin players"): the people of the relationships stand in (addRoleLookups). */
  roleAlone: 1,
  /** 1: a question that reaches no table is read once more with slips of the thesaurus synonyms of catalog words corrected to them. */
  synonymSlips: 1,
  /**
   * 1: a role that a thesaurus synonym places with what it makes ("lyricist": a work) brings no attributes only where the
   * catalog holds that synonym; "players", grouped with athletes, is a role of playing in a catalog of music.
   */
  roleSynonymsHeld: 1,
  /** 1: a question that asks when (parsed.asksTime) asks a time of its leading rows, held in a table of their own when theirs holds none. */
  askedTime: 1,
  /** 1: only a role of playing or singing brings the attributes (isPerforming); producing or conducting does not. */
  performingAttributes: 1,
  /** …and the code lists that only a guess of a word's label raised keep this share of their score: the word is an attribute of the role. */
  roleGuesses: 0.8,
  /** A named person or place: the FK path from each of the `mentionTop` best tables to a table of that kind rises to this share of it. */
  mentionPath: 0.85,
  mentionTop: 3,
  /** A table of places within places (addContainment), for a kind of place within a named one: this share of the table of places. */
  containment: 0.9,
  /** 1: a path that starts with a row's own FKs may also start into a table of its own (isOwnTable). */
  ownTables: 1,
  /** 1: a table of custom attributes of a thing (isAttributeTable) counts as auxiliary unless the question names its last word. */
  attributeTables: 1,
  /** 1: …and its list of attribute types is no kind list of the thing (addKindLookups). */
  attributeKinds: 1,
  /** 1: no label is guessed in a code list whose labels are all known and none is the word (labelsRefute). */
  knownLabels: 1,
  /** 1: a join path never goes from one subtype of a table with no name of its own to another (pathToAny). */
  subtypeSiblings: 1,
  /** 1: a table a join path passes on its key alone (keyPassesThrough) is not raised as a table between the others. */
  keyThrough: 1,
  /** 1: a junction other tables point at brings only its ends that hold people or places (addJunctionEnds). */
  thingEnds: 1,
  /** 1: …and those only when the question is about people or places. */
  thingEndsAsked: 1,
  /** 1: a list three or more junctions point at (isSharedVocabulary) is offered no guess of a word's label. */
  sharedLists: 1,
  /** 1: …unless the question names that list by its whole name ("release groups tagged cumbia": `tag`). */
  namedShared: 1,
  /** 1: a typed relationship (a junction that points at the relationship hub) leads to no code list. */
  relatedNoList: 1,
  /** 1: among equally short join paths, one that meets fewer tables from both sides (converges) is taken. */
  convergence: 1,
  /** 1: a junction brings an end that is itself a junction naming its rows (`release` of `release_label`), as it does an entity. */
  namedEnds: 1,
  /** 1: "he", "she", "his", "her" make a question about people when it names no kind of person the catalog has. */
  pronouns: 1,
  /** 1: a junction with a name of its own brings as its qualifiers only the code lists that may hold a word of the question. */
  namedQualifiers: 1,
  /** 1: the record that types a junction (isTypingRecord) is not one of the two ends it bridges. */
  bridgeRecords: 1,
  /** 1: a junction is no bridge between two ends that an FK of their own joins (joinedDirectly). */
  bridgeJoined: 1,
  /** 1: with no word matched, the junctions that point at a record qualifying them do not make it central (centralLinks). */
  centralThings: 1,
  /** 1: words for the catalog's own structure ("tables", "columns") are no search words (withoutStructureWords). */
  structureWords: 1,
  /**
   * 1: the words of a quoted phrase that is no title ("the label type 'reissue production'") are text to find as
   * written, not vocabulary: no synonym, dictionary sense or longer catalog word stands in for them.
   */
  quotedLiteral: 1,
  /** 1: the last word of a title in quotes ("'Different Class'") names no kind of thing, as "Glastonbury Festival" does. */
  quotedTitles: 1,
  /** 1: a number word ("two", "five") or an irregular verb's past form ("came", "wrote") is no label a code list holds. */
  labelForms: 1,
  /** 1: the words of a name that issued something ("ECM releases") are no labels of a code list, as a person's are not. */
  issuerWords: 1,
  /** Candidates that get the name-coverage and graph treatment. */
  candidates: 300,
  /** Candidates whose adjacent junction tables are checked. */
  bridgeCandidates: 60,
  /** On catalogs of at least `commonMinTables` tables, words in more than this share of them only refine. */
  commonShare: 0.1,
  commonMinTables: 1000,
} as const;

const DEFAULT_LIMIT = 10;

/** A reason that postings cannot reproduce; `show` orders it among the word reasons of explain(). */
interface ExtraReason {
  readonly weight: number;
  readonly text: string;
  readonly column?: string;
  readonly show?: number;
}

interface QueryState {
  readonly score: Float64Array;
  readonly evidenceBits: Uint32Array;
  /** The question's pieces of evidence, by bit: idf weight, and whether anything in the catalog matched it. */
  readonly pieces: Array<{ idf: number; known: boolean }>;
  /** Index in `pieces` of each query word's piece, by its surface form. */
  readonly wordPieces: Map<string, number>;
  /** Graph, value and mention reasons, which cannot be recomputed from postings. */
  readonly extra: Map<number, Array<ExtraReason>>;
  readonly touched: number[];
  readonly touch: (d: number) => void;
  /**
   * Code lists raised because they may hold a word of the question: the share of their score the guess gave when it
   * was made, and whether every such guess reached them through another table (a junction, a part).
   */
  readonly guesses: Map<number, { share: number; far: boolean }>;
  /** The catalog word each question word that the ranking read as made on one stands for (prefixBase), by surface. */
  readonly prefixes: Map<string, string>;
  /** Question words to match as written only (literalWords). */
  readonly literal: ReadonlySet<string>;
}

export function searchIndex(data: IndexData, query: string, opts: SearchOptions = {}): SearchResult {
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
  const ranking = (window: number, shown: number, o: SearchOptions): SearchResult => {
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
      return rankQuery(data, parsed, st, allowed, window, shown, o);
    } finally {
      // The scratch arrays are shared by every query on this index: clear only what this one wrote.
      for (const d of touched) {
        score[d] = 0;
        evidenceBits[d] = 0;
        seen[d] = 0;
      }
    }
  };
  // The steps that complete an answer (join paths, code lists, parents) look at its first `limit` places. An answer
  // longer than the default starts with the default answer whole and goes on with a ranking completed for the longer
  // one: asking for more than the default never reorders what the default showed.
  if (limit <= DEFAULT_LIMIT) return ranking(limit, limit, opts);
  const plain = { ...opts, withJoinTree: false };
  return extendAnswer(data, ranking(DEFAULT_LIMIT, DEFAULT_LIMIT, plain), ranking(limit, limit, plain), limit, opts);
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
 * A negated word the catalog does not hold ("inactive", "unpaid", "non-returned") is looked up as the word it negates
 * when the catalog holds that one (`active`, `paid`): the column that says yes or no answers both.
 */
function withNegatedTerms(data: IndexData, parsed: ParsedQuery): ParsedQuery {
  const ids = data.postings.termIds;
  let changed = false;
  const terms = parsed.terms.map((t) => {
    if (t.phrasal === true || ids.has(t.term)) return t;
    // The negated word is a quality or a state (`active`, `paid`, `available`, `returned`), not any word that happens to
    // follow the letters (`uniform` is not `form`).
    const m = /^(?:un|in|im|ir|il|non|dis)-?(\p{L}{2,}(?:ive|ed|id|able|ible|ful|al|ic|ent|ant|ous|ete|own|old|ar))$/u.exec(t.surface);
    const base = m === null ? undefined : stem(m[1]!);
    if (base === undefined || !ids.has(base) || parsed.terms.some((o) => o.term === base)) return t;
    changed = true;
    return { ...t, term: base };
  });
  return changed ? { ...parsed, terms } : parsed;
}

/** Words for the catalog's own structure. */
const STRUCTURE_WORDS: ReadonlySet<string> = new Set(['table', 'tables', 'schema', 'schemas', 'database', 'databases', 'db', 'column', 'columns']);
const structureMemo = new WeakMap<IndexData, ReadonlySet<string>>();

/**
 * A word for the catalog's own structure ("what tables are there?", "which columns hold emails", "what is in this
 * database") says where to look, not what for: it reads as "thing(s)", a word that names nothing, unless it names a
 * table of the catalog (a restaurant's `dining_table`). Before, "what tables are there?" found one log table by its
 * `table_name` column, and "database" split into `data` and `base`. Quoted words stay as written.
 */
function withoutStructureWords(data: IndexData, text: string): string {
  if (!(RANKING.structureWords > 0)) return text;
  let named = structureMemo.get(data);
  if (named === undefined) {
    named = new Set([...STRUCTURE_WORDS].filter((w) => inTableName(data, stem(w))));
    structureMemo.set(data, named);
  }
  const kept = named;
  return text.replace(/"[^"]*"|\p{L}+/gu, (w) => {
    const lower = w.toLowerCase();
    if (!STRUCTURE_WORDS.has(lower) || kept.has(lower)) return w;
    return lower.endsWith('s') ? 'things' : 'thing';
  });
}

/**
 * A mention that names the catalog's own things is no mention: an adjective of a place that the catalog holds as a
 * value ("French" in a list of cultures), and a name known only from where it stands (see Mention.maker) that the
 * catalog holds as a value or writes as one word ("Comedy films", "sales by Territory").
 */
function withoutCatalogNames(data: IndexData, parsed: ParsedQuery): ParsedQuery {
  const own = (m: Mention): boolean =>
    (m.adjective === true || m.maker === true) && (data.values.has(valueKey(m.text)) || (m.maker === true && !/\s/.test(m.text) && isCatalogTerm(data, m.text)));
  return parsed.mentions.some(own) ? { ...parsed, mentions: parsed.mentions.filter((m) => !own(m)) } : parsed;
}

/**
 * Ranks the catalog for one parsed question. The steps that complete an answer look at its first `window` places;
 * `limit` tables are returned.
 */
function rankQuery(data: IndexData, parsed: ParsedQuery, st: QueryState, allowed: (d: number) => boolean, window: number, limit: number, opts: SearchOptions): SearchResult {
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
      for (let i = rFrom; i < rTo; i++) {
        const d = doc[i]!;
        if (!allowed(d) || (refineOnly && data.scratch.seen[d] === 0)) continue;
        const dd = data.docs[d]!;
        // A label group's member ("vinyl") is a label of the list its group's first word names (`medium_format`).
        const fList = labelHeads.has(term) && isListOf(dd, term) ? (fNamed * RANKING.labelMember) / factor : fNamed;
        const s = (fNamed !== f && (isWholeName(dd, term) || isListOf(dd, term)) ? fList : f) * sat[i]!;
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
  ranked = addQualifiers(data, ranked, window, evidence, st, allowed, parsed);
  ranked = addParents(data, ranked, window, unasked, st, allowed);
  ranked = addJunctionEnds(data, ranked, lexical, st, allowed, parsed);
  if (parsed.asksNames) ranked = addNameHolders(data, ranked, st, allowed);
  if (parsed.titles.length > 0 || parsed.issuers.length > 0) ranked = addTitleHolders(data, ranked, parsed, st, allowed);
  for (const kind of ['person', 'place'] as const) {
    const m = namedMention(parsed, kind);
    if (m !== undefined) ranked = addMentionPaths(data, ranked, window, m, unasked, st, allowed);
  }
  if (RANKING.levelTable > 0) {
    const m = namedMention(parsed, 'place');
    if (m !== undefined) ranked = addLevelTable(data, ranked, window, m, st, allowed);
  }
  if (RANKING.containment > 0 && parsed.kindNouns.place.length > 0) {
    const m = namedMention(parsed, 'place') ?? parsed.mentions.find((x) => x.kind === 'place');
    if (m !== undefined) ranked = addContainment(data, ranked, window, m, parsed.kindNouns.place[0]!, st, allowed);
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
    ranked = addRoleLookups(data, ranked, window, role, named, st, allowed, modifier, performing);
  }
  if (!roleDone && RANKING.roleJunctions > 0) {
    // A column may hold a role's word (`document.owner`) where the role of people at a thing is kept elsewhere.
    const part = role ?? roleWord((t) => !inTableName(data, t.term));
    // The word right behind the role: a role that modifies it ("dealer network") is no one's part.
    // The word after a job title is no noun that the role modifies.
    if (part !== undefined) ranked = addRoleJunctions(data, ranked, window, part, part === jobRole ? undefined : termAfter(parsed, part)?.term, lexical, st, allowed);
  }
  if (RANKING.madeOf > 0 && parsed.madeOf.length > 0) ranked = addSelfRelations(data, ranked, window, parsed.madeOf[0]!, st, allowed);
  // A kind of place or person that no table or column names ("recording studios") is a label of a kind code list.
  for (const [nouns, strength] of [[parsed.kindNouns.place, data.placeTable], [parsed.kindNouns.person, data.personTable]] as const) {
    const word = nouns.find((w) => !isCatalogTerm(data, w) && !(roleDone && w === role));
    if (word !== undefined) ranked = addKindLookups(data, ranked, window, (d) => strength[d]! > 0, word, lexical, st, allowed);
  }
  // The rows asked for first: a kind of them ("which choirs") is a label of their kind list, below.
  const focus = addFocusTables(data, ranked, parsed, st, allowed);
  ranked = focus.ranked;
  // "Labels classed as reissue labels": a kind of the rows asked for, or of the table the word before the verb names.
  const classed = RANKING.classedAs > 0 ? parsed.classedAs[0] : undefined;
  if (classed !== undefined) {
    const ofStem = classed.of === undefined ? undefined : stem(classed.of);
    const things = focus.asked.length > 0 ? focus.asked : ranked.filter((d) => ofStem !== undefined && isWholeName(data.docs[d]!, ofStem));
    if (things.length > 0) ranked = addKindLookups(data, ranked, window, (d) => things.includes(d) && isThing(data, d), classed.kind, lexical, st, allowed);
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
    ranked = addKindLookups(data, ranked, window, (d) => isThing(data, d) && data.docs[d]!.nameStems.some((t) => terms.has(t)), word, lexical, st, allowed, focusScore(ranked, parsed, word, st), !(RANKING.synonymKinds > 0) || said);
  }
  // Not for people, places or roles: those have their own kind lists above.
  else if (kindThing !== null) ranked = addKindLookups(data, ranked, window, (d) => isThing(data, d), kindThing, lexical, st, allowed, focusScore(ranked, parsed, kindThing, st));
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
    if (one) ranked = addTaxonomy(data, ranked, window, nouns[0]!, st, allowed);
    else if (goods.length > 0) ranked = addTaxonomy(data, ranked, window, goods[0]!, st, allowed);
  }
  // The join set once more: tables that rose since the first pass (the rows asked for, kind lists, names) need the
  // tables between them and the rest ("the cities where customers rented": `address` between `customer` and `city`).
  ranked = fillPaths(data, ranked, lexical, unasked, st, allowed, pathPairs);
  if (RANKING.partChains > 0) ranked = addPartChains(data, ranked, window, lexical, st, allowed);
  // A junction that only the signals since then brought into the answer (the path to a named person, a role, the rows
  // asked for) needs its qualifiers as much as one the question's words found; a kind of person asked for by name
  // ("which employee placed each order") needs the table that holds the names.
  ranked = addQualifiers(data, ranked, window, evidence, st, allowed, parsed);
  if (parsed.asksNames) ranked = addNameHolders(data, ranked, st, allowed);
  ranked = spreadGuesses(data, ranked, window, st);
  ranked = placeViews(data, ranked, window, queryTerms, st);
  ranked = placeApart(data, ranked, window, queryTerms, st);

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

/** The tables of things in scope (entities, and junctions that name their rows), most joined first (every table in scope where there are none). */
function centralTables(data: IndexData, allowed: (d: number) => boolean): number[] {
  const ds: number[] = [];
  for (let d = 0; d < data.docs.length; d++) if (allowed(d) && isThing(data, d)) ds.push(d);
  if (ds.length === 0) for (let d = 0; d < data.docs.length; d++) if (allowed(d)) ds.push(d);
  const degree = new Map<number, number>();
  for (const d of ds) degree.set(d, centralLinks(data, d));
  ds.sort((x, y) => degree.get(y)! - degree.get(x)! || data.order[x]! - data.order[y]!);
  return ds;
}

function centralWhy(data: IndexData, d: number): string {
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
function noMatch(data: IndexData, parsed: ParsedQuery, allowed: (d: number) => boolean, limit: number, opts: SearchOptions, reason: 'no_match' | 'no_words' = 'no_match'): SearchResult {
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

function cachedAreas(data: IndexData, opts: SearchOptions, allowed: (d: number) => boolean): readonly SchemaArea[] {
  const key = `${opts.source ?? ''}\u0000${opts.schema ?? ''}`;
  let areas = data.areaCache.get(key);
  if (areas === undefined) {
    areas = schemaAreas(data, allowed);
    if (data.areaCache.size > 64) data.areaCache.clear();
    data.areaCache.set(key, areas);
  }
  return areas;
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

/** Per thesaurus group, the stem of its first word where it is a label group (LABEL_GROUPS), else null. */
const LABEL_HEADS: readonly (string | null)[] = THESAURUS.map((group) => (LABEL_GROUPS.has(group[0]!) ? stem(group[0]!) : null));

/** The stem of a label group's first word when `term` is another member of that group (LABEL_GROUPS), else null. */
function labelGroupHead(concept: string, term: string): string | null {
  if (!isThesaurusConcept(concept)) return null;
  const head = LABEL_HEADS[Number(concept.slice(1))] ?? null;
  return head === term ? null : head;
}

/** Whether a table is a code list whose name ends in the word whose stem is `term` (`medium_format` for "format"). */
function isListOf(doc: DocData, term: string): boolean {
  return doc.role === 'lookup' && doc.nameStems[doc.nameStems.length - 1] === term;
}

/** Whether a table's name is the one word whose stem is `term` (`release` for "releas"). */
function isWholeName(doc: DocData, term: string): boolean {
  return doc.nameStems.length === 1 && doc.nameStems[0] === term;
}

/** The stems that are some table's whole name (isWholeName), worked out once per index. */
const wholeNamesMemo = new WeakMap<IndexData, ReadonlySet<string>>();
function wholeNameStems(data: IndexData): ReadonlySet<string> {
  let names = wholeNamesMemo.get(data);
  if (names === undefined) {
    names = new Set(data.docs.flatMap((doc) => (doc.nameStems.length === 1 ? [doc.nameStems[0]!] : [])));
    wholeNamesMemo.set(data, names);
  }
  return names;
}

function idfOf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * Proper names: "Lewis Hamilton" is looked up in a table of people, "in Pisek" in a table of places. Each kind
 * counts once, like a query word whose postings are the tables of that kind: one piece of the question's evidence.
 */
function addMentions(data: IndexData, parsed: ParsedQuery, st: QueryState, allowed: (d: number) => boolean): void {
  // The tables the question's words reached most strongly: a table of people or places near them is more likely the
  // one meant than one in another part of the catalog (the artist of "songs Quincy Jones produced", not the site's
  // editors).
  let context: Set<number> | null = null;
  // "Who …?" asks for people without naming one: the tables of people count, at a lower weight; "where" for places.
  // "Which purchasing agent …?" asks for people too, unless the catalog has a table or column for that kind of person
  // ("which actors" is answered by `actor` itself, not by every table of people).
  // "His page", "her card": someone the question speaks of, unless it already names what kind of person of the catalog
  // that is ("a customer … her card": `customer`).
  const pronoun = RANKING.pronouns > 0 && parsed.personPronoun && !parsed.terms.some((t) => !t.part && data.lexicon.isPerson(t.surface) && isCatalogTerm(data, t.surface));
  const asksPerson = parsed.asksPerson || pronoun || parsed.personNouns.some((ws) => ws.every((w) => !isNameTerm(data, w)));
  // "Which cities …?" in a catalog with no table or column for cities asks for places as plainly as a name would.
  const placeNoun = parsed.placeNouns.find((ws) => ws.every((w) => !isNameTerm(data, w)))?.[0];
  for (const kind of ['person', 'place'] as const) {
    const named = namedMention(parsed, kind);
    const byNoun = kind === 'place' && placeNoun !== undefined;
    const asked = kind === 'person' ? (asksPerson ? 'who' : undefined) : placeNoun ?? (parsed.asksPlace ? 'where' : undefined);
    const mention = named ?? (asked === undefined ? undefined : { kind, text: asked });
    if (mention === undefined) continue;
    const weight = named !== undefined || byNoun ? 1 : RANKING.asksPerson;
    const { docs, strength } = holdersOf(data, kind);
    const idf = idfOf(data.searchable, docs.length);
    const bit = piece(st, weight * idf, docs.length > 0);
    let near: Map<number, number> | null = null;
    if (docs.length <= RANKING.mentionContextDocs) {
      // Before any mention is scored, the touched tables are the ones the words reached.
      context ??= new Set(topCandidates(data, st, RANKING.mentionContext));
      if (context.size > 0) near = nearness(data, docs, context);
    }
    // A place the dictionary knows the level of ("California", a state) is held by the table named for that level
    // (`stateprovince`), more than by the other tables of places.
    const level = named !== undefined && kind === 'place' ? levelWords(data, named.text) : null;
    // A table of places kept inside another (`address` in a `stateprovince`, a venue in an `area`) and keeping none
    // holds such a place less surely than the tables of places it points at: "in Mali" is an area, not a venue.
    const places = level === null ? null : new Set(docs);
    const isAtLevel = (x: number): boolean => level !== null && data.docs[x]!.nameParts.some((w) => level.has(w));
    for (const d of docs) {
      if (!allowed(d)) continue;
      const atLevel = isAtLevel(d);
      const within = !atLevel && places !== null && RANKING.placeWithin < 1 && innermostPlaces(data, d, places, isAtLevel);
      const s = weight * RANKING.mention * idf * strength[d]! * (near === null ? 1 : 1 - RANKING.mentionAway * (1 - near.get(d)!)) * (atLevel ? 1 + RANKING.placeLevel : within ? RANKING.placeWithin : 1);
      st.touch(d);
      st.score[d]! += s;
      st.evidenceBits[d]! |= bit;
      pushExtra(st, d, { weight: s, text: `${kind === 'person' ? 'holds people' : 'holds places'}, for '${mention.text}'`, show: 2.7 });
    }
  }
}

/**
 * Whether a table of places is kept inside another (an FK to one of `places`) and keeps none itself: `address` in a
 * `stateprovince`, a venue in an `area`. A level between two (`stateprovince`, which addresses point at) is not.
 * Only a table as sure to hold places as this one makes it a level: a venue's aliases or an order's ship-to address
 * keep no places inside it.
 */
function innermostPlaces(data: IndexData, d: number, places: ReadonlySet<number>, atLevel: (x: number) => boolean): boolean {
  let inside = false;
  let towardsLevel = false;
  let kept = false;
  for (const e of data.edges[d]!) {
    if (e.to === d || e.subtype || !places.has(e.to)) continue;
    if (e.outgoing) {
      inside = true;
      if (atLevel(e.to)) towardsLevel = true;
    } else if (data.placeTable[e.to]! >= data.placeTable[d]!) kept = true;
  }
  return inside && !(towardsLevel && kept);
}

/** Words a table of places at the level of the named place is named with, or null when the level is unknown. */
const LEVEL_WORDS: Readonly<Record<string, readonly string[]>> = { state: ['state', 'province'], country: ['country', 'nation'], city: ['city', 'town'] };
/** Nouns of the levels places are divided into. */
const PLACE_LEVEL_NOUNS: ReadonlySet<string> = new Set(['state', 'province', 'country', 'nation', 'city', 'town', 'village', 'county', 'region', 'continent', 'island', 'district', 'municipality', 'suburb', 'neighborhood', 'neighbourhood']);
function levelWords(data: IndexData, name: string): ReadonlySet<string> | null {
  const levels = data.lexicon.placeLevels(name);
  return levels.length === 0 ? null : new Set(levels.flatMap((l) => LEVEL_WORDS[l] ?? [l]));
}

/** The question's first name of a person or a place (the catalog's own names are already left out: withoutCatalogNames). */
function namedMention(parsed: ParsedQuery, kind: Mention['kind']): Mention | undefined {
  return parsed.mentions.find((m) => m.kind === kind);
}

/** The tables that hold people or places, and how surely each does (0 when it does not). */
function holdersOf(data: IndexData, kind: Mention['kind']): { docs: Int32Array; strength: Float32Array } {
  return kind === 'person' ? { docs: data.personDocs, strength: data.personTable } : { docs: data.placeDocs, strength: data.placeTable };
}

/** Registers one piece of the question's evidence and returns its bit. */
function piece(st: QueryState, idf: number, known: boolean): number {
  st.pieces.push({ idf, known });
  return pieceBit(st.pieces.length - 1);
}

/** The bit of the i-th piece of evidence in `evidenceBits` (pieces past the 32nd share the last bit). */
function pieceBit(i: number): number {
  return 1 << Math.min(31, i);
}

/**
 * Share of the question's evidence that a table matches. Evidence that nothing in the catalog matches (a name, a
 * value the catalog does not hold, a chatty word: "I'm trying to figure out…") weighs `unknownEvidence` of its idf:
 * no table could match it, so it says less about how well the best one does.
 */
function coverage(st: QueryState, d: number): number {
  const bits = st.evidenceBits[d]!;
  let total = 0;
  let covered = 0;
  st.pieces.forEach((p, i) => {
    const w = p.known ? p.idf : RANKING.unknownEvidence * p.idf;
    total += w;
    if ((bits & pieceBit(i)) !== 0) covered += w;
  });
  return total === 0 ? 0 : Math.min(1, covered / total);
}

/** For each doc: 1 when it or a neighbour is in `context`, `mentionTwoSteps` when one two FK steps away is, else 0. */
function nearness(data: IndexData, docs: ArrayLike<number>, context: ReadonlySet<number>): Map<number, number> {
  const out = new Map<number, number>();
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    let near = context.has(d) ? 1 : 0;
    for (const e of data.edges[d]!) {
      if (near === 1) break;
      if (context.has(e.to)) near = 1;
      else if (near === 0 && data.edges[e.to]!.some((e2) => context.has(e2.to))) near = RANKING.mentionTwoSteps;
    }
    out.set(d, near);
  }
  return out;
}

/** Tables whose columns isNameTerm reads at most; a word in more tables than that counts as named. */
const NAME_TERM_TABLES = 64;

/**
 * Whether a term (stemmed) is a word of some table's name. Only the tables whose postings hold the term are read: at
 * 10,000 tables, reading every table's name words on a first question costs more than the question.
 */
function inTableName(data: IndexData, term: string): boolean {
  const id = data.postings.termIds.get(term);
  if (id === undefined) return false;
  const { start, doc } = data.postings;
  for (let i = start[id]!; i < start[id + 1]!; i++) if (data.docs[doc[i]!]!.nameStems.includes(term)) return true;
  return false;
}

/**
 * Whether a table or a column is named with the word (its stem), not only a comment or a value: "which actors" has
 * `actor`, where "which design engineers" has only a comment that mentions engineers. Only the tables the word's
 * postings hold are looked at, and the columns of a bounded number of them (a lazily read catalog reads those tables).
 */
function isNameTerm(data: IndexData, word: string): boolean {
  const term = stem(word.toLowerCase());
  const id = data.postings.termIds.get(term);
  if (id === undefined) return false;
  const { start, doc } = data.postings;
  const from = start[id]!;
  const to = start[id + 1]!;
  for (let i = from; i < to; i++) if (data.docs[doc[i]!]!.nameStems.includes(term)) return true;
  if (to - from > NAME_TERM_TABLES) return true;
  for (let i = from; i < to; i++) {
    if (data.docs[doc[i]!]!.table.columns.some((c) => cachedTerms(data.termCache, data.vocab, c.name).some((t) => t.term === term))) return true;
  }
  return false;
}

/** True when `word` (stemmed) is an index term of some table's name, columns or comments. */
function isCatalogTerm(data: IndexData, word: string): boolean {
  const id = data.postings.termIds.get(stem(word.toLowerCase()));
  return id !== undefined && data.postings.start[id + 1]! > data.postings.start[id]!;
}

/** The column holds a code list's labels (a small table read whole; see ColumnInfo.codeValues). */
function isCodeColumn(data: IndexData, d: number, column: string): boolean {
  return data.docs[d]!.table.columns.some((c) => c.name === column && c.codeValues !== undefined);
}

/**
 * Whether a code list's labels, all known (a small table read whole: ColumnInfo.codeValues), rule out that it holds
 * any of `words`: no label has a word of the same stem or a related one. Guessing that `language` may hold
 * 'radiohead' is then no guess: the catalog has read every language it holds.
 */
function labelsRefute(data: IndexData, d: number, words: readonly string[]): boolean {
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
 * Value index: literal category values named in the question ("customers in 'LATAM'"). A quoted value is a piece of the
 * question's evidence of its own; any value covers the question's words it is made of.
 */
function addValueHits(data: IndexData, parsed: ParsedQuery, st: QueryState, allowed: (d: number) => boolean, lexical: Set<number>): void {
  const n = data.searchable;
  const probed = new Set<string>();
  for (const probe of parsed.valueProbes) {
    const k = valueKey(probe);
    if (probed.has(k)) continue;
    probed.add(k);
    const list = data.values.get(k);
    if (list === undefined) continue;
    const idf = idfOf(n, new Set(list.map((e) => e.d)).size);
    const quoted = parsed.quoted.includes(probe);
    const full = (quoted ? 1.5 : 1) * RANKING.value * idf * Math.min(1, 0.5 + probe.length / 10);
    // A code list's label that is also a word of the catalog's names ("sales", "product") is more often that
    // word than the label; a label the names do not hold ("night", "refunded") is the value.
    const words = probe.split(/[^\p{L}\p{N}]+/u);
    const named = !quoted && words.every((w) => w.length === 0 || isCatalogTerm(data, w));
    const done = new Set<number>();
    // The value covers the question's words it is made of ("documentaries" → 'Documentary').
    let bit = quoted ? piece(st, idf, true) : 0;
    for (const w of words) {
      const i = st.wordPieces.get(w);
      if (i === undefined) continue;
      bit |= pieceBit(i);
      st.pieces[i]!.known = true;
    }
    const referrers = new Map<number, { value: number; text: string }>();
    for (const e of list) {
      if (!allowed(e.d) || done.has(e.d) || (RANKING.valueForms > 0 && !sameForms(probe, e.value))) continue;
      done.add(e.d);
      const code = isCodeColumn(data, e.d, e.column);
      const boost = code && named ? RANKING.codeValueNamed * full : full;
      lexical.add(e.d);
      st.touch(e.d);
      st.score[e.d]! += boost;
      st.evidenceBits[e.d]! |= bit;
      pushExtra(st, e.d, { weight: boost, text: `value '${e.value}' in ${e.column}`, column: e.column });
      if (!code) continue;
      // The tables that point at the code list are where rows with that value live ("night shift" → the
      // assignments that reference `shift`).
      const lift = RANKING.codeValueReferrer * boost;
      for (const edge of data.edges[e.d]!) {
        if (edge.outgoing || edge.to === e.d || !allowed(edge.to)) continue;
        const prev = referrers.get(edge.to);
        if (prev === undefined || lift > prev.value) referrers.set(edge.to, { value: lift, text: `references ${data.docs[e.d]!.name}, which holds '${e.value}'` });
      }
    }
    for (const [d, r] of referrers) {
      if (done.has(d)) continue;
      st.touch(d);
      st.score[d]! += r.value;
      pushExtra(st, d, { weight: r.value, text: r.text, show: 1 });
    }
  }
}

/** A word as written without a plural ending (`documentaries` → `documentary`, `edits` → `edit`). */
function singular(w: string): string {
  if (/ies$/.test(w) && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(?:ss|us|is)$/.test(w)) return w;
  return w.endsWith('s') ? w.slice(0, -1) : w;
}

/**
 * Whether a question's words and a stored value of the same stems are the same forms, up to a plural and a spelling:
 * a verb's form in -ed or -ing is a state or an act ("edited", "pending"), not the thing the plain word names ("edits").
 */
function sameForms(probe: string, value: string): boolean {
  const a = probe.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
  const b = value.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
  if (a.length !== b.length) return true;
  return a.every((w, i) => {
    const v = b[i]!;
    return w === v || singular(w) === singular(v) || verbEnding(w) === verbEnding(v);
  });
}

/** The ending of a verb's form a word is written with (`cancelled`, `canceled`: 'ed'), or ''. */
function verbEnding(w: string): string {
  return /ed$/.test(w) ? 'ed' : /ing$/.test(w) ? 'ing' : '';
}

/**
 * FK neighbours of the top hits. A neighbour whose whole name the question uses ("assigned to artists" next to
 * `artist_ipi`) is the entity the hit hangs off and rises close to it; other neighbours gain a little, which orders
 * the tables a query is likely to join when the words alone do not decide.
 */
function addNeighbours(data: IndexData, ranked: readonly number[], queryTerms: ReadonlySet<string>, queryConcepts: ReadonlySet<string>, st: QueryState, allowed: (d: number) => boolean): void {
  const boosts = new Map<number, { value: number; named: boolean; via: number }>();
  const asked = (word: string, stemmed: string): boolean =>
    queryTerms.has(stemmed) || cachedConcepts(data.conceptCache, data.lexicon, word).some((c) => queryConcepts.has(c));
  for (const h of ranked.slice(0, RANKING.neighbourTop)) {
    const base = st.score[h]!;
    const own = data.docs[h]!.nameStems;
    for (const e of data.edges[h]!) {
      const p = e.to;
      if (p === h || !allowed(p)) continue;
      const pd = data.docs[p]!;
      const stems = pd.nameStems;
      // A lookup the hit points at is named by the words it adds to the hit's name (`release` → `release_status`
      // by "status"), or by the FK column that points at it (`medium.format`).
      const lookupNamed =
        pd.role === 'lookup' &&
        e.outgoing &&
        (stems.some((w) => !own.includes(w)) ? stems.every((w, i) => own.includes(w) || asked(pd.nameWords[i]!, w)) : false);
      const named = (stems.length > 0 && stems.every((w) => queryTerms.has(w))) || lookupNamed;
      const value = named ? Math.max(0, RANKING.namedNeighbour * base - st.score[p]!) : RANKING.neighbour * base;
      const prev = boosts.get(p);
      if (prev === undefined || value > prev.value) boosts.set(p, { value, named, via: h });
    }
  }
  for (const [p, b] of boosts) {
    if (b.value <= 0) continue;
    st.touch(p);
    st.score[p]! += b.value;
    if (b.named) pushExtra(st, p, { weight: b.value, text: `joins ${data.docs[b.via]!.name}`, show: 1 });
    else if (st.score[p]! === b.value) pushExtra(st, p, { weight: b.value, text: `joins ${data.docs[b.via]!.name}`, show: 0.3 });
  }
}

/**
 * Words the catalog does not know are likely values of a code list (a genre, a language, a shift name): the lookup
 * tables of the top hits, directly referenced or behind a junction (`film` → `film_category` → `category`), rise
 * with their entity, together with the junction.
 */
function addValueLookups(data: IndexData, tops: readonly number[], words: readonly string[], st: QueryState, allowed: (d: number) => boolean, share: number = RANKING.valueLookup, named: ReadonlySet<string> = NO_WORDS): void {
  const boosts = new Map<number, Offer>();
  // `below`: the score of the table that makes the offer, which a lookup stacking evidence never passes.
  const offer = (d: number, value: number, text: string, below: number, far = false): void => {
    if (!allowed(d)) return;
    if (st.score[d]! < value) keepOffer(boosts, d, value, text, far);
    else if (RANKING.valueStack > 0 && data.docs[d]!.role === 'lookup' && st.score[d]! < below) keepOffer(boosts, d, Math.min(st.score[d]! + RANKING.valueStack * value, below), text, far);
  };
  // Not a vocabulary the whole catalog shares, nor a list whose labels are all known and none is one of the words.
  // A shared vocabulary the question names by its own name ("release groups tagged cumbia") is where its word is kept.
  const open = (l: number): boolean => (!isSharedVocabulary(data, l) || (RANKING.namedShared > 0 && data.docs[l]!.nameStems.every((w) => named.has(w)))) && !labelsRefute(data, l, words);
  const label = words.slice(0, 2).map((w) => `'${w}'`).join(', ');
  // A plural noun that names no person, place or role ("large jerseys", "tires and tubes") names a kind of the rows.
  const kinds = RANKING.valueKind > 0 && words.some((w) => /[^s]s$/.test(w) && data.lexicon.concepts(w).length > 0 && !data.lexicon.isNotNominal(w) && !data.lexicon.isPerson(w) && !data.lexicon.isPlace(w) && !data.lexicon.isRole(w));
  for (const h of tops) {
    const target = share * st.score[h]!;
    for (const e of data.edges[h]!) {
      const p = e.to;
      if (p === h) continue;
      const pd = data.docs[p]!;
      if (e.outgoing && pd.role === 'lookup') {
        if (open(p)) offer(p, kinds && isKindList(data, p) ? RANKING.valueKind * st.score[h]! : target, `lookup of ${data.docs[h]!.name}, may hold ${label}`, st.score[h]!);
      } else if (!e.outgoing && sortsIntoLists(data, p)) {
        for (const e2 of data.edges[p]!) {
          if (!e2.outgoing || e2.to === h || data.docs[e2.to]!.role !== 'lookup' || !open(e2.to)) continue;
          offer(e2.to, target * 0.95, `lookup of ${data.docs[h]!.name} via ${pd.name}, may hold ${label}`, st.score[h]!, true);
          offer(p, target * 0.9, `joins ${data.docs[h]!.name} to ${data.docs[e2.to]!.name}`, st.score[h]!);
        }
      }
    }
  }
  raiseOffers(data, st, boosts, 1.1);
}

/** A raise a code list (or its junction) is offered: the best value, its reason, and whether it came only through another table. */
interface Offer {
  value: number;
  text: string;
  far: boolean;
}

/** Keeps the better of two offers to one table; it came through another table only if every offer did. */
function keepOffer(boosts: Map<number, Offer>, d: number, value: number, text: string, far: boolean): void {
  const prev = boosts.get(d);
  if (prev === undefined || prev.value < value) boosts.set(d, { value, text, far: far && (prev?.far ?? true) });
  else if (!far) prev.far = false;
}

/** Raises each table to its offer, and notes a code list's raise as a guess of what it holds (spreadGuesses). */
function raiseOffers(data: IndexData, st: QueryState, offers: Iterable<[number, Offer]>, show: number): void {
  for (const [d, b] of offers) {
    st.touch(d);
    const add = b.value - st.score[d]!;
    st.score[d] = b.value;
    if (data.docs[d]!.role === 'lookup') noteGuess(st, d, add / b.value, b.far);
    pushExtra(st, d, { weight: add, text: b.text, show });
  }
}

/**
 * The catalog word a question word is made on (catalogPrefix), when it is read so: not a word of a name, a piece, a
 * phrasal verb or a word read as run-together pieces ("salespeople"), which are read by those.
 */
function prefixBase(data: IndexData, parsed: ParsedQuery, qt: ParsedQuery['terms'][number]): string | null {
  if (!(RANKING.prefixWord > 0) || qt.part === true || qt.phrasal || parsed.properWords.has(qt.surface)) return null;
  if (parsed.terms.some((x) => x.part === true && x.position === qt.position)) return null;
  return catalogPrefix(data, qt.surface);
}

/**
 * The longest catalog word of at least four letters that `word` starts with, leaving at least three letters
 * ("filmography" → `film`), or null.
 */
function catalogPrefix(data: IndexData, word: string): string | null {
  for (let n = word.length - 3; n >= 4; n--) {
    const t = stem(word.slice(0, n));
    if (data.postings.termIds.has(t) && isNameTerm(data, t)) return t;
  }
  return null;
}

/** Words that frame a request or a conversation ("can you help", "I'm trying to figure out", "just curious"). */
const FRAMING_WORDS: ReadonlySet<string> = new Set(
  'hey hi hello thanks thank help try figure wonder curious check pull mind remember happen swear guess bet sure okay ok quick question ask wondering interested'.split(' '),
);

/**
 * The words written beside a question word: one that qualifies the next ("purchase orders") is no second match of it
 * through a relation between the two (`purchase` is no second `order` for the sales orders).
 */
function besides(parsed: ParsedQuery, qt: QueryTerm): ReadonlySet<string> {
  const at = qt.position;
  if (at === undefined) return NO_WORDS;
  return new Set(parsed.terms.filter((t) => t.implied !== true && !t.phrasal && t.position !== undefined && Math.abs(t.position - at) === 1).map((t) => t.term));
}

/** The question's own word (not implied, not a phrasal verb) at a position, if there is one. */
function termAt(parsed: ParsedQuery, position: number): ParsedQuery['terms'][number] | undefined {
  return parsed.terms.find((t) => t.position === position && !t.implied && !t.phrasal);
}

/** Where the question writes the word `surface` itself (not implied, not a phrasal verb), if it does. */
function positionOf(parsed: ParsedQuery, surface: string): number | undefined {
  return parsed.terms.find((t) => t.surface === surface && !t.implied && !t.phrasal)?.position;
}

/** The question's word right behind the word written `surface` (no punctuation between), if there is one. */
function termAfter(parsed: ParsedQuery, surface: string): ParsedQuery['terms'][number] | undefined {
  const at = positionOf(parsed, surface);
  return at === undefined ? undefined : termAt(parsed, at + 1);
}

/**
 * The dictionary concepts a question word brings: none for a word of a name ("Kind of Blue", "Abbey Road": only its
 * letters may match), a piece of a run-together word, or a word that frames the request ("can you help").
 */
function wordConcepts(data: IndexData, parsed: ParsedQuery, t: ParsedQuery['terms'][number]): readonly string[] {
  if (t.part === true || isFraming(t.surface)) return [];
  // A person noun that is an adjective too, right before another word ("the official website", "major labels"), says
  // what kind of thing that is: none of its senses (an `official`, a person like an `editor`) is the question's.
  if (RANKING.attributiveAdjectives > 0 && t.position !== undefined && data.lexicon.isPersonAdjective(t.surface) && termAt(parsed, t.position + 1) !== undefined) return [];
  if (!parsed.properWords.has(t.surface)) return cachedConcepts(data.conceptCache, data.lexicon, t.surface);
  // The last word of a name may say what kind of thing it names ("U2's 360° Tour" is a tour, "Glastonbury Festival" a
  // festival): the domain thesaurus reads it, the dictionary's other senses do not ("The Joshua Tree").
  return nameHeads(parsed).has(t.surface) ? cachedConcepts(data.conceptCache, data.lexicon, t.surface).filter(isThesaurusConcept) : [];
}

/** Words of the quoted phrases that are no titles ("'reissue production'"): literal text (RANKING.quotedLiteral). */
function literalWords(parsed: ParsedQuery): ReadonlySet<string> {
  if (!(RANKING.quotedLiteral > 0) || parsed.quoted.length === 0) return NO_WORDS;
  const titles = new Set(parsed.titles.map((t) => t.toLowerCase()));
  return new Set(parsed.quoted.filter((q) => !titles.has(q)).flatMap((q) => q.split(/[^\p{L}\p{N}]+/u)));
}
const NO_WORDS: ReadonlySet<string> = new Set();

/**
 * A question word that the catalog does not write (no posting) may mean one of its rarer senses: "flicks" are films, a
 * "gig" is an engagement. Not a word of a name, a piece of a run-together word, a phrasal verb or a framing word.
 */
function laterSenses(data: IndexData, parsed: ParsedQuery, t: ParsedQuery['terms'][number]): readonly string[] {
  if (RANKING.laterSenses < 1 || t.part === true || t.phrasal || parsed.properWords.has(t.surface) || isFraming(t.surface)) return [];
  return data.lexicon.laterConcepts(t.surface);
}

/** Lower-cased last words of the names in the question (titles and mentions). */
function nameHeads(parsed: ParsedQuery): Set<string> {
  const out = new Set<string>();
  // A title in quotes is the whole name as written ("'Different Class'"): its last word names no kind of thing.
  const quoted = RANKING.quotedTitles > 0 ? new Set(parsed.quoted) : NO_WORDS;
  for (const name of [...parsed.titles, ...parsed.mentions.map((m) => m.text)]) {
    if (quoted.has(name.toLowerCase())) continue;
    const words = name.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
    if (words.length > 0) out.add(words[words.length - 1]!.toLowerCase());
  }
  return out;
}

/** The thesaurus concepts of a noun: what a table's name shares with it when a synonym names the table. */
function thesaurusConcepts(data: IndexData, word: string): Set<string> {
  return new Set(cachedConcepts(data.conceptCache, data.lexicon, word).filter(isThesaurusConcept));
}

/** Whether each word of the table's name is the noun (its stem `term`) or a thesaurus synonym of it. */
function namedByNoun(data: IndexData, doc: DocData, term: string, synonyms: ReadonlySet<string>): boolean {
  return doc.nameStems.every((w, k) => w === term || cachedConcepts(data.conceptCache, data.lexicon, doc.nameWords[k]!).some((c) => synonyms.has(c)));
}

/** Whether the word (any of its candidate lemmas: `trying` → `try`) frames the request. */
function isFraming(word: string): boolean {
  return lemmaCandidates(word).some((w) => FRAMING_WORDS.has(w));
}

/** Words that ask for a count or a listing, or qualify which rows count ("distinct artists"): never a stored value. */
const QUANTIFIERS: ReadonlySet<string> = new Set(
  'count number list show find give get distinct different unique total average overall new top best worst most least many much more fewer each every other same various specific particular certain several whole entire main first last latest recent current highest lowest biggest largest smallest longest shortest'.split(' '),
);

/** Words of the closed classes that the stop words leave in a question: prepositions and conjunctions of time, pronouns. */
const FUNCTION_WORDS: ReadonlySet<string> = new Set('during after before until till while us u myself yourself himself herself itself ourselves yourselves themselves'.split(' '));

/** A regular form of a verb in -ed or -ing, or an irregular one ("bought", "came"): what happened to rows, not their kind. */
function isVerbForm(word: string): boolean {
  return /^.{3,}(?:ed|ing)$/.test(word) || (RANKING.irregularVerbs > 0 && isIrregularVerbForm(word));
}

/** Units of weight, length and volume: the labels of a list of units, not a kind of thing. */
const MEASURE_UNITS: ReadonlySet<string> = new Set('ounce ounces pound pounds lb lbs kilo kilos kilogram kilograms kg gram grams inch inches foot feet meter meters metre metres centimeter centimeters centimetre centimetres millimeter millimeters millimetre millimetres mile miles kilometer kilometers kilometre kilometres liter liters litre litres gallon gallons'.split(' '));

/** Months, days of the week and the weekend. */
const CALENDAR_WORDS: ReadonlySet<string> = new Set([...CALENDAR_NAMES, 'weekend', 'weekends']);

/**
 * A word the catalog does not hold, in a question about things that a catalog sorts into kinds within wider kinds
 * (`product` → `productsubcategory` → `productcategory`): "handlebars", "seatposts", "bikes" are most likely the name
 * of one of those kinds. Of the first such thing among the `taxonomyTop` leading tables, the kind list rises to
 * `kindLookup` of it and the wider one just below; the thing itself, which the question is about, rises first to
 * `taxonomyLead` of the best table ("bikes … left in their baskets": `product` beside `shoppingcartitem`).
 */
function addTaxonomy(data: IndexData, ranked: number[], limit: number, word: string, st: QueryState, allowed: (d: number) => boolean): number[] {
  const piece = st.wordPieces.get(word);
  const bit = piece === undefined ? 0 : pieceBit(piece);
  for (const c of leadingTables(data, ranked.slice(0, limit), RANKING.taxonomyTop)) {
    // A word the thing itself answers to ("red": its colour) is a value of its own columns, not a kind.
    if (!isThing(data, c) || data.personTable[c]! > 0 || (st.evidenceBits[c]! & bit) !== 0) continue;
    for (const e of data.edges[c]!) {
      if (!e.outgoing || e.to === c || !allowed(e.to) || !isKindList(data, e.to)) continue;
      const wider = data.edges[e.to]!.find((x) => x.outgoing && x.to !== e.to && x.to !== c && allowed(x.to) && isKindList(data, x.to));
      if (wider === undefined) continue;
      // The thing whose kind the word names is what the question is about: it rises to a share of the best table.
      const lead = ranked[0] === undefined ? 0 : RANKING.taxonomyLead * st.score[ranked[0]]!;
      const thing = Math.max(st.score[c]!, lead);
      const value = RANKING.kindLookup * RANKING.taxonomy * thing;
      return applyRaises(data, ranked, [
        ...(thing > st.score[c]! ? [[c, thing, `sorted into kinds, one of which may be '${word}'`] as [number, number, string]] : []),
        [e.to, value, `kind of ${data.docs[c]!.name}, may hold '${word}'`],
        [wider.to, value * 0.95, `wider kind of ${data.docs[c]!.name}, may hold '${word}'`],
      ], st);
    }
  }
  return ranked;
}

/** Words of when, not of what: never a label of a code list. */
const TIME_WORDS: ReadonlySet<string> = new Set('now today tonight yesterday tomorrow currently presently nowadays ever yet still anymore lately recently soon'.split(' '));

/**
 * Past forms of irregular verbs that are no participle ("came", "wrote", "went"): what happened, never a state a row
 * is labelled with (participles can be: "sold", "lost", "broken").
 */
const PAST_FORMS: ReadonlySet<string> = new Set('came went wrote gave took ran sang began chose drove flew grew knew rode ate forgot hid broke spoke stole became got sat stood told met did said swam threw wore tore drew shook fell'.split(' '));

/** Cardinal numbers written as words: how many rows, not which. */
const NUMBER_WORDS: ReadonlySet<string> = new Set('one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand thousands million millions'.split(' '));

/** Units of time and proportions: what a question measures rows by ("per quarter", "in minutes", "the ratio of"). */
const UNIT_WORDS: ReadonlySet<string> = new Set('second seconds minute minutes hour hours day days week weeks month months quarter quarters year years decade decades century centuries half halves ratio ratios percentage percentages percent proportion proportions share'.split(' '));

/**
 * Whether a word could be a label a code list holds: not a function word, nor a word the dictionary knows only as a
 * verb or an adverb ("what happens to", "I remember", "never"), nor a unit of time or a proportion, nor (labelForms) a
 * number word or an irregular verb's past form ("two", "came"). Names and codes the dictionary does not know can be.
 */
function isLabelWord(data: IndexData, word: string): boolean {
  if (RANKING.labelForms > 0 && (NUMBER_WORDS.has(word) || PAST_FORMS.has(word))) return false;
  return !FUNCTION_WORDS.has(word) && !UNIT_WORDS.has(word) && !data.lexicon.isNotNominal(word);
}

/**
 * A word that measures or picks rows rather than naming a stored label: a quantifier, or the superlative of a known
 * word that is no word of its own (`busiest` of busy, `biggest` of big; not `interest` or `forest`).
 */
function isMeasureWord(data: IndexData, word: string): boolean {
  if (QUANTIFIERS.has(word)) return true;
  if (!/^[a-z]{3,}est$/.test(word) || data.lexicon.has(word)) return false;
  const base = word.slice(0, -3);
  const bases = [base, `${base}e`];
  if (base.at(-1) === base.at(-2)) bases.push(base.slice(0, -1)); // big → biggest
  if (base.endsWith('i')) bases.push(`${base.slice(0, -1)}y`); // busy → busiest
  return bases.some((b) => b.length >= 2 && data.lexicon.has(b));
}

/**
 * A value word before a noun ("bootleg albums", "vinyl LPs", "jazz combos"): the noun names a table among the
 * candidates (literally or through a thesaurus synonym), and the word is a value of one of that table's code lists, so
 * its lookups — referenced directly or behind a junction (`release_group` → `…_secondary_type_join` → `…_type`) — rise
 * just below it. Returns each offer as a share of the table that made it, for keepShares after the graph steps.
 */
function addModifierLookups(data: IndexData, ranked: readonly number[], parsed: ParsedQuery, values: ReadonlySet<string>, unknown: ReadonlySet<string>, st: QueryState, allowed: (d: number) => boolean): ShareLink[] {
  const boosts = new Map<number, Offer>();
  const links: ShareLink[] = [];
  let from = -1;
  const offer = (d: number, value: number, text: string, far = false): void => {
    if (!allowed(d)) return;
    links.push({ d, of: from, share: value / st.score[from]! });
    if (st.score[d]! < value) keepOffer(boosts, d, value, text, far);
  };
  const terms = parsed.terms;
  // Only words the question writes name a code list ("by race"); an implied `language` or `year` does not.
  const queryTerms = new Set(terms.filter((t) => t.implied !== true).map((t) => t.term));
  for (let i = 0; i < terms.length; i++) {
    const v = terms[i]!;
    // A verb form ("rented films", "remastered albums", "bought products") says what happened to the rows, not which
    // kind they are.
    if (!values.has(v.surface) || v.position === undefined || isMeasureWord(data, v.surface) || isVerbForm(v.surface)) continue;
    // The head: the next word that the catalog knows, literally or through a related word, with nothing but
    // further unknown words in between ("female solo artist"); a stop word ends the phrase ("refers to …").
    let head: (typeof terms)[number] | undefined;
    let at = v.position;
    for (let j = i + 1; j < terms.length; j++) {
      const t = terms[j]!;
      if (t.position === undefined || t.position === at) continue;
      if (t.position !== at + 1 || t.position - v.position > 2) break;
      if (unknown.has(t.surface)) {
        at = t.position;
        continue;
      }
      head = t;
      break;
    }
    if (head === undefined) continue;
    const synonyms = thesaurusConcepts(data, head.surface);
    // The tables the noun names outright (each word of the name is the noun or a thesaurus synonym of it), the best
    // ranked first: the noun may name a table that other words of the question have not lifted yet.
    let namedSeen = 0;
    for (const h of ranked) {
      if (namedSeen >= RANKING.modifierNamed) break;
      const hd = data.docs[h]!;
      if (hd.role === 'lookup' || hd.role === 'auxiliary') continue;
      if (!namedByNoun(data, hd, head.term, synonyms)) continue;
      namedSeen++;
      from = h;
      const target = RANKING.modifierLookup * st.score[h]!;
      const label = `'${v.surface} ${head.surface}'`;
      // Code lists of h, directly or behind a junction: [lookup, junction or -1].
      const own = hd.nameStems;
      const isNamed = (l: number): boolean => {
        const extra = data.docs[l]!.nameStems.filter((w) => !own.includes(w));
        return extra.length > 0 && extra.every((w) => queryTerms.has(w));
      };
      const lists: Array<readonly [number, number]> = [];
      const namedLists: Array<readonly [number, number]> = [];
      for (const e of data.edges[h]!) {
        const p = e.to;
        if (p === h) continue;
        const pd = data.docs[p]!;
        if (e.outgoing && (isNamed(p) || (pd.role === 'lookup' && !isSharedVocabulary(data, p)))) (isNamed(p) ? namedLists : lists).push([p, -1]);
        else if (!e.outgoing && sortsIntoLists(data, p)) {
          for (const e2 of data.edges[p]!) {
            if (e2.outgoing && e2.to !== h && data.docs[e2.to]!.role === 'lookup' && !isSharedVocabulary(data, e2.to)) (isNamed(e2.to) ? namedLists : lists).push([e2.to, p]);
          }
        }
      }
      // A table h points at that the question names ("vampire superheroes … by race") is where the value is;
      // else any of h's code lists may be.
      for (const [l, via] of (namedLists.length > 0 ? namedLists : lists).filter(([l]) => !labelsRefute(data, l, [v.surface]))) {
        // A word that sorts rows into kinds ("live albums", "horror films") is most often a label of a list of kinds.
        const t = namedLists.length > 0 || isKindList(data, l) ? target : target * RANKING.modifierOther;
        if (via < 0) {
          offer(l, t, `code list of ${hd.name}, may hold ${label}`);
          // A kind list of a wider kind ("Accessories products": a category above the subcategory) may hold it too.
          if (isKindList(data, l)) {
            for (const e2 of data.edges[l]!) if (e2.outgoing && e2.to !== l && e2.to !== h && isKindList(data, e2.to) && !labelsRefute(data, e2.to, [v.surface])) offer(e2.to, target * 0.95, `wider kind of ${hd.name}, may hold ${label}`);
          }
        } else {
          offer(l, t * 0.95, `code list of ${hd.name} via ${data.docs[via]!.name}, may hold ${label}`, true);
          offer(via, t * 0.9, `joins ${hd.name} to ${data.docs[l]!.name}`);
        }
      }
    }
  }
  raiseOffers(data, st, [...boosts].sort((x, y) => x[0] - y[0]), 1.15);
  return links;
}

function noteGuess(st: QueryState, d: number, share: number, far: boolean): void {
  const prev = st.guesses.get(d);
  st.guesses.set(d, { share: Math.max(prev?.share ?? 0, share), far: far && (prev?.far ?? true) });
}

/**
 * A word the catalog does not hold may be a label of any code list of the tables it qualifies (a language, a
 * packaging, a status, a genre, a mood…): once `guessKeep` lists raised mostly by such a guess are in the answer, the
 * further ones that the guess reached through another table (a junction, a part), unless they are lists of kinds, keep
 * `guessSpread` of their score, so that the tables other words of the question found come before them. The table's
 * own code lists stay: the word qualifies its noun first.
 */
function spreadGuesses(data: IndexData, ranked: number[], limit: number, st: QueryState): number[] {
  if (st.guesses.size <= RANKING.guessKeep) return ranked;
  let kept = 0;
  let changed = false;
  for (const d of ranked.slice(0, limit)) {
    const g = st.guesses.get(d);
    if (g === undefined || g.share < RANKING.guessShare || ++kept <= RANKING.guessKeep || !g.far || isKindList(data, d)) continue;
    st.score[d]! *= RANKING.guessSpread;
    changed = true;
  }
  return changed ? topCandidates(data, st, RANKING.candidates) : ranked;
}

/** A table that rose to a share of another (a code list with the table its value qualifies). */
interface ShareLink {
  readonly d: number;
  readonly of: number;
  readonly share: number;
}

/**
 * The tables that rise later (as a junction, on a join path, as a parent) would leave behind the code lists raised to
 * a share of them: after the graph steps each keeps its share of the final score. Returns whether anything rose.
 */
function keepShares(links: readonly ShareLink[], st: QueryState): boolean {
  let changed = false;
  for (const { d, of, share } of links) {
    const value = share * st.score[of]!;
    if (st.score[d]! >= value) continue;
    st.score[d] = value;
    changed = true;
  }
  return changed;
}

/**
 * Whether an FK of either table points at the other, other than as a subtype's key (`person` → `businessentity`: a
 * person is a row of the other table, not related to one of its rows).
 */
function joinedDirectly(data: IndexData, a: number, b: number): boolean {
  for (const e of data.edges[a]!) if (e.to === b && !e.subtype) return true;
  return false;
}

/** Junction tables: a bridge whose FK targets both match joins them even when its own name says nothing. */
function addBridges(data: IndexData, ranked: readonly number[], evidence: ReadonlySet<number>, lexical: ReadonlySet<number>, unasked: (d: number) => boolean, st: QueryState, allowed: (d: number) => boolean): void {
  // Only bridges next to a candidate can have two matched ends worth reporting.
  const seenBridge = new Set<number>();
  const side = sideJunctions(data);
  const ahead = (x: number, y: number): boolean => st.score[x]! > st.score[y]! || (st.score[x] === st.score[y] && x < y);
  const boosts: Array<[number, number, string]> = [];
  for (const c of ranked.slice(0, RANKING.bridgeCandidates)) {
    for (const edge of data.edges[c]!) {
      const d = edge.to;
      if (edge.outgoing || seenBridge.has(d) || !data.docs[d]!.isBridge || !allowed(d)) continue;
      seenBridge.add(d);
      // Both ends need evidence of their own: a neighbour that only borrowed score from a hit joins nothing asked for.
      // The two best ends (score, then table order), without building a list per junction.
      let first = -1;
      let second = -1;
      let reached = false;
      for (const e of data.edges[d]!) {
        const x = e.to;
        if (!e.outgoing || x === d || x === first || x === second || !evidence.has(x)) continue;
        // The record that types the junction (`link` of `l_event_url`) is none of the two things it joins.
        if (RANKING.bridgeRecords > 0 && isTypingRecord(data, x)) continue;
        if (lexical.has(x)) reached = true;
        if (first < 0 || ahead(x, first)) {
          second = first;
          first = x;
        } else if (second < 0 || ahead(x, second)) second = x;
      }
      // Two tables reached only as "holds people" (a name in the question) are not a pair the question joins.
      if (second < 0 || !reached) continue;
      // Ends an FK of their own already joins (`recording` → `artist_credit`, `salesterritory` → `countryregion`) need
      // no table between them: the junction is another relationship of theirs, not the join.
      if (RANKING.bridgeJoined > 0 && joinedDirectly(data, first, second)) continue;
      // An auxiliary junction (`artist_rating_raw`) joins the same ends as its entity's own: it keeps the discount.
      const boost = RANKING.bridge * Math.min(st.score[first]!, st.score[second]!) * (unasked(d) || side[d] === 1 ? RANKING.auxiliary : 1);
      boosts.push([d, boost, `bridge between ${data.docs[first]!.name} and ${data.docs[second]!.name}`]);
    }
  }
  boosts.sort((x, y) => x[0] - y[0]);
  for (const [d, boost, text] of boosts) {
    st.touch(d);
    st.score[d]! += boost;
    pushExtra(st, d, { weight: boost, text });
  }
}

/**
 * A junction row often says *how* its two ends are related through a further FK: a relationship record and its
 * type (`l_artist_recording` → `link` → `link_type`), a role or a kind. A question that needs the junction needs
 * that qualifier too, so for each junction in the answer its targets that are not among the matched ends — code
 * lists, or records shared by several junctions — come along just below it, with their own code lists.
 */
function addQualifiers(data: IndexData, ranked: number[], limit: number, evidence: ReadonlySet<number>, st: QueryState, allowed: (d: number) => boolean, parsed: ParsedQuery): number[] {
  // The words a question implies by a value it names (`language` of "lyrics in Spanish").
  const implied: Array<{ term: string; bit: number }> = [];
  if (RANKING.impliedQualifiers > 0) {
    for (const t of parsed.terms) {
      const i = t.implied === true ? st.wordPieces.get(t.surface) : undefined;
      if (i !== undefined) implied.push({ term: t.term, bit: pieceBit(i) });
    }
  }
  // …where the code list is named by that word (`language`), not a date or a history every table may hold.
  const namedByImplied = (t: number): boolean => implied.some((w) => data.docs[t]!.nameStems.includes(w.term) && (st.evidenceBits[t]! & w.bit) !== 0);
  const boosts: Array<[number, number, string]> = [];
  const offer = (d: number, value: number, text: string): void => {
    if (allowed(d) && st.score[d]! < value) boosts.push([d, value, text]);
  };
  for (const b of ranked.slice(0, Math.max(1, limit) - 1)) {
    const bd = data.docs[b]!;
    if (!bd.isBridge) continue;
    const base = st.score[b]!;
    const outs = data.edges[b]!.filter((e) => e.outgoing && e.to !== b);
    // Only a junction one of whose ends the question reached: otherwise it is a guess of its own.
    if (!outs.some((e) => evidence.has(e.to))) continue;
    // Of a junction of three keys, the one to the record most junctions share (`link`, not `artist`) is its qualifier
    // even where a word of the question grazed that record; other matched ends are no qualifiers.
    const third = outs.length > 2 ? outs.reduce((a, e) => (junctionsAt(data, e.to) > junctionsAt(data, a.to) ? e : a)).to : -1;
    for (const e of outs) {
      const t = e.to;
      const td = data.docs[t]!;
      const record = isQualifierRecord(data, t);
      // A code list the question reached only by a word a value implies is still the junction's qualifier.
      if (evidence.has(t) && !(record && t === third) && !(td.role === 'lookup' && namedByImplied(t))) continue;
      if (td.role !== 'lookup' && !record) continue;
      // A junction with a name of its own (`release`, between its credit and its group) is a thing: its code lists are
      // its attributes, which come along only when they may hold a word of the question (st.guesses).
      if (RANKING.namedQualifiers > 0 && !record && !st.guesses.has(t) && bd.hasName) continue;
      offer(t, RANKING.qualifier * base, `qualifies ${bd.name}`);
      for (const e2 of data.edges[t]!) {
        if (e2.outgoing && e2.to !== t && data.docs[e2.to]!.role === 'lookup') offer(e2.to, RANKING.qualifier * 0.95 * base, `type of ${td.name}, qualifies ${bd.name}`);
      }
    }
  }
  return applyRaises(data, ranked, boosts, st);
}

/**
 * A part is read with the whole it belongs to: a table whose FK points at a table named like itself less its last
 * word (`order_line` → `order`, `salesorderdetail` → `salesorderheader`, `release_country` → `release`) brings that
 * parent along just below it, where dates, owners and status of the whole usually live.
 */
function addParents(data: IndexData, ranked: number[], limit: number, unasked: (d: number) => boolean, st: QueryState, allowed: (d: number) => boolean): number[] {
  const boosts: Array<[number, number, string]> = [];
  const answer = ranked.slice(0, Math.max(1, limit) - 1);
  for (const c of answer) {
    const cd = data.docs[c]!;
    // An auxiliary table the question asks for ("aliases") is read with the entity it shadows (`artist_alias` → `artist`).
    if (cd.role === 'lookup' || (cd.role === 'auxiliary' && unasked(c))) continue;
    for (const e of data.edges[c]!) {
      if (!e.outgoing || e.to === c || !allowed(e.to)) continue;
      const pd = data.docs[e.to]!;
      if (!isWholeOf(pd, cd)) continue;
      const value = RANKING.parent * st.score[c]!;
      if (st.score[e.to]! < value) boosts.push([e.to, value, `the ${pd.name} that ${cd.name} belongs to`]);
    }
  }
  for (const c of answer) addNamers(data, c, st, allowed, boosts);
  return applyRaises(data, ranked, boosts, st);
}

/**
 * A junction the question's words reached stands for a relationship between its ends, and an answer needs those ends
 * to name what it relates (`recording_tag` for "tags on Burial's tunes" needs `recording`; `personphone` for "Ken
 * Sánchez's phone number" needs `person`; `release_label` needs `release`, a junction that names its rows). Each end
 * that is a thing (isThing) of a junction in the answer rises to `junctionEnd` of it,
 * but no higher than just below the `junctionEndAfter`-th table: the tables the words found first keep their places,
 * and the ends fill the rest of the answer.
 */
function addJunctionEnds(data: IndexData, ranked: number[], lexical: ReadonlySet<number>, st: QueryState, allowed: (d: number) => boolean, parsed: ParsedQuery): number[] {
  // Whether the question is about people or places at all: one asked about ("who", "where", "customers"), named, or a
  // title or a word no dictionary or catalog knows, which may name someone ("radiohead ok computer barcode").
  const asked = !(RANKING.thingEndsAsked > 0);
  const unknownName = parsed.terms.some((t) => !t.part && t.surface.length >= 4 && /^[a-z]+$/.test(t.surface) && !knownWord(t.surface, data.vocab) && !isCatalogTerm(data, t.surface));
  const people = asked || parsed.asksPerson || parsed.personNouns.length > 0 || parsed.mentions.some((m) => m.kind === 'person') || parsed.titles.length > 0 || unknownName;
  const places = asked || parsed.asksPlace || parsed.placeNouns.length > 0 || parsed.mentions.some((m) => m.kind === 'place');
  const boosts: Array<[number, number, string]> = [];
  const named = new Set(parsed.terms.filter((t) => t.implied !== true).map((t) => t.term));
  // Views come after the tables in the end (placeViews): the place counts tables only.
  let cap = Infinity;
  for (let i = 0, tables = 0; i < ranked.length; i++) {
    if (data.docs[ranked[i]!]!.derived || ++tables < RANKING.junctionEndAfter) continue;
    cap = RANKING.junctionEndCap * st.score[ranked[i]!]!;
    break;
  }
  for (const b of ranked.slice(0, RANKING.junctionEndTop)) {
    const bd = data.docs[b]!;
    if (!bd.isBridge || !lexical.has(b)) continue;
    // A junction other tables point at is a thing of its own (a copy on a shelf, an edition): its keys are what it is
    // of, not what a question about it relates, except the people and places it names, when the question is about
    // people or places.
    const thing = RANKING.thingEnds > 0 && data.edges[b]!.some((e) => !e.outgoing && e.to !== b);
    const value = Math.min(RANKING.junctionEnd * st.score[b]!, cap);
    for (const e of data.edges[b]!) {
      // A vocabulary the whole catalog shares, which the question names ("release groups tagged cumbia": `tag`), holds
      // the words the junction gives its rows.
      const sharedNamed = RANKING.namedShared > 0 && isSharedVocabulary(data, e.to) && data.docs[e.to]!.nameStems.every((w) => named.has(w));
      if (!e.outgoing || e.to === b || !allowed(e.to) || !(sharedNamed || (RANKING.namedEnds > 0 ? isThing(data, e.to) : data.docs[e.to]!.role === 'entity')) || isBareSupertype(data, e.to)) continue;
      if (thing && !(people && data.personTable[e.to] > 0) && !(places && data.placeTable[e.to] > 0)) continue;
      // An end reached only through a key of another junction (`salesorderdetail` → `specialofferproduct` →
      // `specialoffer`) is what that junction relates, not this one: only where the question's words reach it.
      if (RANKING.impliedEnds > 0 && e.implied !== undefined && !lexical.has(e.to)) continue;
      if (st.score[e.to]! < value) boosts.push([e.to, value, `what ${bd.name} relates`]);
    }
  }
  return applyRaises(data, ranked, boosts, st);
}

/**
 * People named elsewhere: a table whose name is a kind of person (`salesperson`, `employee`, `customer`) but which is
 * not the catalog's strongest record of people it points at (`person`, with first and last names) keeps their names
 * there. When the answer names them ("top 5 sales reps", "which employee", "night shift employees": anything but a
 * count), that table rises just below the people it names. So does the one named thing that the best table's unnamed
 * rows point at (RANKING.itemNames).
 */
function addNameHolders(data: IndexData, ranked: number[], st: QueryState, allowed: (d: number) => boolean): number[] {
  const boosts: Array<[number, number, string]> = [];
  const leading = leadingTables(data, ranked, Math.max(1, RANKING.nameHolderTop));
  // The rows of the best table name nothing themselves: "what's still in the carts" lists the products they point at.
  const best = leading[0];
  if (RANKING.itemNames > 0 && best !== undefined && !data.docs[best]!.hasName && !data.docs[best]!.isBridge) {
    // Things, not people: the names of people have rules of their own (the loop below, addMentionPaths).
    const named = new Set(data.edges[best]!.filter((e) => e.outgoing && e.to !== best && allowed(e.to) && data.docs[e.to]!.role === 'entity' && data.docs[e.to]!.hasName && !(data.personTable[e.to]! > 0)).map((e) => e.to));
    const value = RANKING.itemNames * st.score[best]!;
    const [thing] = named;
    if (named.size === 1 && st.score[thing!]! < value) boosts.push([thing!, value, `holds the names of what ${data.docs[best]!.name} lists`]);
  }
  for (const c of leading.slice(0, RANKING.nameHolderTop)) {
    const cd = data.docs[c]!;
    const head = cd.nameParts[cd.nameParts.length - 1];
    if (cd.role !== 'entity' || head === undefined || !data.lexicon.isFirstPerson(head) || cd.hasName) continue;
    const holder = nameHolder(data, c, allowed);
    if (holder < 0 || !data.docs[holder]!.hasName) continue;
    const value = RANKING.nameHolder * st.score[c]!;
    if (st.score[holder]! < value) boosts.push([holder, value, `holds the names of ${cd.name}`]);
  }
  return applyRaises(data, ranked, boosts, st);
}

/**
 * Words of the work done to a whole record: producing, engineering, mixing, mastering; not the bare "mix", "master" or
 * "produce", as often nouns (a DJ's mix, the master tapes, fresh produce).
 */
const PRODUCTION_WORDS: ReadonlySet<string> = new Set('produced producer producers producing production engineer engineered engineers engineering mixed mixer mixers mixing mastered mastering'.split(' '));

/**
 * Whether the question asks who did the work done to a whole record (PRODUCTION_WORDS): "who produced …", "the mixing
 * engineer for …"; not which things someone did it to ("which recordings did he engineer").
 */
function producedWhole(data: IndexData, parsed: ParsedQuery): boolean {
  if (!parsed.terms.some((t) => !t.part && PRODUCTION_WORDS.has(t.surface))) return false;
  return parsed.asksPerson || (parsed.focus.length > 0 && parsed.focus.every((w) => PRODUCTION_WORDS.has(w) || data.lexicon.isRole(w)));
}

/** The first `k` tables of `ranked` that are neither code lists nor auxiliary: the ones the answer is about. */
function leadingTables(data: IndexData, ranked: readonly number[], k: number): number[] {
  const out: number[] = [];
  for (const c of ranked) {
    if (out.length >= k) break;
    const role = data.docs[c]!.role;
    if (role !== 'lookup' && role !== 'auxiliary') out.push(c);
  }
  return out;
}

/** The strongest table of people that `d` points at within two FK steps, when stronger than `d` itself; -1 if none. */
function nameHolder(data: IndexData, d: number, allowed: (d: number) => boolean): number {
  let best = -1;
  let bestStrength = data.personTable[d]!;
  const visit = (x: number, depth: number): void => {
    for (const e of data.edges[x]!) {
      if (!e.outgoing || e.to === d || e.to === x || !allowed(e.to)) continue;
      const s = data.personTable[e.to]!;
      if (s > bestStrength) {
        best = e.to;
        bestStrength = s;
      }
      if (depth < 2) visit(e.to, depth + 1);
    }
  };
  visit(d, 1);
  return best;
}

/**
 * A title in the question ("the ISWC of Yesterday", "the catalogue number of Kind of Blue", "employees in Sales")
 * names a row of a table with a name or title column. When a top hit has none (`iswc`, `release_label`,
 * `employee`), the title is in a table it points at that has one (`work`, `release`, `label`), directly or behind a
 * junction (`department`): those rise just below it.
 */
function addTitleHolders(data: IndexData, ranked: number[], parsed: ParsedQuery, st: QueryState, allowed: (d: number) => boolean): number[] {
  const titles = parsed.titles;
  const boosts: Array<[number, number, string]> = [];
  const label = `'${titles[0]!}'`;
  const offer = (c: number, p: number, share: number): void => {
    if (p === c || !allowed(p)) return;
    const pd = data.docs[p]!;
    if (pd.role !== 'entity' || !pd.hasName) return;
    const value = share * st.score[c]!;
    if (st.score[p]! < value) boosts.push([p, value, `holds names, for ${label}`]);
  };
  const whole = RANKING.partWholes > 0 ? parsed.wholes[0] : undefined;
  // With no title, only a name that issued something (parsed.issuers) is here.
  for (const c of leadingTables(data, ranked, titles.length > 0 ? RANKING.titleTop : 0)) {
    const cd = data.docs[c]!;
    // A part kept in order (`track` by position) is named by the whole it belongs to: "the tracks on Mezzanine".
    if (whole !== undefined && isOrderedPart(data, c)) {
      const chain = wholesOf(data, c, allowed);
      const last = chain.length - 1;
      chain.forEach((w, i) => {
        // The whole first, the tables on the way up just below it.
        const value = RANKING.titleHolder * st.score[c]! * (i < last ? 0.99 : 1);
        const why = i < last ? `joins ${cd.name} to ${data.docs[chain[last]!]!.name}, for '${whole}'` : `the whole ${cd.name} is part of, for '${whole}'`;
        if (st.score[w]! < value) boosts.push([w, value, why]);
      });
      continue;
    }
    if (cd.hasName || (RANKING.titleSkipsQualifiers > 0 && isQualifierRecord(data, c))) continue;
    for (const e of data.edges[c]!) {
      if (e.outgoing) offer(c, e.to, RANKING.titleHolder);
      // Behind a junction that points at the hit (`employee` ← `employeedepartmenthistory` → `department`).
      else if (e.to !== c && data.docs[e.to]!.role === 'bridge') {
        for (const e2 of data.edges[e.to]!) if (e2.outgoing && e2.to !== e.to) offer(c, e2.to, RANKING.titleHolder * 0.95);
      }
    }
  }
  // A title someone is credited on ("the mastering engineer on Stereolab's Dots and Loops") names a whole that parts
  // are kept in: the catalog's main such whole (`release`, which `track` and `medium` lead up to) holds it.
  const credited = (): boolean => parsed.roleVerbs.length > 0 || parsed.jobTitles.length > 0 || parsed.terms.some((t) => !t.part && data.lexicon.isRole(t.surface));
  // …and so does any title of a question about who produced a record ("who produced Nevermind", "Opeth's Ghost
  // Reveries: who mixed it"), where no title follows "on": producing, engineering, mixing and mastering are done to a
  // whole record, where writing is done to a song and playing to a recording.
  const onTitle = parsed.onTitles[0] ?? (RANKING.titleWholesAny > 0 && producedWhole(data, parsed) ? parsed.titles.find((t) => !parsed.jobTitles.includes(t)) : undefined);
  if (RANKING.titleWholes > 0 && onTitle !== undefined && ranked.length > 0 && credited()) {
    const main = mainWhole(data, allowed);
    const lead = ranked[0]!;
    if (main >= 0 && main !== lead) {
      const value = RANKING.titleHolder * RANKING.titleWholes * st.score[lead]!;
      if (st.score[main]! < value) boosts.push([main, value, `holds the title of a whole, for '${onTitle}'`]);
      // Who is credited on it: the typed relationship of the whole with the catalog's people (`l_artist_release`).
      const credit = RANKING.titleCredits > 0 ? creditJunction(data, main, allowed) : -1;
      if (credit >= 0 && st.score[credit]! < value * RANKING.titleCredits) boosts.push([credit, value * RANKING.titleCredits, `credits people on the whole, for '${onTitle}'`]);
    }
  }
  // The named tables behind a junction of c's own that is no typed relationship, raised to `value` as who issued it.
  const offerIssuers = (c: number, value: number, name: string): void => {
    for (const e of data.edges[c]!) {
      const j = e.to;
      if (e.outgoing || j === c || !data.docs[j]!.isBridge || data.docs[j]!.role === 'auxiliary' || isTypedRelationship(data, j) || !allowed(j)) continue;
      for (const e2 of data.edges[j]!) {
        const p = e2.to;
        if (!e2.outgoing || p === c || p === j || !allowed(p) || !data.docs[p]!.hasName || data.docs[p]!.role !== 'entity') continue;
        if (st.score[p]! < value) boosts.push([p, value, `holds who issued it, for '${name}'`]);
        if (st.score[j]! < value * 0.99) boosts.push([j, value * 0.99, `joins ${data.docs[c]!.name} to ${data.docs[p]!.name}, for '${name}'`]);
      }
    }
  };
  // A title something came out on ("cassettes released on Touch and Go") names who put it out: the named table behind
  // a junction of the leading named table's own (`release` ← `release_label` → `label`), not a typed relationship.
  const issuedOn = parsed.issuedOn[0];
  if (RANKING.titleIssuers > 0 && issuedOn !== undefined && ranked.length > 0) {
    for (const c of leadingTables(data, ranked, 1)) if (data.docs[c]!.hasName) offerIssuers(c, RANKING.titleHolder * RANKING.titleIssuers * st.score[c]!, issuedOn);
  }
  // A name that issued what the word before it names ("releases did Warp put out"): that word's table, by its name or a
  // thesaurus synonym's, and who issued its rows (the people tables keep their own score: the name may be who made them).
  if (RANKING.nameIssuers > 0) {
    for (const { name, thing } of parsed.issuers) {
      // The word before the name, else a word the question asks for ("releases per year did Warp put out").
      const c = [thing, ...parsed.focus]
        .map((w) => {
          const term = stem(w);
          const synonyms = thesaurusConcepts(data, w);
          return ranked.find((d) => data.docs[d]!.role !== 'lookup' && data.docs[d]!.role !== 'auxiliary' && data.docs[d]!.hasName && namedByNoun(data, data.docs[d]!, term, synonyms));
        })
        .find((d) => d !== undefined);
      if (c !== undefined) offerIssuers(c, RANKING.titleHolder * RANKING.nameIssuers * st.score[c]!, name);
    }
  }
  // A title other things are versions of ("every recording of Summertime") names a composition, not one of them: the
  // table named for compositions holds it, with the junction that joins it to a leading table.
  const versionOf = parsed.versionsOf[0];
  if (RANKING.versionWorks > 0 && versionOf !== undefined && ranked.length > 0) {
    const work = compositionTable(data, allowed);
    // The record that types relationships (`link`) is no thing that versions are made of.
    const leads = leadingTables(data, ranked.filter((c) => c !== work && !isTypingRecord(data, c)), RANKING.titleTop);
    if (work >= 0 && leads.length > 0) {
      const value = RANKING.titleHolder * RANKING.versionWorks * st.score[leads[0]!]!;
      if (st.score[work]! < value) boosts.push([work, value, `holds what the others are versions of, for '${versionOf}'`]);
      for (const c of leads) {
        for (const e of data.edges[work]!) {
          const j = e.to;
          if (e.outgoing || j === work || !allowed(j) || !data.docs[j]!.isBridge || !data.edges[j]!.some((x) => x.outgoing && x.to === c)) continue;
          if (st.score[j]! < value * 0.99) boosts.push([j, value * 0.99, `joins ${data.docs[c]!.name} to ${data.docs[work]!.name}, for '${versionOf}'`]);
        }
      }
    }
  }
  return applyRaises(data, ranked, boosts, st);
}

/**
 * A thing kept in a whole by an ordered part of its own (`recording` ← `track` → `medium` → `release`), with that whole
 * in the answer too: the rows of the two belong together through the parts, so the part and the tables on the way up
 * rise to `partChains` of the weaker of the two, as a join path does (a relationship of its own between the two, such
 * as `l_recording_release`, is another fact about them).
 */
function addPartChains(data: IndexData, ranked: number[], limit: number, lexical: ReadonlySet<number>, st: QueryState, allowed: (d: number) => boolean): number[] {
  const top = ranked.slice(0, limit);
  const boosts: Array<[number, number, string]> = [];
  for (const c of top) {
    if (isOrderedPart(data, c) || !data.docs[c]!.hasName || !lexical.has(c)) continue;
    const parts = [...new Set(data.edges[c]!.filter((e) => !e.outgoing && e.to !== c && allowed(e.to) && isOrderedPart(data, e.to)).map((e) => e.to))];
    for (const part of parts) {
      const chain = wholesOf(data, part, allowed);
      const whole = chain[chain.length - 1];
      if (whole === undefined || whole === c || !top.includes(whole) || !lexical.has(whole)) continue;
      const value = RANKING.partChains * Math.min(st.score[c]!, st.score[whole]!);
      for (const w of [part, ...chain.slice(0, -1)]) if (st.score[w]! < value) boosts.push([w, value, `joins ${data.docs[c]!.name} to ${data.docs[whole]!.name}, the whole it is kept in`]);
    }
  }
  return applyRaises(data, ranked, boosts, st);
}

/**
 * The table the catalog keeps compositions in: a named table whose name is one word of the thesaurus group of
 * compositions (`work`), worked out once per index; -1 when there is none, or more than one.
 */
const compositionMemo = new WeakMap<IndexData, number>();
function compositionTable(data: IndexData, allowed: (d: number) => boolean): number {
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
function creditJunction(data: IndexData, whole: number, allowed: (d: number) => boolean): number {
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
function isTypedRelationship(data: IndexData, d: number): boolean {
  for (const e of data.edges[d]!) if (e.outgoing && e.to !== d && isTypingRecord(data, e.to)) return true;
  return false;
}

/**
 * The named tables that chains of ordered parts lead up to (`track` → `medium` → `release`), most chains first, worked
 * out once per index; mainWhole takes the first the search may return, or -1.
 */
const wholesMemo = new WeakMap<IndexData, readonly number[]>();
function mainWhole(data: IndexData, allowed: (d: number) => boolean): number {
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
function isOrderedPart(data: IndexData, d: number): boolean {
  return data.docs[d]!.ordered;
}

/**
 * The tables an ordered part belongs to, nearest first, up to the whole (`track` → `medium` → `release`): from each
 * table, the one table it points at that is itself ordered, and past the first step the one table it points at (code
 * lists and auxiliary tables aside). Empty when the way up is not one table.
 */
function wholesOf(data: IndexData, d: number, allowed: (d: number) => boolean): number[] {
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

/**
 * A named person or place ("Radiohead's albums", "German labels") is a row of the table of people or places that the
 * tables the question is about lead to: for each of the `mentionTop` best answer tables that is not of that kind,
 * the shortest FK path (up to `pathMaxHops` edges) to the nearest of the catalog's strongest tables of that kind
 * rises to `mentionPath` of it (`release` → `artist_credit` → `artist_credit_name` → `artist`; `label` → `area`).
 */
function addMentionPaths(data: IndexData, ranked: number[], limit: number, mention: Mention, unasked: (d: number) => boolean, st: QueryState, allowed: (d: number) => boolean): number[] {
  const { docs, strength } = holdersOf(data, mention.kind);
  let strongest = 0;
  for (let i = 0; i < docs.length; i++) if (allowed(docs[i]!)) strongest = Math.max(strongest, strength[docs[i]!]!);
  if (strongest === 0) return ranked;
  // Rows that others point at: a place where something is (`address`, `area`), not a leaf about one row (`emailaddress`).
  const holders = new Set<number>();
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    if (allowed(d) && strength[d]! >= strongest && data.edges[d]!.some((e) => !e.outgoing && e.to !== d)) holders.add(d);
  }
  const boosts: Array<[number, number, string]> = [];
  for (const c of leadingTables(data, ranked.slice(0, limit), RANKING.mentionTop)) {
    const cd = data.docs[c]!;
    if (strength[c]! >= strongest) continue;
    // The people or places a row names itself, through its own FK (`release.artist_credit`), before those a separate
    // relationship links to it (`l_artist_release`); among equal paths, the one through tables that hold them too.
    const path = pathToAny(data, c, holders, allowed, st, true, strength) ?? pathToAny(data, c, holders, allowed, st, false, strength);
    if (path === null) continue;
    const target = RANKING.mentionPath * st.score[c]!;
    const end = data.docs[path[path.length - 1]!]!.name;
    for (let i = 1; i < path.length; i++) {
      const mid = path[i]!;
      if (i < path.length - 1 && passedOnKey(data, path, i)) continue;
      const value = unasked(mid) ? RANKING.auxiliary * target : target;
      if (st.score[mid]! < value) boosts.push([mid, value, `leads from ${cd.name} to ${end}, which holds ${mention.kind === 'person' ? 'people' : 'places'}, for '${mention.text}'`]);
    }
  }
  return applyRaises(data, ranked, boosts, st);
}

/**
 * A place the dictionary knows the level of ("Oregon", a state) is found by its name in the table named for that level
 * (`stateprovince`). Where the answer holds places that point at that table (`address`) but not the table itself, it
 * rises just below the best of them (RANKING.levelTable). A country, a region or a continent is left out: held by so
 * many tables (or named like a sales territory: "the Southeast"), its level says little.
 */
function addLevelTable(data: IndexData, ranked: number[], limit: number, mention: Mention, st: QueryState, allowed: (d: number) => boolean): number[] {
  if (data.lexicon.placeLevels(mention.text).some((l) => l === 'country' || l === 'region' || l === 'continent')) return ranked;
  const level = levelWords(data, mention.text);
  if (level === null) return ranked;
  const top = ranked.slice(0, limit);
  const { strength } = holdersOf(data, 'place');
  for (const h of top) {
    if (strength[h]! <= 0) continue;
    const at = data.edges[h]!.find((e) => e.outgoing && e.to !== h && allowed(e.to) && strength[e.to]! > 0 && data.docs[e.to]!.nameParts.some((w) => level.has(w)));
    if (at === undefined) continue;
    if (top.includes(at.to)) return ranked;
    return applyRaises(data, ranked, [[at.to, RANKING.levelTable * st.score[h]!, `names the ${[...level][0]} of ${data.docs[h]!.name}, for '${mention.text}'`]], st);
  }
  return ranked;
}

/**
 * Places of one kind within a named place of another ("German cities", "cities in Australia"): the table of places
 * in the answer has its places within places in a junction of its own, both of whose keys point at it and nothing
 * else (MusicBrainz `area_containment`, not the typed `l_area_area`); it rises to `containment` of the best such table.
 */
function addContainment(data: IndexData, ranked: number[], limit: number, mention: Mention, noun: string, st: QueryState, allowed: (d: number) => boolean): number[] {
  // Only a noun of a level of places ("studios in Nashville" are premises); the same level both ways ("cities like
  // Paris") asks for no containment.
  const lemma = data.lexicon.lemma(noun);
  if (!PLACE_LEVEL_NOUNS.has(lemma)) return ranked;
  const levels = levelWords(data, mention.text);
  if (levels !== null && levels.has(lemma)) return ranked;
  const boosts: Array<[number, number, string]> = [];
  for (const h of ranked.slice(0, limit)) {
    if (data.placeTable[h]! <= 0 || data.docs[h]!.role !== 'entity') continue;
    for (const e of data.edges[h]!) {
      const j = e.to;
      if (e.outgoing || j === h || !allowed(j)) continue;
      const outs = data.edges[j]!.filter((x) => x.outgoing && x.to !== j);
      if (outs.length < 2 || outs.some((x) => x.to !== h)) continue;
      const value = RANKING.containment * st.score[h]!;
      if (st.score[j]! < value) boosts.push([j, value, `places within places of ${data.docs[h]!.name}, for '${noun}' of '${mention.text}'`]);
    }
    // The best table of places that has such a junction.
    if (boosts.length > 0) break;
  }
  return applyRaises(data, ranked, boosts, st);
}

/**
 * Shortest FK path from `from` to the nearest of `targets` (up to `pathMaxHops` edges). Breadth-first by layers,
 * keeping every parent so that ties between equally short paths can be broken: the best-scored target, then the path
 * whose intermediates hold most of what `prefer` measures, then the one whose intermediates score best. With
 * `ownFirst`, the path leaves `from` through one of its own FKs or into a table of its own (isOwnTable: `release` →
 * `release_country` → `country_area` → `area`, not `release` → `release_group` → `l_area_release_group` → `area`).
 */
function pathToAny(data: IndexData, from: number, targets: ReadonlySet<number>, allowed: (d: number) => boolean, st: QueryState, ownFirst = false, prefer?: Float32Array): number[] | null {
  return new FkWalk(data, from, allowed, ownFirst).pathToAny(targets, st, prefer);
}

/**
 * A breadth-first walk of FK edges from one table, by layers of up to `pathMaxHops` edges, extended only as far as a
 * question needs: the first layer that reaches a target ends it, and a later question asked of the same walk
 * (fillPaths asks one walk for each other table it pairs `from` with) extends it from there. Every table reached
 * keeps all its parents in the layer before it (bestPath chooses among them); a layer never changes what earlier
 * layers hold, so the answer for a target is the same whichever question extended the walk first.
 */
class FkWalk {
  private readonly parents = new Map<number, number[]>();
  private readonly depth = new Map<number, number>();
  private frontier: number[];
  private layers = 0;
  /** No further layer: the hops are spent, nothing is left to reach, or a layer grew past 2000 tables. */
  private done = false;
  /** Tables entered from a subtype of theirs that has no name of its own (`person` → `businessentity`): their other
   * subtypes (`vendor`, `store`) are other rows, not related ones (EdgeData.subtype). */
  private abstractUp: Set<number> | null = null;

  constructor(
    private readonly data: IndexData,
    private readonly from: number,
    private readonly allowed: (d: number) => boolean,
    private readonly ownFirst: boolean,
  ) {
    this.parents.set(from, []);
    this.depth.set(from, 0);
    this.frontier = [from];
  }

  /** The best path to the nearest of `targets` (the best-scored of those equally near), or null past the hops. */
  pathToAny(targets: ReadonlySet<number>, st: QueryState, prefer?: Float32Array): number[] | null {
    let layer = 1;
    for (;;) {
      if (layer > this.layers && !this.extend()) return null;
      const reached: number[] = [];
      for (const t of targets) if (this.depth.get(t) === layer) reached.push(t);
      if (reached.length > 0) {
        reached.sort((x, y) => st.score[y]! - st.score[x]! || this.data.order[x]! - this.data.order[y]!);
        return bestPath(this.data, this.parents, this.from, reached[0]!, st, prefer);
      }
      layer++;
    }
  }

  /** Adds the next layer; false when there is none. */
  private extend(): boolean {
    const data = this.data;
    if (this.done || this.layers >= RANKING.pathMaxHops || this.frontier.length === 0) return false;
    const bare = bareMarks(data);
    const next: number[] = [];
    const layer = this.layers + 1;
    for (const u of this.frontier) {
      const up = this.abstractUp !== null && this.abstractUp.has(u);
      for (const e of data.edges[u]!) {
        const v = e.to;
        if (up && !e.outgoing && e.subtype) continue;
        const seen = this.depth.get(v);
        if (seen !== undefined) {
          if (seen === layer) {
            const ps = this.parents.get(v)!;
            if (!ps.includes(u)) ps.push(u);
          }
          continue;
        }
        if (!this.allowed(v) || (this.ownFirst && layer === 1 && !e.outgoing && !(RANKING.ownTables > 0 && isOwnTable(data.docs[this.from]!, data.docs[v]!)))) continue;
        this.depth.set(v, layer);
        this.parents.set(v, [u]);
        next.push(v);
        if (e.outgoing && e.subtype && bare !== null && isBareSupertype(data, v, bare)) (this.abstractUp ??= new Set()).add(v);
      }
    }
    this.layers = layer;
    this.frontier = next;
    if (next.length > 2000) this.done = true;
    return true;
  }
}

/** Whether the join path passes its `i`-th table on a key alone: a bare table of keys, or keyPassesThrough. */
function passedOnKey(data: IndexData, path: readonly number[], i: number): boolean {
  return isBareSupertype(data, path[i]!) || keyPassesThrough(data, path[i - 1]!, path[i]!, path[i + 1]!);
}

/**
 * Whether a join path passes `mid` on its key alone: `mid` is a subtype of one neighbour on the path (its primary key
 * is its key to it) and the other points at that primary key (`salesperson` → `employee` → `person`; `release_country`
 * → `country_area` → `area`). The neighbours then join on the key directly; `mid` holds nothing the join needs.
 */
function keyPassesThrough(data: IndexData, prev: number, mid: number, next: number): boolean {
  if (!(RANKING.keyThrough > 0)) return false;
  // Up: `mid`'s key to a neighbour is its primary key. Down: the other neighbour points at `mid`.
  let upPrev = false;
  let upNext = false;
  let downPrev = false;
  let downNext = false;
  for (const e of data.edges[mid]!) {
    if (e.to !== prev && e.to !== next) continue;
    if (!e.outgoing) {
      if (e.to === prev) downPrev = true;
      else downNext = true;
    } else if (e.subtype) {
      if (e.to === prev) upPrev = true;
      else upNext = true;
    }
  }
  return (upNext && downPrev) || (upPrev && downNext);
}

const bareMemo = new WeakMap<IndexData, Uint8Array>();

/** The catalog's marks of bare tables of keys (isBareSupertype fills them as it is asked), or null when the rule is off. */
function bareMarks(data: IndexData): Uint8Array | null {
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
function isBareSupertype(data: IndexData, d: number, marks: Uint8Array | null = bareMarks(data)): boolean {
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
function isKindList(data: IndexData, d: number): boolean {
  const doc = data.docs[d]!;
  return doc.role === 'lookup' && KIND_WORDS.has(doc.nameParts[doc.nameParts.length - 1]!);
}

/**
 * A noun for a kind of place or person that the catalog does not name ("recording studios in London") is a label of
 * a kind code list: the kind code lists of the best-ranked tables of that class in the answer rise just below them,
 * and so does a wider kind list that one belongs to (`productsubcategory` → `productcategory`). The same holds for a
 * kind of thing ("bikes"), with any entity table as the class.
 * When no table of the class has a kind list of its own, one may sit behind a junction that gives its rows a role
 * (`person` ← `businessentitycontact` → `contacttype` for "purchasing managers … contacts"): then the junction rises
 * with it.
 */
function addKindLookups(data: IndexData, ranked: number[], limit: number, ofClass: (d: number) => boolean, word: string, lexical: ReadonlySet<number>, st: QueryState, allowed: (d: number) => boolean, asked?: number, viaJunctions = true): number[] {
  const boosts: Array<[number, number, string]> = [];
  const candidates = ranked.slice(0, limit).filter(ofClass);
  let seen = 0;
  for (const c of candidates) {
    if (seen >= RANKING.kindTop) break;
    const lists = data.edges[c]!.filter((e) => e.outgoing && e.to !== c && allowed(e.to) && isKindList(data, e.to));
    let base = st.score[c]!;
    // The kind is the noun the question asks for ("which bikes …"): its rows are the first such table's, which rises as
    // the rows asked for do (see addFocusTables), its kind lists with it.
    if (asked !== undefined && seen === 0 && lists.length > 0 && base < asked) {
      boosts.push([c, asked, `the rows asked for ('${word}', a kind of ${data.docs[c]!.name})`]);
      base = asked;
    }
    let kinds = 0;
    const value = RANKING.kindLookup * base;
    for (const e of lists) {
      kinds++;
      if (st.score[e.to]! < value) boosts.push([e.to, value, `kind of ${data.docs[c]!.name}, may hold '${word}'`]);
      // A kind list within a wider one (`productsubcategory` → `productcategory`): the word may name either level.
      for (const e2 of data.edges[e.to]!) {
        if (e2.outgoing && e2.to !== e.to && e2.to !== c && allowed(e2.to) && isKindList(data, e2.to) && st.score[e2.to]! < value * 0.95) boosts.push([e2.to, value * 0.95, `wider kind of ${data.docs[c]!.name}, may hold '${word}'`]);
      }
    }
    // A kind list of many kinds per row sits behind a junction of its own (`release_group` ←
    // `release_group_secondary_type_join` → `release_group_secondary_type`): the word may name it as well.
    if (lists.length > 0 && viaJunctions) {
      for (const e of data.edges[c]!) {
        if (e.outgoing || e.to === c || !allowed(e.to) || !data.docs[e.to]!.isBridge || (RANKING.attributeKinds > 0 && isAttributeTable(data, e.to))) continue;
        const outs = data.edges[e.to]!.filter((x) => x.outgoing && x.to !== e.to);
        const list = outs.find((x) => x.to !== c && isKindList(data, x.to));
        if (list === undefined || outs.some((x) => x.to !== c && x.to !== list.to) || !allowed(list.to)) continue;
        if (st.score[list.to]! < value * 0.95) boosts.push([list.to, value * 0.95, `kind of ${data.docs[c]!.name} via ${data.docs[e.to]!.name}, may hold '${word}'`]);
        if (st.score[e.to]! < value * 0.9) boosts.push([e.to, value * 0.9, `joins ${data.docs[c]!.name} to ${data.docs[list.to]!.name}`]);
      }
    }
    // Only tables that have a kind code list count: a table of places without one (`medium`) leaves room for the next.
    if (kinds > 0) seen++;
  }
  // No table of the class has a kind list of its own: the first one that has one behind a junction the question
  // already reaches (its words name the junction or the list: "listed as contacts"), a junction of a relationship
  // before any other, then the strongest such junction, the first in table order on a tie.
  for (const c of seen > 0 ? [] : candidates) {
    let best: { via: number; list: number; score: number; role: boolean } | null = null;
    for (const e of data.edges[c]!) {
      // Custom attributes (`recording_attribute`) are no kinds of the rows.
      if (e.outgoing || e.to === c || !allowed(e.to) || data.docs[e.to]!.role !== 'bridge' || (RANKING.attributeKinds > 0 && isAttributeTable(data, e.to))) continue;
      for (const e2 of data.edges[e.to]!) {
        if (!e2.outgoing || e2.to === c || !allowed(e2.to) || !isKindList(data, e2.to)) continue;
        if (!lexical.has(e.to) && !lexical.has(e2.to)) continue;
        // A role of the rows is their part in a relationship with something else (`businessentitycontact`: a person
        // at a business, of a contact type); a junction of theirs with no other end (`personphone`: a person's
        // numbers, of a phone number type) sorts what it holds, not them.
        const role = RANKING.kindRoles > 0 && data.edges[e.to]!.some((x) => x.outgoing && x.to !== c && x.to !== e2.to && x.to !== e.to);
        const score = st.score[e.to]! + st.score[e2.to]!;
        const better = best === null || (role !== best.role ? role : score > best.score || (score === best.score && data.order[e.to]! < data.order[best.via]!));
        if (better) best = { via: e.to, list: e2.to, score, role };
      }
    }
    if (best === null) continue;
    const value = RANKING.kindLookup * st.score[c]!;
    boosts.push([best.list, value * 0.95, `kind of ${data.docs[c]!.name} via ${data.docs[best.via]!.name}, may hold '${word}'`]);
    boosts.push([best.via, value * 0.9, `joins ${data.docs[c]!.name} to ${data.docs[best.list]!.name}`]);
    break;
  }
  return applyRaises(data, ranked, boosts, st);
}

/**
 * Words for belonging to a group of people ("members of groups", "the band's lineup", "when did he quit"): a relationship of people to
 * people, unless a table is named for it (a column such as `member_since` says nothing of who belongs with whom).
 */
const MEMBERSHIP_WORDS: ReadonlySet<string> = new Set(['member', 'members', 'membership', 'memberships', 'lineup', 'lineups', 'bandmate', 'bandmates', 'quit', 'quits']);

/** Junctions that must point at a table for it to be a hub of relationships. */
const HUB_MIN_JUNCTIONS = 5;
const hubMemo = new WeakMap<IndexData, { hub: number; list: number } | null>();

/**
 * The catalog's hub of typed relationships, if it has one: a table with no name of its own that many junctions point
 * at and that points at a kind list (MusicBrainz: `link` → `link_type`, the `l_<a>_<b>` tables pointing at `link`;
 * `artist`, which they also point at, has a name). The one with most junctions.
 */
function relationHub(data: IndexData): { hub: number; list: number } | null {
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
function sortsIntoLists(data: IndexData, j: number): boolean {
  return data.docs[j]!.role === 'bridge' && !isTypedRelation(data, j) && !isAttributeTable(data, j);
}

/**
 * Whether a list is a vocabulary the whole catalog shares: three or more junctions point at it (MusicBrainz `tag`,
 * through `artist_tag`, `recording_tag`, `release_tag`…). Any thing may carry any of its words, so a word of the
 * question that the catalog does not hold is no more likely there than anywhere: it is offered no guess.
 */
function isSharedVocabulary(data: IndexData, l: number): boolean {
  return RANKING.sharedLists > 0 && junctionsAt(data, l) >= SHARED_LIST_JUNCTIONS;
}

/** Junctions that must point at a list for it to be a vocabulary shared across the catalog. */
const SHARED_LIST_JUNCTIONS = 3;

/**
 * Whether a junction holds custom attributes of a thing: it points at a list named after itself and a word of kinds
 * (MusicBrainz `artist_attribute` → `artist_attribute_type`). The thing's own columns and tables hold what a
 * question asks of it; such a table is a second, open-ended store that questions seldom mean.
 */
function isAttributeTable(data: IndexData, d: number): boolean {
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
function sideJunctions(data: IndexData): Uint8Array {
  let side = sideMemo.get(data);
  if (side !== undefined) return side;
  side = new Uint8Array(data.docs.length);
  sideMemo.set(data, side);
  const rel = relationHub(data);
  if (rel === null) return side;
  const junction = (d: number): boolean => d === rel.hub || (data.docs[d]!.role === 'bridge' && data.edges[d]!.some((e) => e.outgoing && e.to === rel.hub));
  for (const e of data.edges[rel.hub]!) {
    const j = e.to;
    if (e.outgoing || j === rel.hub || !junction(j)) continue;
    const ends = [...new Set(data.edges[j]!.filter((x) => x.outgoing && x.to !== rel.hub && x.to !== j).map((x) => x.to))];
    if (ends.length !== 2) continue;
    // Up to one join more than the junction's two, never through a typed relationship or an auxiliary table, and
    // never down to a shared target and back up (`artist` → `area` ← `place` says both are somewhere, not related).
    let frontier: Array<[number, boolean]> = [[ends[0]!, false]];
    const seen = new Set<string>([`${ends[0]}:0`]);
    let found = false;
    for (let depth = 0; depth < 3 && frontier.length > 0 && !found; depth++) {
      const next: Array<[number, boolean]> = [];
      for (const [u, down] of frontier) {
        for (const x of data.edges[u]!) {
          if (down && !x.outgoing && data.docs[x.to]!.role !== 'bridge') continue;
          if (x.to === ends[1]) found = true;
          const k = `${x.to}:${x.outgoing ? 1 : 0}`;
          if (seen.has(k) || junction(x.to) || data.docs[x.to]!.role === 'auxiliary') continue;
          seen.add(k);
          next.push([x.to, x.outgoing]);
        }
      }
      frontier = next;
    }
    if (found) side[j] = 1;
  }
  return side;
}

function isPeopleEntity(data: IndexData, d: number): boolean {
  return data.personTable[d]! > 0 && data.docs[d]!.role === 'entity';
}

const relationPeopleMemo = new WeakMap<IndexData, ReadonlyMap<number, number>>();

/** The tables of people that junctions of the relationship hub point at, with how many junctions do (a catalog constant). */
function relationPeople(data: IndexData, hub: number): ReadonlyMap<number, number> {
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
function mostJoined(data: IndexData, counts: ReadonlyMap<number, number>, allowed: (d: number) => boolean): number {
  let best = -1;
  for (const [d, n] of counts) if (allowed(d) && (best < 0 || n > counts.get(best)! || (n === counts.get(best)! && data.order[d]! < data.order[best]!))) best = d;
  return best;
}

/**
 * A person named by a role ("producers", "the lyricist of") in a catalog with a hub of typed relationships: the hub and
 * its type list rise just below the best table of people in the answer, and so does the junction of the hub that joins
 * that table to the strongest other table in the answer that `named` accepts (`l_artist_recording` for "songs Quincy
 * Jones produced"), or else to itself (`l_artist_artist` for "drummers in The Who").
 */
function addRoleLookups(data: IndexData, ranked: number[], limit: number, word: string, named: (d: number) => boolean, st: QueryState, allowed: (d: number) => boolean, modifier = false, performing = true): number[] {
  const rel = relationHub(data);
  if (rel === null || !allowed(rel.hub) || !allowed(rel.list)) return ranked;
  const ends = relationPeople(data, rel.hub);
  const belonging = MEMBERSHIP_WORDS.has(word);
  // Belonging to something that is no people ("the festival's lineup", with no table of people in the answer) is the
  // people of the relationships taking part in it: they stand in below the best table, and the junction goes towards
  // what the question names (`l_artist_event`).
  const joining = (belonging || (RANKING.rolePeople > 0 && !modifier)) && RANKING.lineupOfThings > 0 && ranked[0] !== undefined && !ranked.slice(0, limit).some((d) => isPeopleEntity(data, d)) ? mostJoined(data, ends, allowed) : -1;
  // A question no word of which reached a table ("theremin players") asks only for people in a role: the people of
  // the relationships stand in, as the whole answer.
  const alone = RANKING.roleAlone > 0 && ranked[0] === undefined && !modifier ? mostJoined(data, ends, allowed) : -1;
  if (alone >= 0) {
    st.touch(alone);
    st.score[alone] = 1;
    pushExtra(st, alone, { weight: 1, text: `holds the people of relationships, for '${word}'`, show: 1.2 });
    ranked = topCandidates(data, st, RANKING.candidates);
  }
  const first = joining >= 0 ? joining : alone >= 0 ? alone : ranked.slice(0, limit).find((d) => isPeopleEntity(data, d));
  if (first === undefined) return ranked;
  // Belonging is otherwise of people to people.
  const towards = belonging && joining < 0 ? (): boolean => false : named;
  // The people a role is of are an end of the relationships (`artist` of `l_artist_artist`): a table of people that no
  // junction of the hub reaches (`editor`, whose `member_since` a word grazed) has no roles.
  let people = joining >= 0 ? joining : RANKING.roleEnds > 0 ? ranked.slice(0, limit).find((d) => isPeopleEntity(data, d) && ends.has(d)) : first;
  const boosts: Array<[number, number, string]> = [];
  const value = RANKING.kindLookup * st.score[joining >= 0 ? ranked[0]! : first]!;
  if (joining >= 0) boosts.push([joining, value, `holds the people of relationships, for '${word}'`]);
  if (people === undefined) {
    // Belonging ("members", "lineup") is always to a group of people in a relationship: the table of people most
    // junctions reach stands in. Another role word may name people of the catalog that hold no roles ("user ratings":
    // `editor`), which stay the people it is about.
    const stand = MEMBERSHIP_WORDS.has(word) ? mostJoined(data, ends, allowed) : -1;
    people = stand < 0 ? first : stand;
    if (stand >= 0) boosts.push([stand, value, `holds the people of relationships, for '${word}'`]);
  }
  boosts.push([rel.list, value * 0.95, `type of ${data.docs[rel.hub]!.name}, may hold '${word}'`], [rel.hub, value * 0.95, `relationship of ${data.docs[people]!.name}, for '${word}'`]);
  const top = new Set(ranked.slice(0, limit));
  let best: { via: number; score: number } | null = null;
  for (const e of data.edges[rel.hub]!) {
    const b = e.to;
    if (e.outgoing || b === rel.hub || !allowed(b) || data.docs[b]!.role !== 'bridge') continue;
    const ends = data.edges[b]!.filter((x) => x.outgoing && x.to !== rel.hub).map((x) => x.to);
    if (!ends.includes(people)) continue;
    const other: number = ends.find((x) => x !== people) ?? people;
    // A role is towards a thing the question names ("songs … produced": `recording`); with none, towards people
    // ("drummers in The Who"), not towards a table that only a column or a neighbour brought in.
    if (other !== people && (!top.has(other) || !towards(other))) continue;
    const score = other === people ? 0 : st.score[other]!;
    if (best === null || score > best.score || (score === best.score && data.order[b]! < data.order[best.via]!)) best = { via: b, score };
  }
  if (best !== null) boosts.push([best.via, value * 0.9, `joins ${data.docs[people]!.name} in a relationship, for '${word}'`]);
  // A role is a type of relationship and the attributes it is qualified by (an instrument played, a guest part): the
  // hub's junction to its most referenced list of attributes (`link_attribute` → `link_attribute_type`).
  // A role the thesaurus places with what it makes ("lyricist": a work) needs none.
  // (A synonym the catalog does not hold places it with nothing: "players" beside athletes, in a catalog of music.)
  const makes = RANKING.roleSynonymsHeld > 0 ? synonymHeld(data, word) : thesaurusConcepts(data, word).size > 0;
  const attributes = RANKING.roleAttributes > 0 && !makes && (!(RANKING.performingAttributes > 0) || performing) ? attributeList(data, rel.hub) : null;
  if (attributes !== null && allowed(attributes.via) && allowed(attributes.list)) {
    boosts.push([attributes.via, value * RANKING.roleAttributes, `attributes of ${data.docs[rel.hub]!.name}, for '${word}'`], [attributes.list, value * RANKING.roleAttributes * 0.95, `attribute types of ${data.docs[rel.hub]!.name}, for '${word}'`]);
    // The words the catalog does not hold are then the role's attributes ("played drums as a guest"), not labels of the
    // code lists of other tables that a guess reached through them.
    if (RANKING.roleGuesses < 1) {
      for (const d of st.guesses.keys()) if (d !== attributes.list) st.score[d]! *= RANKING.roleGuesses;
    }
  }
  return applyRaises(data, ranked, boosts, st);
}

/** Words whose dictionary concepts are those of playing or singing music (`instrumentalist`: a player of an instrument). */
const PERFORMING_WORDS: readonly string[] = ['instrumentalist', 'percussionist', 'sing', 'play'];
const performingMemo = new WeakMap<IndexData, Set<string>>();

/**
 * Whether a role word is one of playing or singing ("played", "drummer", "sang", "guitarist"): the relationships of
 * such a role are qualified by what was played and how (an instrument, a guest part); producing, engineering or
 * conducting are not.
 */
function isPerforming(data: IndexData, word: string): boolean {
  let concepts = performingMemo.get(data);
  if (concepts === undefined) {
    concepts = new Set(PERFORMING_WORDS.flatMap((w) => cachedConcepts(data.conceptCache, data.lexicon, w)));
    performingMemo.set(data, concepts);
  }
  const own = concepts;
  return cachedConcepts(data.conceptCache, data.lexicon, word).some((c) => own.has(c));
}

/** Whether a thesaurus synonym of the word (not the word or its lemma) is one `held` accepts, worked out once per word and index. */
function hasSynonym(data: IndexData, word: string, memos: WeakMap<IndexData, Map<string, boolean>>, held: (w: string) => boolean): boolean {
  let memo = memos.get(data);
  if (memo === undefined) memos.set(data, (memo = new Map()));
  let found = memo.get(word);
  if (found !== undefined) return found;
  const lemma = data.lexicon.lemma(word);
  found = THESAURUS.some((group) => (group.includes(word) || group.includes(lemma)) && group.some((w) => w !== word && w !== lemma && held(w)));
  memo.set(word, found);
  return found;
}

const synonymNamesMemo = new WeakMap<IndexData, Map<string, boolean>>();

/** Whether a thesaurus synonym of the word is a word of some table's name (`supplier`: `vendor`). */
function namesTable(data: IndexData, word: string): boolean {
  return hasSynonym(data, word, synonymNamesMemo, (w) => inTableName(data, stem(w)));
}

const synonymHeldMemo = new WeakMap<IndexData, Map<string, boolean>>();

/** Whether a thesaurus synonym of the word is a word of the catalog (`basket`: a `cart`, `colour`: a `color`): the word is explained. */
function synonymHeld(data: IndexData, word: string): boolean {
  return hasSynonym(data, word, synonymHeldMemo, (w) => isCatalogTerm(data, w));
}

/**
 * A role that no table, column or synonym names, in a catalog with no hub of typed relationships (see
 * RANKING.roleJunctions): a junction of three keys, to a table of people, to a kind list and to a third table that a
 * table the question's words found is (or points at), gives people a role there. Its kind list holds the role; both rise
 * below the people, as a kind list of theirs would (addKindLookups). The first such junction of the best-ranked such
 * table; none where the people are not in the answer.
 */
function addRoleJunctions(data: IndexData, ranked: number[], limit: number, word: string, next: string | undefined, lexical: ReadonlySet<number>, st: QueryState, allowed: (d: number) => boolean): number[] {
  if (namesTable(data, word)) return ranked;
  const top = ranked.slice(0, limit);
  for (const t of top) {
    if (!lexical.has(t) || data.personTable[t]! > 0 || data.docs[t]!.role === 'lookup') continue;
    const at = new Set([t, ...data.edges[t]!.filter((e) => e.outgoing && e.to !== t).map((e) => e.to)]);
    for (const a of at) {
      for (const e of data.edges[a]!) {
        const j = e.to;
        if (e.outgoing || j === a || !allowed(j) || data.docs[j]!.role !== 'bridge') continue;
        const outs = data.edges[j]!.filter((x) => x.outgoing && x.to !== j).map((x) => x.to);
        if (outs.length !== 3) continue;
        const people = outs.find((x) => x !== a && isPeopleEntity(data, x) && top.includes(x));
        const list = outs.find((x) => x !== a && isKindList(data, x));
        if (people === undefined || list === undefined || !allowed(list)) continue;
        // "The owner contact" names the junction after the role; "the dealer network" is no part of anyone.
        if (next !== undefined && !data.docs[j]!.name.toLowerCase().includes(next)) continue;
        const value = RANKING.kindLookup * st.score[people]!;
        return applyRaises(data, ranked, [
          [list, value * 0.95, `kind of ${data.docs[people]!.name} at ${data.docs[a]!.name} via ${data.docs[j]!.name}, may hold '${word}'`],
          [j, value * 0.9, `joins ${data.docs[people]!.name} to ${data.docs[a]!.name} in a role, for '${word}'`],
        ], st);
      }
    }
  }
  return ranked;
}

/**
 * Something made of or from a thing, in a word the dictionary does not know ("remixes of Blue Monday"): in a catalog
 * of typed relationships, a relationship of that kind of thing to another of its kind. The hub's junction of the best
 * table in the answer with itself (`l_recording_recording`), the hub and its type list rise to `madeOf` of that table.
 */
function addSelfRelations(data: IndexData, ranked: number[], limit: number, word: string, st: QueryState, allowed: (d: number) => boolean): number[] {
  const rel = relationHub(data);
  if (rel === null || !allowed(rel.hub) || !allowed(rel.list)) return ranked;
  for (const c of ranked.slice(0, limit)) {
    const cd = data.docs[c]!;
    if (cd.role !== 'entity' || data.personTable[c]! > 0) continue;
    const self = data.edges[c]!.find((e) => {
      if (e.outgoing || e.to === c || !allowed(e.to) || data.docs[e.to]!.role !== 'bridge') return false;
      const outs = data.edges[e.to]!.filter((x) => x.outgoing && x.to !== e.to);
      return outs.some((x) => x.to === rel.hub) && outs.filter((x) => x.to === c).length >= 2 && outs.every((x) => x.to === c || x.to === rel.hub);
    });
    if (self === undefined) continue;
    const value = RANKING.madeOf * st.score[c]!;
    return applyRaises(data, ranked, [
      [self.to, value, `relates ${cd.name} to ${cd.name}, for '${word}'`],
      [rel.hub, value * 0.95, `relationship of ${cd.name}, for '${word}'`],
      [rel.list, value * 0.95, `type of ${data.docs[rel.hub]!.name}, may hold '${word}'`],
    ], st);
  }
  return ranked;
}

const attributeMemo = new WeakMap<IndexData, { via: number; list: number } | null>();

/**
 * The hub's junction to a list of attributes of its relationships: a junction with two keys, one to the hub and one to
 * another table (not people, not a second end of a relationship), the most referenced such table (MusicBrainz
 * `link_attribute` → `link_attribute_type`, which the credited and text attribute lists point at too), or null.
 */
function attributeList(data: IndexData, hub: number): { via: number; list: number } | null {
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
function isThing(data: IndexData, d: number): boolean {
  const doc = data.docs[d]!;
  return doc.role === 'entity' || (doc.role === 'bridge' && doc.hasName);
}

/**
 * Raise each table to the best value offered for it (ties in table order, the highest offer first), with its
 * reason; returns the new candidate order, or `ranked` as it was when nothing was offered.
 */
function applyRaises(data: IndexData, ranked: number[], boosts: Array<[number, number, string]>, st: QueryState): number[] {
  if (boosts.length === 0) return ranked;
  boosts.sort((x, y) => x[0] - y[0] || y[1] - x[1]);
  for (const [d, value, text] of boosts) {
    if (st.score[d]! >= value) continue;
    st.touch(d);
    const add = value - st.score[d]!;
    st.score[d] = value;
    pushExtra(st, d, { weight: add, text, show: 1.2 });
  }
  return topCandidates(data, st, RANKING.candidates);
}

/**
 * The rows a question asks for ("which artists …", "what labels …", "how many customers …") come from the table named
 * by that noun, even when tables that share more of the question's words outrank it (`artist_release` for "which
 * artists … releases"): a table whose whole name is the asked-for noun rises to the score of the `focusRank`-th hit.
 * A noun the catalog never writes ("which choirs") asks for the rows of a candidate whose one-word name is a thesaurus
 * synonym of it (`artist`).
 */
function addFocusTables(data: IndexData, ranked: number[], parsed: ParsedQuery, st: QueryState, allowed: (d: number) => boolean): { ranked: number[]; asked: number[] } {
  if (parsed.focus.length === 0 || ranked.length === 0) return { ranked, asked: [] };
  // In the source of the best hit: a catalog of several databases has a `customers` in each.
  const source = data.docs[ranked[0]!]!.source;
  const value = focusValue(ranked, st);
  const boosts: Array<[number, number, string]> = [];
  // Every table found to be the rows asked for, raised or already above the focus score.
  const asked: number[] = [];
  const take = (d: number, text: string): void => {
    if (!asked.includes(d)) asked.push(d);
    if (st.score[d]! < value) boosts.push([d, value, text]);
  };
  const { termIds, start, doc } = data.postings;
  for (const word of parsed.focus) {
    const t = stem(word);
    const id = termIds.get(t);
    if (id !== undefined) {
      // An entity or a code list ("Rank genres by …": the rows are the list's) whose whole name is the noun, or a table
      // of keys named so (AdventureWorks `customer`: a person or a store in a territory).
      const before = asked.length;
      for (let i = start[id]!; i < start[id + 1]!; i++) {
        const d = doc[i]!;
        const dd = data.docs[d]!;
        const kind = dd.role === 'entity' || dd.role === 'lookup' || (RANKING.focusBridges > 0 && dd.role === 'bridge');
        if (!allowed(d) || dd.source !== source || !kind || dd.nameStems.length !== 1 || dd.nameStems[0] !== t) continue;
        take(d, `the rows asked for ('${word}')`);
      }
      // A noun the catalog writes only inside other words or in columns ("shops", of `shoppingcartitem`) names no table
      // by itself: a thesaurus synonym may (below).
      if (asked.length > before || !(RANKING.focusUnnamed > 0) || wholeNameStems(data).has(t)) continue;
    }
    // A run-together noun the catalog writes apart or together with its own spelling ("which salespeople": `salesperson`,
    // sales + person): the table whose name is those pieces, in that order.
    const whole = parsed.terms.find((x) => !x.part && x.surface === word);
    const pieces = whole === undefined ? [] : parsed.terms.filter((x) => x.part && x.position === whole.position).map((x) => x.term);
    if (pieces.length >= 2) {
      const before = asked.length;
      for (const d of ranked) {
        const dd = data.docs[d]!;
        if (!allowed(d) || dd.source !== source || dd.role !== 'entity' || dd.nameParts.length !== pieces.length) continue;
        if (partStems(data, d).every((w, k) => w === pieces[k])) take(d, `the rows asked for ('${word}')`);
      }
      if (asked.length > before) continue;
    }
    // A noun the catalog never writes ("which choirs", "what festivals"): the candidate named by a thesaurus synonym.
    const synonyms = thesaurusConcepts(data, word);
    if (synonyms.size === 0) continue;
    for (const d of ranked) {
      const dd = data.docs[d]!;
      // A junction with a name of its own is a thing too (AdventureWorks `store`, a business with a salesperson).
      const thing = dd.role === 'entity' || (RANKING.focusUnnamed > 0 && isThing(data, d));
      if (!allowed(d) || dd.source !== source || !thing || dd.nameWords.length !== 1) continue;
      if (namedByNoun(data, dd, t, synonyms)) take(d, `the rows asked for ('${word}', as ${dd.name})`);
    }
  }
  return { ranked: applyRaises(data, ranked, boosts, st), asked };
}

/**
 * A table of `owner`'s own, given that it points at `owner`: its name is the owner's and more (`release_country`,
 * `recording_first_release_date`), and it is no alias, redirect or history of it.
 */
function isOwnTable(owner: DocData, d: DocData): boolean {
  return d.role !== 'auxiliary' && d.nameParts.length > owner.nameParts.length && owner.nameParts.every((w, i) => d.nameParts[i] === w);
}

/**
 * Stemmed words of a table's column names, and their thesaurus concepts (`rating`: the concept of "score"); not of its
 * keys to other tables (`recording_attribute.recording` holds no recording of its own), nor the table's own name words.
 */
function columnWords(data: IndexData, d: number): ReadonlySet<string> {
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
function timeColumns(data: IndexData, d: number): number {
  return ownColumns(data.docs[d]!).filter((c) => cachedTerms(data.termCache, data.vocab, c.name).some((t) => TIME_TERMS.has(t.term))).length;
}

/**
 * An attribute asked of the leading rows that their table does not hold ("albums from the 70s": MusicBrainz `release`
 * has no date) lives in a table of their own: one that points at them and whose name starts with theirs
 * (`release_country.date_year`, `recording_first_release_date.year`). The best such table for each word rises to
 * `attributeHome` of the entity's score.
 */
function addAttributeHomes(data: IndexData, ranked: number[], parsed: ParsedQuery, mentionWords: ReadonlySet<string>, st: QueryState, allowed: (d: number) => boolean): number[] {
  // "Number of events" counts the events: no column holds that number.
  const words = parsed.terms.filter((t) => !t.part && !mentionWords.has(t.surface) && !parsed.properWords.has(t.surface) && !(RANKING.countWords > 0 && parsed.countWords.includes(t.surface)));
  if (words.length === 0) return ranked;
  const boosts: Array<[number, number, string]> = [];
  // What names each word in a column: the word itself and its thesaurus concepts, once for every table looked at.
  const keys = new Map(words.map((t) => [t, [t.term, ...(RANKING.attributeSynonyms > 0 ? wordConcepts(data, parsed, t).filter(isThesaurusConcept) : [])]]));
  const named = (t: ParsedQuery['terms'][number], cols: ReadonlySet<string>): boolean => keys.get(t)!.some((k) => cols.has(k));
  const leaders = ranked.slice(0, RANKING.attributeTop).filter((f) => data.docs[f]!.role === 'entity' || data.docs[f]!.role === 'bridge');
  for (const f of leaders) {
    const fd = data.docs[f]!;
    const own = columnWords(data, f);
    const asked = words.filter((t) => !named(t, own) && !fd.nameStems.includes(t.term));
    if (asked.length === 0) continue;
    const best = new Map<string, number>();
    // A code list the leading table points at by a column the question names ("and packaging": `release.packaging` →
    // `release_packaging`): the list holds what that column's value reads as.
    if (RANKING.attributeLookups > 0) {
      for (const e of data.edges[f]!) {
        const c = e.to;
        if (!e.outgoing || c === f || e.implied !== undefined || !allowed(c) || data.docs[c]!.role !== 'lookup') continue;
        const cols = new Set(e.fromColumns.flatMap((n) => cachedTerms(data.termCache, data.vocab, n).map((t) => t.term)).filter((t) => t !== 'id' && !fd.nameStems.includes(t)));
        const t = asked.find((q) => cols.has(q.term));
        if (t !== undefined && !best.has(t.surface)) best.set(t.surface, c);
      }
    }
    for (const e of data.edges[f]!) {
      const c = e.to;
      if (e.outgoing || c === f || !allowed(c)) continue;
      const cd = data.docs[c]!;
      if (!isOwnTable(fd, cd)) continue;
      const cols = columnWords(data, c);
      for (const t of asked) {
        if (!named(t, cols)) continue;
        const prev = best.get(t.surface);
        if (prev === undefined || st.score[c]! > st.score[prev]!) best.set(t.surface, c);
      }
    }
    // "When did it come out": a time of the rows, kept in a table of their own when theirs holds none (a release's
    // dates per country).
    if (RANKING.askedTime > 0 && parsed.asksTime && !best.has('when') && timeColumns(data, f) === 0) {
      // The table whose columns hold most of a time (a date in its year, month and day parts: when it happened) rather
      // than one stamp (`date_added`: when the row was written); then the stronger, then the first.
      let home = -1;
      let most = 0;
      for (const e of data.edges[f]!) {
        const c = e.to;
        if (e.outgoing || c === f || !allowed(c) || !isOwnTable(fd, data.docs[c]!)) continue;
        const n = timeColumns(data, c);
        if (n > 0 && (n > most || (n === most && (st.score[c]! > st.score[home]! || (st.score[c]! === st.score[home]! && data.order[c]! < data.order[home]!))))) {
          home = c;
          most = n;
        }
      }
      if (home >= 0) best.set('when', home);
    }
    for (const [w, c] of best) boosts.push([c, st.score[f]! * RANKING.attributeHome, `holds the '${w}' of ${fd.name}`]);
  }
  return applyRaises(data, ranked, boosts, st);
}

/** The score the rows asked for rise to: that of the `focusRank`-th hit (of the last, when fewer). `ranked` is not empty. */
function focusValue(ranked: readonly number[], st: QueryState): number {
  return st.score[ranked[Math.min(RANKING.focusRank, ranked.length) - 1]!]!;
}

/** focusValue when `word` is the noun asked for, else undefined. */
function focusScore(ranked: readonly number[], parsed: ParsedQuery, word: string, st: QueryState): number | undefined {
  return parsed.focus.includes(word) && ranked.length > 0 ? focusValue(ranked, st) : undefined;
}

/** Last words of a table that collects rows of the table named by its other words (`release_group`, `product_set`). */
const COLLECTIVE_WORDS: ReadonlySet<string> = new Set(['group', 'set', 'family', 'collection', 'series', 'batch', 'bundle', 'cluster']);

/** FK degree for the hub prior: an auxiliary table counts its entity's (the whole it belongs to) when that is larger. */
function hubDegree(data: IndexData, d: number): number {
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
function isWholeOf(parent: DocData, child: DocData): boolean {
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

/**
 * A subset table names its rows in the table it extends (`country_area` → `area`): the names come along with it, or
 * with an answer table `c` that points at it (`release_country.country`).
 */
function addNamers(data: IndexData, c: number, st: QueryState, allowed: (d: number) => boolean, boosts: Array<[number, number, string]>): void {
  const offer = (x: number, via: string): void => {
    const y = subsetOf(data, x);
    if (y < 0 || y === c || !allowed(y)) return;
    const value = RANKING.parent * st.score[c]!;
    if (st.score[y]! < value) boosts.push([y, value, `names the rows of ${via}`]);
  };
  offer(c, data.docs[c]!.name);
  for (const e of data.edges[c]!) if (e.outgoing && e.to !== c) offer(e.to, `${data.docs[c]!.name}.${e.fromColumns.join(', ')}`);
}

/**
 * Views follow the relations they are computed from: a view the question does not name ranks after every relation it
 * reads that is in the answer (`sales_by_store` after `inventory`, `customer_list` after `customer`). A view sums up
 * its relations; it does not take their place, nor that of any other table the question reached (`sales_by_film_category`
 * does not push out the `staff` who took the payments): it fills the places the tables leave.
 */
function placeViews(data: IndexData, ranked: number[], limit: number, queryTerms: ReadonlySet<string>, st: QueryState): number[] {
  let changed = false;
  // An unnamed view comes after every table the question reached, not only after its own relations.
  let floor = Infinity;
  for (const d of ranked) if (!data.docs[d]!.derived && st.score[d]! > 0) floor = Math.min(floor, st.score[d]!);
  for (const v of ranked.slice(0, 2 * Math.max(1, limit))) {
    const doc = data.docs[v]!;
    if (!doc.derived || isMirror(doc) || doc.nameStems.every((w) => w.length < 3 || queryTerms.has(w))) continue;
    let cap = Infinity;
    for (const b of viewBases(data, v)) if (st.score[b]! > 0) cap = Math.min(cap, st.score[b]!);
    cap = Math.min(cap, floor);
    if (cap === Infinity || st.score[v]! < cap) continue;
    st.score[v] = cap * 0.99;
    changed = true;
  }
  return changed ? topCandidates(data, st, RANKING.candidates) : ranked;
}

/**
 * Tables kept beside the model (standsApart, copiesNames) and the bare shared key of subtypes (isBareSupertype), which
 * the question does not name, come after every other table it reached, as views do (placeViews): they fill the places
 * the tables leave. Their copies of names and words, or a comment that names the subtypes, would otherwise win places
 * on every question about the things they copy or stand for (`artist_release` on "releases by an artist",
 * `businessentity` on "vendors").
 */
function placeApart(data: IndexData, ranked: number[], limit: number, queryTerms: ReadonlySet<string>, st: QueryState): number[] {
  const apart = new Set(ranked.filter((d) => ((RANKING.apart < 1 && standsApart(data, d)) || (RANKING.copies > 0 && copiesNames(data, d)) || (RANKING.bareApart > 0 && isBareSupertype(data, d))) && !namesOwnWord(data, d, queryTerms)));
  if (apart.size === 0) return ranked;
  let floor = Infinity;
  for (const d of ranked) if (!data.docs[d]!.derived && st.score[d]! > 0 && !apart.has(d)) floor = Math.min(floor, st.score[d]!);
  let changed = false;
  for (const d of ranked.slice(0, 2 * Math.max(1, limit))) {
    if (floor === Infinity || st.score[d]! < floor || !apart.has(d)) continue;
    st.score[d] = floor * 0.99;
    changed = true;
  }
  return changed ? topCandidates(data, st, RANKING.candidates) : ranked;
}

/** The relations of its own source that a view's SQL names after FROM or JOIN. */
function viewBases(data: IndexData, v: number): readonly number[] {
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

/** What rank.ts derives from a doc's table alone, kept for the next query. */
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
function standsApart(data: IndexData, d: number): boolean {
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
function namesOwnWord(data: IndexData, d: number, queryTerms: ReadonlySet<string>): boolean {
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
function copiesNames(data: IndexData, d: number): boolean {
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

function partStems(data: IndexData, d: number): readonly string[] {
  const x = derived(data, d);
  return (x.partStems ??= data.docs[d]!.nameParts.map(stem));
}

/**
 * The table a subset table extends, or -1: its key is wholly its FK to that table, it holds no text of its own
 * (`country_area (area)`, `premium_member (customer_id, since)`) and the table it extends has a name or title
 * column, so its rows are named there. (`salesperson` extends `employee`, but its people are named further on.)
 */
function subsetOf(data: IndexData, d: number): number {
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
function junctionsAt(data: IndexData, d: number): number {
  const x = derived(data, d);
  if (x.junctions === undefined) {
    let n = 0;
    for (const e of data.edges[d]!) if (!e.outgoing && e.to !== d && data.docs[e.to]!.isBridge) n++;
    x.junctions = n;
  }
  return x.junctions;
}

/** A record with no name of its own that qualifies junctions (isQualifierRecord): the type of a relationship row (`link`). */
function isTypingRecord(data: IndexData, d: number): boolean {
  return isQualifierRecord(data, d) && !data.docs[d]!.hasName;
}

/**
 * A record that qualifies junctions: several junctions point at it and it points at nothing but code lists
 * (`link` → `link_type`), unlike an entity at the end of a junction (`release` → `release_group`, `artist_credit`).
 */
function isQualifierRecord(data: IndexData, d: number): boolean {
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

function pushExtra(st: QueryState, d: number, r: ExtraReason): void {
  const list = st.extra.get(d);
  if (list === undefined) st.extra.set(d, [r]);
  else list.push(r);
}

/** The k best scored candidates, best first; a bounded heap keeps this O(m log k) on wide catalogs. */
function topCandidates(data: IndexData, st: QueryState, k: number): number[] {
  const score = st.score;
  const order = data.order;
  // better(a, b): a ranks before b.
  const better = (a: number, b: number): boolean => score[a]! > score[b]! || (score[a] === score[b] && order[a]! < order[b]!);
  const heap: number[] = [];
  for (const d of st.touched) {
    if (score[d]! <= 0) continue;
    if (heap.length < k) {
      heap.push(d);
      let i = heap.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!better(heap[p]!, heap[i]!)) break;
        [heap[p], heap[i]] = [heap[i]!, heap[p]!];
        i = p;
      }
    } else if (better(d, heap[0]!)) {
      heap[0] = d;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let worst = i;
        if (l < heap.length && better(heap[worst]!, heap[l]!)) worst = l;
        if (r < heap.length && better(heap[worst]!, heap[r]!)) worst = r;
        if (worst === i) break;
        [heap[worst], heap[i]] = [heap[i]!, heap[worst]!];
        i = worst;
      }
    }
  }
  return heap.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
}

/**
 * Complete the join set: for each pair of top hits in one source that no FK joins directly, the tables on the
 * shortest FK path between them (up to `pathMaxHops` edges) are pulled up to just below the weaker endpoint.
 * Among equally short paths the one whose intermediates already score best wins, then the lexically first.
 * `walked` keeps the path of each pair an earlier pass walked (keyed `a * n + b`, a < b), so a second pass only walks
 * the pairs it has not seen; the tables on a known path are raised again with the current scores.
 */
function fillPaths(data: IndexData, ranked: number[], lexical: ReadonlySet<number>, unasked: (d: number) => boolean, st: QueryState, allowed: (d: number) => boolean, walked: Map<number, number[] | null>): number[] {
  if (ranked.length < 2) return ranked;
  const topScore = st.score[ranked[0]!]!;
  // Views have no keys of their own to join by: they take no place among the tables a join set is completed for.
  const top = (RANKING.pathViews > 0 ? ranked.filter((d) => !data.docs[d]!.derived) : ranked).slice(0, RANKING.pathTop).filter((d) => st.score[d]! >= RANKING.pathFloor * topScore);
  let changed = false;
  // One walk from each table, asked for each table it is paired with.
  const walks = new Map<number, FkWalk>();
  for (let i = 0; i < top.length; i++) {
    for (let j = i + 1; j < top.length; j++) {
      const a = top[i]!;
      const b = top[j]!;
      // Two tables reached only as holders of people or places ("in Norway") are alternatives, not a join.
      if (data.docs[a]!.source !== data.docs[b]!.source || (!lexical.has(a) && !lexical.has(b))) continue;
      const pair = Math.min(a, b) * data.docs.length + Math.max(a, b);
      let path = walked.get(pair);
      if (path === undefined) {
        let walk = walks.get(a);
        if (walk === undefined) walks.set(a, (walk = new FkWalk(data, a, allowed, false)));
        path = walk.pathToAny(new Set([b]), st);
        walked.set(pair, path);
      }
      if (path === null || path.length <= 2) continue;
      const lo = Math.min(st.score[a]!, st.score[b]!);
      const hi = Math.max(st.score[a]!, st.score[b]!);
      const target = RANKING.pathFill * (path.length === 3 && RANKING.pathMean > 0 ? lo ** (1 - RANKING.pathMean) * hi ** RANKING.pathMean : lo);
      for (let i = 1; i < path.length - 1; i++) {
        const mid = path[i]!;
        if (passedOnKey(data, path, i)) continue;
        const value = unasked(mid) ? RANKING.auxiliary * target : target;
        if (st.score[mid]! >= value) continue;
        st.touch(mid);
        st.score[mid] = value;
        pushExtra(st, mid, { weight: value, text: `joins ${data.docs[a]!.name} and ${data.docs[b]!.name}` });
        changed = true;
      }
    }
  }
  return changed ? topCandidates(data, st, RANKING.candidates) : ranked;
}

function bestPath(data: IndexData, parents: Map<number, number[]>, from: number, to: number, st: QueryState, prefer?: Float32Array): number[] {
  // Each path is scored first by how few tables it meets from both sides (converges), then by how surely its
  // intermediates hold what `prefer` measures, then by their scores.
  type Walk = { path: number[]; c: number; p: number; s: number };
  const memo = new Map<number, Walk>();
  const walk = (v: number): Walk => {
    const hit = memo.get(v);
    if (hit !== undefined) return hit;
    if (v === from) return { path: [from], c: 0, p: 0, s: 0 };
    let best: Walk | null = null;
    let bestParent = -1;
    for (const par of parents.get(v)!) {
      const r = walk(par);
      const mid = v !== to;
      const before = r.path.length >= 2 ? r.path[r.path.length - 2]! : -1;
      const c = r.c + (RANKING.convergence > 0 && before >= 0 && converges(data, before, par, v) ? 1 : 0);
      const cand = { path: [...r.path, v], c, p: r.p + (mid && prefer !== undefined ? prefer[v]! : 0), s: r.s + (mid ? st.score[v]! : 0) };
      if (best === null || cand.c < best.c || (cand.c === best.c && (cand.p > best.p || (cand.p === best.p && (cand.s > best.s || (cand.s === best.s && data.order[par]! < data.order[bestParent]!)))))) {
        best = cand;
        bestParent = par;
      }
    }
    memo.set(v, best!);
    return best!;
  };
  return walk(to).path;
}

/**
 * Whether a join path meets `mid` from both sides: `prev` and `next` each point at it (`track` → `artist_credit` ←
 * `release`). Such a join pairs rows that share a value of `mid` ("the same credit"), not rows that belong together
 * (`track` → `medium` → `release`), so among equally short paths one that converges less is taken.
 */
function converges(data: IndexData, prev: number, mid: number, next: number): boolean {
  let fromPrev = false;
  let fromNext = false;
  for (const e of data.edges[mid]!) {
    if (e.outgoing) continue;
    if (e.to === prev) fromPrev = true;
    else if (e.to === next) fromNext = true;
  }
  return fromPrev && fromNext;
}

/** Reasons and matched columns for one returned hit, recomputed from the table itself. */
function explain(data: IndexData, parsed: ParsedQuery, st: QueryState, d: number): { why: string[]; columns: string[] } {
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

function listAll(data: IndexData, allowed: (d: number) => boolean, limit: number, opts: SearchOptions): SearchResult {
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

/**
 * FK edges that connect the given tables: a breadth-first tree from the first hit over the FK graph restricted to
 * the hits, then further components from their own first member. Deterministic: edges in declaration order.
 */
export function joinTree(data: IndexData, members: readonly number[]): JoinEdge[] {
  const inSet = new Set(members);
  const visited = new Set<number>();
  const out: JoinEdge[] = [];
  for (const root of members) {
    if (visited.has(root)) continue;
    visited.add(root);
    const queue = [root];
    while (queue.length > 0) {
      const u = queue.shift()!;
      for (const e of data.edges[u]!) {
        if (!inSet.has(e.to) || visited.has(e.to)) continue;
        visited.add(e.to);
        queue.push(e.to);
        const [from, to] = e.outgoing ? [u, e.to] : [e.to, u];
        out.push({
          sourceName: data.docs[u]!.source,
          from: data.docs[from]!.qualifiedName,
          fromColumns: e.fromColumns,
          to: data.docs[to]!.qualifiedName,
          toColumns: e.toColumns,
          constraint: e.constraint,
        });
      }
    }
  }
  return out;
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
