/**
 * Value-pattern detectors for sampled column values, each with the check digit or structure that separates a
 * real identifier from a look-alike: Luhn plus issuer prefix for cards, ISO 13616 mod-97 for IBANs, SSA
 * rules for US SSNs, HMRC prefixes for UK NINOs, check digits for Brazilian CPF and Spanish DNI/NIE.
 */
import { isIP } from 'node:net';
import type { PiiCategory } from '../envelope/kinds';

/** Luhn (mod 10) check over a digit string. https://en.wikipedia.org/wiki/Luhn_algorithm */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let dbl = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (dbl) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    dbl = !dbl;
  }
  return sum % 10 === 0;
}

/**
 * Issuer prefix and length of the major card networks (ISO/IEC 7812 IIN ranges as published by the networks):
 * Visa, Mastercard (51-55, 2221-2720), Amex, Discover, JCB, Diners, UnionPay, Maestro. ISBNs (978/979) and
 * most order numbers fall outside these ranges even when they happen to pass Luhn.
 */
export function cardNetwork(digits: string): string | null {
  const n = digits.length;
  const p2 = Number(digits.slice(0, 2));
  const p3 = Number(digits.slice(0, 3));
  const p4 = Number(digits.slice(0, 4));
  if (digits[0] === '4' && (n === 13 || n === 16 || n === 19)) return 'visa';
  if (((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) && n === 16) return 'mastercard';
  if ((p2 === 34 || p2 === 37) && n === 15) return 'amex';
  if ((p4 === 6011 || p2 === 65 || (p3 >= 644 && p3 <= 649)) && n >= 16 && n <= 19) return 'discover';
  if (p4 >= 3528 && p4 <= 3589 && n >= 16 && n <= 19) return 'jcb';
  if ((p2 === 36 || p2 === 38 || (p3 >= 300 && p3 <= 305)) && n >= 14 && n <= 16) return 'diners';
  if (p2 === 62 && n >= 16 && n <= 19) return 'unionpay';
  if ([5018, 5020, 5038, 5893, 6304, 6759, 6761, 6762, 6763].includes(p4) && n >= 12 && n <= 19) return 'maestro';
  return null;
}

/** A payment card number: 12-19 digits (spaces/dashes allowed), a known network prefix, and a valid Luhn digit. */
export function isCardNumber(value: string): boolean {
  const v = value.trim();
  if (v.length > 23 || !/^[\d -]+$/.test(v)) return false;
  const digits = v.replace(/[ -]/g, '');
  if (digits.length < 12 || digits.length > 19 || /^(\d)\1+$/.test(digits)) return false;
  return cardNetwork(digits) !== null && luhnValid(digits);
}

/** IBAN lengths per country, ISO 13616 registry (SWIFT IBAN Registry). Unknown countries fall back to 15..34. */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AT: 20, BE: 16, BG: 22, BH: 22, BR: 29, CH: 21, CY: 28, CZ: 24, DE: 22, DK: 18, EE: 20, ES: 24, FI: 18, FR: 27, GB: 22,
  GR: 27, HR: 21, HU: 28, IE: 22, IL: 23, IS: 26, IT: 27, KW: 30, KZ: 20, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MT: 31, NL: 18, NO: 15,
  PL: 28, PT: 25, QA: 29, RO: 24, RS: 22, SA: 24, SE: 24, SI: 19, SK: 24, SM: 27, TR: 26, UA: 29,
};

/** ISO 13616 IBAN: country code, two check digits, BBAN, and `mod 97 == 1` over the rearranged number. */
export function isIban(value: string): boolean {
  const v = value.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(v)) return false;
  const expected = IBAN_LENGTHS[v.slice(0, 2)];
  if (expected !== undefined && v.length !== expected) return false;
  const rearranged = v.slice(4) + v.slice(0, 4);
  let rem = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    const part = code >= 65 ? String(code - 55) : ch;
    for (const d of part) rem = (rem * 10 + (d.charCodeAt(0) - 48)) % 97;
  }
  return rem === 1;
}

/**
 * US SSN in its written form `AAA-GG-SSSS`: area not 000, 666 or 900-999, group not 00, serial not 0000
 * (https://www.ssa.gov/employer/randomization.html). `dashedOnly` rejects bare nine-digit numbers, which are too
 * common (ZIP+4, order ids) to count as evidence on their own.
 */
export function isSsn(value: string, dashedOnly = true): boolean {
  const m = (dashedOnly ? /^(\d{3})-(\d{2})-(\d{4})$/ : /^(\d{3})-?(\d{2})-?(\d{4})$/).exec(value.trim());
  if (!m) return false;
  const area = Number(m[1]);
  if (area === 0 || area === 666 || area >= 900) return false;
  if (m[2] === '00' || m[3] === '0000') return false;
  return true;
}

/** UK National Insurance number (HMRC NIM39110): two prefix letters from the allowed sets, six digits, suffix A-D. */
export function isNino(value: string): boolean {
  const v = value.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/.test(v)) return false;
  return !['BG', 'GB', 'NK', 'KN', 'TN', 'NT', 'ZZ'].includes(v.slice(0, 2));
}

/** Brazilian CPF `ddd.ddd.ddd-dd` (punctuation optional) with both mod-11 check digits. */
export function isCpf(value: string): boolean {
  const v = value.trim();
  if (!/^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/.test(v)) return false;
  const d = v.replace(/\D/g, '');
  if (/^(\d)\1{10}$/.test(d)) return false;
  for (const len of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(d[i]) * (len + 1 - i);
    const check = ((sum * 10) % 11) % 10;
    if (check !== Number(d[len])) return false;
  }
  return true;
}

/** Spanish DNI (8 digits + letter) and NIE (X/Y/Z + 7 digits + letter), letter = `TRWAGMYFPDXBNJZSQVHLCKE`[n mod 23]. */
export function isDniNie(value: string): boolean {
  const v = value.replace(/[\s-]/g, '').toUpperCase();
  const m = /^([XYZ]?)(\d{7,8})([A-Z])$/.exec(v);
  if (!m) return false;
  if (m[1] ? m[2]!.length !== 7 : m[2]!.length !== 8) return false;
  // NIE: the leading X/Y/Z stands for 0/1/2 in the check computation.
  const n = Number((m[1] ? String('XYZ'.indexOf(m[1])) : '') + m[2]);
  return 'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23] === m[3];
}

const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}$/;
export function isEmail(value: string): boolean {
  const v = value.trim();
  return v.length <= 254 && EMAIL.test(v);
}

/**
 * A phone number: E.164 (`+` and 8-15 digits) or a national format with separators or a trunk `0`
 * (`(415) 555-0134`, `020 7946 0958`, `030 12345678`, `01 23 45 67 89`). Dates, times, decimals, IPs and
 * SSN-shaped strings are excluded first.
 */
export function isPhone(value: string): boolean {
  const v = value.trim();
  if (v.length < 7 || v.length > 24) return false;
  if (!/^\+?[\d\s().\-/]+(?:\s*(?:x|ext\.?)\s*\d{1,5})?$/i.test(v)) return false;
  const main = v.replace(/\s*(?:x|ext\.?)\s*\d{1,5}$/i, '');
  const digits = main.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15 || /^(\d)\1+$/.test(digits)) return false;
  if (/^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$/.test(main) || /^\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}$/.test(main)) return false;
  if (/^\d+\.\d+$/.test(main) || isIP(main) !== 0 || /^\d{3}-\d{2}-\d{4}$/.test(main)) return false;
  if (main.startsWith('+')) return /^\+[1-9]/.test(main) && digits.length >= 8;
  // Unformatted digit runs are left out on purpose: zero-padded ids and order numbers look the same.
  return /[\s().\-/]/.test(main) && digits.length >= 7;
}

const MAC = /^(?:[0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/;
export function isMac(value: string): boolean {
  return MAC.test(value.trim());
}

/** A `lat, lon` pair (at least 3 decimals each, in range), a WKT POINT or a `geo:` URI. */
export function isCoordinatePair(value: string): boolean {
  const v = value.trim();
  let m = /^\(?\s*(-?\d{1,3}\.\d{3,})\s*[,;\s]\s*(-?\d{1,3}\.\d{3,})\s*\)?$/.exec(v);
  if (m) return Math.abs(Number(m[1])) <= 90 && Math.abs(Number(m[2])) <= 180;
  m = /^(?:SRID=\d+;)?POINT\s*Z?\s*\(\s*(-?\d{1,3}(?:\.\d+)?)\s+(-?\d{1,3}(?:\.\d+)?)/i.exec(v);
  if (m) return Math.abs(Number(m[1])) <= 180 && Math.abs(Number(m[2])) <= 90;
  m = /^geo:(-?\d{1,2}\.\d+),(-?\d{1,3}\.\d+)/i.exec(v);
  return m !== null && Math.abs(Number(m[1])) <= 90 && Math.abs(Number(m[2])) <= 180;
}

/** A JWT (RFC 7519): three base64url parts whose first two decode to JSON objects (`eyJ` = `{"`). */
export function isJwt(value: string): boolean {
  return /^eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*$/.test(value.trim());
}

/** Vendor API keys with published prefixes (Stripe, GitHub, Slack, AWS, Google, GitLab, SendGrid, npm, OpenAI) and PEM private keys. */
export function isApiKey(value: string): boolean {
  const v = value.trim();
  return (
    /^(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}$/.test(v) ||
    /^(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}$/.test(v) ||
    /^github_pat_[A-Za-z0-9_]{40,}$/.test(v) ||
    /^xox[abposr]-[A-Za-z0-9-]{10,}$/.test(v) ||
    /^(?:AKIA|ASIA)[0-9A-Z]{16}$/.test(v) ||
    /^AIza[0-9A-Za-z_-]{35}$/.test(v) ||
    /^glpat-[A-Za-z0-9_-]{20,}$/.test(v) ||
    /^SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}$/.test(v) ||
    /^npm_[A-Za-z0-9]{36}$/.test(v) ||
    /^sk-(?:proj-)?[A-Za-z0-9_-]{32,}$/.test(v) ||
    /^-----BEGIN (?:RSA |EC |OPENSSH |DSA |ENCRYPTED )?PRIVATE KEY-----/.test(v)
  );
}

/** Password hashes in modular crypt and framework formats: bcrypt, argon2, scrypt, sha-crypt, md5-crypt, Django PBKDF2, LDAP SSHA. */
export function isPasswordHash(value: string): boolean {
  const v = value.trim();
  return (
    /^\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}$/.test(v) ||
    /^\$argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$/.test(v) ||
    /^\$(?:scrypt|7)\$/.test(v) ||
    /^\$[156]\$(?:rounds=\d+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{22,86}$/.test(v) ||
    /^(?:pbkdf2_sha(?:1|256|512)|bcrypt_sha256|argon2)\$\d*\$?[^$]+\$[^$]+$/.test(v) ||
    /^\{(?:SSHA|SHA|SSHA256|SSHA512|PBKDF2)\}[A-Za-z0-9+/=]+$/.test(v)
  );
}

/** A long, high-entropy hex or base64 string (a key, digest or secret) — weak evidence that needs a secret-like name. */
export function isSecretShaped(value: string): boolean {
  const v = value.trim();
  if (v.length < 32 || v.length > 512 || /\s/.test(v)) return false;
  return /^[0-9a-fA-F]+$/.test(v) || (/^[A-Za-z0-9+/_-]+={0,2}$/.test(v) && /[0-9]/.test(v) && /[a-z]/.test(v) && /[A-Z]/.test(v));
}

const GENDER_VALUES = new Set(['male', 'female', 'man', 'woman', 'non-binary', 'nonbinary', 'other', 'unknown', 'diverse', 'transgender', 'männlich', 'weiblich', 'masculin', 'feminin', 'féminin', 'masculino', 'femenino', 'feminino', 'hombre', 'mujer', 'homme', 'femme']);
const MARITAL_VALUES = new Set(['single', 'married', 'divorced', 'widowed', 'separated', 'domestic partnership', 'civil union', 'ledig', 'verheiratet', 'geschieden', 'célibataire', 'marié', 'mariée', 'soltero', 'casado', 'divorciado', 'viudo']);
const BLOOD_TYPES = new Set(['a+', 'a-', 'b+', 'b-', 'ab+', 'ab-', 'o+', 'o-']);

export type ValueDetector =
  | 'email'
  | 'phone'
  | 'card'
  | 'iban'
  | 'ssn'
  | 'nino'
  | 'cpf'
  | 'dni'
  | 'ip'
  | 'mac'
  | 'coordinates'
  | 'jwt'
  | 'api_key'
  | 'password_hash'
  | 'secret_shaped'
  | 'dna'
  | 'rsid'
  | 'gender'
  | 'marital'
  | 'blood_type';

export const DETECTOR_CATEGORY: Readonly<Record<ValueDetector, PiiCategory>> = {
  email: 'contact',
  phone: 'contact',
  card: 'payment_card',
  iban: 'payment_card',
  ssn: 'government_id',
  nino: 'government_id',
  cpf: 'government_id',
  dni: 'government_id',
  ip: 'online_identifier',
  mac: 'online_identifier',
  coordinates: 'location',
  jwt: 'credential',
  api_key: 'credential',
  password_hash: 'credential',
  secret_shaped: 'credential',
  dna: 'genetic',
  rsid: 'genetic',
  gender: 'demographic_protected',
  marital: 'demographic_protected',
  blood_type: 'health',
};

/** The detectors one value satisfies. Cheap tests gate the expensive ones. */
export function detectValue(raw: string): ValueDetector[] {
  const v = raw.trim();
  const out: ValueDetector[] = [];
  if (!v) return out;
  const lower = v.toLowerCase();
  if (v.includes('@')) {
    if (isEmail(v)) out.push('email');
    return out;
  }
  if (GENDER_VALUES.has(lower)) out.push('gender');
  if (MARITAL_VALUES.has(lower)) out.push('marital');
  if (BLOOD_TYPES.has(lower)) out.push('blood_type');
  if (out.length > 0) return out;
  if (v.startsWith('eyJ') && isJwt(v)) out.push('jwt');
  else if (v.startsWith('$') || v.startsWith('{') || v.includes('$')) {
    if (isPasswordHash(v)) out.push('password_hash');
  }
  if (isApiKey(v)) out.push('api_key');
  if (out.length > 0) return out;
  const ipKind = isIP(v);
  if (ipKind !== 0) {
    out.push('ip');
    return out;
  }
  if (isMac(v)) return ['mac'];
  if (isCardNumber(v)) out.push('card');
  else if (isSsn(v)) out.push('ssn');
  else if (isPhone(v)) out.push('phone');
  if (isIban(v)) out.push('iban');
  if (isNino(v)) out.push('nino');
  if (isCpf(v)) out.push('cpf');
  if (isDniNie(v)) out.push('dni');
  if (isCoordinatePair(v)) out.push('coordinates');
  if (/^[ACGTN]{20,}$/i.test(v) && /^[acgtn]+$|^[ACGTN]+$/.test(v)) out.push('dna');
  if (/^rs\d{3,10}$/.test(v)) out.push('rsid');
  if (out.length === 0 && isSecretShaped(v)) out.push('secret_shaped');
  return out;
}

export interface ValueEvidence {
  readonly detector: ValueDetector;
  readonly category: PiiCategory;
  readonly matched: number;
  readonly total: number;
}

/**
 * Runs every detector over the non-empty samples and keeps those matched by a strict majority (more than half,
 * and at least two values), so one stray e-mail in a notes column is not evidence.
 */
export function scanSamples(samples: readonly string[], maxSamples = 200): ValueEvidence[] {
  const counts = new Map<ValueDetector, number>();
  let total = 0;
  for (const s of samples) {
    if (total >= maxSamples) break;
    if (s === null || s === undefined) continue;
    const v = String(s);
    if (!v.trim()) continue;
    total++;
    for (const d of detectValue(v)) counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  const out: ValueEvidence[] = [];
  for (const [detector, matched] of counts) {
    if (matched >= 2 && matched * 2 > total) out.push({ detector, category: DETECTOR_CATEGORY[detector], matched, total });
  }
  return out;
}

/** Share of samples that contain a digit run at least `minDigits` long (used to see that a `phone` column holds no numbers). */
export function digitShare(samples: readonly string[], minDigits: number): { readonly share: number; readonly total: number } {
  let total = 0;
  let hit = 0;
  for (const s of samples) {
    if (!s || !s.trim()) continue;
    total++;
    if ((s.match(/\d/g)?.length ?? 0) >= minDigits) hit++;
  }
  return { share: total === 0 ? 0 : hit / total, total };
}
