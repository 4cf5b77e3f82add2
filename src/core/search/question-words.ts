/**
 * The question's words and the catalog's vocabulary as the ranking reads them: the question made ready (negated words,
 * words for the catalog's own structure, names the catalog holds), classes of words (framing words, quantifiers, verb
 * forms, units, words of time and number, words that may be labels), where a word stands and what is beside it, the
 * senses and thesaurus synonyms a word brings, place levels, and whether the catalog writes a word.
 */
import { cachedConcepts, cachedTerms, nameDocs, valueKey, type DocData, type IndexData } from './build';
import { isThesaurusConcept, lemmaCandidates } from './lexicon';
import { CALENDAR_NAMES, type Mention, type ParsedQuery, type QueryTerm } from './query';
import { LABEL_GROUPS, THESAURUS } from './thesaurus';
import { isIrregularVerbForm, stem } from './tokenize';
import { RANKING } from './ranking';

/**
 * A negated word the catalog does not hold ("inactive", "unpaid", "non-returned") is looked up as the word it negates
 * when the catalog holds that one (`active`, `paid`): the column that says yes or no answers both.
 */
export function withNegatedTerms(data: IndexData, parsed: ParsedQuery): ParsedQuery {
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
export function withoutStructureWords(data: IndexData, text: string): string {
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
export function withoutCatalogNames(data: IndexData, parsed: ParsedQuery): ParsedQuery {
  const own = (m: Mention): boolean =>
    (m.adjective === true || m.maker === true) && (data.values.has(valueKey(m.text)) || (m.maker === true && !/\s/.test(m.text) && isCatalogTerm(data, m.text)));
  return parsed.mentions.some(own) ? { ...parsed, mentions: parsed.mentions.filter((m) => !own(m)) } : parsed;
}

/** Per thesaurus group, the stem of its first word where it is a label group (LABEL_GROUPS), else null. */
const LABEL_HEADS: readonly (string | null)[] = THESAURUS.map((group) => (LABEL_GROUPS.has(group[0]!) ? stem(group[0]!) : null));

/** The stem of a label group's first word when `term` is another member of that group (LABEL_GROUPS), else null. */
export function labelGroupHead(concept: string, term: string): string | null {
  if (!isThesaurusConcept(concept)) return null;
  const head = LABEL_HEADS[Number(concept.slice(1))] ?? null;
  return head === term ? null : head;
}

/** Words a table of places at the level of the named place is named with, or null when the level is unknown. */
const LEVEL_WORDS: Readonly<Record<string, readonly string[]>> = { state: ['state', 'province'], country: ['country', 'nation'], city: ['city', 'town'] };
/** Nouns of the levels places are divided into. */
export const PLACE_LEVEL_NOUNS: ReadonlySet<string> = new Set(['state', 'province', 'country', 'nation', 'city', 'town', 'village', 'county', 'region', 'continent', 'island', 'district', 'municipality', 'suburb', 'neighborhood', 'neighbourhood']);
export function levelWords(data: IndexData, name: string): ReadonlySet<string> | null {
  const levels = data.lexicon.placeLevels(name);
  return levels.length === 0 ? null : new Set(levels.flatMap((l) => LEVEL_WORDS[l] ?? [l]));
}

/** The question's first name of a person or a place (the catalog's own names are already left out: withoutCatalogNames). */
export function namedMention(parsed: ParsedQuery, kind: Mention['kind']): Mention | undefined {
  return parsed.mentions.find((m) => m.kind === kind);
}

/** Tables whose columns isNameTerm reads at most; a word in more tables than that counts as named. */
const NAME_TERM_TABLES = 64;

/**
 * Whether a term (stemmed) is a word of some table's name: whether nameDocs lists a table for it (a persisted frame
 * carries the lists, so a first question at 10,000 tables unpacks no table's words to tell).
 */
export function inTableName(data: IndexData, term: string): boolean {
  return nameDocs(data, term).length > 0;
}

/**
 * Whether a table or a column is named with the word (its stem), not only a comment or a value: "which actors" has
 * `actor`, where "which design engineers" has only a comment that mentions engineers. Only the tables the word's
 * postings hold are looked at, and the columns of a bounded number of them (a lazily read catalog reads those tables).
 */
export function isNameTerm(data: IndexData, word: string): boolean {
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
export function isCatalogTerm(data: IndexData, word: string): boolean {
  const id = data.postings.termIds.get(stem(word.toLowerCase()));
  return id !== undefined && data.postings.start[id + 1]! > data.postings.start[id]!;
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
export function sameForms(probe: string, value: string): boolean {
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
 * The catalog word a question word is made on (catalogPrefix), when it is read so: not a word of a name, a piece, a
 * phrasal verb or a word read as run-together pieces ("salespeople"), which are read by those.
 */
export function prefixBase(data: IndexData, parsed: ParsedQuery, qt: ParsedQuery['terms'][number]): string | null {
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
export function besides(parsed: ParsedQuery, qt: QueryTerm): ReadonlySet<string> {
  const at = qt.position;
  if (at === undefined) return NO_WORDS;
  return new Set(parsed.terms.filter((t) => t.implied !== true && !t.phrasal && t.position !== undefined && Math.abs(t.position - at) === 1).map((t) => t.term));
}

/** The question's own word (not implied, not a phrasal verb) at a position, if there is one. */
export function termAt(parsed: ParsedQuery, position: number): ParsedQuery['terms'][number] | undefined {
  return parsed.terms.find((t) => t.position === position && !t.implied && !t.phrasal);
}

/** Where the question writes the word `surface` itself (not implied, not a phrasal verb), if it does. */
export function positionOf(parsed: ParsedQuery, surface: string): number | undefined {
  return parsed.terms.find((t) => t.surface === surface && !t.implied && !t.phrasal)?.position;
}

/** The question's word right behind the word written `surface` (no punctuation between), if there is one. */
export function termAfter(parsed: ParsedQuery, surface: string): ParsedQuery['terms'][number] | undefined {
  const at = positionOf(parsed, surface);
  return at === undefined ? undefined : termAt(parsed, at + 1);
}

/**
 * The dictionary concepts a question word brings: none for a word of a name ("Kind of Blue", "Abbey Road": only its
 * letters may match), a piece of a run-together word, or a word that frames the request ("can you help").
 */
export function wordConcepts(data: IndexData, parsed: ParsedQuery, t: ParsedQuery['terms'][number]): readonly string[] {
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
export function literalWords(parsed: ParsedQuery): ReadonlySet<string> {
  if (!(RANKING.quotedLiteral > 0) || parsed.quoted.length === 0) return NO_WORDS;
  const titles = new Set(parsed.titles.map((t) => t.toLowerCase()));
  return new Set(parsed.quoted.filter((q) => !titles.has(q)).flatMap((q) => q.split(/[^\p{L}\p{N}]+/u)));
}
export const NO_WORDS: ReadonlySet<string> = new Set();

/**
 * A question word that the catalog does not write (no posting) may mean one of its rarer senses: "flicks" are films, a
 * "gig" is an engagement. Not a word of a name, a piece of a run-together word, a phrasal verb or a framing word.
 */
export function laterSenses(data: IndexData, parsed: ParsedQuery, t: ParsedQuery['terms'][number]): readonly string[] {
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
export function thesaurusConcepts(data: IndexData, word: string): Set<string> {
  return new Set(cachedConcepts(data.conceptCache, data.lexicon, word).filter(isThesaurusConcept));
}

/** Whether each word of the table's name is the noun (its stem `term`) or a thesaurus synonym of it. */
export function namedByNoun(data: IndexData, doc: DocData, term: string, synonyms: ReadonlySet<string>): boolean {
  return doc.nameStems.every((w, k) => w === term || cachedConcepts(data.conceptCache, data.lexicon, doc.nameWords[k]!).some((c) => synonyms.has(c)));
}

/** Whether the word (any of its candidate lemmas: `trying` → `try`) frames the request. */
export function isFraming(word: string): boolean {
  return lemmaCandidates(word).some((w) => FRAMING_WORDS.has(w));
}

/** Words that ask for a count or a listing, or qualify which rows count ("distinct artists"): never a stored value. */
const QUANTIFIERS: ReadonlySet<string> = new Set(
  'count number list show find give get distinct different unique total average overall new top best worst most least many much more fewer each every other same various specific particular certain several whole entire main first last latest recent current highest lowest biggest largest smallest longest shortest'.split(' '),
);

/** Words of the closed classes that the stop words leave in a question: prepositions and conjunctions of time, pronouns. */
const FUNCTION_WORDS: ReadonlySet<string> = new Set('during after before until till while us u myself yourself himself herself itself ourselves yourselves themselves'.split(' '));

/** A regular form of a verb in -ed or -ing, or an irregular one ("bought", "came"): what happened to rows, not their kind. */
export function isVerbForm(word: string): boolean {
  return /^.{3,}(?:ed|ing)$/.test(word) || (RANKING.irregularVerbs > 0 && isIrregularVerbForm(word));
}

/** Units of weight, length and volume: the labels of a list of units, not a kind of thing. */
export const MEASURE_UNITS: ReadonlySet<string> = new Set('ounce ounces pound pounds lb lbs kilo kilos kilogram kilograms kg gram grams inch inches foot feet meter meters metre metres centimeter centimeters centimetre centimetres millimeter millimeters millimetre millimetres mile miles kilometer kilometers kilometre kilometres liter liters litre litres gallon gallons'.split(' '));

/** Months, days of the week and the weekend. */
export const CALENDAR_WORDS: ReadonlySet<string> = new Set([...CALENDAR_NAMES, 'weekend', 'weekends']);

/** Words of when, not of what: never a label of a code list. */
export const TIME_WORDS: ReadonlySet<string> = new Set('now today tonight yesterday tomorrow currently presently nowadays ever yet still anymore lately recently soon'.split(' '));

/**
 * Past forms of irregular verbs that are no participle ("came", "wrote", "went"): what happened, never a state a row
 * is labelled with (participles can be: "sold", "lost", "broken").
 */
const PAST_FORMS: ReadonlySet<string> = new Set('came went wrote gave took ran sang began chose drove flew grew knew rode ate forgot hid broke spoke stole became got sat stood told met did said swam threw wore tore drew shook fell'.split(' '));

/** Cardinal numbers written as words: how many rows, not which. */
const NUMBER_WORDS: ReadonlySet<string> = new Set('one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand thousands million millions'.split(' '));

/** Units of time and proportions: what a question measures rows by ("per quarter", "in minutes", "the ratio of"). */
export const UNIT_WORDS: ReadonlySet<string> = new Set('second seconds minute minutes hour hours day days week weeks month months quarter quarters year years decade decades century centuries half halves ratio ratios percentage percentages percent proportion proportions share'.split(' '));

/**
 * Whether a word could be a label a code list holds: not a function word, nor a word the dictionary knows only as a
 * verb or an adverb ("what happens to", "I remember", "never"), nor a unit of time or a proportion, nor (labelForms) a
 * number word or an irregular verb's past form ("two", "came"). Names and codes the dictionary does not know can be.
 */
export function isLabelWord(data: IndexData, word: string): boolean {
  if (RANKING.labelForms > 0 && (NUMBER_WORDS.has(word) || PAST_FORMS.has(word))) return false;
  return !FUNCTION_WORDS.has(word) && !UNIT_WORDS.has(word) && !data.lexicon.isNotNominal(word);
}

/**
 * A word that measures or picks rows rather than naming a stored label: a quantifier, or the superlative of a known
 * word that is no word of its own (`busiest` of busy, `biggest` of big; not `interest` or `forest`).
 */
export function isMeasureWord(data: IndexData, word: string): boolean {
  if (QUANTIFIERS.has(word)) return true;
  if (!/^[a-z]{3,}est$/.test(word) || data.lexicon.has(word)) return false;
  const base = word.slice(0, -3);
  const bases = [base, `${base}e`];
  if (base.at(-1) === base.at(-2)) bases.push(base.slice(0, -1)); // big → biggest
  if (base.endsWith('i')) bases.push(`${base.slice(0, -1)}y`); // busy → busiest
  return bases.some((b) => b.length >= 2 && data.lexicon.has(b));
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
export function producedWhole(data: IndexData, parsed: ParsedQuery): boolean {
  if (!parsed.terms.some((t) => !t.part && PRODUCTION_WORDS.has(t.surface))) return false;
  return parsed.asksPerson || (parsed.focus.length > 0 && parsed.focus.every((w) => PRODUCTION_WORDS.has(w) || data.lexicon.isRole(w)));
}

/**
 * Words for belonging to a group of people ("members of groups", "the band's lineup", "when did he quit"): a relationship of people to
 * people, unless a table is named for it (a column such as `member_since` says nothing of who belongs with whom).
 */
export const MEMBERSHIP_WORDS: ReadonlySet<string> = new Set(['member', 'members', 'membership', 'memberships', 'lineup', 'lineups', 'bandmate', 'bandmates', 'quit', 'quits']);

/** Words whose dictionary concepts are those of playing or singing music (`instrumentalist`: a player of an instrument). */
const PERFORMING_WORDS: readonly string[] = ['instrumentalist', 'percussionist', 'sing', 'play'];
const performingMemo = new WeakMap<IndexData, Set<string>>();

/**
 * Whether a role word is one of playing or singing ("played", "drummer", "sang", "guitarist"): the relationships of
 * such a role are qualified by what was played and how (an instrument, a guest part); producing, engineering or
 * conducting are not.
 */
export function isPerforming(data: IndexData, word: string): boolean {
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
export function namesTable(data: IndexData, word: string): boolean {
  return hasSynonym(data, word, synonymNamesMemo, (w) => inTableName(data, stem(w)));
}

const synonymHeldMemo = new WeakMap<IndexData, Map<string, boolean>>();

/** Whether a thesaurus synonym of the word is a word of the catalog (`basket`: a `cart`, `colour`: a `color`): the word is explained. */
export function synonymHeld(data: IndexData, word: string): boolean {
  return hasSynonym(data, word, synonymHeldMemo, (w) => isCatalogTerm(data, w));
}
