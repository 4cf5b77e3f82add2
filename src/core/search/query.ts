/**
 * Query parsing: quoted phrases, stop words, identifier-shaped words, and the word n-grams that the value index is
 * probed with.
 */
import { STOP_WORDS, identifierTerms, type Vocabulary } from './tokenize';

export interface QueryTerm {
  /** Stemmed index term. */
  readonly term: string;
  /** The word as written (lower case), for lexicon look-ups and explanations. */
  readonly surface: string;
  /** 1 for plain words; quoted phrases weigh more. */
  readonly weight: number;
}

export interface ParsedQuery {
  readonly isListAll: boolean;
  readonly terms: readonly QueryTerm[];
  /** Lower-case candidate literal values: quoted phrases and every 1–3 word n-gram of the raw text. */
  readonly valueProbes: readonly string[];
  /** Probes the user marked explicitly (quoted). */
  readonly quoted: readonly string[];
}

const QUOTED = /"([^"]+)"|“([^”]+)”|(?:^|[\s(,:=])'([^']+)'(?=$|[\s),.?!:;])/g;

export function parseQuery(query: string, vocab: Vocabulary): ParsedQuery {
  const trimmed = query.trim();
  if (trimmed === '*') return { isListAll: true, terms: [], valueProbes: [], quoted: [] };
  const quoted: string[] = [];
  for (const m of trimmed.matchAll(QUOTED)) {
    const text = (m[1] ?? m[2] ?? m[3] ?? '').trim();
    if (text.length > 0) quoted.push(text.toLowerCase());
  }
  const quotedWords = new Set(quoted.flatMap((q) => q.split(/[^\p{L}\p{N}]+/u)));

  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  const words = trimmed.split(/[^\p{L}\p{N}_]+/u).filter((w) => w.length > 0);
  for (const word of words) {
    const lower = word.toLowerCase();
    if (STOP_WORDS.has(lower) || /^\d+$/.test(lower) || lower.length < 2) continue;
    const weight = quotedWords.has(lower) ? 1.5 : 1;
    for (const t of identifierTerms(word, vocab)) {
      if (seen.has(t.term) || STOP_WORDS.has(t.surface)) continue;
      seen.add(t.term);
      terms.push({ term: t.term, surface: t.surface, weight });
    }
  }

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
  return { isListAll: false, terms, valueProbes: [...probes], quoted };
}
