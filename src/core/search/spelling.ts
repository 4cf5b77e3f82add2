/**
 * Misspelt question words ("prodcuts", "custmers", "adress", "langugage"): a word that neither the dictionary nor the
 * catalog knows is read as the one word of the catalog a single edit away (a letter left out, one too many, one wrong,
 * or two swapped: Damerau's four kinds of slip). Only where that reading is unambiguous, and only towards the
 * catalog's own words: the dictionary has too many near neighbours ("uploaded" and "unloaded", "versus" and "verses").
 * A word that is none of the catalog's may be a slip of a function word ("evry", "thier"), which then counts for nothing.
 */
import type { Lexicon } from './lexicon';
import { THESAURUS } from './thesaurus';
import { STOP_WORDS, type Vocabulary } from './tokenize';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Shorter words are too often abbreviations or codes ("qty", "sku"), and have many neighbours. */
const MIN_LENGTH = 4;
/**
 * Longer "words" are no slips of a word but runs of letters (a pasted key, "aaaa…"): a word's edits grow with the
 * square of its length, so a 1,000-letter word took 150 ms to rule out.
 */
const MAX_LENGTH = 40;
/** A slip of a function word has at most one letter more than the longest of them. */
const MAX_FUNCTION_SLIP = Math.max(...[...STOP_WORDS].map((w) => w.length)) + 1;

/** Every string one edit away from `word` (lower-case letters only; a few more than once, and `word` itself never). */
function* edits(word: string): Generator<string> {
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail.length > 0) yield head + tail.slice(1);
    if (tail.length > 1 && tail[0] !== tail[1]) yield head + tail[1] + tail[0] + tail.slice(2);
    for (const c of LETTERS) {
      if (tail.length > 0 && c !== tail[0]) yield head + c + tail.slice(1);
      yield head + c + tail;
    }
  }
}

/**
 * Whether the dictionary knows `word` in some form: as a word, a function word, a word with senses, or a regular
 * inflection of one ("largest", "heroes", "incredibly", "oldest").
 */
export function knownWord(word: string, vocab: Vocabulary): boolean {
  const senses = (w: string): boolean => (vocab.concepts?.(w).length ?? 0) > 0;
  if (STOP_WORDS.has(word) || vocab.has(word) || senses(word)) return true;
  const base = /^(.{3,}?)(?:est|er|ly|es|ally)$/.exec(word)?.[1];
  return base !== undefined && [base, `${base}e`, `${base}y`, base.replace(/i$/, 'y'), base.replace(/(.)\1$/, '$1')].some((b) => vocab.has(b) || senses(b));
}

/** The catalog's word `w` is, as written or as the plural of one (`products`, `addresses`, `categories`), or null. */
function catalogBase(w: string, inCatalog: (w: string) => boolean): string | null {
  if (inCatalog(w)) return w;
  if (!w.endsWith('s')) return null;
  for (const b of [w.slice(0, -1), w.endsWith('es') ? w.slice(0, -2) : '', w.endsWith('ies') ? `${w.slice(0, -3)}y` : '']) if (b.length > 2 && inCatalog(b)) return b;
  return null;
}

/**
 * The catalog's word `word` most likely stands for, or null where the word is known, not a plain lower-case word,
 * or not exactly one of the catalog's words (in some inflection) is one edit away.
 */
export function correctSpelling(word: string, vocab: Lexicon, synonyms = false): string | null {
  const memoOf = synonyms ? synonymMemos : memos;
  let memo = memoOf.get(vocab);
  if (memo === undefined) memoOf.set(vocab, (memo = new Map()));
  const hit = memo.get(word);
  if (hit !== undefined) return hit;
  const found = correct(word, vocab, synonyms);
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(word, found);
  return found;
}

/** Corrections by vocabulary (each index has its own catalog words): the same words come back query after query. */
const memos = new WeakMap<Lexicon, Map<string, string | null>>();
const synonymMemos = new WeakMap<Lexicon, Map<string, string | null>>();
const MEMO_MAX = 10000;

/**
 * The catalog's words and the single-word members of the thesaurus groups the catalog holds a word of ("movies" where
 * the catalog says `film`), worked out once per vocabulary.
 */
function withSynonyms(vocab: Lexicon, inCatalog: (w: string) => boolean): (w: string) => boolean {
  let held = synonymWords.get(vocab);
  if (held === undefined) {
    held = new Set(THESAURUS.filter((group) => group.some((w) => inCatalog(w))).flat().filter((w) => /^[a-z]+$/.test(w)));
    synonymWords.set(vocab, held);
  }
  const words = held;
  return (w) => inCatalog(w) || words.has(w);
}
const synonymWords = new WeakMap<Lexicon, ReadonlySet<string>>();

function correct(word: string, vocab: Lexicon, synonyms: boolean): string | null {
  const inCatalog = vocab.inCatalog === undefined ? undefined : synonyms ? withSynonyms(vocab, vocab.inCatalog) : vocab.inCatalog;
  if (inCatalog === undefined || word.length < MIN_LENGTH || word.length > MAX_LENGTH || !/^[a-z]+$/.test(word) || knownWord(word, vocab) || catalogBase(word, inCatalog) !== null) return null;
  let found: string | null = null;
  let foundBase = '';
  for (const w of edits(word)) {
    // A slip rarely hits the first letter, and a word one edit from another's tail is a word of its own ("along").
    if (w[0] !== word[0]) continue;
    const base = catalogBase(w, inCatalog);
    if (base === null) continue;
    if (found !== null && base !== foundBase) return null;
    if (found === null) [found, foundBase] = [w, base];
  }
  return found ?? slipOfFunctionWord(word);
}

/**
 * The one function word `word` is a slip of, by a letter left out or two swapped ("evry", "thier", "whcih"), or null.
 * Not by a wrong letter: the dictionary's own short words are often one letter from a function word ("along", "among").
 */
function slipOfFunctionWord(word: string): string | null {
  if (word.length > MAX_FUNCTION_SLIP) return null;
  let found: string | null = null;
  for (const w of edits(word)) {
    if (w[0] !== word[0] || !STOP_WORDS.has(w) || w === found) continue;
    const slip = w.length === word.length + 1 || (w.length === word.length && [...w].sort().join('') === [...word].sort().join(''));
    if (!slip) continue;
    if (found !== null) return null;
    found = w;
  }
  return found;
}

/**
 * The question with its misspelt words read as the catalog's (see correctSpelling), leaving alone a word that is a
 * stored value (`isValue`).
 */
export function correctQuestion(text: string, vocab: Lexicon, isValue: (word: string) => boolean, synonyms = false): string {
  return text.replace(/(?<![\p{L}\p{N}_'’-])[a-z]{4,}(?![\p{L}\p{N}_-]|['’]\p{L})/gu, (w) => (isValue(w) ? w : (correctSpelling(w, vocab, synonyms) ?? w)));
}
