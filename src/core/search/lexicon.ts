/**
 * The lexical knowledge retrieval uses beyond the catalog itself: a vocabulary of common English words (to split
 * run-together identifiers) and concept ids per word from WordNet 3.1 (synsets, direct hypernyms, derivationally
 * related nouns; see scripts/build-wordnet.mjs) plus a small data-modelling thesaurus. Two words that share a
 * concept are related; the ranker gives such matches a lower weight than literal ones.
 */
import { WORDNET_ARTIFACTS, WORDNET_CONCEPTS, WORDNET_LANGUAGE_ADJECTIVES, WORDNET_LANGUAGE_NAMES, WORDNET_LATER_SENSES, WORDNET_NOT_NOMINAL, WORDNET_PERSON_ADJECTIVES, WORDNET_PERSON_NAMES, WORDNET_PERSONS, WORDNET_PERSONS_LATER, WORDNET_PLACE_ADJECTIVES, WORDNET_PLACE_LEVELS, WORDNET_PLACE_NAMES, WORDNET_PLACES, WORDNET_PLACES_LATER, WORDNET_ROLE_NOUNS, WORDNET_ROLE_VERBS, WORDNET_WORDS } from './data/wordnet-data';
import { THESAURUS } from './thesaurus';
import { irregularBase, type Vocabulary } from './tokenize';

export interface Lexicon extends Vocabulary {
  /** Concept ids of a surface word (lemmatised here), empty when unknown. */
  concepts(word: string): readonly string[];
  /**
   * Concept ids of a noun's rarer senses (lemmatised), beyond those `concepts` gives: `flicks` → the movie sense that
   * `film` keeps. For a question word the catalog does not write, whose usual senses may not be what it means here.
   */
  laterConcepts(word: string): readonly string[];
  /** The lemma under which a surface word is known, e.g. `countries` → `country`. */
  lemma(word: string): string;
  /** True when the word (lemmatised) is a common noun for a kind of person: `drivers`, `member`, `author`. */
  isPerson(word: string): boolean;
  /** True when the word's (lemmatised) first sense is a kind of person: `salesperson`, `employee`, not `date`. */
  isFirstPerson(word: string): boolean;
  /** True when the word (lemmatised) names a person by a role: `producers`, `drummer`, `lyricist`, not `member`. */
  isRole(word: string): boolean;
  /** True for a form of the verb of a role (lemmatised): `produced`, `composed`, `wrote`. */
  isRoleVerb(word: string): boolean;
  /** True when the word (lemmatised) is a common noun for a kind of place: `district`, `cities`, `region`. */
  isPlace(word: string): boolean;
  /** True when the word's (lemmatised) first sense is a kind of place: `city`, `area`, not `medium`. */
  isFirstPlace(word: string): boolean;
  /** True when the word is the plain or -s form of a lemma known only as a verb or an adverb: `belongs`, `remember`, `often`; not `expired`. */
  isNotNominal(word: string): boolean;
  /** True for the name of a language that is no place adjective: `Hebrew`, `Arabic`, `Swahili`. */
  isLanguageName(word: string): boolean;
  /** True for a person noun that is an adjective in use too, as written: `official`, `major`, `native`. */
  isPersonAdjective(word: string): boolean;
  /** True when the word is an adjective of a named place: `German`, `Icelandic`, `Texan`. */
  isPlaceAdjective(word: string): boolean;
  /** True when the word is an adjective of a named place that also names a language: `French`, `Japanese`. */
  isLanguageAdjective(word: string): boolean;
  /** True when the word is the name of a well-known person: `Swift`, `Jones`. */
  isPersonName(word: string): boolean;
  /** True when the words name a place the dictionary knows: `London`, `New Orleans`, `Iceland`. */
  isPlaceName(name: string): boolean;
  /** True when the word's (lemmatised) first or second sense is a man-made thing: `helmets`, `bottle`, `tires`. */
  isArtifact(word: string): boolean;
  /**
   * The levels of a place the dictionary knows by name (`California` → state, `Canada` → country, `Tokyo` → city;
   * also county, region, continent, island, district), empty when it knows none.
   */
  placeLevels(name: string): readonly string[];
}

// The two helpers of lemmaCandidates are module functions, not closures: the bundles keep function names, which costs
// a property definition each time a closure is made, and lemmaCandidates runs for every word of every identifier.

// A doubled consonant is undone only where there is one: `running` → `run`, but `pending` is not `pen`.
function doubled(w: string, stemEnd: number): boolean {
  return w[stemEnd - 1] === w[stemEnd - 2];
}

// A one-syllable verb ending in one vowel and one consonant doubles it before -ed and -ing (`rat` → `ratted`): so
// `rated` and `rating` come from `rate`, not `rat`, and `hoped` from `hope`.
function undoubled(stem: string): boolean {
  return !/^[^aeiouy]*[aeiou][^aeiouwxy]$/.test(stem);
}

/** Candidate lemmas of an inflected English word, most likely first. */
export function lemmaCandidates(word: string): string[] {
  const w = word.toLowerCase();
  // A phrasal verb inflects its verb: `brought_back` → `bring_back`.
  const joint = w.indexOf('_');
  if (joint > 0) return lemmaCandidates(w.slice(0, joint)).map((c) => c + w.slice(joint));
  const out = [w];
  const base = irregularBase(w);
  if (base !== null) out.push(base);
  if (w.endsWith('ies') && w.length > 4) out.push(w.slice(0, -3) + 'y');
  if (/(sses|ches|shes|xes|zzes)$/.test(w)) out.push(w.slice(0, -2));
  if (w.endsWith('s') && !w.endsWith('ss')) out.push(w.slice(0, -1));
  if (w.endsWith('ing') && w.length > 5) {
    if (undoubled(w.slice(0, -3))) out.push(w.slice(0, -3));
    out.push(w.slice(0, -3) + 'e');
    if (doubled(w, w.length - 3)) out.push(w.slice(0, -4));
  }
  if (w.endsWith('ied') && w.length > 4) out.push(w.slice(0, -3) + 'y');
  if (w.endsWith('ed') && w.length > 4) {
    if (undoubled(w.slice(0, -2))) out.push(w.slice(0, -2));
    out.push(w.slice(0, -1));
    if (doubled(w, w.length - 2)) out.push(w.slice(0, -3));
  }
  return out;
}

const EXTRA_WORDS =
  'id ids sales orders header detail details history type types status code codes date dates time name names ' +
  'number email phone address city country state province region postal zip customer vendor product category ' +
  'subcategory person employee department shift territory currency rate store inventory location culture ' +
  'document photo model illustration review reason offer special cart item items line lines price cost list ' +
  'business entity contact password account login user users role roles group groups tag tags log logs event ' +
  'audit config setting settings meta data metadata value values key keys total count amount quantity unit ' +
  'measure weight size color colour description title first last middle birth hire hired modified created ' +
  'updated deleted start end begin finish job candidate pay rate salary vacation sick leave hours order ' +
  'purchase ship method freight tax sub due credit card approval shopping bill material materials transaction ' +
  'archive scrap work routing plan planned actual resume';

let cached: Lexicon | null = null;

/**
 * Thesaurus concept ids start with a character that WordNet's ids (base-36 numbers, lower case) never hold, so a
 * thesaurus group is never merged with the WordNet concept of the same number.
 */
const THESAURUS_MARK = 'T';
export const isThesaurusConcept = (id: string): boolean => id.startsWith(THESAURUS_MARK);

/**
 * Build the lexicon from the bundled data. The WordNet concept list is not parsed into a map: an array of entry
 * offsets into the sorted string is enough for a binary search per word, which keeps start-up to a few
 * milliseconds and the heap free of tens of thousands of small arrays. The immutable result is memoised per
 * process (it holds no connection or state, only constant data).
 */
export function loadLexicon(): Lexicon {
  if (cached !== null) return cached;
  const words = new Set<string>(WORDNET_WORDS.split(' '));
  for (const w of EXTRA_WORDS.split(/\s+/)) words.add(w);
  const wordnet = conceptIndex(WORDNET_CONCEPTS);
  let later: ((word: string) => readonly string[]) | null = null;
  const thesaurus = new Map<string, string[]>();
  THESAURUS.forEach((group, i) => {
    const id = `${THESAURUS_MARK}${i}`;
    for (const w of group) {
      const list = thesaurus.get(w);
      if (list === undefined) thesaurus.set(w, [id]);
      else list.push(id);
    }
  });
  const conceptsOf = (c: string, inflection: boolean): readonly string[] => {
    const wn = wordnet(c);
    // Thesaurus groups are exact senses: they follow a plural or a past form, not a verb's -ing noun
    // (`recording` is a song, not the `record` that means an album).
    const th = inflection ? thesaurus.get(c) : undefined;
    return th === undefined ? wn : [...wn, ...th];
  };
  const hasConcepts = (c: string): boolean => thesaurus.has(c) || wordnet(c).length > 0;
  const persons = new Set(WORDNET_PERSONS.split(' '));
  const places = new Set(WORDNET_PLACES.split(' '));
  const placeAdjectives = new Set(WORDNET_PLACE_ADJECTIVES.split(' '));
  const personNames = new Set(WORDNET_PERSON_NAMES.split(' '));
  const languageAdjectives = new Set(WORDNET_LANGUAGE_ADJECTIVES.split(' '));
  const personsLater = new Set(WORDNET_PERSONS_LATER.split(' '));
  const placesLater = new Set(WORDNET_PLACES_LATER.split(' '));
  const roles = new Set(WORDNET_ROLE_NOUNS.split(' '));
  const roleVerbs = new Set(WORDNET_ROLE_VERBS.split(' '));
  const placeNames = new Set(WORDNET_PLACE_NAMES.split(' '));
  let levels: Map<string, readonly string[]> | null = null;
  // Read on first use: only value words ask.
  let notNominal: Set<string> | null = null;
  let personAdjectives: Set<string> | null = null;
  let languageNames: Set<string> | null = null;
  let artifacts: Set<string> | null = null;
  // A place's name as the dictionary writes it: `new_orleans`.
  const placeKey = (name: string): string => name.toLowerCase().trim().split(/\s+/).join('_');
  const inClass = (set: ReadonlySet<string>, word: string): boolean => lemmaCandidates(word).some((c) => set.has(c));
  const lemma = (word: string): string => {
    for (const c of lemmaCandidates(word)) if (words.has(c) || hasConcepts(c)) return c;
    return word.toLowerCase();
  };
  const conceptMemo = new Map<string, readonly string[]>();
  cached = {
    has: (w) => {
      for (const c of lemmaCandidates(w)) if (words.has(c)) return true;
      return false;
    },
    lemma,
    // Every candidate lemma that carries concepts: "starred" is a word of its own, but "star" has the sense that
    // links it to `actor`. Memoised: the ranker asks for the same words query after query.
    concepts: (w) => {
      let hit = conceptMemo.get(w);
      if (hit !== undefined) return hit;
      const found: string[] = [];
      const lower = w.toLowerCase();
      const gerund = lower.endsWith('ing') && thesaurus.has(lower);
      // The verb's nouns are no sense of such a gerund either, where the dictionary knows it as a word of its own:
      // `recording` is no `record` that means a history.
      const ownSenses = gerund && wordnet(lower).length > 0;
      for (const c of lemmaCandidates(w)) {
        const inflection = c === lower || !gerund;
        if (!inflection && ownSenses) continue;
        for (const id of conceptsOf(c, inflection)) if (!found.includes(id)) found.push(id);
      }
      hit = found;
      if (conceptMemo.size > 50000) conceptMemo.clear();
      conceptMemo.set(w, hit);
      return hit;
    },
    laterConcepts: (w) => {
      later ??= conceptIndex(WORDNET_LATER_SENSES);
      const found: string[] = [];
      for (const c of lemmaCandidates(w)) for (const id of later(c)) if (!found.includes(id)) found.push(id);
      return found;
    },
    phrase: (verb, particle) => {
      for (const c of lemmaCandidates(`${verb}_${particle}`)) if (wordnet(c).length > 0) return c;
      return null;
    },
    isPerson: (w) => inClass(persons, w),
    isFirstPerson: (w) => lemmaCandidates(w).some((c) => persons.has(c) && !personsLater.has(c)),
    isRole: (w) => inClass(roles, w),
    isRoleVerb: (w) => inClass(roleVerbs, w),
    isPlace: (w) => inClass(places, w),
    isArtifact: (w) => inClass((artifacts ??= new Set(WORDNET_ARTIFACTS.split(' '))), w),
    isFirstPlace: (w) => lemmaCandidates(w).some((c) => places.has(c) && !placesLater.has(c)),
    // Only the plain form and its -s form: a participle ("delivered", "expired", "withdrawn") is also an adjective of a
    // state, the label a status list holds.
    isNotNominal: (w) => {
      const l = lemma(w);
      const lower = w.toLowerCase();
      return (lower === l || lower === `${l}s` || lower === `${l}es`) && (notNominal ??= new Set(WORDNET_NOT_NOMINAL.split(' '))).has(l);
    },
    isLanguageName: (w) => (languageNames ??= new Set(WORDNET_LANGUAGE_NAMES.split(' '))).has(w.toLowerCase()),
    isPersonAdjective: (w) => (personAdjectives ??= new Set(WORDNET_PERSON_ADJECTIVES.split(' '))).has(w.toLowerCase()),
    isPlaceAdjective: (w) => placeAdjectives.has(w.toLowerCase()),
    isPersonName: (w) => personNames.has(w.toLowerCase()),
    isLanguageAdjective: (w) => languageAdjectives.has(w.toLowerCase()),
    isPlaceName: (name) => placeNames.has(placeKey(name)),
    placeLevels: (name) => {
      levels ??= new Map(WORDNET_PLACE_LEVELS.split(' ').map((entry) => {
        const at = entry.indexOf(':');
        return [entry.slice(0, at), entry.slice(at + 1).split(',')] as const;
      }));
      return levels.get(placeKey(name.trim().replace(/^the\s+/i, ''))) ?? [];
    },
  };
  return cached;
}

/**
 * Look-up over `word c c|word c c|…` sorted by word (scripts/build-wordnet.mjs writes it so): one pass records
 * where each entry starts, then each look-up is a binary search on the entry's leading word.
 */
function conceptIndex(raw: string): (word: string) => readonly string[] {
  let count = 1;
  for (let i = raw.indexOf('|'); i >= 0; i = raw.indexOf('|', i + 1)) count++;
  const starts = new Int32Array(count + 1);
  let k = 0;
  starts[k++] = 0;
  for (let i = raw.indexOf('|'); i >= 0; i = raw.indexOf('|', i + 1)) starts[k++] = i + 1;
  starts[k] = raw.length + 1;
  const none: readonly string[] = [];
  return (word) => {
    let lo = 0;
    let hi = count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const from = starts[mid]!;
      const space = raw.indexOf(' ', from);
      const key = raw.slice(from, space);
      if (key === word) return raw.slice(space + 1, starts[mid + 1]! - 1).split(' ');
      if (key < word) lo = mid + 1;
      else hi = mid - 1;
    }
    return none;
  };
}
