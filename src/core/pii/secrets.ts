/**
 * Floor-category secrets embedded in free text: the last line of defence for every row, value and artifact that
 * leaves a tool, and the index-time scan that tags a free-text column (`memo`, `notes`) holding them so it is
 * masked like any blocked column. Only the always-on floor is looked for (payment cards, government IDs,
 * credentials), with validators that keep false positives rare: Luhn for card numbers, the SSA rules for SSNs,
 * published vendor prefixes for API keys, the JOSE header for JWTs, PEM armour for private keys.
 */
import type { PiiCategory } from '../envelope/kinds';
import { isCardNumber, isPasswordHash, isSsn } from './values';

interface Pattern {
  readonly category: PiiCategory;
  readonly label: string;
  readonly re: RegExp;
  readonly valid?: (m: string) => boolean;
}

/** Full-width digits (U+FF10–FF19) as ASCII, and every dash or dot between digits as a plain separator. */
function asciiDigits(m: string): string {
  return m.replace(/[\uFF10-\uFF19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xff10 + 48)).replace(/[.\u2010-\u2015\uFF0D\u2212]/g, '-');
}

/** An ITIN (9XX-7X/8X/9X-XXXX, issued by the IRS in place of an SSN) is a government ID as much as an SSN is. */
function isItin(m: string): boolean {
  const x = /^9\d{2}-(\d{2})-\d{4}$/.exec(m);
  if (!x) return false;
  const g = Number(x[1]);
  return (g >= 50 && g <= 65) || (g >= 70 && g <= 88) || (g >= 90 && g <= 92) || (g >= 94 && g <= 99);
}

const DIGIT = '[0-9\\uFF10-\\uFF19]';
const SEP = '[ .\\-\\u2010-\\u2015\\uFF0D\\u2212]';

// Each regex is global and bounded so a long value scans in linear time. Vendor prefixes specific enough to stand
// for a key on their own are matched wherever they start (`key_sk_live_…`, `zzAKIA…`); the rest after a word edge.
const PATTERNS: readonly Pattern[] = [
  { category: 'credential', label: 'private_key', re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]{0,8000}?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)/g },
  { category: 'credential', label: 'jwt', re: /eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g },
  {
    category: 'credential',
    label: 'api_key',
    re: /(?:(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}|(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,}|xox[abposr]-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20,})|\b(?:SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}|npm_[A-Za-z0-9]{36}|sk-(?:proj-)?[A-Za-z0-9_-]{32,})/g,
  },
  // A URL that carries its password (`postgres://admin:Pr0d!@db:5432/app`, `https://u:p@host`): the whole URL.
  { category: 'credential', label: 'url_password', re: /\b[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/[^\s:/@'"`<>]{1,128}:[^\s@'"`<>]{1,256}@[^\s/'"`<>]{1,256}/g },
  // A bearer token in a header or a log line.
  { category: 'credential', label: 'bearer', re: /\bBearer\s+[A-Za-z0-9._~+/-]{16,512}=*/g },
  // A secret written as a setting: `password=…`, `PGPASSWORD=…`, `GITHUB_TOKEN=…`, `api_key: …`, and as a key of a document: JSON's
  // `"password": "…"`, hstore's `"password"=>"…"` (after a colon only a value with a digit or a sign, so prose such
  // as "password: must be long" stays).
  {
    category: 'credential',
    label: 'assignment',
    re: /\b[A-Za-z0-9_.-]{0,40}?(?:password|passwd|pwd|pw|passphrase|passcode|secret|api[_-]?key|token)["']?\s*(?:=>?\s*(?:"[^"\n]{4,256}"|'[^'\n]{4,256}'|[^\s,;&'"]{4,256})|:\s*(?:"(?=[^"\n]*[\d!#$%&*+/=?@^_~-])[^"\n]{6,256}"|(?=[^\s,;]*[\d!#$%&*+/=?@^_~-])[^\s,;&'"]{6,256}))/gi,
  },
  // HTTP basic credentials (`Authorization: Basic dXNlcjpwYXNz`): base64 of `user:password`.
  { category: 'credential', label: 'basic_auth', re: /\bBasic\s+[A-Za-z0-9+/]{8,512}={0,2}/g, valid: (m) => isBasicCredential(m) },
  { category: 'credential', label: 'password_hash', re: /\$(?:2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}|argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/=$]+)/g, valid: (m) => isPasswordHash(m) || m.startsWith('$argon2') },
  {
    category: 'payment_card',
    label: 'card',
    re: new RegExp(`(?<![0-9\\uFF10-\\uFF19-])${DIGIT}(?:${SEP}?${DIGIT}){12,18}(?![0-9\\uFF10-\\uFF19])`, 'g'),
    // Dots only in groups of four (`4111.1111.1111.1111`), so a long decimal number is not read as a card.
    valid: (m) => (!/[.]/.test(m) || /^[^.]{4}(\.[^.]{4}){2,3}(\.[^.]{1,3})?$/.test(m)) && isCardNumber(asciiDigits(m).replace(/-/g, ' ')),
  },
  {
    category: 'government_id',
    label: 'ssn',
    re: new RegExp(`(?<![0-9\\uFF10-\\uFF19-])${DIGIT}{3}${SEP}${DIGIT}{2}${SEP}${DIGIT}{4}(?![0-9\\uFF10-\\uFF19-])`, 'g'),
    valid: (m) => {
      const a = asciiDigits(m).replace(/ /g, '-');
      return isSsn(a) || isItin(a);
    },
  },
];

/** `Basic <base64>` whose text decodes to printable `user:password`. */
function isBasicCredential(m: string): boolean {
  const b64 = m.replace(/^Basic\s+/, '');
  if (b64.length % 4 === 1) return false;
  const text = Buffer.from(b64, 'base64').toString('latin1');
  return /^[\x20-\x7e]{1,256}:[\x20-\x7e]{1,256}$/.test(text);
}

export interface SecretHit {
  readonly category: PiiCategory;
  readonly label: string;
}

/** The floor secrets found in `text` (one entry per match). */
export function findFloorSecrets(text: string): SecretHit[] {
  const out: SecretHit[] = [];
  if (text.length < 9) return out;
  for (const p of PATTERNS) {
    p.re.lastIndex = 0;
    for (const m of text.matchAll(p.re)) if (!p.valid || p.valid(m[0])) out.push({ category: p.category, label: p.label });
  }
  return out;
}

/** Where the first floor secret in `text` starts (the earliest of every pattern's first valid match), or -1. */
export function firstFloorSecretAt(text: string): number {
  if (text.length < 9) return -1;
  let first = -1;
  for (const p of PATTERNS) {
    p.re.lastIndex = 0;
    for (const m of text.matchAll(p.re)) {
      if (p.valid && !p.valid(m[0])) continue;
      if (first < 0 || m.index < first) first = m.index;
      break;
    }
  }
  return first;
}

/** `text` with every floor secret replaced by `<redacted:category>`, and how many were replaced. */
export function redactFloorSecrets(text: string): { text: string; count: number } {
  if (text.length < 9) return { text, count: 0 };
  let count = 0;
  let out = text;
  for (const p of PATTERNS) {
    out = out.replace(p.re, (m) => {
      if (p.valid && !p.valid(m)) return m;
      count++;
      return `<redacted:${p.category}>`;
    });
  }
  return { text: out, count };
}

/**
 * Deep copy of a JSON-like value with every string passed through `redactFloorSecrets` (object keys too: a
 * secret used as a column alias is still a secret). Iterative over arrays/objects of bounded depth.
 */
export function redactDeep<T>(value: T): { value: T; count: number } {
  let count = 0;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      const r = redactFloorSecrets(v);
      count += r.count;
      return r.text;
    }
    if (depth > 64 || v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null) return v; // Dates, Maps, buffers: not JSON text
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const rk = redactFloorSecrets(k);
      count += rk.count;
      o[rk.text] = walk(x, depth + 1);
    }
    return o;
  };
  const out = walk(value, 0) as T;
  return { value: out, count };
}

/**
 * Index-time evidence that a free-text column holds floor secrets: at least two sampled values (or one in ten)
 * contain one. Returns the categories to tag, in the order found.
 */
export function embeddedSecretCategories(samples: readonly string[]): PiiCategory[] {
  const byCat = new Map<PiiCategory, number>();
  let total = 0;
  for (const s of samples) {
    if (typeof s !== 'string' || !s.trim()) continue;
    total++;
    const cats = new Set(findFloorSecrets(s).map((h) => h.category));
    for (const c of cats) byCat.set(c, (byCat.get(c) ?? 0) + 1);
  }
  const out: PiiCategory[] = [];
  for (const [c, n] of byCat) if (n >= 2 || (n >= 1 && n * 10 >= total)) out.push(c);
  return out;
}

interface EnvelopeLike {
  readonly status: string;
  readonly data: unknown;
  readonly error: { readonly message: string } | null;
  readonly degradation_reason: string | null;
}

/**
 * The last line of defence for every tool answer: floor secrets in `data` (values, keys, artifact text) and in the
 * error message are replaced by `<redacted:…>`. An answer that lost something is marked `degraded` with reason
 * `pii_masked` (a successful answer only: refusals and errors keep their status). Returns the envelope unchanged
 * (same object) when nothing matched.
 */
export function scrubEnvelope<E extends EnvelopeLike>(env: E): E {
  const data = redactDeep(env.data);
  const message = env.error ? redactFloorSecrets(env.error.message) : { text: '', count: 0 };
  if (data.count === 0 && message.count === 0) return env;
  const out = { ...env, data: data.value, ...(env.error ? { error: { ...env.error, message: message.text } } : {}) };
  if (data.count > 0 && (env.status === 'success' || env.status === 'partial' || env.status === 'empty')) {
    return { ...out, status: 'degraded', degradation_reason: 'pii_masked' };
  }
  return out;
}
