/**
 * Baseline: a names-only classifier equivalent to the original SchemaBrain's `classifier.py` rule table as
 * described in ../shared/reference/original-schemabrain.md §7.2: `_kw` token matching on non-alphanumeric
 * boundaries over the lowercased column name, the union of every matching rule, the S1 thing-noun guard for
 * `<prefix>_name`, and the S2 integer foreign-key guard. Samples, comments and types other than the S2 check are
 * ignored, as in the original.
 */
import type { PiiCategory } from '../../src/core/envelope/kinds';

const RULES: ReadonlyArray<readonly [string, readonly PiiCategory[]]> = [
  ['email|e_?mail', ['contact']],
  ['phone|mobile|fax', ['contact']],
  ['address|address_line|address_street|street', ['contact']],
  ['first_name|last_name|middle_name|full_name|given_name|family_name', ['contact']],
  ['name|user_name|customer_name|display_name|legal_name|contact_name', ['contact']],
  ['zip|zip_code|postal_code', ['contact']],
  ['city|state|country', ['contact']],
  ['salary|wage|income', ['financial']],
  ['balance|revenue', ['financial']],
  ['amount|transaction_amount|transaction_value', ['financial']],
  ['card_number|card_num|card_pan|pan', ['payment_card']],
  ['cvv|cvc', ['payment_card']],
  ['iban', ['payment_card']],
  ['account_number|bank_account|routing_number|sort_code', ['payment_card']],
  ['credit_card|creditcard|credit_card_no|debit_card|debitcard|cardnumber|card_no|cardno|cc_num|ccnum|cc_number|ccnumber|swift_code|swift_bic|bic', ['payment_card']],
  ['diagnosis|medication|treatment', ['health']],
  ['icd9|icd_9|icd10|icd_10|cpt_code', ['health']],
  ['phi|mrn|medical_record', ['health']],
  ['allergy|blood_type|prescription|lab_result|symptom|bmi|vital_sign', ['health']],
  ['patient|insurance_id|health_record', ['health']],
  ['encounter_id|visit_id|admission_id|discharge_id', ['health']],
  ['insurance_member_id|insurance_subscriber_id', ['health']],
  ['genome|genotype|dna_seq|rsid', ['genetic']],
  ['fingerprint|face_id|face_hash|face_embedding|face_print|face_vector|voiceprint|iris|biometric', ['biometric']],
  ['purchase_history|browse_history|clickstream|click_stream|event_log', ['behavioral']],
  ['ip|ip_addr|ip_address|client_ip|remote_ip|src_ip', ['online_identifier']],
  ['cookie_id|device_id|session_id|idfa|gaid', ['online_identifier']],
  ['aid|google_aid|fb_aid|advertising_aid', ['online_identifier']],
  ['wallet_address|blockchain_address|crypto_address', ['online_identifier']],
  ['password|passwd|pwd', ['credential']],
  ['api_key|secret', ['credential']],
  ['token|refresh_token|access_token|session_id', ['credential']],
  ['pass_hash|pw_hash', ['credential']],
  ['private_key|seed_phrase|mnemonic_phrase|mnemonic', ['credential']],
  ['pin|pin_code|recovery_code|security_answer', ['credential']],
  ['ssh_key|kms_key|encryption_key|signing_key|aws_access_key', ['credential']],
  ['magic_link|webauthn_credential|totp_seed', ['credential']],
  ['passwordhash|pwhash|passhash|pwdhash|apikey|apisecret|apitoken|accesstoken|refreshtoken|authtoken|bearertoken|sessiontoken|privatekey|secretkey|accesskey|signingkey|encryptionkey', ['credential']],
  ['ssn|tin|nino', ['government_id']],
  ['passport', ['government_id']],
  ['driver_license|driver_licence|drivers_license|drivers_licence|dl_number|dl_no|driver_license_number|drivers_license_number', ['government_id']],
  ['tax_id', ['government_id']],
  ['national_id|aadhar|aadhaar|voter_id|ein', ['government_id']],
  ['npi|provider_npi|dea_number', ['government_id']],
  ['lat|latitude|lon|lng|longitude', ['location']],
  ['location|geolocation|gps|coords|coord', ['location']],
  ['dob|date_of_birth|birth_date|birthdate', ['demographic_protected']],
  ['race|ethnicity|religion', ['demographic_protected']],
  ['orientation|sexual_orientation|gender_orientation', ['demographic_protected']],
  ['political_party|political_view|political_affiliation|trade_union', ['demographic_protected']],
  ['age|gender|sex|disability|marital_status|nationality|veteran_status', ['demographic_protected']],
  ['correo_electronico|courriel', ['contact']],
  ['telefonnummer|numero_telefono|numero_telephone', ['contact']],
  ['kreditkartennummer|numero_carte_credit|numero_tarjeta_credito', ['payment_card']],
  ['sozialversicherungsnummer|numero_seguridad_social|numero_securite_sociale|cpf|cnpj|dni|nif|nie|codice_fiscale|curp|nric|bsn|pesel', ['government_id']],
];

/** `_kw`: the keyword bounded by start/end or a non-alphanumeric character. */
const COMPILED = RULES.map(([alts, cats]) => ({ re: new RegExp(`(?:^|[^a-z0-9])(?:${alts})(?:$|[^a-z0-9])`), cats, isNameRule: alts.startsWith('name|') }));

const S1_NOUNS = new Set(
  'product|brand|category|language|currency|tag|event|feature|setting|field|column|table|database|service|process|task|job|file|directory|folder|bucket|device|app|module|plugin|report|dashboard|widget|channel|topic|queue|host|cluster'.split('|'),
);
const FK_SAFE = new Set<PiiCategory>(['credential', 'online_identifier', 'government_id', 'health', 'demographic_protected', 'behavioral', 'location']);
const INTEGER_LIKE = /^(?:int\w*|bigint|smallint|tinyint|mediumint|serial\w*|bigserial|smallserial)\b/;

export function classifyNamesOnly(column: string, dataType: string, table: string): PiiCategory[] {
  const name = column.toLowerCase();
  const tbl = table.toLowerCase();
  const out = new Set<PiiCategory>();
  for (const r of COMPILED) {
    if (!r.re.test(name)) continue;
    if (r.isNameRule) {
      const m = /^([a-z0-9]+)_name$/.exec(name);
      if (m && S1_NOUNS.has(m[1]!)) continue;
      if (name === 'name' && (S1_NOUNS.has(tbl) || S1_NOUNS.has(tbl.replace(/s$/, '')))) continue;
    }
    for (const c of r.cats) out.add(c);
  }
  if (INTEGER_LIKE.test(dataType.toLowerCase().trim()) && /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*_id$/.test(name)) {
    for (const c of [...out]) if (!FK_SAFE.has(c)) out.delete(c);
  }
  return [...out];
}
