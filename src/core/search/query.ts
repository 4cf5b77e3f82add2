/**
 * Query parsing: quoted phrases, stop words, identifier-shaped words, and the word n-grams that the value index is
 * probed with.
 */
import { knownWord } from './spelling';
import { ABBREVIATIONS, INSTRUCTION_WORDS, STANDARD_IDENTIFIERS, STOP_WORDS, identifierTerms, spelledIdentifier, irregularBase, stem, type Vocabulary } from './tokenize';
import { lemmaCandidates } from './lexicon';

/** Weight of an implied word: `year` and `date` of a year or a decade, `language` of a language's adjective. */
const IMPLIED_WEIGHT = 0.7;

export interface QueryTerm {
  /** Stemmed index term. */
  readonly term: string;
  /** The word as written (lower case), for lexicon look-ups and explanations. */
  readonly surface: string;
  /** 1 for plain words; quoted phrases weigh more. */
  readonly weight: number;
  /** Index of the question word it comes from (stop words count), so that neighbouring words can be found. */
  readonly position?: number;
  /** A phrasal verb added beside its words: it counts only where related catalog words match it. */
  readonly phrasal?: true;
  /** A word the question implies but does not write (`year` of "in 1985", `language` of "in Spanish"). */
  readonly implied?: true;
  /**
   * A piece of a run-together word ("set" of "setlist"): its letters may match the catalog, but its dictionary senses
   * are not the word's meaning, so it brings no related words.
   */
  readonly part?: true;
  /** A piece of a code that mixes letters and digits ("GBAYE9300106", "AW00011000"): a row's identifier, no label. */
  readonly code?: true;
}

export interface ParsedQuery {
  readonly isListAll: boolean;
  readonly terms: readonly QueryTerm[];
  /** Lower-case candidate literal values: quoted phrases and every 1–3 word n-gram of the raw text. */
  readonly valueProbes: readonly string[];
  /** Probes the user marked explicitly (quoted). */
  readonly quoted: readonly string[];
  /** Proper names that look like a person ("Lewis Hamilton", "Neil McGuigan's") or a place ("in South Bohemia"). */
  readonly mentions: readonly Mention[];
  /** The question asks for people ("who", "whoever", "whose"): the tables that hold people's names matter. */
  readonly asksPerson: boolean;
  /** The question speaks of someone as "he", "she", "his" or "her": it is about a person, named or not. */
  readonly personPronoun: boolean;
  /**
   * The question asks where ("where was he from", "where were they recorded"), not where to find something ("where
   * can I find them"): the tables of places count, as those of people do for "who".
   */
  readonly asksPlace: boolean;
  /** The question asks when something happened ("when did it come out"): a time of the rows it is about. */
  readonly asksTime: boolean;
  /** Nouns for kinds of people that a "which"/"what" question asks for ("which purchasing agent"). */
  readonly personNouns: readonly (readonly string[])[];
  /** The same for kinds of places: "which cities", "what kind of venues". */
  readonly placeNouns: readonly (readonly string[])[];
  /**
   * The answer names its rows: the question asks for them by name ("which …", "who …", "top 5 …", "list …") or lists
   * them ("night shift employees"); only a count ("how many …", "the number of …") does not. People in it need their names.
   */
  readonly asksNames: boolean;
  /**
   * Plural nouns anywhere in the question for kinds of places ("recording studios in London") and of people
   * ("soloists"), lower case; verb forms and names excluded.
   */
  readonly kindNouns: { readonly place: readonly string[]; readonly person: readonly string[] };
  /** Lower-cased words written with a capital inside a sentence ("on Abbey Road"): parts of names, not vocabulary. */
  readonly properWords: ReadonlySet<string>;
  /** Capitalised names inside a sentence that are neither a person nor a place: titles of things ("Abbey Road", "Yesterday"). */
  readonly titles: readonly string[];
  /**
   * Of those, the titles written after "on", "of", "from" or "off" (a possessive name may stand between): what
   * something is part of ("the tracks on Massive Attack's Mezzanine", "every song on Thriller").
   */
  readonly wholes: readonly string[];
  /** Of those, the ones written after "on": what someone is credited on ("the mastering engineer on Dots and Loops"). */
  readonly onTitles: readonly string[];
  /** Count nouns that count what follows ("number of events"): they ask how many, for no column of a number. */
  readonly countWords: readonly string[];
  /** Of those, the ones something came out on ("released in 1995 on Creation Records"): who issued it. */
  readonly issuedOn: readonly string[];
  /**
   * A name that issued the thing the word before it names ("releases did Warp put out", "albums that Atlantic
   * released"): `name` may be who made them as well as who issued them.
   */
  readonly issuers: ReadonlyArray<{ readonly name: string; readonly thing: string }>;
  /**
   * Titles that other things are versions of: after "recordings of", "covers of", "versions of the song", or after a
   * verb of performing and a possessive name or a quote ("recorded Holst's The Planets", "covered 'Hallelujah'").
   */
  readonly versionsOf: readonly string[];
  /**
   * The word a thing is said to be classed as ("labels classed as reissue labels", "places registered as churches"): a
   * kind; with the word written before the verb (`of`: "labels"), which may name the thing.
   */
  readonly classedAs: ReadonlyArray<{ readonly kind: string; readonly of?: string }>;
  /** Lower-case content words within three words after "which", "what" or "how many": what the question asks for. */
  readonly focus: readonly string[];
  /**
   * Lower-case past forms of a role's verb ("produced", "composed", "wrote") in a question about someone (it asks who,
   * or names a person): the role that someone played ("songs Quincy Jones produced" asks for producers' work).
   */
  readonly roleVerbs: readonly string[];
  /**
   * Lower-case words the dictionary does not know, right before "of" ("remixes of Blue Monday"): something made of or
   * from what follows, which a catalog of typed relationships keeps as a relationship between two of those things.
   */
  readonly madeOf: readonly string[];
  /**
   * Capitalised spans, not quoted, that end in a noun of an occupation ("Purchasing Manager", "Regional Account
   * Representative", "the Owner"): a job title, which names a role that a catalog keeps in a list of roles or in a
   * column, not a work or a row's name. Taken out of `titles`.
   */
  readonly jobTitles: readonly string[];
}

export interface Mention {
  readonly kind: 'person' | 'place';
  readonly text: string;
  /** An adjective of a place ("German"): also a value of its own (a language, a cuisine), unlike a place's name. */
  readonly adjective?: boolean;
  /**
   * Known only from where it stands (a possessive, after `by`, before "songs"), not from its words: a name the catalog
   * holds as a value or a word ("Comedy films", "sales by Territory") is that, not someone.
   */
  readonly maker?: true;
}

/**
 * Set phrases in which a noun names nothing the question asks about ("where do we keep track of …", "in order to",
 * "for the record"): each `*` word is no term of the question. Alternatives are separated by `|`.
 */
const IDIOMS: ReadonlyArray<ReadonlyArray<{ readonly words: ReadonlySet<string>; readonly drop: boolean }>> = [
  'keep|keeps|kept|keeping|lose|loses|lost|losing *track',
  'in *order to|for',
  'make|makes|made|making *sense',
  'make|makes|made|making *sure',
  'on|in *behalf',
  'at the *moment',
  'in *terms of',
  '*point of *view',
  'for the *record',
  'in the first *place',
  'in *charge of',
  'just in *case',
  'an *eye on',
  'take|takes|took|taking|have|has|had|having a *look',
  'the other *day',
  'in a *row',
  'by the *way',
  'in *fact',
  'in *touch',
  'a *lot|*bunch of',
  '*lots|*tons of',
  // Verbs whose particle makes them mean something else ("work out which label", "a name that shows up"): their nouns
  // (`work`, a show, a `track`) are not what the question is about.
  '*work|*works|*worked|*working out',
  '*show|*shows|*showed|*shown|*showing up',
  '*end|*ends|*ended|*ending up',
  '*turn|*turns|*turned|*turning out|up',
  '*pick|*picks|*picked|*picking up',
  '*figure|*figures|*figured|*figuring out',
  '*track|*tracks|*tracked|*tracking down',
  '*narrow|*narrows|*narrowed|*narrowing down',
  '*break|*breaks|*broke|*broken|*breaking down',
].map((idiom) => idiom.split(' ').map((w) => ({ words: new Set(w.replace(/\*/g, '').split('|')), drop: w.startsWith('*') })));

/** Words that count a period back or forward from now, before its unit ("last month", "the next two weeks"). */
const RELATIVE_TIME: ReadonlySet<string> = new Set(['last', 'past', 'previous', 'next', 'coming', 'recent', 'prior', 'preceding', 'following']);
/** Units of time a question counts periods in. */
const TIME_UNITS: ReadonlySet<string> = new Set(['day', 'days', 'week', 'weeks', 'fortnight', 'month', 'months', 'quarter', 'quarters', 'year', 'years', 'decade', 'decades', 'season', 'seasons', 'semester', 'hour', 'hours', 'weekend']);
/** Cardinal numbers written as words: how many rows or periods, never which. */
export const NUMBER_WORDS: ReadonlySet<string> = new Set('one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand thousands million millions'.split(' '));

/** How many of them ("the last three years", "the past 6 months", "a few weeks ago"). */
function isCountWord(w: string): boolean {
  return NUMBER_WORDS.has(w) || w === 'few' || w === 'several' || /^\d+$/.test(w);
}

/**
 * Positions (in `words`) of the nouns of set phrases (IDIOMS), of what the asker says they are doing and of the words
 * of a period counted from now.
 */
function idiomWords(words: readonly string[]): Set<number> {
  const out = new Set<number>();
  const lower = words.map((w) => w.toLowerCase());
  // What the asker is doing ("I'm writing a biography", "I am building a playlist") is no word of what they ask.
  for (let i = 1; i < lower.length; i++) {
    const after = lower[i - 1] === 'i' ? 1 : lower[i - 1] === 'am' && lower[i - 2] === 'i' ? 2 : 0;
    if (after > 0 && /^\p{Ll}{3,}ing$/u.test(words[i]!)) out.add(i);
  }
  // A period counted back or forward from now ("last month", "the past three years", "two weeks ago") filters the rows
  // by a date: its words name nothing the catalog holds (`lastname`, `lastreceiptcost` hold no "last").
  for (let i = 0; i + 1 < lower.length; i++) {
    if (RELATIVE_TIME.has(lower[i]!)) {
      const unit = isCountWord(lower[i + 1]!) ? i + 2 : i + 1;
      if (unit < lower.length && TIME_UNITS.has(lower[unit]!)) for (let k = i; k < unit; k++) out.add(k);
    }
    if (lower[i + 1] === 'ago' && TIME_UNITS.has(lower[i]!)) {
      out.add(i + 1);
      if (i > 0 && isCountWord(lower[i - 1]!)) out.add(i - 1);
    }
  }
  for (const idiom of IDIOMS) {
    for (let i = 0; i + idiom.length <= lower.length; i++) {
      if (!idiom.every((p, k) => p.words.has(lower[i + k]!))) continue;
      idiom.forEach((p, k) => {
        if (p.drop) out.add(i + k);
      });
    }
  }
  return out;
}

const QUOTED = /"([^"]+)"|“([^”]+)”|(?:^|[\s(,:=])'([^']+)'(?=$|[\s),.?!:;])/g;

/** Periods a question groups or compares by ("decade by decade", "per year", "year over year"): it asks for dates too. */
const PERIOD_WORDS = /\b(?:decades?|yearly|annually|(?:per|each|every|by)\s+(?:year|decade)|year\s+(?:over|by|to)\s+year)\b/i;
/** A verb of coming out, a few words before "on" and a title: "released in 1995 on Creation Records", "came out on Sub Pop". */
const ISSUED_BEFORE = /\b(?:released|issued|reissued|put\s+out|came\s+out|published|pressed)\b[^.?!,;:]{0,30}\bon\s+(?:the\s+)?(?:[\p{Lu}\p{N}][\p{L}\p{N}.&-]*\s+){0,3}['"‘“]?$/iu;

/**
 * A noun, "that"/"which"/"did"/"has"…, a capitalised name of one to three words and a verb of issuing
 * (ParsedQuery.issuers).
 */
const ISSUED_BY_NAME = /\b(\p{L}+)\s+(?:that|which|did|has|have|had)\s+((?:\p{Lu}[\p{L}\p{N}.&'’-]*)(?:\s+\p{Lu}[\p{L}\p{N}.&'’-]*){0,2})\s+(?:(?:has|have|had)\s+)?(?:put\s+out|released|issued|reissued|pressed|published|release|issue|reissue|press|publish)\b/gu;

/**
 * The same said the other way round: "albums put out by Harvest", "recordings released by Ninja Tune", "releases issued
 * through Sun Records".
 */
const ISSUED_BY_PASSIVE = /\b(\p{L}+)\s+(?:(?:that|which)\s+)?(?:(?:were|was|are|is|got|have\s+been|had\s+been)\s+)?(?:put\s+out|released|issued|reissued|pressed|published)\s+(?:by|through|via)\s+((?:\p{Lu}[\p{L}\p{N}.&'’/-]*)(?:\s+(?:\p{Lu}[\p{L}\p{N}.&'’/-]*|&)){0,3})/gu;
/**
 * A name that ends like a record company's or a publisher's ("Mute Records", "Smithsonian Folkways Recordings", "Numero
 * Group") before the plural of what it issued ("Mute Records releases").
 */
const ISSUER_BEFORE_THINGS = /((?:\p{Lu}[\p{L}\p{N}.&'’-]*\s+){1,3}(?:Records|Recordings|Music|Publishing|Group|Label|Editions))(?:['’]s?)?\s+(?:[^\s.,;:!?]+\s+){0,2}?(\p{Ll}{3,}s)\b/gu;

/** Who issued what, in the three ways a question says it (ParsedQuery.issuers). */
function issuersOf(text: string): Array<{ name: string; thing: string }> {
  const out: Array<{ name: string; thing: string }> = [];
  // The thing, then the name, either way round: "labels that put out …", "albums put out by …".
  for (const pattern of [ISSUED_BY_NAME, ISSUED_BY_PASSIVE]) {
    for (const m of text.matchAll(pattern)) if (!STOP_WORDS.has(m[1]!.toLowerCase())) out.push({ name: m[2]!, thing: m[1]!.toLowerCase() });
  }
  for (const m of text.matchAll(ISSUER_BEFORE_THINGS)) {
    // "Which Creation Records singles": a question word that opens the sentence is no word of the name.
    const words = m[1]!.split(/\s+/);
    while (words.length > 2 && STOP_WORDS.has(words[0]!.toLowerCase())) words.shift();
    out.push({ name: words.join(' '), thing: m[2]! });
  }
  return out;
}

/** "classed as", "classified as an", "registered as": the word after names a kind of the rows (ParsedQuery.classedAs). */
const CLASSED_AS = /(?:([\p{L}]+)\s+(?:(?:are|is|was|were|be|been|being|get|got)\s+)?)?\b(?:class(?:ed|ified)|categori[sz]ed|designated|registered)\s+as\s+(?:an?\s+)?([\p{L}][\p{L}-]*)/giu;

/** What stands before a title that other things are versions of (ParsedQuery.versionsOf). */
const VERSION_BEFORE = new RegExp(
  `(?:\\b(?:recordings?|versions?|covers?|renditions?|performances?|interpretations?|remakes?|takes)\\s+of\\s+(?:the\\s+(?:song|piece|tune|standard|work|composition)\\s+)?(?:[\\p{Lu}][\\p{L}.&-]*\\s+){0,3}?(?:[\\p{L}.&-]+['’]s\\s+)?['"‘“]?|\\b(?:recorded|covered|performed|sang|sung|remade|cut)\\s+(?:[\\p{L}.&-]+['’]s\\s+['"‘“]?|['"‘“]))$`,
  'iu',
);

/** "makes an hour", "earning per month", "paid a year": an amount of pay for a span of time. */
const EARNINGS = /\b(?:make|makes|making|made|earn|earns|earning|earned|paid|gets?|getting|take home|takes home)\s+(?:an?|per|each|every)\s+(?:hour|day|week|month|year)\b/i;

/** Spans of time something held through: "over time", "over the years", "through the decades", "historically". */
const HISTORY_WORDS = /\b(?:(?:over|through|across)\s+(?:time|the\s+(?:years|decades))|historically)\b/i;
/** A question for the ways to reach someone. */
const REACH_QUESTION = /\bhow\s+(?:do|can|could|would|should|might|will)\s+(?:i|we|you|one|they)\s+(?:best\s+)?(?:reach|contact|call|ring|phone|e-?mail|get\s+(?:hold\s+of|in\s+touch\s+with))\b/i;
/** Words that give a cause: what happened for it, happened for a reason. */
const CAUSE_WORDS = /\b(?:because\s+of|due\s+to|owing\s+to|on\s+account\s+of|thanks\s+to)\b/i;
/** Where something was before it moved ("any territory they were moved from", "the department she transferred out of"). */
const FORMER_STATE = /\b(?:moved|transferred|switched|reassigned)\s+(?:from|out\s+of)\b|\b(?:previous|former|earlier)\s+(?!year|month|week|day|quarter)\w+/i;
/** A clause asking how something changed over time. */
const CHANGE_CLAUSE = /\bhow\s+(?:has|have|had|did|does|do)\b[^?.,;:]*?\b(?:change|changed|evolve|evolved|grow|grew|grown|shift|shifted|vary|varied|develop|developed)\b/i;
/** A question about a trend: "How has …", "How have …", "How did … change". */
const TREND_QUESTION = /^\s*how\s+(?:has|have|had|did|does|do)\b/i;
/** The verbs of a trend, plain and past ("… changed over the years?", "how did sales grow"). */
const TREND_VERBS: ReadonlySet<string> = new Set('changed shifted evolved grown trended varied developed moved risen fallen declined increased decreased change shift evolve grow trend vary develop rise fall decline increase decrease'.split(' '));

/**
 * Contractions read as their full words, which are function words: "doesn't" is not the word `doesn` and a `t`,
 * "they're" not `re`. The negation itself is not kept (the ranker reads no negation of a verb).
 */
function withoutContractions(text: string): string {
  return text
    .replace(/\b(ca|wo|sha)n['’]t(?!\p{L})/giu, (_, w: string) => ({ ca: 'can', wo: 'will', sha: 'shall' })[w.toLowerCase() as 'ca'] ?? w)
    .replace(/(\p{L})n['’]t(?!\p{L})/gu, '$1')
    .replace(/(\p{L})['’](?:re|ve|ll|d|m)(?!\p{L})/giu, '$1');
}

/**
 * A hyphenated word in lower case that the dictionary or the catalog knows written solid ("e-mail", "web-site",
 * "check-out") is that one word, not its pieces (`e` and `mail`, beside which "address" matches the postal table as
 * well as the e-mail's). A capitalised one is a name or a stored value as written ("Demi-God", "Jay-Z").
 */
function joinedHyphens(text: string, vocab: Vocabulary, common: Vocabulary): string {
  return text.replace(/(?<![\p{L}\p{N}-])(\p{Ll}+)-(\p{Ll}+)(?![\p{L}\p{N}-])/gu, (m, a: string, b: string) => {
    const w = a + b;
    // The catalog may write it in the singular (`autoeditor` for "auto-editors").
    const singular = w.replace(/(?:(?<=[sxz]|ch|sh)es|s)$/, '');
    return vocab.has(w) || common.has(w) || (common.concepts?.(w).length ?? 0) > 0 || (singular !== w && vocab.inCatalog?.(singular) === true) ? a + b : m;
  });
}

export function parseQuery(query: string, vocab: Vocabulary, common: Vocabulary = vocab): ParsedQuery {
  const trimmed = joinedHyphens(withoutContractions(query.trim()), vocab, common);
  if (trimmed === '*') return { isListAll: true, terms: [], valueProbes: [], quoted: [], mentions: [], asksPerson: false, personPronoun: false, asksPlace: false, asksTime: false, personNouns: [], placeNouns: [], asksNames: false, kindNouns: { place: [], person: [] }, properWords: new Set(), titles: [], wholes: [], onTitles: [], issuedOn: [], issuers: [], versionsOf: [], classedAs: [], countWords: [], focus: [], roleVerbs: [], madeOf: [], jobTitles: [] };
  const quoted: string[] = [];
  // A quoted value's words weigh more ("customers in 'LATAM'"); a quoted title ("'One More Time'") is a name like an
  // unquoted one ("Blue Monday"), and its words weigh as much.
  const valueWords: string[] = [];
  const quotedTitles: string[] = [];
  for (const m of trimmed.matchAll(QUOTED)) {
    const text = (m[1] ?? m[2] ?? m[3] ?? '').trim();
    if (text.length === 0) continue;
    quoted.push(text.toLowerCase());
    const parts = text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
    const title = parts.length > 0 && parts.every((w, k) => /^\p{Lu}\p{Ll}/u.test(w) || (k > 0 && TITLE_JOINERS.has(w)));
    if (!title) valueWords.push(...parts.map((w) => w.toLowerCase()));
    else quotedTitles.push(text);
  }
  const quotedWords = new Set(valueWords);

  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  const proper = properWords(trimmed);
  const words = trimmed.split(/[^\p{L}\p{N}_]+/u).filter((w) => w.length > 0);
  const positions = phrasePositions(trimmed);
  // "How has the average length changed?": the verb of a trend asks for a measure over time, not for the catalog's
  // records of changes (`edit_note_change`).
  const trend = TREND_QUESTION.test(trimmed);
  const idioms = idiomWords(words);
  words.forEach((word, index) => {
    if (idioms.has(index)) return;
    const position = positions[index] ?? index;
    const lower = word.toLowerCase();
    const content = INSTRUCTION_WORDS.has(lower) && inNounPhrase(words, index, positions);
    if (trend && TREND_VERBS.has(lower)) return;
    // A number is no word, nor is one with a magnitude or an ordinal ending ("$1M", "5k", "1st").
    if ((STOP_WORDS.has(lower) && !content) || /^\d+(?:[.,]\d+)?(?:k|m|bn|st|nd|rd|th)?$/.test(lower) || lower.length < 2) return;
    const weight = quotedWords.has(lower) ? 1.5 : 1;
    // An acronym's plural ("LPs", "CDs") is one word, not the camel-case pieces `l` + `ps`; a name inside a sentence
    // is not split into dictionary words ("Parton" is not `part` + `on`, "Radiohead" not `radio` + `head`).
    const whole = proper.has(lower) ? { has: (w: string): boolean => w === lower || vocab.has(w) } : vocab;
    const code = /\p{L}/u.test(word) && /\d{2,}/.test(word) ? ({ code: true } as const) : {};
    // …and is the acronym's plural: "LPs" are `lp`s, "POs" purchase orders (the stemmer leaves three letters alone).
    // The surface stays the plural the question wrote: a plural names a kind of rows.
    const acronyms = /^\p{Lu}{2,}s$/u.test(word);
    for (const term of identifierTerms(acronyms ? lower.slice(0, -1) : word, whole)) {
      const t = acronyms && term.surface === lower.slice(0, -1) ? { ...term, surface: lower } : term;
      if (seen.has(t.term) || (STOP_WORDS.has(t.surface) && !(content && t.surface === lower))) continue;
      // A word of a name is no schema abbreviation: "Cat Stevens" is no category, "Max Richter" no maximum.
      if (proper.has(lower) && t.surface === lower && t.term !== stem(lower) && ABBREVIATIONS.has(lower)) continue;
      // "ISWC" is the code itself, not the words its name spells out (the schema's `iswc` holds those).
      if (t.surface === lower && t.term !== stem(lower) && STANDARD_IDENTIFIERS.has(lower)) continue;
      seen.add(t.term);
      terms.push(t.part ? { term: t.term, surface: t.surface, weight, position, part: true, ...code } : { term: t.term, surface: t.surface, weight, position, ...code });
    }
  });

  // A verb and its particle ("brought back", "checked out") mean more than the verb: the phrasal verb's senses are
  // added as one more word (its related catalog words count, there is no literal match).
  for (let i = 0; i + 1 < words.length; i++) {
    const particle = words[i + 1]!.toLowerCase();
    if (!PHRASAL_PARTICLES.has(particle)) continue;
    const verb = words[i]!.toLowerCase();
    if (STOP_WORDS.has(verb)) continue;
    const phrase = common.phrase?.(verb, particle);
    if (!phrase || seen.has(phrase)) continue;
    seen.add(phrase);
    terms.push({ term: phrase, surface: phrase, weight: 1, position: i, phrasal: true });
  }

  // Two nouns that name one thing together ("record company": a label) are one more word, as a phrasal verb is, where
  // the dictionary knows the pair.
  for (let i = 0; i + 1 < words.length; i++) {
    const first = words[i]!.toLowerCase();
    const second = words[i + 1]!.toLowerCase();
    if (!/^\p{Ll}{2,}$/u.test(first) || !/^\p{Ll}{2,}$/u.test(second) || STOP_WORDS.has(first) || STOP_WORDS.has(second)) continue;
    const compound = [second, ...lemmaCandidates(second)].map((w) => `${first}_${w}`).find((c) => (common.concepts?.(c).length ?? 0) > 0);
    if (compound === undefined || seen.has(compound)) continue;
    seen.add(compound);
    terms.push({ term: compound, surface: compound, weight: 1, position: i, phrasal: true });
  }

  // The words a standard identifier spells out ("the recording code", "a book number") name the code: the acronym is one
  // more word of the question, as a pair of nouns the dictionary knows is.
  const wordStems = words.map((w) => stem(w.toLowerCase()));
  for (let i = 0; i + 1 < wordStems.length; i++) {
    for (const n of [2, 3]) {
      if (i + n > wordStems.length) continue;
      const code = spelledIdentifier(wordStems.slice(i, i + n));
      if (code === undefined || seen.has(code)) continue;
      seen.add(code);
      terms.push({ term: stem(code), surface: code, weight: 1, position: i, phrasal: true });
    }
  }

  // A word the question implies without writing it, unless it writes it.
  const imply = (w: string): void => {
    const t = stem(w);
    if (seen.has(t)) return;
    seen.add(t);
    terms.push({ term: t, surface: w, weight: IMPLIED_WEIGHT, implied: true });
  };
  // …and only where the catalog writes the word.
  const implyKept = (w: string): void => {
    if (vocab.inCatalog?.(w) === true) imply(w);
  };
  // A year or a decade ("in 1985", "the 70s", "1990s"), or a period the question groups by ("per decade", "year over
  // year"), asks for a date: the tables that hold one are candidates.
  if (/(?:^|[^\p{L}\p{N}])(?:1[5-9]\d\d|20\d\d|(?:1[5-9]|20)?\d0['’]?s)(?=$|[^\p{L}\p{N}])/u.test(trimmed) || PERIOD_WORDS.test(trimmed)) {
    imply('year');
    imply('date');
  }
  // What held "over time", "over the years" or "historically" is kept with its dates, in a history: the implied word
  // `history`, as for a year, where the catalog keeps histories.
  // So is what the question asks how it changed ("how did that person's quota change"): its earlier values.
  if (HISTORY_WORDS.test(trimmed) || CHANGE_CLAUSE.test(trimmed) || FORMER_STATE.test(trimmed)) implyKept('history');
  // What someone makes or earns an hour, a week or a year is their pay: its rate, where the catalog writes those words.
  if (EARNINGS.test(trimmed)) {
    implyKept('pay');
    implyKept('rate');
  }
  // "Who owns them", "who approved it": the one who does it is named by the verb's agent noun where the catalog writes
  // it (a column `owner`, `approver`), as the implied word.
  words.forEach((w, i) => {
    if (i === 0 || words[i - 1]!.toLowerCase() !== 'who' || !/^\p{Ll}{3,}$/u.test(w) || STOP_WORDS.has(w)) return;
    // The verb's candidate bases ("owns": own; "approved": approve; "sold": sell), each with -er, -r or -or.
    const agents = lemmaCandidates(w).flatMap((base) => (base.endsWith('e') ? [`${base}r`] : [`${base}er`, `${base}or`]));
    const agent = agents.find((a) => vocab.inCatalog?.(a) === true);
    if (agent !== undefined) imply(agent);
  });
  // "How do I reach them?" asks for the ways to: a phone number and an e-mail address, where the catalog keeps them.
  if (REACH_QUESTION.test(trimmed)) for (const w of ['phone', 'email']) implyKept(w);
  // What happened "because of" something ("bought because of a magazine ad") happened for a reason: the implied word
  // `reason`, where the catalog keeps reasons.
  if (CAUSE_WORDS.test(trimmed)) implyKept('reason');
  // A language named by its adjective ("the French description", "lyrics in Spanish", "songs sung in German") asks for
  // the table of languages: the implied word `language`, as for a year.
  if (words.some((_, i) => speaksLanguage(words, i, common))) imply('language');

  const probes = new Set<string>(quoted);
  const plain = trimmed
    .toLowerCase()
    .split(/[^\p{L}\p{N}\-.&'/]+/u)
    .map((w) => w.replace(/^['.]+|['.?!]+$/g, ''))
    .filter((w) => w.length > 0);
  for (let i = 0; i < plain.length; i++) {
    for (let n = 1; n <= 3 && i + n <= plain.length; n++) {
      const gram = plain.slice(i, i + n).join(' ');
      if (n === 1 && (STOP_WORDS.has(gram) || gram.length < 2)) continue;
      probes.add(gram);
    }
  }
  const names = (w: string): boolean => common.isPerson?.(w.toLowerCase()) === true;
  // "customers who paid": a relative clause about people the question already names is not a question for people.
  // So is one about a thing: "products whose weight", "orders whose customer" (a relative pronoun right after a noun
  // that is no person's is about that noun's rows).
  const thingBefore = (w: string): boolean => /^\p{Ll}{3,}$/u.test(w) && !STOP_WORDS.has(w) && common.has(w) && !names(w) && common.isRole?.(w) !== true;
  const asksPerson = [...trimmed.matchAll(PERSON_QUESTION)].some((m) => {
    const before = /(\p{L}+)\s+$/u.exec(trimmed.slice(0, m.index))?.[1];
    return !(before !== undefined && PERSON_RELATIVE.has(m[0].toLowerCase()) && (names(before) || thingBefore(before)));
  });
  // "Which purchasing agent …", "what kind of engineer …": the nouns for kinds of people within three words of the
  // question word; the ranker decides whether the catalog names them itself.
  const nounsAfterWhich = (isKind: (w: string, before: string) => boolean): string[][] =>
    words.flatMap((w, i) => {
      if (!WHICH_WORDS.has(w.toLowerCase())) return [];
      // A word right before a determiner is a verb with its object ("Which salespeople beat their quota": no police
      // beat), and the phrase ends there.
      const phrase: string[] = [];
      for (let j = i + 1; j < Math.min(words.length, i + 4); j++) {
        if (DETERMINERS.has((words[j + 1] ?? '').toLowerCase()) && !STOP_WORDS.has(words[j]!.toLowerCase())) break;
        phrase.push(words[j]!);
      }
      const nouns = phrase.filter((n, k) => isKind(n, k > 0 ? phrase[k - 1]! : '')).map((n) => n.toLowerCase());
      return nouns.length > 0 ? [nouns] : [];
    });
  // A capitalised word is a name, a people or a language ("what's the Hebrew blurb"), not a kind of person asked for.
  const personNouns = nounsAfterWhich((w) => names(w) && !/^\p{Lu}/u.test(w));
  // Not a verb's form: "rented" is not a rent (a gap) in the ground. Not a noun whose usual sense is no place after
  // another noun, which it measures: "which date ranges" (unlike "which recording studios").
  const measures = (w: string, before: string): boolean => before !== '' && !STOP_WORDS.has(before.toLowerCase()) && common.isFirstPlace?.(w.toLowerCase()) === false;
  const placeNouns = nounsAfterWhich((w, before) => !/(?:ed|ing)$/i.test(w) && common.isPlace?.(w.toLowerCase()) === true && !measures(w, before));
  const plural = [...new Set(words.map((w) => w.toLowerCase()).filter((w) => /s$/.test(w) && !/(?:ed|ing|ss)$/.test(w) && !STOP_WORDS.has(w) && !proper.has(w)))];
  const kindNouns = (isKind: ((w: string) => boolean) | undefined): string[] => plural.filter((w) => isKind?.(w) === true);
  const focus = [
    ...new Set(
      words.flatMap((w, i) => {
        const lead = w.toLowerCase();
        const prev = i > 0 ? words[i - 1]!.toLowerCase() : '';
        // "which labels", "how many albums", the rows counted ("the most festivals", "the number of releases"), and the
        // rows a request lists ("List the salespeople in …").
        const asks = WHICH_WORDS.has(lead) || countsFrom(lead, prev) || (COUNTED_AFTER.has(lead) && prev === 'the') || (LIST_VERBS.has(lead) && (i === 0 || REQUEST_LEADS.has(prev)));
        // The people a relative clause picks out ("the employee who placed each one", "every clerk who …") are rows the
        // answer lists.
        if (lead === 'who' && i >= 2 && names(prev) && DETERMINERS.has(words[i - 2]!.toLowerCase()) && /^\p{Ll}{3,}$/u.test(words[i - 1]!)) return [words[i - 1]!];
        // What rows are ("their releases are bootlegs", "how many orders were cancelled"): a noun before a copula.
        if (COPULAS.has(lead) && i >= 1 && /^\p{Ll}{3,}s$/u.test(words[i - 1]!) && !STOP_WORDS.has(prev)) return [words[i - 1]!];
        return asks ? words.slice(i + 1, i + 4).filter((n) => /^\p{Ll}{3,}$/u.test(n) && !STOP_WORDS.has(n)) : [];
      }),
    ),
  ];
  // A name inside a quoted title ("Memphis" of 'Dusty in Memphis') is a word of the title, no one and nowhere.
  // So is a place inside the title a possessive name owns, quoted or not ("Dusty Springfield's Dusty in Memphis").
  const ownedTitles = [...quotedTitles, ...ownedSpans(trimmed)];
  const mentions = findMentions(trimmed, common).filter((m) => !ownedTitles.some((t) => t !== m.text && t.includes(m.text) && (quotedTitles.includes(t) || m.kind === 'place')));
  mentions.push(...lowerCaseNames(trimmed, vocab, common, mentions));
  const lower = words.map((w) => w.toLowerCase());
  const counts = lower.some((w, i) => countsFrom(w, i > 0 ? lower[i - 1]! : ''));
  const asksNames = asksPerson || !counts || lower.some((w) => NAMING_WORDS.has(w));
  const aboutSomeone = asksPerson || mentions.some((m) => m.kind === 'person');
  const roleVerbs = aboutSomeone ? [...new Set(words.filter((w) => pastTense(w) && common.isRoleVerb?.(w) === true))] : [];
  const asksPlace = WHERE_ASKS_PLACE.test(trimmed);
  const asksTime = WHEN_ASKS_TIME.test(trimmed);
  const madeOf = [...new Set(words.filter((w, k) => /^\p{Ll}{4,}$/u.test(w) && words[k + 1]?.toLowerCase() === 'of' && !common.has(w) && !common.has(w.replace(/e?s$/, ''))))];
  const personPronoun = words.some((w) => PERSON_PRONOUNS.has(w.toLowerCase()));
  // A part of a quoted title ("Memphis" of 'Dusty in Memphis', whose first word a name took) stands for the whole.
  const found = [...new Set(findTitles(trimmed, mentions, common).map((t) => ownedTitles.find((q) => q !== t && q.includes(t)) ?? t))];
  const jobTitles = found.filter((t) => isJobTitle(t, quotedTitles, common));
  const titles = found.filter((t) => !jobTitles.includes(t));
  const onTitles = titles.filter((t) => isWholeTitle(trimmed, t, true));
  // "the number of …", "the total number of …"; not "the phone number of …".
  const countWords = [...new Set(lower.filter((w, k) => COUNT_NOUNS.has(w) && lower[k + 1] === 'of' && (k === 0 || STOP_WORDS.has(lower[k - 1]!) || COUNT_MODIFIERS.has(lower[k - 1]!))))];
  return { isListAll: false, terms, valueProbes: [...probes], quoted, mentions, asksPerson, personPronoun, asksPlace, asksTime, personNouns, placeNouns, asksNames, kindNouns: { place: kindNouns(common.isPlace), person: kindNouns(common.isPerson) }, properWords: proper, titles, wholes: titles.filter((t) => isWholeTitle(trimmed, t)), onTitles, countWords, issuedOn: onTitles.filter((t) => ISSUED_BEFORE.test(trimmed.slice(0, trimmed.indexOf(t)))), issuers: issuersOf(trimmed), versionsOf: titles.filter((t) => VERSION_BEFORE.test(trimmed.slice(0, trimmed.indexOf(t)))), classedAs: [...trimmed.matchAll(CLASSED_AS)].map((m) => ({ kind: m[2]!.toLowerCase(), ...(m[1] === undefined ? {} : { of: m[1].toLowerCase() }) })), focus, roleVerbs, madeOf, jobTitles };
}

/**
 * Names written in lower case, as in a search box ("stephen jiang quota history", "stores in canada"): a run of two or
 * three lower-case words that the catalog does not write, each unknown to the dictionary or the name of a well-known
 * person, one at least a well-known person's name that is no English word, is someone's name (a common word may open
 * it: "ken sanchez"); one to three words that make a place the dictionary knows by name are a place, after a
 * preposition of place or where one word is no English word. Not where a capitalised name of the same kind was found.
 */
function lowerCaseNames(text: string, vocab: Vocabulary, common: Vocabulary, found: readonly Mention[]): Mention[] {
  const out: Mention[] = [];
  const tokens = [...text.matchAll(/[\p{L}][\p{L}\p{N}]*(?:['’][\p{L}]+)*|[^\s\p{L}]/gu)].map((m) => m[0]);
  const free = (w: string): boolean => /^\p{Ll}{3,}$/u.test(w) && !STOP_WORDS.has(w) && vocab.inCatalog?.(w) !== true && vocab.inCatalog?.(w.replace(/e?s$/, '')) !== true;
  // Unknown to the dictionary in any form: not a word, not a regular inflection of one ("cheapest", "biggest"), no senses.
  const unknown = (w: string): boolean => !knownWord(w, common);
  // A well-known person's name that is no English word ("stephen", "sanchez", "smith"), and the other words of a name.
  const surname = (w: string): boolean => !common.has(w) && common.isPersonName?.(w) === true;
  const nameWord = (w: string): boolean => (unknown(w) && common.isPlaceName?.(w) !== true) || common.isPersonName?.(w) === true;
  const hasKind = (kind: Mention['kind']): boolean => found.some((m) => m.kind === kind) || out.some((m) => m.kind === kind);
  for (let i = 0; i < tokens.length; i++) {
    if (!free(tokens[i]!)) continue;
    let j = i;
    while (j < tokens.length && j - i < 3 && free(tokens[j]!)) j++;
    const run = tokens.slice(i, j);
    i = j - 1;
    let taken = 0;
    // A place whose name is also an English word ("canada", "china") only after a preposition of place.
    const lead = tokens[i - run.length]?.toLowerCase() ?? '';
    const placed = PLACE_PREPOSITIONS.has(lead) || MOTION_PREPOSITIONS.has(lead);
    for (let n = hasKind('place') ? 0 : run.length; n >= 1; n--) {
      const name = run.slice(0, n).join(' ');
      if (common.isPlaceName?.(name) !== true || !(placed || run.slice(0, n).some((w) => !common.has(w)))) continue;
      out.push({ kind: 'place', text: name });
      taken = n;
      break;
    }
    // A person's name: name words, one of them a surname as above; a common word may open it ("ken sanchez"), not a
    // comparative or an adverb ("biggest spender").
    const rest = run.slice(taken);
    const opens = rest.length > 1 && !/(?:est|er|ly)$/.test(rest[0]!) && surname(rest[1]!);
    let end = 0;
    while (end < rest.length && (nameWord(rest[end]!) || (end === 0 && opens))) end++;
    const name = rest.slice(0, end);
    if (!hasKind('person') && name.length >= 2 && name.some(surname)) out.push({ kind: 'person', text: name.join(' ') });
  }
  return out;
}

/**
 * The position of each word of the question, one apart within a phrase and two apart across a comma, a dash, a
 * bracket or a sentence end: "all the reissues, pressings" are two noun phrases, not a modifier and its noun.
 */
function phrasePositions(text: string): number[] {
  const out: number[] = [];
  let position = -1;
  let last = 0;
  for (const m of text.matchAll(/[\p{L}\p{N}_]+/gu)) {
    position += /[,;:.!?()\[\]{}—–]|\s-\s/u.test(text.slice(last, m.index)) && position >= 0 ? 2 : 1;
    out.push(position);
    last = m.index + m[0].length;
  }
  return out;
}

/** Words about language and text: an adjective of a place beside them names a language ("French description"). */
const LANGUAGE_CONTEXT: ReadonlySet<string> = new Set(
  'language languages lyrics lyric description descriptions text texts title titles subtitle subtitles caption captions translation translations name names script wording words version versions dub dubbing audio speaker speakers blurb blurbs manual manuals documentation transcript transcripts'.split(' '),
);

/**
 * Whether words[i] is a language's adjective used for the language: before or after words about language and text
 * ("French description", "lyrics in Spanish"), or as a noun ("sung in German", "in Japanese?").
 */
function speaksLanguage(words: readonly string[], i: number, common: Vocabulary): boolean {
  const w = words[i]!;
  if (!/^\p{Lu}/u.test(w) || (common.isLanguageAdjective?.(w) !== true && common.isLanguageName?.(w) !== true)) return false;
  // The name of a language is one wherever it stands alone ("the Hebrew blurb", "lyrics in Hindi"); beside another
  // capitalised word it is part of a name ("Latin America").
  if (common.isLanguageName?.(w) === true) return !/^\p{Lu}/u.test(words[i + 1] ?? '') && !(i > 0 && /^\p{Lu}/u.test(words[i - 1]!));
  const around = [...words.slice(Math.max(0, i - 2), i), ...words.slice(i + 1, i + 3)].map((x) => x.toLowerCase());
  if (around.some((x) => LANGUAGE_CONTEXT.has(x))) return true;
  const next = words[i + 1]?.toLowerCase();
  return i > 0 && words[i - 1]!.toLowerCase() === 'in' && (next === undefined || STOP_WORDS.has(next));
}

/** Irregular plurals the base-form table also holds: nouns, not verbs. */
const IRREGULAR_PLURALS: ReadonlySet<string> = new Set(['people', 'persons', 'children', 'men', 'women']);

/** A lower-case past form of a verb: `played`, `wrote`, `sang`. */
function pastTense(word: string): boolean {
  return /^\p{Ll}{2,}ed$/u.test(word) || (/^\p{Ll}+$/u.test(word) && irregularBase(word) !== null && !IRREGULAR_PLURALS.has(word));
}

/** Small words that stay lower case inside a title ("Kind of Blue", "The Dark Side of the Moon"). */
const TITLE_JOINERS: ReadonlySet<string> = new Set(['of', 'the', 'a', 'an', 'and', 'in', 'on', 'to', 'for', 'at', 'by', 'with']);

/**
 * Runs of capitalised words inside a sentence ("the lyrics to Yesterday", "B-side of Blue Monday", "Kind of Blue"),
 * joined over small lower-case words, that are not a person's name or a place already found: the title of a thing
 * the question is about, held in some table's name or title column.
 */
function findTitles(text: string, mentions: readonly Mention[], common: Vocabulary): string[] {
  const named = new Set(mentions.flatMap((m) => m.text.toLowerCase().split(/\s+/)));
  const out: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    while (run.length > 0 && TITLE_JOINERS.has(run[run.length - 1]!)) run.pop();
    // An adjective of a place alone ("Spanish" of "Spanish lyrics") is a language or a place, not a title.
    // So are adjectives joined by "and"/"or" ("French and Chinese blurbs").
    const adjective = run.every((w) => TITLE_JOINERS.has(w) || common.isPlaceAdjective?.(w) === true || common.isLanguageName?.(w) === true);
    // Months and days of the week ("in June 2014", "on Mondays in August") are dates, not a title.
    const calendar = run.every((w) => TITLE_JOINERS.has(w) || CALENDAR_WORDS.has(w.toLowerCase().replace(/s$/, '')));
    if (run.length > 0 && !adjective && !calendar && !run.every((w) => named.has(w.toLowerCase()))) out.push(run.join(' '));
    run = [];
  };
  for (const { token, bare, capitalised } of capitalTokens(text)) {
    if (capitalised && !named.has(bare.toLowerCase())) {
      run.push(bare);
      if (bare !== token) flush();
    } else if (run.length > 0 && TITLE_JOINERS.has(token)) run.push(token);
    else flush();
  }
  flush();
  return out;
}

/**
 * Capitalised spans right after a possessive that run over lower-case joining words to a capitalised word ("Dusty
 * Springfield's Dusty in Memphis", "Stevie Wonder's Songs in the Key of Life"): the title of the owner's work, whole.
 */
function ownedSpans(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(OWNED_SPAN)) {
    const span = sentenceOf(m[1]!);
    if (/\s\p{Ll}/u.test(span)) out.push(span.replace(/['’]s$/, ''));
  }
  return out;
}

/**
 * A span of capitalised words up to the end of its sentence: a word of three or more letters with a full stop ends it
 * ("… the Way I Love You. Who's credited?"); an initial or a short abbreviation does not ("J. J. Cale", "St. Louis").
 */
function sentenceOf(span: string): string {
  const end = /^(.*?\p{L}{3,})\.\s/u.exec(span);
  return end === null ? span : end[1]!;
}
const CAPITALISED_WORD = "\\p{Lu}[\\p{L}\\p{N}'’.&-]*";
const OWNED_SPAN = new RegExp(`\\p{L}['’]s\\s+(${CAPITALISED_WORD}(?:\\s+(?:(?:${[...TITLE_JOINERS].join('|')})\\s+)*${CAPITALISED_WORD})*)`, 'gu');

/** Whether `title` is written after "on", "of", "from" or "off", a possessive name perhaps between ("of Joni Mitchell's Blue"). */
function isWholeTitle(text: string, title: string, onOnly = false): boolean {
  const at = text.indexOf(title);
  if (at < 0) return false;
  return (onOnly ? ON_TITLE : WHOLE_TITLE).test(text.slice(0, at));
}
/** What may stand between the preposition and a title: an article, up to three capitalised words, a possessive name. */
const TITLE_LEAD = "\\s+(?:the\\s+)?(?:[\\p{Lu}\\p{N}][\\p{L}\\p{N}.&-]*\\s+){0,3}(?:[\\p{Lu}\\p{N}][\\p{L}\\p{N}.&-]*['’]s\\s+)?['\"‘“]?$";
const WHOLE_TITLE = new RegExp(`\\b(?:on|of|from|off)${TITLE_LEAD}`, 'u');
const ON_TITLE = new RegExp(`\\bon${TITLE_LEAD}`, 'u');

/** The months and the days of the week, written out. */
export const CALENDAR_NAMES: readonly string[] = 'january february march april may june july august september october november december monday tuesday wednesday thursday friday saturday sunday'.split(' ');

/** Months and days of the week, with their usual abbreviations. */
const CALENDAR_WORDS: ReadonlySet<string> = new Set([...CALENDAR_NAMES, ...'jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun'.split(' ')]);

/** Title-case words that do not start a sentence, lower-cased: "Which remixes of Daft Punk songs" → daft, punk. */
export function properWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const t of capitalTokens(text)) if (t.capitalised) out.add(t.bare.toLowerCase());
  return out;
}

/**
 * The question's words and punctuation in order; `capitalised` marks a title-case word (possessive `'s` dropped in
 * `bare`) that does not start a sentence, i.e. part of a name.
 */
function capitalTokens(text: string): Array<{ token: string; bare: string; capitalised: boolean }> {
  const tokens = [...text.matchAll(/[\p{L}]\p{L}*(?:['’]\p{L}+)*(?:-\p{L}+)*|[^\s\p{L}]/gu)].map((m) => m[0]);
  const starts = (i: number): boolean => i === 0 || /^[.?!:;"“(—–-]$/.test(tokens[i - 1]!);
  const titleCase = (i: number): boolean => i >= 0 && i < tokens.length && !starts(i) && CAPITALISED.test(tokens[i]!.replace(/['’]s$/, ''));
  return tokens.map((token, i) => {
    const bare = token.replace(/['’]s$/, '');
    // A word in capitals next to a title-case one is part of the same name ("OK Computer", "BBC Radio").
    const capitals = /^\p{Lu}{2,5}$/u.test(bare) && (titleCase(i + 1) || titleCase(i - 1));
    return { token, bare, capitalised: (!starts(i) || nameAtStart(tokens, i)) && (CAPITALISED.test(bare) || capitals) };
  });
}

/**
 * A sentence that opens with a name ("Warp Records label code", "Nine Inch Nails dupes"): its first word is
 * title-case, no function word or instruction ("Which", "Show"), and the next word is title-case too, so the capital
 * is the name's, not the sentence's.
 */
function nameAtStart(tokens: readonly string[], i: number): boolean {
  const lower = tokens[i]!.toLowerCase();
  const next = tokens[i + 1] ?? '';
  return /^\p{Lu}\p{Ll}+$/u.test(tokens[i]!) && !STOP_WORDS.has(lower) && !INSTRUCTION_WORDS.has(lower) && CAPITALISED.test(next.replace(/['’]s$/, '')) && !STOP_WORDS.has(next.toLowerCase()) && next !== 'I';
}

/** Words after which an instruction verb still gives the instruction ("could you list", "and show", "to find"). */
const INSTRUCTION_LEADS: ReadonlySet<string> = new Set(['please', 'you', 'me', 'to', 'and', 'also', 'then', 'i', 'we', 'just', 'or', 'kindly']);
const COORDINATORS: ReadonlySet<string> = new Set(['and', 'or']);

/**
 * An instruction verb inside a noun phrase is a content word: "no return date", "the list price". It must follow a
 * word that does not lead an instruction, not start a sentence (capitalised), and come right before a content word
 * that is not itself a verb form ("films get rented" gives no instruction, but names no `get` either), or end its
 * phrase.
 */
function inNounPhrase(words: readonly string[], i: number, positions: readonly number[]): boolean {
  if (i === 0) return false;
  const w = words[i]!;
  if (w[0] !== w[0]!.toLowerCase()) return false;
  const lead = words[i - 1]!.toLowerCase();
  // An instruction has an object; one that ends its phrase is a noun ("between checkout and return, by genre").
  if (i + 1 >= words.length || positions[i + 1]! > positions[i]! + 1) return !INSTRUCTION_LEADS.has(lead) || COORDINATORS.has(lead);
  if (INSTRUCTION_LEADS.has(lead)) return false;
  const next = words[i + 1]!.toLowerCase();
  return !STOP_WORDS.has(next) && !/^\d+$/.test(next) && !/(?:ed|ing)$/.test(next);
}

const PHRASAL_PARTICLES: ReadonlySet<string> = new Set(['back', 'out', 'up', 'off', 'in', 'down', 'over', 'away', 'on']);

/** Words that open a noun phrase: a word right before one is a verb with its object, not a noun of the phrase before. */
const DETERMINERS: ReadonlySet<string> = new Set(['the', 'a', 'an', 'their', 'his', 'her', 'its', 'our', 'my', 'your', 'this', 'that', 'these', 'those', 'every', 'each']);
/** Question words that ask for a kind of thing named by the next words. */
const WHICH_WORDS: ReadonlySet<string> = new Set(['which', 'what']);
/** Words that ask for rows to be named rather than counted; a figure for each or per row lists the rows too. */
const NAMING_WORDS: ReadonlySet<string> = new Set(['which', 'top', 'list', 'name', 'names', 'who', 'whom', 'whose', 'whoever', 'each', 'every', 'per']);
/** "where", unless it asks where to find or see something ("where can I find", "where is the data"). */
const WHERE_ASKS_PLACE = /\bwhere\b(?!\s+(?:can|do|could|would|should|might|may|will)\s+(?:i|we|you|one)\b)(?!\s+(?:is|are)\s+(?:the|that|this|these|those|it)\s+(?:data|info|information|table|tables|record|records|stuff|kept|stored))/i;

/** "when" asking a question ("when did it come out", "and when was each granted"), not a clause ("what happens when two merge"). */
const WHEN_ASKS_TIME = /\bwhen\s+(?:did|was|were|is|are|does|do|has|have|had)\b/i;

const PERSON_PRONOUNS: ReadonlySet<string> = new Set(['he', 'she', 'him', 'his', 'her', 'hers', 'himself', 'herself']);
/** The question words that ask for people ("who", "whom", "whose", "whoever", "who's"), as words of the text. */
const PERSON_QUESTION = /(?<![\p{L}'’])(?:who(?:m|se|ever|['’]s)?)(?![\p{L}'’])/giu;
/** The question words that also open a relative clause after a noun ("customers who", "artists whose"). */
const PERSON_RELATIVE: ReadonlySet<string> = new Set(['who', 'whom', 'whose']);

/** Auxiliaries that open a question before its subject ("does Pearl Jam have", "did the Grateful Dead put out"). */
const AUXILIARIES: ReadonlySet<string> = new Set(['does', 'did', 'do', 'has', 'have', 'had']);

/**
 * The span `tokens[i..j)` stands where a maker or owner stands: it is possessive, follows `by` (or `by the`), comes
 * right before a lower-case plural noun ("Shakira songs"; `named`: a word of the span is a name's), or follows a
 * question's auxiliary ("does Pearl Jam have"). Inside a sentence only (`inside`), except for the possessive.
 */
function makerFrame(tokens: readonly string[], i: number, j: number, possessive: boolean, inside: boolean, named: boolean): boolean {
  if (possessive) return true;
  if (!inside) return false;
  const lower = (k: number): string => tokens[k]?.toLowerCase() ?? '';
  // The word before the name, an article aside.
  const at = lower(i - 1) === 'the' ? i - 2 : i - 1;
  const lead = lower(at);
  if (lead === 'by') return true;
  // "attributed to Arctic Monkeys", "credited to the Pixies": whom a work is credited to made it.
  if (lead === 'to' && CREDIT_VERBS.has(lower(at - 1))) return true;
  if (AUXILIARIES.has(lead) && /^\p{Ll}/u.test(tokens[j] ?? '')) return true;
  // Before a plural, a name only where a word of it is one ("Shakira songs", not "Master students" or "Comedy films"),
  // and not the end of a longer title ("Kind of Blue reissues" is about an album).
  const next = tokens[j] ?? '';
  const title = lower(i - 1) === 'of' && CAPITALISED.test(tokens[i - 2] ?? '');
  return named && !title && /^\p{Ll}{3,}[^s\W]s$/u.test(next) && !STOP_WORDS.has(next) && irregularBase(next) === null;
}

/**
 * Nouns that end the name of an occupation or a position ("Purchasing Manager", "Sales Representative", "Design
 * Engineer", "Owner"). English job titles, nothing about any schema.
 */
const JOB_HEADS: ReadonlySet<string> = new Set(
  'manager managers director directors officer officers president presidents representative representatives agent agents assistant assistants engineer engineers technician technicians supervisor supervisors specialist specialists administrator administrators coordinator coordinators clerk clerks analyst analysts owner owners buyer buyers accountant accountants planner planners executive executives secretary secretaries receptionist receptionists controller controllers consultant consultants associate associates'.split(' '),
);

/**
 * A title that is a job title: not quoted, its last word a noun of an occupation, every other word a common word
 * ("Purchasing Manager", not "Paperback Writer" in quotes, not "Pedal Haven Outfitters").
 */
function isJobTitle(title: string, quoted: readonly string[], common: Vocabulary): boolean {
  if (quoted.some((q) => q.toLowerCase() === title.toLowerCase())) return false;
  const words = title.split(/\s+/);
  const head = words[words.length - 1]!.toLowerCase();
  if (!JOB_HEADS.has(head)) return false;
  return words.slice(0, -1).every((w) => common.has(w.toLowerCase()) || STOP_WORDS.has(w.toLowerCase()));
}

/** Verbs of naming: the name after one is what someone or something is called. */
const NAMING_VERBS: ReadonlySet<string> = new Set(['called', 'named', 'nicknamed', 'dubbed', 'renamed', 'styled', 'billed']);

/** Nouns that end the name of a venue: a name that ends in one is a place. */
const VENUE_HEADS: ReadonlySet<string> = new Set(['hall', 'arena', 'theatre', 'theater', 'stadium', 'studio', 'studios', 'ballroom', 'auditorium', 'amphitheatre', 'amphitheater', 'cathedral', 'chapel', 'palladium', 'coliseum', 'colosseum', 'bandshell', 'fieldhouse', 'playhouse', 'opry']);

/**
 * Whether the word at `j` qualifies the noun after it ("studio album", "shop window"): then it names no premises.
 */
function modifiesNext(tokens: readonly string[], j: number): boolean {
  const next = tokens[j + 1] ?? '';
  // A noun, not a verb of the sentence ("Berlin venues hosted …").
  return /^\p{Ll}{3,}$/u.test(next) && !STOP_WORDS.has(next) && !/(?:ed|ing)$/.test(next) && irregularBase(next) === null;
}

/** Words that join a second name to a first one of the same kind ("Bath or Reading", "Brooklyn vs Queens"). */
const PLACE_JOINERS: ReadonlySet<string> = new Set(['and', 'or', 'vs', 'versus', '&', ',']);

/** Last words of the name of an event or an award ("… Festival", "… Awards", "… Prize", "… Cup"). */
const EVENT_HEADS: ReadonlySet<string> = new Set('festival festivals fest awards award prize prizes cup championship championships olympics games expo fair conference summit ceremony ceremonies marathon'.split(' '));

/**
 * The character ranges inside quotation marks: a quote that opens after a space or a bracket and closes before a space,
 * a punctuation mark or the end (so the apostrophe of "Williams' Zodiac Suite" opens none).
 */
function quotedSpans(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const m of text.matchAll(/(?<=^|[\s(])(['‘"“])([^'‘’"“”]+?)['’"”](?=$|[\s.,;:!?)])/gu)) out.push([m.index! + 1, m.index! + 1 + m[2]!.length]);
  return out;
}

/** Whether the characters [from, to) lie inside one of `spans` and are not the whole of it (a word of a quoted title). */
function insideQuote(spans: ReadonlyArray<[number, number]>, from: number, to: number): boolean {
  return spans.some(([a, b]) => a <= from && to <= b && (a < from || to < b));
}

/** Last words of the name of a company or an institution ("… Consulting Group", "… Hospital", "… Records", "… Inc"). */
const ORG_HEADS: ReadonlySet<string> = new Set('group hospital university college school bank inc ltd llc plc gmbh corp corporation company co records airlines airways pharma pharmaceuticals insurance partners foundation institute clinic agency bureau club society association federation council ministry department'.split(' '));
/** First words of such a name ("University of Texas", "Bank of America"). */
const ORG_FIRSTS: ReadonlySet<string> = new Set('university bank college institute ministry department'.split(' '));

/** Last words of the name of a street, a district or a feature of the land ("Oxford Street", "Cayman Islands", "Oak Park"). */
const GEO_HEADS: ReadonlySet<string> = new Set('street road avenue boulevard lane square park garden gardens island islands county canal bay valley heights hills airport harbour harbor beach district borough quarter'.split(' '));
/** First words of such a name ("County Cork", "Port Elizabeth", "Mount Pleasant", "Lake Tahoe"). */
const GEO_FIRSTS: ReadonlySet<string> = new Set('county port mount fort lake cape'.split(' '));

/** Nouns of belonging to a group, before `of` or `in`: the name after them is a group's. */
const MEMBERSHIP_NOUNS: ReadonlySet<string> = new Set(['member', 'members', 'membership', 'lineup', 'lineups', 'bandmates', 'bandmate', 'guys']);

/** Verbs of crediting a work to its maker, before `to`. */
const CREDIT_VERBS: ReadonlySet<string> = new Set(['attributed', 'credited', 'ascribed']);

/** The span (without a leading "The") is a place the dictionary knows, or one of its words is an adjective of one. */
function namesPlace(words: readonly string[], common: Vocabulary): boolean {
  const name = (words[0] === 'The' ? words.slice(1) : words).join(' ');
  return common.isPlaceName?.(name) === true || words.some((w) => common.isPlaceAdjective?.(w) === true);
}

/** Lower-case name particles inside a person's name ("Paul di Resta", "Ludwig van Beethoven"). */
const PARTICLES: ReadonlySet<string> = new Set(['di', 'de', 'da', 'del', 'della', 'van', 'von', 'der', 'den', 'la', 'le', 'du', 'bin', 'al', 'dos', 'das']);
const LOCATIVE: ReadonlySet<string> = new Set(['in', 'at', 'near']);
/** Nouns of premises: a name before one says where they are ("the Lethbridge store"), not who made them. */
const PREMISES: ReadonlySet<string> = new Set(
  'shop shops store stores branch branches office offices outlet outlets studio studios venue venues warehouse warehouses plant plants factory factories site sites showroom depot restaurant restaurants hotel hotels campus hospital library'.split(' '),
);
/** After these, a capitalised name of two or three words is where something happens ("at the Royal Albert Hall"). */
const AT_PLACE: ReadonlySet<string> = new Set(['at', 'near']);
/** "the most …", "the fewest …": the rows that follow are counted. */
const COUNTED_AFTER: ReadonlySet<string> = new Set(['most', 'fewest', 'least']);
/** A request that opens with one of these asks for the rows named next ("List the salespeople in …", "show all customers …", "Rank genres by …"). */
const LIST_VERBS: ReadonlySet<string> = new Set(['list', 'show', 'find', 'name', 'give', 'get', 'count', 'rank', 'sort', 'compare']);
/** Words before such a verb that keep it a request ("please list …", "can you show …"). */
const REQUEST_LEADS: ReadonlySet<string> = new Set(['please', 'you', 'me', 'us']);
/** "the number of …", "a count of …". */
const COUNT_NOUNS: ReadonlySet<string> = new Set(['number', 'count', 'numbers']);
/** Words before a count noun that keep it a count ("the total number of orders"), unlike a noun ("the phone number of"). */
const COUNT_MODIFIERS: ReadonlySet<string> = new Set(['total', 'average', 'overall', 'combined', 'exact', 'rough', 'approximate', 'largest', 'smallest', 'highest', 'lowest', 'biggest', 'greatest']);

/** A count of the rows named next starts at this word, given the one before it (lower case): "how many", "number of". */
function countsFrom(word: string, prev: string): boolean {
  return (word === 'many' && prev === 'how') || (word === 'of' && COUNT_NOUNS.has(prev));
}
/** A quote or a joining mark before a word: the word is inside a value or an identifier. */
const QUOTE_OR_JOIN = /^['"‘’“”_-]$/;
const COPULAS: ReadonlySet<string> = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'being']);
const PLACE_PREPOSITIONS: ReadonlySet<string> = new Set(['in', 'from', 'at', 'near', 'of']);
const MOTION_PREPOSITIONS: ReadonlySet<string> = new Set(['to', 'into', 'across', 'around', 'throughout', 'within', 'through', 'toward', 'towards', 'outside', 'inside']);
const CAPITALISED = /^(?:\p{Lu}\p{Ll}+(?:\p{Lu}\p{Ll}+)*(?:-\p{Lu}\p{Ll}*)*|Mc\p{Lu}\p{Ll}+|O'\p{Lu}\p{Ll}+)$/u;

/**
 * Capitalised spans that are not ordinary English words: two or more such words are a person's name ("Lewis
 * Hamilton"; a possessive also counts), and a span after `in`/`from`/`at` is a place ("in Pisek"). A word that
 * starts a sentence only counts when it is not a common word. English orthography, nothing about any schema.
 */
export function findMentions(text: string, common: Vocabulary): Mention[] {
  const out: Mention[] = [];
  // A hyphen between letters joins one word ("Sci-Fi", "Jay-Z"): its parts name nothing alone.
  const matches = [...text.matchAll(/[\p{L}][\p{L}\p{N}]*(?:['’][\p{L}\p{N}]+)*(?:-\p{L}+)*|[^\s\p{L}]/gu)];
  const tokens = matches.map((m) => m[0]);
  const quotes = quotedSpans(text);
  const unknown = (w: string): boolean => !common.has(w.toLowerCase().replace(/['’]s$/, ''));
  const placeAdjective = (w: string): boolean => common.isPlaceAdjective?.(w) === true;
  const personName = (w: string): boolean => common.isPersonName?.(w) === true;
  // A rarer word the dictionary still defines ("Cyrillic", "Helmet", "Rumours"): not in the common vocabulary, but no name.
  const hasSenses = (w: string): boolean => (common.concepts?.(w.toLowerCase().replace(/['’]s$/, '')).length ?? 0) > 0;
  // "the producer on Nevermind", "who played on Nevermind": what someone was credited on is a work.
  const roleBefore = (t: string): boolean => {
    const w = t.toLowerCase();
    return common.isRole?.(w) === true || roleVerb(w);
  };
  // A verb of naming is no role ("a bass player called Marisol Quintero" names her).
  const roleVerb = (w: string): boolean => pastTense(w) && !NAMING_VERBS.has(w) && common.isRoleVerb?.(w) === true;
  // Where the last place read ends (the token after it), for a name joined to it.
  let placeEnd = -1;
  let i = 0;
  while (i < tokens.length) {
    const found = out.length;
    const startsSentence = i === 0 || /^[.?!:;"“(]$/.test(tokens[i - 1]!);
    const first = tokens[i]!.replace(/['’]s$/, '');
    // A name written in capitals or with digits owns what follows it ("U2's", "ABBA's"): someone, not a place.
    if (/^\p{Lu}[\p{Lu}\p{N}]+['’]s$/u.test(tokens[i]!) && /\p{Lu}.*\p{Lu}|\p{N}/u.test(first) && !namesPlace([first], common)) {
      out.push({ kind: 'person', text: first, maker: true });
      i++;
      continue;
    }
    // A sentence starts with a capital: there a known word or a function word ("Which German cities") begins no name.
    // …unless the next word is title-case too: then the capital is the name's ("Ken Sánchez pay history").
    const nameFirst = startsSentence && nameAtStart(tokens, i);
    if (!CAPITALISED.test(first) || (startsSentence && !nameFirst && ((!unknown(first) && !placeAdjective(first)) || STOP_WORDS.has(first.toLowerCase())))) {
      i++;
      continue;
    }
    const words = [first];
    const particles: string[] = [];
    let possessive = /['’]s$/.test(tokens[i]!);
    let j = i + 1;
    while (!possessive && j < tokens.length) {
      const t = tokens[j]!;
      // A middle initial ("Mark E. Smith", "Booker T. Jones") is a word of the name, its full stop no sentence end.
      if (/^\p{Lu}$/u.test(t) && tokens[j + 1] === '.' && CAPITALISED.test((tokens[j + 2] ?? '').replace(/['’]s$/, ''))) {
        words.push(`${t}.`);
        j += 2;
        continue;
      }
      const bare = t.replace(/['’]s$/, '');
      if (PARTICLES.has(t) && j + 1 < tokens.length && CAPITALISED.test(tokens[j + 1]!.replace(/['’]s$/, ''))) {
        particles.push(t);
        j++;
        continue;
      }
      if (!CAPITALISED.test(bare)) break;
      words.push(bare);
      possessive = /['’]s$/.test(t);
      j++;
    }
    // "in the Netherlands": the article between the preposition and the name does not end the place.
    const prev = i > 0 ? tokens[i - 1]!.toLowerCase() : '';
    const before = prev === 'the' && i > 1 && PLACE_PREPOSITIONS.has(tokens[i - 2]!.toLowerCase()) ? tokens[i - 2]!.toLowerCase() : prev;
    const spanText = tokens.slice(i, j).join(' ').replace(/ \./g, '.').replace(/['’]s$/, '');
    // The whole name as a place the dictionary knows ("Los Angeles", "Buenos Aires").
    const knownPlace = common.isPlaceName?.(spanText) === true;
    const last = words[words.length - 1]!;
    // "the city of Pisek", "the province of Ontario": a noun of places before `of`.
    const ofAt = prev === 'of' ? i - 2 : prev === 'the' && tokens[i - 2]?.toLowerCase() === 'of' ? i - 3 : -1;
    const placeBeforeOf = ofAt >= 0 && common.isPlace?.(tokens[ofAt]!.toLowerCase()) === true;
    // Every word of a person's name is unknown to the common vocabulary; a possessive lets a common first name in.
    // Mid-sentence, capitals alone mark a name, so a common first name counts too ("for Ken Sánchez").
    const midSentence = (!startsSentence || nameFirst) && !PLACE_PREPOSITIONS.has(before);
    // The name of a well-known person is English too ("Taylor Swift", "Quincy Jones"): it counts as a name's word.
    // After in/from/at/near/of, the places' rule below decides ("in North Carolina").
    // After a capitalised article ("The Joshua Tree"), only unknown words make a band's name; English words, a title.
    const article = words[0] === 'The' && !startsSentence;
    const nameWord = (w: string): boolean => unknown(w) || ((midSentence || possessive) && !article && personName(w));
    const nameLike = words.slice(1).every(nameWord) && (possessive || midSentence || nameWord(words[0]!));
    // "German labels", "South Korean artists", "which artists are Canadian": an adjective of a named place, before a
    // noun or after a copula, asks for things in that place; as a noun it is more often a language ("songs in
    // English", "where Chinese is spoken").
    const next = tokens[j]?.toLowerCase() ?? '';
    const attributive = (/^\p{L}/u.test(next) && !STOP_WORDS.has(next)) || COPULAS.has(prev);
    // Before or after words about language and text ("Spanish lyrics", "whose language is Japanese"), a language.
    // "French and Chinese catalogue blurbs": an adjective joined to another one shares the words after it.
    const joined = (tokens[j] === 'and' || tokens[j] === 'or') && common.isLanguageAdjective?.(tokens[j + 1] ?? '') === true ? 2 : 0;
    const after = tokens.slice(j + joined, j + joined + 2).map((t) => t.toLowerCase());
    // So is one after "in" that ends its phrase ("words sung in Welsh?", "titles in Japanese and English"), as
    // speaksLanguage reads it: a place's adjective there stands for no noun.
    const endsPhrase = !/^\p{L}/u.test(next) || STOP_WORDS.has(next);
    const aboutLanguage = common.isLanguageAdjective?.(last) === true && (after.some((t) => LANGUAGE_CONTEXT.has(t)) || (COPULAS.has(prev) && LANGUAGE_CONTEXT.has(tokens[i - 2]?.toLowerCase() ?? '')) || (prev === 'in' && words.length === 1 && endsPhrase));
    if (aboutLanguage) {
      // a word of the question, not a place
    } else if (insideQuote(quotes, matches[i]!.index!, matches[j - 1]!.index! + tokens[j - 1]!.length)) {
      // A word of a quoted title ("'Dusty in Memphis'", "'Journey in Satchidananda'"): the title's, not a place.
    } else if (i > 0 && /^\p{Lu}{2,3}$/u.test(tokens[i - 1]!) && !namesPlace([tokens[i - 1]!], common) && common.isPlaceName?.(tokens[i - 1]!) !== true && !possessive) {
      // A name after a grade or size code in capitals ("HL Crankarm", "LL Bottom Brackets", "ML Headset") is a
      // product's: no person and no place.
    } else if (placeEnd === i - 1 && i >= 2 && PLACE_JOINERS.has(prev) && words.length <= 3 && !possessive && (words.every(unknown) || knownPlace)) {
      // A name joined to a place just read ("in Bath or Reading", "Brooklyn vs Queens"): a place too.
      out.push({ kind: 'place', text: spanText });
    } else if (words.length >= 2 && EVENT_HEADS.has(last.toLowerCase())) {
      // The name of an event or an award ("Roskilde Festival", "the Grammy Awards", "Polaris Music Prize"): no place
      // and no one, whatever its first words name; the thesaurus reads its last word as the kind of thing it is.
    } else if (words.length >= 2 && (ORG_HEADS.has(last.toLowerCase()) || ORG_FIRSTS.has(words[0]!.toLowerCase())) && !VENUE_HEADS.has(last.toLowerCase())) {
      // The name of a company or an institution ("Boston Consulting Group", "Johns Hopkins Hospital", "University of
      // Texas"): no place, whatever place its words name.
    } else if (!possessive && words.every(unknown) && /^(?:1[5-9]|20)\d\d$/.test(tokens.slice(j, j + 4).join('')) && !/^\d$/.test(tokens[j + 4] ?? '')) {
      // A name the dictionary does not know with a year after it ("Glastonbury 2017", "Coachella 2019") names one
      // occurrence of something (a festival, an edition, a season), not a person or a place: it is left to the
      // titles. A known place stays a place ("gigs in Berlin 2019").
    } else if (words.length <= 3 && !possessive && placeAdjective(last) && attributive) out.push({ kind: 'place', text: spanText, adjective: true });
    // A name that ends in a noun of a venue ("the Royal Festival Hall", "Maida Vale Studios", "Muscle Shoals Sound
    // Studio") is a place, wherever it stands; not the maker after "by".
    else if (words.length >= 2 && words.length <= 5 && !possessive && VENUE_HEADS.has(last.toLowerCase()) && before !== 'by') out.push({ kind: 'place', text: spanText });
    // A name before a noun of premises ("the Lethbridge shop", "our Nashville studio") is where those premises are.
    else if (words.length <= 3 && !possessive && !article && (words.every(unknown) || namesPlace(words, common)) && PREMISES.has(tokens[j] ?? '') && !modifiesNext(tokens, j)) out.push({ kind: 'place', text: spanText });
    // "studios in Los Angeles": after `in`, `at` or `near`, unknown capitalised words are a place, not a person; after
    // `at` or `near`, English words too ("gigs at the Royal Albert Hall", "recorded at Abbey Road Studios").
    // A capitalised article inside a sentence opens the name of a band or a work ("in The Who"), not a place.
    else if (!article && LOCATIVE.has(before) && words.length >= 2 && words.length <= 3 && (words.every(unknown) || AT_PLACE.has(before)) && particles.length === 0) out.push({ kind: 'place', text: spanText });
    // What has members ("the members of Red Velvet", "who was in the lineup of Led Zeppelin") is a group: someone.
    else if (words.length <= 4 && particles.length <= 1 && !possessive && (prev === 'of' || prev === 'in' || (prev === 'the' && /^(?:of|in)$/.test(tokens[i - 2]?.toLowerCase() ?? ''))) && MEMBERSHIP_NOUNS.has(tokens[prev === 'the' ? i - 3 : i - 2]?.toLowerCase() ?? '') && !namesPlace(words, common)) out.push({ kind: 'person', text: spanText, maker: true });
    // A name quoted whole ("the song 'La Bamba'", "'Les Misérables' cast albums") is a title; not after "by", where
    // the maker stands ("songs by 'Sonic Youth'").
    else if (/^['"‘“]$/.test(tokens[i - 1] ?? '') && /^['"’”]$/.test(tokens[j] ?? '') && !possessive && tokens[i - 2]?.toLowerCase() !== 'by') {
      // a title
    }
    // What a name owns ("Jorge Ben Jor's África Brasil"), what someone was credited for by the verb of a role ("who
    // produced Nevermind", "who mixed Dots and Loops") and what a role was played on ("the producer on Nevermind") are
    // works: titles, not people.
    else if (!possessive && !article && (/^\p{Lu}.*['’]s$/u.test(tokens[i - 1] ?? '') || roleVerb(prev) || (prev === 'on' && roleBefore(tokens[i - 2] ?? ''))) && !words.some((w) => personName(w))) {
      // a title
    }
    // A name that ends in a noun of a street, a district or a feature of the land, or opens with one ("Oxford Street",
    // "the Cayman Islands", "County Cork"), is a place; not what someone played or sang on, a work even when named like
    // a road ("who played drums on Abbey Road").
    else if (words.length >= 2 && words.length <= 5 && !possessive && (GEO_HEADS.has(last.toLowerCase()) || GEO_FIRSTS.has(words[0]!.toLowerCase())) && before !== 'by' && !(prev === 'on' && tokens.slice(Math.max(0, i - 4), i - 1).some((t) => roleVerb(t.toLowerCase()) || roleBefore(t)))) out.push({ kind: 'place', text: spanText });
    // A name of several words the dictionary knows as a place's ("Los Angeles", "Salt Lake City", "Buenos Aires") is
    // that place wherever it stands; not the maker after "by".
    else if (words.length >= 2 && !possessive && before !== 'by' && knownPlace) out.push({ kind: 'place', text: spanText });
    else if (words.length >= 2 && words.length <= 4 && particles.length <= 2 && nameLike && !((PLACE_PREPOSITIONS.has(before) || MOTION_PREPOSITIONS.has(before)) && (namesPlace(words, common) || knownPlace))) out.push({ kind: 'person', text: spanText });
    // One unknown name in the possessive ("Radiohead's", "Björk's") owns something: a person or a group, not a place.
    else if (words.length === 1 && possessive && unknown(first) && !STOP_WORDS.has(first.toLowerCase())) out.push({ kind: 'person', text: spanText });
    // One unknown name that did something ("what Radiohead played", "songs Prince wrote"): someone, not a place.
    // Not after a noun of places: "the city Kabul located in" names a place.
    else if (words.length === 1 && midSentence && unknown(first) && pastTense(tokens[j] ?? '') && common.isPlace?.(prev) !== true) out.push({ kind: 'person', text: spanText });
    // So is a name of common words after "the" ("where the Supremes recorded", "what the Eagles played").
    else if (words.length <= 3 && midSentence && prev === 'the' && !possessive && particles.length === 0 && pastTense(tokens[j] ?? '') && !namesPlace(words, common)) out.push({ kind: 'person', text: spanText });
    // A name in the place of someone who makes or owns things is a person or a group, whatever its words mean: the
    // owner of a possessive ("Queen's recording", "The Clash's Sandinista!"), the maker after `by` ("Blue Monday by
    // New Order"), a name before the plural of what it made ("Shakira songs", "Beatles albums"), the subject of a
    // question's auxiliary ("does Pearl Jam have"). A place the dictionary knows stays out ("London's venues").
    else if (words.length <= 4 && particles.length === 0 && makerFrame(tokens, i, j, possessive, !startsSentence, words.some(nameWord)) && !namesPlace(words, common)) out.push({ kind: 'person', text: spanText, maker: true });
    // One name the dictionary knows only as a well-known person's ("aliases for Mozart", "symphonies of Beethoven"),
    // not as a place or an English word: someone.
    else if (words.length === 1 && !startsSentence && unknown(first) && personName(first) && !namesPlace(words, common)) out.push({ kind: 'person', text: spanText });
    // After `of`, a name is more often the work or group something belongs to ("pressings of Dark Side of the Moon",
    // "side B of the Rumours vinyl"): only after a noun of places ("the city of Pisek") is an unknown name a place.
    // A word the dictionary defines but not as a place ("names in Cyrillic", "sales in Helmets") is none either.
    else if (!article && PLACE_PREPOSITIONS.has(before) && (before !== 'of' || placeBeforeOf) && words.length <= 3 && ((unknown(last) && (!hasSenses(last) || namesPlace(words, common) || common.isPlaceName?.(last) === true)) || knownPlace || (words.length > 1 && common.isFirstPlace !== undefined ? common.isFirstPlace(last.toLowerCase()) : common.isPlace?.(last)) === true)) out.push({ kind: 'place', text: spanText });
    // "going to Nashville", "touring across Europe", "artists of Iceland": after a preposition of motion or extent, or
    // after `of`, only a name the dictionary knows as a place is one ("credited to Prince" names someone).
    else if (!article && (MOTION_PREPOSITIONS.has(before) || before === 'of') && words.length <= 3 && !possessive && (namesPlace(words, common) && (words.length === 1 || !placeAdjective(words[0]!) || knownPlace))) out.push({ kind: 'place', text: spanText });
    // Any other one name the dictionary does not know, written like a name inside a sentence ("tags Björk", "tags on
    // Metalica"), and does not define either ("with Cyrillic script", "the Sport-100 Helmet"), is someone's (a person
    // or a group): not a quoted value, not after a copula ("district is Tabor"), not a piece of an identifier
    // (`Student_Club`, `Max(time)`). The tables of people hold such names more often than a
    // title does, and a name the catalog holds as a value or a word is dropped as a maker's is. What someone owns
    // ("Björk's Homogenic") is their work, a title.
    else if (words.length === 1 && /^\p{Lu}\p{Ll}{2,}$/u.test(first) && midSentence && !possessive && unknown(first) && !hasSenses(first) && !COPULAS.has(prev) && !/['’]s$/.test(prev) && !QUOTE_OR_JOIN.test(tokens[i - 1] ?? '') && !/^['"‘’“”_(-]$/.test(tokens[j] ?? '') && !namesPlace(words, common)) out.push({ kind: 'person', text: spanText, maker: true });
    if (out.length > found && out[out.length - 1]!.kind === 'place') placeEnd = j;
    i = j;
  }
  return out;
}
