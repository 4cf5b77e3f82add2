/**
 * Identifier and text tokenisation for retrieval. Identifiers are split on snake_case, camelCase, acronyms and
 * digit boundaries; run-together lower-case names (`salesorderheader`) are split against a vocabulary; common
 * schema abbreviations are expanded; every term is reduced by a light English stemmer so that singular/plural and
 * simple verb forms meet (`orders`/`ordered`/`order`).
 */

/**
 * Standard identifiers, by the words their names spell out: a column or table `isrc` is a recording code. A question
 * that writes the acronym names the code itself, so the expansion is the schema's only (STANDARD_IDENTIFIERS).
 */
const STANDARD_IDENTIFIER_TABLE: Readonly<Record<string, readonly string[]>> = {
  isrc: ['recording', 'code'],
  iswc: ['work', 'code'],
  isbn: ['book', 'number'],
  issn: ['serial', 'number'],
  upc: ['product', 'code'],
  ean: ['article', 'number'],
  gtin: ['trade', 'item', 'number'],
  iban: ['bank', 'account', 'number'],
  ssn: ['social', 'security', 'number'],
  vin: ['vehicle', 'identification', 'number'],
};
export const STANDARD_IDENTIFIERS: ReadonlySet<string> = new Set(Object.keys(STANDARD_IDENTIFIER_TABLE));

/** STANDARD_IDENTIFIER_TABLE keyed by its stemmed words, built on first use. */
let spelled: Map<string, string> | null = null;
/**
 * The standard identifier whose spelled-out words, stemmed, are `stems` in that order ("recording codes": `isrc`), or
 * undefined.
 */
export function spelledIdentifier(stems: readonly string[]): string | undefined {
  spelled ??= new Map(Object.entries(STANDARD_IDENTIFIER_TABLE).map(([code, words]) => [words.map((w) => stem(w)).join(' '), code]));
  return spelled.get(stems.join(' '));
}

/** Abbreviations seen in real schemas, mapped to the words a question would use. */
const ABBREVIATION_TABLE: Readonly<Record<string, readonly string[]>> = {
  qty: ['quantity'],
  amt: ['amount'],
  num: ['number'],
  no: ['number'],
  nr: ['number'],
  nbr: ['number'],
  cnt: ['count'],
  cust: ['customer'],
  addr: ['address'],
  desc: ['description'],
  descr: ['description'],
  dt: ['date'],
  ts: ['timestamp'],
  tstamp: ['timestamp'],
  emp: ['employee'],
  empl: ['employee'],
  dept: ['department'],
  mgr: ['manager'],
  acct: ['account'],
  prod: ['product'],
  pct: ['percent'],
  perc: ['percent'],
  avg: ['average'],
  yr: ['year'],
  tel: ['telephone', 'phone'],
  ph: ['phone'],
  fname: ['first', 'name'],
  lname: ['last', 'name'],
  dob: ['birth', 'date'],
  org: ['organization'],
  txn: ['transaction'],
  trx: ['transaction'],
  msg: ['message'],
  img: ['image'],
  pic: ['picture'],
  loc: ['location'],
  ref: ['reference'],
  seq: ['sequence'],
  curr: ['currency'],
  pmt: ['payment'],
  uom: ['unit', 'measure'],
  ytd: ['year', 'date'],
  info: ['information'],
  cat: ['category'],
  categ: ['category'],
  zip: ['postal', 'code'],
  postcode: ['postal', 'code'],
  lat: ['latitude'],
  lng: ['longitude'],
  lon: ['longitude'],
  temp: ['temperature'],
  dur: ['duration'],
  len: ['length'],
  min: ['minimum'],
  max: ['maximum'],
  stats: ['statistic'],
  config: ['configuration'],
  cfg: ['configuration'],
  attr: ['attribute'],
  grp: ['group'],
  hist: ['history'],
  ver: ['version'],
  src: ['source'],
  dst: ['destination'],
  dest: ['destination'],
  usr: ['user'],
  pwd: ['password'],
  rcpt: ['receipt'],
  inv: ['invoice'],
  ord: ['order'],
  bal: ['balance'],
  ccy: ['currency'],
  po: ['purchase', 'order'],
  bom: ['bill', 'material'],
  ...STANDARD_IDENTIFIER_TABLE,
};

/** Abbreviations as a Map, so that identifiers such as `constructor` never reach Object.prototype. */
export const ABBREVIATIONS: ReadonlyMap<string, readonly string[]> = new Map(Object.entries(ABBREVIATION_TABLE));

/**
 * Words that are function words in a question ("artists like Gorillaz", "active since 1990", "whether or not") but may
 * be content in a name (`like_count`, `since_date`).
 */
const QUESTION_ONLY_STOP_WORDS: ReadonlySet<string> = new Set('like since whether unless although though because upon hi hey hello thanks thank ok okay yeah'.split(' '));

/** Words that carry no schema meaning in a question. Content words such as `number`, `name` and `date` stay. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the of in on at to for from by with without about into onto over under and or nor not no but if then than ' +
    'as is are was were be been being am do does did doing done have has had having can could would should will shall ' +
    'may might must i me my we our you your he him his she her it its they them their this that these those there here ' +
    'what which who whom whose when where why how all any each every both either neither some such own same other ' +
    'another more most less least few many much very too also just only so up down out off again further once ' +
    'list show give find get tell return display provide please let lets want need know see look ' +
    'whats whichs hows also etc eg ie per via vs versus among between within across including include includes ' +
    'one ones someone something anything everything thing things way ways ' +
    'currently current ever still yet already s t'
  )
    .split(/\s+/)
    .concat([...QUESTION_ONLY_STOP_WORDS]),
);

/**
 * Verbs a question uses to give an instruction ("Return the names", "List all films"). In an identifier they are
 * content words (`return_date`, `list_price`, `display_name`) and are indexed; in a question they count only in the
 * middle of a noun phrase (query.ts).
 */
export const INSTRUCTION_WORDS: ReadonlySet<string> = new Set('list show give find get tell return display provide want need know see look'.split(' '));

/** Stop words inside identifiers: the question stop words except the instruction verbs and question-only words. */
const IDENTIFIER_STOP_WORDS: ReadonlySet<string> = new Set([...STOP_WORDS].filter((w) => !INSTRUCTION_WORDS.has(w) && !QUESTION_ONLY_STOP_WORDS.has(w)));

/** Irregular forms a suffix stemmer cannot reach: plurals of nouns… */
const IRREGULAR_PLURALS: Readonly<Record<string, string>> = {
  people: 'person',
  persons: 'person',
  children: 'child',
  men: 'man',
  women: 'woman',
  feet: 'foot',
  teeth: 'tooth',
  mice: 'mouse',
  geese: 'goose',
  indices: 'index',
  matrices: 'matrix',
  vertices: 'vertex',
  analyses: 'analysis',
  data: 'data',
  media: 'media',
  criteria: 'criterion',
  phenomena: 'phenomenon',
  // -f and -fe nouns whose plural ends in -ves ("the shelves": a `shelf`); not `leaves` or `lives`, which are verbs too.
  shelves: 'shelf',
  halves: 'half',
  knives: 'knife',
  wives: 'wife',
  thieves: 'thief',
  wolves: 'wolf',
  calves: 'calf',
  scarves: 'scarf',
  hooves: 'hoof',
  loaves: 'loaf',
  selves: 'self',
  wharves: 'wharf',
};

/** …and past forms and participles of verbs (`born` is read as a birth). */
const IRREGULAR_VERBS: Readonly<Record<string, string>> = {
  bought: 'buy',
  sold: 'sell',
  paid: 'pay',
  spent: 'spend',
  made: 'make',
  won: 'win',
  lost: 'lose',
  held: 'hold',
  taught: 'teach',
  wrote: 'write',
  written: 'write',
  born: 'birth',
  built: 'build',
  sent: 'send',
  shipped: 'ship',
  left: 'leave',
  ran: 'run',
  sang: 'sing',
  sung: 'sing',
  gave: 'give',
  given: 'give',
  took: 'take',
  taken: 'take',
  went: 'go',
  gone: 'go',
  began: 'begin',
  begun: 'begin',
  chose: 'choose',
  chosen: 'choose',
  drove: 'drive',
  driven: 'drive',
  flew: 'fly',
  flown: 'fly',
  grew: 'grow',
  grown: 'grow',
  knew: 'know',
  known: 'know',
  led: 'lead',
  met: 'meet',
  sat: 'sit',
  stood: 'stand',
  told: 'tell',
  thought: 'think',
  found: 'find',
  rode: 'ride',
  hired: 'hire',
  // Common irregular past forms and participles (English grammar, not any schema's vocabulary).
  brought: 'bring',
  caught: 'catch',
  fought: 'fight',
  sought: 'seek',
  kept: 'keep',
  slept: 'sleep',
  dealt: 'deal',
  meant: 'mean',
  heard: 'hear',
  came: 'come',
  became: 'become',
  got: 'get',
  gotten: 'get',
  ate: 'eat',
  eaten: 'eat',
  fallen: 'fall',
  forgot: 'forget',
  forgotten: 'forget',
  hid: 'hide',
  hidden: 'hide',
  broke: 'break',
  broken: 'break',
  spoke: 'speak',
  spoken: 'speak',
  stole: 'steal',
  stolen: 'steal',
  woke: 'wake',
  woken: 'wake',
  wore: 'wear',
  worn: 'wear',
  tore: 'tear',
  torn: 'tear',
  threw: 'throw',
  thrown: 'throw',
  drew: 'draw',
  drawn: 'draw',
  drank: 'drink',
  swam: 'swim',
  swum: 'swim',
  rang: 'ring',
  struck: 'strike',
  stuck: 'stick',
  hung: 'hang',
  dug: 'dig',
  fed: 'feed',
  bred: 'breed',
  fled: 'flee',
  lent: 'lend',
  slid: 'slide',
  spun: 'spin',
  swept: 'sweep',
  wept: 'weep',
  understood: 'understand',
  withdrew: 'withdraw',
  withdrawn: 'withdraw',
  froze: 'freeze',
  frozen: 'freeze',
  shook: 'shake',
  shaken: 'shake',
  risen: 'rise',
  seen: 'see',
  sped: 'speed',
  swung: 'swing',
  oversaw: 'oversee',
  overseen: 'oversee',
  rebuilt: 'rebuild',
  resold: 'resell',
  forbade: 'forbid',
  forbidden: 'forbid',
  forgave: 'forgive',
  forgiven: 'forgive',
  mistook: 'mistake',
  mistaken: 'mistake',
  undertook: 'undertake',
  undertaken: 'undertake',
  overtook: 'overtake',
  overtaken: 'overtake',
  arose: 'arise',
  arisen: 'arise',
  awoke: 'awake',
  beaten: 'beat',
  bitten: 'bite',
  blew: 'blow',
  blown: 'blow',
  flung: 'fling',
  knelt: 'kneel',
  leapt: 'leap',
  overdrawn: 'overdraw',
  overpaid: 'overpay',
  prepaid: 'prepay',
  repaid: 'repay',
  retook: 'retake',
  retaken: 'retake',
  rewrote: 'rewrite',
  rewritten: 'rewrite',
  sank: 'sink',
  sunk: 'sink',
  shrank: 'shrink',
  shrunk: 'shrink',
  slung: 'sling',
  sprang: 'spring',
  sprung: 'spring',
  stank: 'stink',
  strode: 'stride',
  strove: 'strive',
  striven: 'strive',
  swore: 'swear',
  sworn: 'swear',
  thrived: 'thrive',
  trod: 'tread',
  trodden: 'tread',
  wove: 'weave',
  woven: 'weave',
  wrung: 'wring',
  clung: 'cling',
  crept: 'creep',
  dreamt: 'dream',
  learnt: 'learn',
  spelt: 'spell',
  spilt: 'spill',
  spoilt: 'spoil',
  burnt: 'burn',
  upheld: 'uphold',
  withheld: 'withhold',
  foresaw: 'foresee',
  foreseen: 'foresee',
  outgrew: 'outgrow',
  outgrown: 'outgrow',
  outran: 'outrun',
  outsold: 'outsell',
  overcame: 'overcome',
  overheard: 'overhear',
  undersold: 'undersell',
  underwent: 'undergo',
  undergone: 'undergo',
  underpaid: 'underpay',
  misled: 'mislead',
  mislaid: 'mislay',
  mistaught: 'misteach',
  outdid: 'outdo',
  outdone: 'outdo',
  redid: 'redo',
  redone: 'redo',
  remade: 'remake',
  resent: 'resend',
  retold: 'retell',
  rethought: 'rethink',
  reran: 'rerun',
  ridden: 'ride',
  shone: 'shine',
  stridden: 'stride',
  sewn: 'sew',
  sown: 'sow',
  mown: 'mow',
  hewn: 'hew',
  proven: 'prove',
  begot: 'beget',
};

const IRREGULAR: ReadonlyMap<string, string> = new Map([...Object.entries(IRREGULAR_PLURALS), ...Object.entries(IRREGULAR_VERBS)]);

const VOWEL = /[aeiouy]/;

/** Whether a word is an irregular past form or participle of a verb (`bought`, `sold`, `written`). */
export function isIrregularVerbForm(word: string): boolean {
  return Object.hasOwn(IRREGULAR_VERBS, word.toLowerCase());
}

/** The base form of an irregular word (`paid` → `pay`), or null. */
export function irregularBase(word: string): string | null {
  return IRREGULAR.get(word.toLowerCase()) ?? null;
}

/**
 * Light stemmer: plural, -ing and -ed suffixes, then a trailing `e`, so `rate`, `rates`, `rated`, `rating` meet.
 * Deliberately weaker than Porter: identifiers are short and over-stemming merges distinct tables.
 */
export function stem(word: string): string {
  const w = word.toLowerCase();
  const irregular = IRREGULAR.get(w);
  if (irregular !== undefined) return stemRegular(irregular);
  return stemRegular(w);
}

/**
 * Singular nouns that end in an `s` the suffix rules would take for a plural, whose plural adds -es: `alias` and
 * `aliases` both stem to `alias` (otherwise `alia` and `alias`, so "aliases" missed `artist_alias`).
 */
const S_SINGULARS: ReadonlySet<string> = new Set(['alias', 'atlas', 'bias', 'canvas', 'lens', 'chaos', 'cosmos', 'ethos', 'pathos']);

function stemRegular(w: string): string {
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (S_SINGULARS.has(w)) return w;
  if (w.endsWith('es') && S_SINGULARS.has(w.slice(0, -2))) return w.slice(0, -2);
  let s = w;
  if (s.endsWith('ies') && s.length > 4) s = s.slice(0, -3) + 'y';
  else if (s.endsWith('sses')) s = s.slice(0, -2);
  else if (/(ches|shes|xes|zzes)$/.test(s)) s = s.slice(0, -2);
  else if (s.endsWith('s') && !/(ss|us|is|ys)$/.test(s)) s = s.slice(0, -1);
  if (s.endsWith('ing') && s.length > 5 && VOWEL.test(s.slice(0, -3))) s = undouble(s.slice(0, -3));
  else if (s.endsWith('ied') && s.length > 4) s = s.slice(0, -3) + 'y';
  else if (s.endsWith('ed') && s.length > 4 && VOWEL.test(s.slice(0, -2))) s = undouble(s.slice(0, -2));
  if (s.endsWith('e') && s.length > 3) s = s.slice(0, -1);
  if (s.endsWith('y') && s.length > 3) s = s.slice(0, -1) + 'i';
  return s;
}

function undouble(s: string): string {
  return /([bdfgmnprt])\1$/.test(s) ? s.slice(0, -1) : s;
}

/** Split an identifier into lower-case pieces: `SalesOrderID2` → `sales order id 2`. No vocabulary involved. */
export function splitIdentifierRaw(name: string): string[] {
  if (/^[a-z0-9_]+$/.test(name) && !/[a-z]\d|\d[a-z]/.test(name)) return name.split('_').filter((p) => p.length > 0);
  const spaced = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .replace(/(\d)([A-Za-z])/g, '$1 $2');
  return spaced
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((p) => p.length > 0);
}

/** Vocabulary used to split run-together identifiers; `has` sees through plurals. */
export interface Vocabulary {
  has(word: string): boolean;
  /** Optional: the dictionary's concept ids of a word (the lexicon provides them): a known word is not split at a function word. */
  concepts?(word: string): readonly string[];
  /** Optional: true for nouns naming a kind of place (the lexicon provides it). */
  isPlace?(word: string): boolean;
  /** Optional: true when the word's first sense is a kind of place (the lexicon provides it). */
  isFirstPlace?(word: string): boolean;
  /** Optional: true for nouns naming a kind of person. */
  isPerson?(word: string): boolean;
  /** Optional: true for adjectives of a named place (`german`, `icelandic`). */
  isPlaceAdjective?(word: string): boolean;
  /** Optional: true for adjectives of a named place that also name a language (`french`, `japanese`). */
  isLanguageAdjective?(word: string): boolean;
  /** Optional: true for the name of a language that is no place adjective (`Hebrew`, `Swahili`). */
  isLanguageName?(word: string): boolean;
  /** Optional: true for a noun of a role people play (`producer`, `drummer`). */
  isRole?(word: string): boolean;
  /** Optional: true for a form of the verb of a role (`produced`, `wrote`: `producer`, `writer`). */
  isRoleVerb?(word: string): boolean;
  /** Optional: true for names of well-known people (`swift`, `jones`). */
  isPersonName?(word: string): boolean;
  /** Optional: true when the words name a known place (`London`, `New Orleans`). */
  isPlaceName?(name: string): boolean;
  /** Optional: the known phrasal verb a verb and a particle make (`brought`, `back` → `bring_back`), or null. */
  phrase?(verb: string, particle: string): string | null;
  /** Optional: true for a word the catalog itself writes (a piece of a name, a word of a comment). */
  inCatalog?(word: string): boolean;
  /** Optional: the word's concept ids (the lexicon provides them); empty for a word with no senses. */
  concepts?(word: string): readonly string[];
}

/** Short pieces allowed inside a split identifier (others must be 3+ letters). */
const SHORT_PIECES: ReadonlySet<string> = new Set(['id', 'no', 'nr', 'to', 'of', 'by', 'on', 'in', 'up', 'tv', 'pc', 'ip', 'hr']);

/**
 * Split `salesorderheader` into `sales order header` when every piece is a known word. Returns null when the word
 * is itself known, too short, or no full split exists. Among splits, the fewest pieces win, then the one with more of
 * the catalog's own words (`inCatalog`), then the most even.
 */
export function segmentWord(word: string, vocab: Vocabulary): string[] | null {
  // At most five pieces of at most 20 letters each (see below): a longer run of letters is no word made of words.
  if (word.length < 6 || word.length > 100 || vocab.has(word) || !/^[a-z]+$/.test(word)) return null;
  const n = word.length;
  // best[i] = best split of word.slice(0, i): pieces, of them the catalog's own words, sum of squared lengths
  const best: Array<{ count: number; own: number; sq: number; prev: number } | null> = new Array(n + 1).fill(null);
  best[0] = { count: 0, own: 0, sq: 0, prev: -1 };
  for (let i = 1; i <= n; i++) {
    for (let j = Math.max(0, i - 20); j < i; j++) {
      const from = best[j];
      if (from === null) continue;
      const piece = word.slice(j, i);
      const ok = piece.length >= 3 ? vocab.has(piece) : SHORT_PIECES.has(piece);
      if (!ok) continue;
      const cand = { count: from.count + 1, own: from.own + (vocab.inCatalog?.(piece) === true ? 1 : 0), sq: from.sq + piece.length * piece.length, prev: j };
      const cur = best[i];
      if (cur === null || cand.count < cur.count || (cand.count === cur.count && (cand.own > cur.own || (cand.own === cur.own && cand.sq < cur.sq)))) best[i] = cand;
    }
  }
  const end = best[n];
  if (end === null || end.count < 2 || end.count > 5) return null;
  const pieces: string[] = [];
  for (let i = n; i > 0; ) {
    const b = best[i]!;
    pieces.unshift(word.slice(b.prev, i));
    i = b.prev;
  }
  // A word the dictionary knows (`format`) is not a run of a function word and another (`for` + `mat`); a compound it
  // knows (`salesperson`) still reads as its parts.
  if (pieces.some((p) => STOP_WORDS.has(p)) && (vocab.concepts?.(word).length ?? 0) > 0) return null;
  return pieces;
}

/** One indexed term with the surface word it came from (for explanations). */
export interface Term {
  readonly term: string;
  readonly surface: string;
  /** A piece found by splitting a run-together word against the vocabulary (`set` of `setlist`), not a piece as written. */
  readonly part?: true;
}

/**
 * Tokenise an identifier for indexing: raw pieces, vocabulary splits of run-together pieces, and abbreviation
 * expansions, all stemmed. Pure digits are dropped (they name partitions and versions, not meaning).
 */
export function identifierTerms(name: string, vocab: Vocabulary): Term[] {
  const out: Term[] = [];
  for (const piece of splitIdentifierRaw(name)) {
    if (/^\d+$/.test(piece)) continue;
    if (IDENTIFIER_STOP_WORDS.has(piece) && ABBREVIATIONS.get(piece) === undefined) continue;
    out.push({ term: stem(piece), surface: piece });
    const split = segmentWord(piece, vocab);
    if (split !== null) for (const p of split) pushPart(out, p);
    const exp = ABBREVIATIONS.get(piece);
    if (exp !== undefined) for (const e of exp) out.push({ term: stem(e), surface: piece });
  }
  return out;
}

function pushPart(out: Term[], word: string): void {
  if (IDENTIFIER_STOP_WORDS.has(word) && ABBREVIATIONS.get(word) === undefined) return;
  out.push({ term: stem(word), surface: word, part: true });
  const exp = ABBREVIATIONS.get(word);
  if (exp !== undefined) for (const e of exp) out.push({ term: stem(e), surface: word, part: true });
}

/** Tokenise prose (comments, descriptions): words minus stop words, stemmed. */
export function textTerms(text: string): Term[] {
  const out: Term[] = [];
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length < 2 || STOP_WORDS.has(raw) || /^\d+$/.test(raw)) continue;
    out.push({ term: stem(raw), surface: raw });
  }
  return out;
}
