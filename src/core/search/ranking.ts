/**
 * The ranking's constants (RANKING): the BM25F field weights, and the weight, share, limit or switch of every signal
 * and step of the ranking (rank.ts and the modules it reads), each with what it does.
 */
import { BM25F } from './build';

export const RANKING = {
  ...BM25F,
  /** Concept matches count this much of a literal match (thesaurus groups are curated, WordNet is broader). */
  thesaurus: 0.6,
  /** A WordNet concept match (a synonym, hypernym or derivation of a word) counts this much of a literal match. */
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
  /** How many of the best hits lend their FK neighbours `namedNeighbour` or `neighbour` of their score. */
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
  /** How many of the best hits offer their lookup tables `valueLookup` of their score for a word the catalog does not hold. */
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
  /** How many of the tables the noun names outright (the best ranked first) offer their code lists for the word before it. */
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
  /** The share of its score that such a further list keeps when the guess reached it through another table (spreadGuesses). */
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
  /** Join paths are completed between pairs of the first `pathTop` hits (views aside when `pathViews` is set). */
  pathTop: 6,
  /**
   * Paths are completed between top hits scoring at least this share of the best one: a table the question reaches
   * only through a column ("what rentals they were for" → the film's rental rate) still ends a path worth joining.
   */
  pathFloor: 0.1,
  /** The longest join path completed between two hits, in FK steps. */
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
  /** A title in the question is looked for among the tables pointed at by the first `titleTop` leading tables (addTitleHolders). */
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
