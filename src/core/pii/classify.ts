/**
 * Column PII classifier. Signals, strongest first: column-name phrases (with the table as context), declared
 * types and domains, column comments, enum labels, and patterns in sampled values. Negative rules stop the
 * over-tagging of a names-only classifier: attribute words (`token_count`, `phone_type`), thing nouns
 * (`product_name`), lookup tables, animals, integer foreign keys, and type incompatibility (`email_verified boolean`).
 * Pure and synchronous; no database access. Budget: a few microseconds per column without samples.
 */
import { PII_CATEGORIES, type PiiCategory } from '../envelope/kinds';
import type { PiiTag } from '../catalog/model';
import {
  ADDRESS_WORDS,
  ANIMAL_NOUNS,
  ATTRIBUTE_WORDS,
  BANK_WORDS,
  CARD_WORDS,
  CLINICAL_TABLE_WORDS,
  CLINICAL_CONTEXT_WORDS,
  INSURANCE_WORDS,
  PERSON_RECORD_WORDS,
  LOAN_WORDS,
  LOOKUP_TABLE_WORDS,
  NAME_RULES,
  PAY_WORDS,
  PERSON_NOUNS,
  PREFIX_WORDS,
  PRODUCT_CODE_WORDS,
  RULES_BY_FIRST_TOKEN,
  SEGMENT_WORDS,
  THING_NOUNS,
  VERSION_WORDS,
  VETOABLE,
  type NameRule,
  type RuleContext,
  type ValueKind,
} from './lexicon';
import { foldAscii, segment, singular, splitIdentifier } from './tokens';
import { embeddedSecretCategories } from './secrets';
import { digitShare, scanSamples, type ValueDetector, type ValueEvidence } from './values';

export interface ClassifyInput {
  readonly schema: string;
  readonly table: string;
  readonly column: string;
  readonly dataType: string;
  readonly comment?: string | null;
  readonly tableComment?: string | null;
  readonly enumLabels?: readonly string[] | null;
  /** Non-null sampled values as text; nulls and empty strings are ignored. */
  readonly samples?: readonly string[];
}

/** How the declared type constrains what a column can hold. */
export type TypeKind = 'text' | 'integer' | 'numeric' | 'boolean' | 'temporal' | 'binary' | 'structured' | 'network' | 'geo' | 'uuid' | 'other';

const VOCAB: ReadonlySet<string> = (() => {
  const v = new Set<string>(SEGMENT_WORDS);
  for (const r of NAME_RULES) for (const t of r.phrase) if (t.length >= 2) v.add(t);
  for (const w of PERSON_NOUNS) v.add(w);
  for (const w of THING_NOUNS) v.add(w);
  for (const w of CLINICAL_TABLE_WORDS) v.add(w);
  return v;
})();

/** Tokens of an identifier with concatenations split (`nationalidnumber` → national id number). */
export function identifierTokens(name: string): string[] {
  const out: string[] = [];
  for (const t of splitIdentifier(name)) {
    if (t.length >= 6 && !VOCAB.has(t) && !VOCAB.has(singular(t))) {
      const parts = segment(t, VOCAB);
      if (parts) {
        out.push(...parts);
        continue;
      }
    }
    out.push(t);
  }
  return out;
}

export function typeKind(dataType: string): TypeKind {
  const t = dataType.toLowerCase().replace(/"/g, '');
  const base = t.replace(/\(.*$/, '').replace(/\[\]$/, '').trim();
  const last = base.includes('.') ? base.slice(base.lastIndexOf('.') + 1) : base;
  if (/^(bool|boolean|bit|flag)$/.test(last)) return 'boolean';
  if (/^(inet|cidr|macaddr8?)$/.test(last)) return 'network';
  if (/^(point|geometry|geography|polygon|multipoint|multipolygon|linestring|box|circle|path|lseg)$/.test(last)) return 'geo';
  if (last === 'uuid' || last === 'uniqueidentifier') return 'uuid';
  if (/^(int|integer|bigint|smallint|tinyint|mediumint|int2|int4|int8|serial|bigserial|smallserial|serial4|serial8|number)\b/.test(last)) return 'integer';
  if (/^(numeric|decimal|real|float|float4|float8|double|double precision|money|smallmoney)\b/.test(last)) return 'numeric';
  if (/^(date|time|timestamp|timestamptz|datetime|datetime2|smalldatetime|interval|year|timetz)\b/.test(last)) return 'temporal';
  if (/^(bytea|blob|binary|varbinary|image|longblob|mediumblob)\b/.test(last)) return 'binary';
  if (/^(xml|json|jsonb|hstore)\b/.test(last)) return 'structured';
  if (/^(text|varchar|nvarchar|char|nchar|character|character varying|string|citext|clob|ntext|tinytext|mediumtext|longtext|name|bpchar|varchar2|nvarchar2)\b/.test(last)) return 'text';
  return 'other';
}

/** Whether a column of this declared type can hold what the phrase describes. */
function compatible(kind: ValueKind, type: TypeKind): boolean {
  if (type === 'boolean') return false;
  switch (kind) {
    case 'text':
      return type === 'text' || type === 'binary' || type === 'structured' || type === 'other';
    case 'num':
      return type !== 'temporal' && type !== 'uuid' && type !== 'structured';
    case 'date':
      return type === 'temporal' || type === 'text' || type === 'integer' || type === 'other';
    case 'code':
      return type === 'text' || type === 'integer' || type === 'other' || type === 'numeric';
    case 'any':
      return type !== 'temporal';
  }
}

interface Signal {
  readonly category: PiiCategory;
  readonly label: string;
  readonly weight: number;
  /** A context-dependent name match that contradicting values may overrule, whatever its category. */
  readonly weak?: boolean;
}

interface Match {
  readonly rule: NameRule;
  readonly start: number;
  readonly end: number;
}

/** Longest non-overlapping phrase matches; `raw` and `sing` are the tokens as written and singularised. */
function matchPhrases(raw: readonly string[], sing: readonly string[], accept: (r: NameRule) => boolean): Match[] {
  const found: Match[] = [];
  for (let i = 0; i < raw.length; i++) {
    const first = RULES_BY_FIRST_TOKEN.get(raw[i]!);
    // Rules under the singular key differ from those under the raw key (the first token is the map key).
    const second = raw[i] === sing[i] ? undefined : RULES_BY_FIRST_TOKEN.get(sing[i]!);
    if (!first && !second) continue;
    for (const list of [first, second]) {
      if (!list) continue;
      for (const rule of list) {
        if (!accept(rule)) continue;
        const p = rule.phrase;
        if (i + p.length > raw.length) continue;
        let ok = true;
        for (let j = 1; j < p.length && ok; j++) ok = raw[i + j] === p[j] || sing[i + j] === p[j];
        if (ok) found.push({ rule, start: i, end: i + p.length });
      }
    }
  }
  if (found.length === 0) return found;
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const taken: boolean[] = new Array(raw.length).fill(false);
  const out: Match[] = [];
  for (const m of found) {
    let free = true;
    for (let k = m.start; k < m.end && free; k++) free = !taken[k];
    if (!free) continue;
    for (let k = m.start; k < m.end; k++) taken[k] = true;
    out.push(m);
  }
  return out;
}

function anyIn(tokens: readonly string[], set: ReadonlySet<string>): boolean {
  for (const t of tokens) if (set.has(t)) return true;
  return false;
}

const EMAIL_WORDS = new Set(['email', 'mail', 'courriel', 'correo', 'emailaddress']);
const PHONE_WORDS = new Set(['phone', 'telephone', 'tel', 'mobile', 'cell', 'fax', 'telefon', 'telefono', 'telefone', 'celular', 'movil', 'cellulare', 'phonenumber', 'telefonnummer', 'cellphone']);
const SECRET_NAME_WORDS = new Set(['secret', 'key', 'token', 'salt', 'password', 'pwd', 'passwd', 'credential', 'auth', 'api', 'private', 'ha', 'signature', 'hmac']);
const STRONG_DETECTORS = new Set<ValueDetector>(['email', 'card', 'iban', 'ssn', 'nino', 'cpf', 'dni', 'jwt', 'api_key', 'password_hash', 'mac', 'dna', 'rsid']);
const S2_DROPPED = new Set<PiiCategory>(['contact', 'financial', 'payment_card', 'location']);
/** Facts about a person's body, beliefs and behaviour: meaningless for a dog, a dorm or a store. */
const CATEGORY_ORDER: ReadonlyMap<PiiCategory, number> = new Map(PII_CATEGORIES.map((c, i) => [c, i]));
const PERSON_FACTS = new Set<PiiCategory>(['demographic_protected', 'health', 'genetic', 'biometric', 'behavioral']);
/** `*_id` names a reference to the thing, not the thing: `phone_id`, `address_id`, `card_id`. */
const ID_VETOED = new Set<PiiCategory>(['contact', 'payment_card', 'financial', 'location']);

interface Context {
  readonly sing: readonly string[];
  readonly tableSing: readonly string[];
  readonly isAnimal: boolean;
  readonly isPerson: boolean;
  readonly tableIsThing: boolean;
  readonly isLookup: boolean;
  readonly isValueList: boolean;
}

function contextHolds(cx: Context, c: RuleContext): boolean {
  const { sing, tableSing } = cx;
  switch (c) {
    case 'person':
      return cx.isPerson;
    case 'card':
      return anyIn(sing, CARD_WORDS) || anyIn(tableSing, CARD_WORDS);
    case 'bank':
      return anyIn(sing, BANK_WORDS) || anyIn(tableSing, BANK_WORDS);
    case 'address':
      return anyIn(tableSing, ADDRESS_WORDS) || anyIn(sing, ADDRESS_WORDS);
    case 'pay':
      return anyIn(tableSing, PAY_WORDS) || anyIn(sing, PAY_WORDS);
    case 'loan':
      return anyIn(tableSing, LOAN_WORDS);
    case 'insurance':
      return anyIn(tableSing, INSURANCE_WORDS) || anyIn(sing, INSURANCE_WORDS);
    case 'clinical':
      return anyIn(tableSing, CLINICAL_CONTEXT_WORDS);
  }
}

/** Negative rules that hold whatever the phrase: lookup tables, and person facts about animals, things or value lists. */
function vetoed(cx: Context, category: PiiCategory): boolean {
  if (cx.isLookup) return true;
  if (cx.isAnimal && (category === 'contact' || category === 'financial')) return true;
  return (cx.isAnimal || cx.tableIsThing || cx.isValueList) && PERSON_FACTS.has(category);
}

function tokensOfText(text: string): { raw: string[]; sing: string[] } {
  const raw = foldAscii(text)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 0);
  return { raw, sing: raw.map(singular) };
}

// Columns are classified table by table: the words of the last table's name are kept for its next column.
let lastTable: { name: string; tableSing: readonly string[] } | null = null;
function tableTokens(name: string): { tableSing: readonly string[] } {
  if (lastTable?.name !== name) lastTable = { name, tableSing: identifierTokens(name).map(singular) };
  return lastTable;
}

/**
 * Classifies one column. Returns null when no signal survives the negative rules; otherwise a tag with
 * sensitivity `pii`, the categories in taxonomy order, the signals that produced them, and a confidence
 * (noisy-or of the signals of the best-supported category).
 */
export function classifyColumn(input: ClassifyInput): PiiTag | null {
  const raw = identifierTokens(input.column);
  const sing = raw.map(singular);
  const { tableSing } = tableTokens(input.table);
  const type = typeKind(input.dataType);
  const signals: Signal[] = [];

  const isAnimal = anyIn(tableSing, ANIMAL_NOUNS);
  // The table's head noun decides what its rows are: `editor_collection` holds collections, `user_profiles` users.
  const head = tableSing[tableSing.length - 1] ?? '';
  const tableIsPerson = PERSON_NOUNS.has(head) || (PERSON_RECORD_WORDS.has(head) && anyIn(tableSing, PERSON_NOUNS));
  const isPerson = !isAnimal && (tableIsPerson || anyIn(sing, PERSON_NOUNS));
  // `account` rows are often people (bank clients), so it does not make the table a thing.
  const tableIsThing = !tableIsPerson && head !== 'account' && THING_NOUNS.has(head);
  const isLookup = tableSing.length > 0 && (LOOKUP_TABLE_WORDS.has(tableSing[0]!) || LOOKUP_TABLE_WORDS.has(head));
  // A table named after the attribute (`gender.gender`, `race.race`) lists the values, not people's values.
  const isValueList = tableSing.length > 0 && tableSing.join(' ') === sing.join(' ');
  const cx: Context = { sing, tableSing, isAnimal, isPerson, tableIsThing, isLookup, isValueList };

  // 1. Column-name phrases.
  for (const m of matchPhrases(raw, sing, () => true)) {
    const { rule } = m;
    // A credential is one whatever its declared type (a numeric PIN, a SQLite `password INTEGER` that holds text).
    const credentialAnyType = rule.category === 'credential' && rule.weight >= 0.85 && type !== 'boolean' && type !== 'temporal';
    if (!compatible(rule.kind, type) && !credentialAnyType) continue;
    if (rule.context && !contextHolds(cx, rule.context)) continue;
    if (vetoed(cx, rule.category)) continue;
    if (VETOABLE.has(rule.category)) {
      let attr = false;
      for (let k = m.end; k < raw.length && !attr; k++) {
        attr = ATTRIBUTE_WORDS.has(raw[k]!) || ATTRIBUTE_WORDS.has(sing[k]!) || (raw[k] === 'id' && ID_VETOED.has(rule.category));
      }
      for (let k = 0; k < m.start && !attr; k++) attr = PREFIX_WORDS.has(raw[k]!);
      if (attr) continue;
    }
    // `product_name`, `wine_age`: the noun before the phrase owns it.
    if (rule.context === 'person' && m.start > 0 && THING_NOUNS.has(sing[m.start - 1]!)) continue;
    const ctx = rule.context ? `+${rule.context}` : '';
    signals.push({ category: rule.category, label: `name:${rule.phrase.join('_')}${ctx}`, weight: rule.weight, ...(rule.weight < 0.7 ? { weak: true } : {}) });
  }
  // `essn`, `mgrssn`, `super_ssn`: SSN-valued keys in the classic textbook schemas.
  for (const t of raw) {
    if (t !== 'ssn' && t.endsWith('ssn') && t.length <= 6 && type !== 'temporal' && type !== 'boolean' && !isLookup) {
      signals.push({ category: 'government_id', label: `name:${t}`, weight: 0.7 });
    }
  }

  // 2. Declared type and domain names (`inet`, `geometry`, AdventureWorks' `"Phone"` domain).
  if (type === 'network') signals.push({ category: 'online_identifier', label: `type:${input.dataType.toLowerCase()}`, weight: 0.8 });
  if (type === 'geo' && !isLookup) signals.push({ category: 'location', label: `type:${input.dataType.toLowerCase()}`, weight: 0.6 });
  if (type === 'other') {
    const dt = identifierTokens(input.dataType.replace(/\(.*$/, ''));
    for (const m of matchPhrases(dt, dt.map(singular), (r) => r.inComments)) {
      if (!vetoed(cx, m.rule.category)) signals.push({ category: m.rule.category, label: `type:${m.rule.phrase.join('_')}`, weight: Math.min(0.75, m.rule.weight) });
    }
  }

  // 3. Column comment: strong phrases only, and not when the column is itself an attribute or a switch. A comment
  // explains an opaque name or confirms a clear one; it does not add categories to a clear name
  // (`passwordhash` "Password for the e-mail account" is a credential, not contact data).
  const nameCategories = new Set(signals.map((s) => s.category));
  if (input.comment) {
    const c = tokensOfText(input.comment);
    const columnIsAttribute = anyIn(raw, ATTRIBUTE_WORDS) || anyIn(raw, PREFIX_WORDS);
    for (const m of matchPhrases(c.raw, c.sing, (r) => r.inComments)) {
      const { rule } = m;
      if (!compatible(rule.kind, type) || vetoed(cx, rule.category)) continue;
      if (VETOABLE.has(rule.category) && (columnIsAttribute || (m.end < c.raw.length && ATTRIBUTE_WORDS.has(c.raw[m.end]!)))) continue;
      if (nameCategories.size > 0 && !nameCategories.has(rule.category)) continue;
      signals.push({ category: rule.category, label: `comment:${rule.phrase.join('_')}`, weight: Math.min(0.7, rule.weight) });
    }
  }

  // 4. Enum labels: a closed set of gender, marital-status or blood-type values.
  if (input.enumLabels && input.enumLabels.length >= 2 && !isAnimal) {
    for (const e of scanSamples(input.enumLabels)) {
      if (e.detector === 'gender' || e.detector === 'marital' || e.detector === 'blood_type') {
        signals.push({ category: e.category, label: `enum:${e.detector}`, weight: 0.75 });
      }
    }
  }

  // 5. Sampled values.
  const samples = input.samples ?? [];
  let evidence: ValueEvidence[] = [];
  if (samples.length > 0) {
    evidence = scanSamples(samples);
    for (const e of evidence) {
      if (e.detector === 'ip' && anyIn(raw, VERSION_WORDS)) continue;
      if ((e.detector === 'card' || e.detector === 'iban') && anyIn(raw, PRODUCT_CODE_WORDS)) continue;
      if (e.detector === 'secret_shaped' && !anyIn(sing, SECRET_NAME_WORDS)) continue;
      if ((e.detector === 'gender' || e.detector === 'marital') && (isAnimal || isLookup)) continue;
      const frac = e.matched / e.total;
      const base = e.detector === 'secret_shaped' ? 0.45 : STRONG_DETECTORS.has(e.detector) ? 0.6 : 0.5;
      signals.push({ category: e.category, label: `values:${e.detector} ${e.matched}/${e.total}`, weight: Math.min(0.97, base + 0.35 * frac) });
    }
  }

  // 5b. Free text holding floor secrets (a `memo` with card numbers, keys or SSNs inside sentences): the whole
  // column is tagged, so it is masked like any blocked column, whatever else it holds.
  if (samples.length > 0 && (type === 'text' || type === 'structured' || type === 'other')) {
    const have = new Set(evidence.map((e) => e.category));
    for (const c of embeddedSecretCategories(samples)) if (!have.has(c)) signals.push({ category: c, label: `values:embedded_${c}`, weight: 0.9 });
  }

  // 6. A clinical table's measurements (`Laboratory.HGB`) are health data when nothing else claimed them.
  if (
    signals.length === 0 &&
    (anyIn(tableSing, CLINICAL_TABLE_WORDS) || (input.tableComment ? anyIn(tokensOfText(input.tableComment).sing, CLINICAL_TABLE_WORDS) : false)) &&
    type !== 'temporal' &&
    type !== 'boolean' &&
    type !== 'uuid' &&
    raw.length > 0 &&
    raw[raw.length - 1] !== 'id' &&
    !raw.every((t) => t === 'date' || t === 'time' || /^\d+$/.test(t))
  ) {
    signals.push({ category: 'health', label: 'table:clinical', weight: 0.45 });
  }

  if (signals.length === 0) return null;
  let kept = signals;

  // Values that flatly contradict a non-catastrophic name signal win: a `phone` column of model names is not contact data.
  if (samples.length >= 5) {
    const noAt = !samples.some((s) => s.includes('@'));
    const digits = digitShare(samples, 7);
    kept = kept.filter((s) => {
      if (!s.label.startsWith('name:') || s.category !== 'contact') return true;
      const words = s.label.slice(5).split(/[_+]/);
      if (words.some((w) => EMAIL_WORDS.has(w)) && noAt) return false;
      if (words.some((w) => PHONE_WORDS.has(w)) && digits.total >= 5 && digits.share === 0) return false;
      return true;
    });
    // A weak name (`pin`, `long`, `balance`) yields to values with no digits at all; strong names never do.
    const anyDigits = digitShare(samples, 1);
    if (anyDigits.total >= 5 && anyDigits.share === 0) {
      kept = kept.filter((s) => !(s.weak && (s.category === 'credential' || s.category === 'location' || s.category === 'financial')));
    }
  }

  // S2: an integer `*_id` is a foreign key; it carries no contact, money, card or place data itself.
  const lastRaw = raw[raw.length - 1] ?? '';
  if (type === 'integer' && (lastRaw === 'id' || (raw.length === 1 && /[a-z]id$/.test(lastRaw)))) {
    kept = kept.filter((s) => !S2_DROPPED.has(s.category) || s.label.startsWith('values:'));
  }
  if (kept.length === 0) return null;

  const byCategory = new Map<PiiCategory, number>();
  for (const s of kept) byCategory.set(s.category, 1 - (1 - (byCategory.get(s.category) ?? 0)) * (1 - s.weight));
  const categories = PII_CATEGORIES.filter((c) => byCategory.has(c));
  let confidence = 0;
  for (const v of byCategory.values()) confidence = Math.max(confidence, v);
  const signalLabels = [...new Set([...kept].sort((a, b) => CATEGORY_ORDER.get(a.category)! - CATEGORY_ORDER.get(b.category)!).map((s) => s.label))];
  return {
    categories,
    sensitivity: 'pii',
    confidence: Math.round(Math.min(0.99, confidence) * 100) / 100,
    signals: signalLabels,
    origin: 'classifier',
  };
}
