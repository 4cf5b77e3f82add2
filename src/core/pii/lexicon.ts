/**
 * The classifier's vocabulary: name phrases per category (English plus German, French, Spanish, Portuguese,
 * Italian and Dutch forms), context nouns, and the attribute words that stop over-tagging. Data only; the
 * logic lives in classify.ts. Phrases are written as space-separated tokens as produced by tokens.ts.
 */
import type { PiiCategory } from '../envelope/kinds';

/** What the column must be able to hold for a phrase to count: a `password` column cannot be a boolean. */
export type ValueKind = 'text' | 'num' | 'date' | 'code' | 'any';

/** A context the phrase needs: `name` names a person only in a table of persons; `pan` is a card only near cards. */
export type RuleContext = 'person' | 'card' | 'bank' | 'address' | 'pay' | 'loan' | 'insurance' | 'clinical';

export interface NameRule {
  readonly phrase: readonly string[];
  readonly category: PiiCategory;
  readonly kind: ValueKind;
  readonly weight: number;
  readonly context?: RuleContext;
  /** Strong phrases also count when found in a column comment. */
  readonly inComments: boolean;
}

const specs: NameRule[] = [];
/** Single words strong enough to count in free-text comments; other single words are too common in prose (`mobile app`, `disabled`). */
const COMMENT_WORDS = new Set(
  ('email|password|ssn|salary|wage|wages|income|latitude|longitude|passport|diagnosis|iban|birthdate|birthday|dob|nationality|ethnicity|' +
    'religion|gender|login|username|telephone|phone|fax|resume|geolocation|coordinates|medication|allergy|allergies|symptoms|prescription|' +
    'genotype|genome|biometric|courriel|passwort|senha|contrasena|salaire|gehalt|telefon|telefono|surname|forename|firstname|lastname').split('|'),
);

function add(phrases: string, category: PiiCategory, kind: ValueKind, weight: number, context?: RuleContext, comments = true): void {
  for (const p of phrases.split('|')) {
    const phrase = p.trim().split(/\s+/);
    const inComments = comments && !context && weight >= 0.7 && (phrase.length > 1 || COMMENT_WORDS.has(phrase[0]!));
    specs.push({ phrase, category, kind, weight, ...(context ? { context } : {}), inComments });
  }
}

// contact ------------------------------------------------------------------------------------------------------
add('email|e mail|email address|emailaddress|mail address|courriel|correo|correo electronico|posta elettronica|e post', 'contact', 'text', 0.85);
add('phone|phone number|phonenumber|telephone|telephone number|tel|tel no|telno|mobile|mobile number|mobile phone|cell phone|cellphone|cell number|cell mobile|fax|fax number|contact number|telefon|telefonnummer|telefono|telefone|numero telefono|numero telephone|celular|movil|cellulare|handynummer|mobilnummer|telefoonnummer', 'contact', 'num', 0.8);
add('extension|ext', 'contact', 'num', 0.45, 'person', false);
add('address|addr|address line|addressline|street|street address|streetaddress|billing address|shipping address|home address|mailing address|postal address|adresse|anschrift|strasse|hausnummer|house number|rue|calle|rua|direccion|endereco|indirizzo|straat', 'contact', 'text', 0.7);
add('line', 'contact', 'text', 0.55, 'address', false);
add('zip|zipcode|zip code|zip postcode|postal code|postalcode|postcode|post code|plz|postleitzahl|code postal|codigo postal|cep|postcode nl', 'contact', 'num', 0.7);
add('pin code|pincode', 'contact', 'num', 0.5, 'address', false);
add('first name|firstname|fname|forename|given name|givenname|last name|lastname|lname|surname|family name|familyname|middle name|middlename|mname|middle initial|minit|full name|fullname|display name|displayname|legal name|personal name|maiden name|nickname|nick name|preferred name|contact name|contact person|vorname|nachname|familienname|prenom|nom de famille|apellido|apellidos|sobrenome|cognome|achternaam|voornaam', 'contact', 'text', 0.85);
add('name|nom|nombre|nome|naam', 'contact', 'text', 0.6, 'person', false);
add('website|web site|homepage|home page|personal url|blog', 'contact', 'text', 0.5, 'person', false);
add('resume|cv|curriculum vitae|contact info|contact information|contact details|additional contact', 'contact', 'any', 0.7);

// financial -----------------------------------------------------------------------------------------------------
add('salary|salaries|wage|wages|income|earnings|compensation|remuneration|payroll|net worth|annual income|yearly income|gehalt|lohn|einkommen|salaire|salario|salaria|stipendio|ingreso|ingresos|renda|loon|hourly rate|pay rate|payrate', 'financial', 'num', 0.8);
add('bonus|commission', 'financial', 'num', 0.6, 'person', false);
add('credit score|credit limit|credit rating', 'financial', 'num', 0.6, 'person', false);
add('balance|account balance', 'financial', 'num', 0.55);
add('debt|mortgage|loan amount', 'financial', 'num', 0.6);
add('amount|payment|payments|principal|installment|instalment', 'financial', 'num', 0.5, 'loan', false);
add('rate', 'financial', 'num', 0.5, 'pay', false);

// payment_card --------------------------------------------------------------------------------------------------
add('card number|cardnumber|card num|card no|cardno|credit card|creditcard|credit card number|debit card|debitcard|cc number|ccnumber|cc num|ccnum|card pan|primary account number|cvv|cvv2|cvc|cvc2|card verification|card security code|iban|routing number|sort code|bank account|bank account number|kreditkarte|kreditkartennummer|tarjeta|tarjeta credito|numero tarjeta|carte credit|carte bancaire|cartao|cartao credito', 'payment_card', 'num', 0.85);
add('pan', 'payment_card', 'num', 0.7, 'card', false);
add('account number|account no|acct number|acct no', 'payment_card', 'num', 0.7, 'bank', false);
add('exp month|exp year|exp date|expiry|expiry date|expiration|expiration date|expiration month|expiration year|valid to|valid thru|valid until', 'payment_card', 'date', 0.6, 'card', false);

// government_id -------------------------------------------------------------------------------------------------
add('ssn|social security|social security number|social security no|nino|national insurance|national insurance number|national id|national identification|national identity|passport|passport number|passport no|driver license|driver licence|drivers license|drivers licence|driving license|driving licence|dl number|dl no|tax id|taxid|tax identification|taxpayer id|taxpayer|tin|itin|aadhaar|aadhar|voter id|cpf|dni|nif|nie|codice fiscale|curp|nric|bsn|pesel|personnummer|sozialversicherungsnummer|steuer id|steueridentifikationsnummer|personalausweis|personalausweisnummer|securite sociale|numero securite sociale|seguridad social|numero seguridad social|seguro social|identity card|id card number|identity number|vat number|vat no|vat id|vatin|vat registration|ein|ni number|ni no', 'government_id', 'num', 0.85);
add('id number|tax number', 'government_id', 'num', 0.5, 'person', false);

// credential ----------------------------------------------------------------------------------------------------
add('password|passwd|pwd|pw|passcode|jwt|jwt token|session cookie|auth cookie|passphrase|pass hash|passhash|pw hash|pwhash|pwdhash|password hash|passwordhash|password salt|secret|client secret|api key|apikey|api secret|apisecret|api token|apitoken|access token|accesstoken|refresh token|refreshtoken|auth token|authtoken|bearer token|bearertoken|id token|session token|sessiontoken|session secret|csrf token|reset token|verification token|confirmation token|private key|privatekey|secret key|secretkey|signing key|signingkey|encryption key|encryptionkey|ssh key|access key|accesskey|aws access key|kms key|seed phrase|mnemonic|mnemonic phrase|recovery code|backup code|security answer|otp secret|otp seed|totp|totp seed|totp secret|mfa secret|mfa seed|2fa secret|2fa seed|twofa secret|hotp secret|authorization code|auth code|oauth secret|oauth token|credential|credentials|ha 1|htpasswd|magic link|webauthn credential|passwort|kennwort|mot de passe|motdepasse|contrasena|senha|wachtwoord', 'credential', 'text', 0.85);
add('token', 'credential', 'text', 0.6);
add('pin|pin number|pin hash|card pin|atm pin', 'credential', 'num', 0.6);

// online_identifier ---------------------------------------------------------------------------------------------
add('ip|ip address|ipaddress|ip addr|client ip|remote ip|remote addr|remote address|src ip|dst ip|source ip|user ip|ipv4|ipv6|mac address|macaddress|mac addr|network address|device id|deviceid|device identifier|device token|cookie id|cookie|session id|sessionid|advertising id|idfa|idfv|gaid|adid|imei|imsi|user agent|useragent|wallet address|crypto address|blockchain address|bitcoin address|device fingerprint|browser fingerprint', 'online_identifier', 'any', 0.8);
add('username|user name|login|login name|login id|loginid|screen name|user login|benutzername|nom utilisateur|nombre usuario', 'online_identifier', 'text', 0.7);

// health --------------------------------------------------------------------------------------------------------
add('diagnosis|diagnoses|diagnostic|diagnose|icd|icd 9|icd 10|cpt code|medication|medications|prescription|prescriptions|dose|dosage|allergy|allergies|blood type|blood group|blood pressure|heart rate|bmi|vital sign|vital signs|vitals|lab result|lab results|symptom|symptoms|medical|medical record|medical history|mrn|phi|health record|health|disease|illness|insurance id|insurance number|insurance member id|insurance subscriber id|pregnant|pregnancy|hiv|vaccination|vaccine|immunization|smoker|smoking status|mental health|krankheit|diagnostico|enfermedad|maladie|medikament|medicament|medicamento|diagnostiek', 'health', 'any', 0.75);
add('member id|policy number|subscriber id', 'health', 'any', 0.5, 'insurance', false);
add('admission|discharge|procedure|procedures|treatment|treatments', 'health', 'any', 0.5, 'clinical', false);

// genetic / biometric / behavioral ------------------------------------------------------------------------------
// Bare `dna` is left out: in clinical tables it names an antibody test (anti-dsDNA), not a genome.
add('genome|genotype|genetic|dna sequence|dna seq|dna profile|dna sample|rsid|snp|allele|haplotype|gene variant', 'genetic', 'any', 0.75);
add('finger print|fingerprint template|fingerprint image|face id|faceid|face hash|face embedding|face print|faceprint|face vector|face template|face encoding|voiceprint|voice print|iris|iris scan|retina|retina scan|biometric|biometrics|palm print', 'biometric', 'any', 0.8);
add('fingerprint', 'biometric', 'any', 0.55, 'person', false);
add('purchase history|browse history|browsing history|search history|clickstream|click stream|location history|watch history|viewing history|listening history', 'behavioral', 'any', 0.7);
add('last login|last logon|latest logon|last access|last seen|last active|last sign in|last signin', 'behavioral', 'date', 0.7);

// demographic_protected -----------------------------------------------------------------------------------------
add('dob|date of birth|birth date|birthdate|birthday|bdate|birth|born|birth place|birthplace|geburtsdatum|geburtstag|geburtsort|naissance|date naissance|nacimiento|fecha nacimiento|nascimento|data nascimento|nascita|geboortedatum', 'demographic_protected', 'date', 0.8);
add('age|edad|idade|alter|leeftijd', 'demographic_protected', 'num', 0.6, 'person', false);
add('gender|sex|geschlecht|sexe|sexo|genero|sesso|geslacht', 'demographic_protected', 'code', 0.75);
add('marital|marital status|maritalstatus|civil status|familienstand|etat civil|estado civil', 'demographic_protected', 'code', 0.8);
add('ethnicity|ethnic|ethnic group|religion|religious|sexual orientation|political|political party|political affiliation|political view|trade union|union membership|disability|disabled|handicap|veteran|veteran status|citizenship|demographics|demographic', 'demographic_protected', 'any', 0.75);
add('race|nationality|orientation|nationalite|nacionalidad|nacionalidade|staatsangehoerigkeit|nationaliteit', 'demographic_protected', 'code', 0.65, 'person', false);

// location ------------------------------------------------------------------------------------------------------
add('lat|latitude|lng|lon|longitude|geolocation|geo location|gps|coords|coordinates|coordinate|coord|geopoint|geo point|geom|geometry|spatial|spatial location|lat lng|lat lon|latlng|latlong|breitengrad|laengengrad|latitud|longitud|home location|current location', 'location', 'num', 0.75);
add('long', 'location', 'num', 0.5);
add('location', 'location', 'text', 0.5, 'person', false);

export const NAME_RULES: readonly NameRule[] = specs;

/** Rules indexed by their first token, so matching a column costs a few map look-ups per token. */
export const RULES_BY_FIRST_TOKEN: ReadonlyMap<string, readonly NameRule[]> = (() => {
  const m = new Map<string, NameRule[]>();
  for (const r of specs) {
    const list = m.get(r.phrase[0]!) ?? [];
    list.push(r);
    m.set(r.phrase[0]!, list);
  }
  // Longest phrase first, so the first full match at a position is the most specific one.
  for (const list of m.values()) list.sort((a, b) => b.phrase.length - a.phrase.length);
  return m;
})();

/** Natural persons: a table of these makes a bare `name` or `age` personal. Singular forms. */
export const PERSON_NOUNS: ReadonlySet<string> = new Set(
  ('person|individual|human|customer|client|user|member|employee|staff|worker|personnel|student|pupil|learner|teacher|tutor|author|instructor|' +
    'professor|lecturer|faculty|advisor|mentor|patient|physician|doctor|nurse|surgeon|dentist|therapist|owner|guest|visitor|contact|applicant|' +
    'candidate|driver|player|athlete|actor|actress|scientist|researcher|scholar|dependent|dependant|spouse|friend|manager|supervisor|' +
    'salesperson|salesman|buyer|tenant|landlord|resident|citizen|voter|donor|volunteer|subscriber|cardholder|holder|beneficiary|passenger|' +
    'traveler|traveller|pilot|coach|referee|musician|singer|editor|reviewer|admin|administrator|adm|officer|professional|participant|attendee|' +
    'lawyer|judge|witness|suspect|victim|inmate|prisoner|soldier|veteran|trainee|intern|graduate|alumnus|alumni|recipient|sender|account holder|' +
    'kunde|mitarbeiter|benutzer|cliente|usuario|utilisateur|empleado|funcionario|klant|gebruiker|medewerker').split('|'),
);

/** Things, not people: `product_name`, `company_name`, `wine.age`. The original's S1 list plus common business nouns. */
export const THING_NOUNS: ReadonlySet<string> = new Set(
  ('product|brand|category|language|currency|tag|event|feature|setting|field|column|table|database|schema|service|process|task|job|file|' +
    'directory|folder|bucket|device|app|application|module|plugin|report|dashboard|widget|channel|topic|queue|host|cluster|company|business|' +
    'organisation|organization|org|firm|vendor|supplier|shipper|ship|store|shop|item|department|dept|team|club|school|district|county|city|' +
    'state|country|region|territory|building|room|course|subject|section|semester|degree|major|program|project|account|model|hardware|chip|' +
    'badge|genre|album|track|playlist|media|unit|plan|role|type|status|bank|station|airport|route|campaign|group|layer|attribute|power|publisher|' +
    'power|server|network|domain|index|key|constraint|view|function|trigger|sequence|street|area|place|venue|circuit|race|' +
    'constructor|stock|inventory|warehouse|loan|order|invoice|contract|policy|document|template|image|video|game|movie|film|book|title|' +
    'wine|grape|appellation|software|version|release|recording|work|label|series|season|stage|step|page|site|template|dorm|amenity|facility|' +
    'asset|vehicle|car|aircraft|flight|train|bike|trip|weather|battery|point|leave|vacation|screen|graphic|mode|market|phone|carrier').split('|'),
);

/** Animals: a dog's name, age and date of birth are not personal data. */
export const ANIMAL_NOUNS: ReadonlySet<string> = new Set('dog|cat|pet|animal|horse|breed|cattle|livestock|puppy|kitten|species|fish'.split('|'));

/**
 * Words that, after the matched phrase, make the column an attribute of the sensitive thing
 * rather than the thing: `token_count`, `phone_type`, `email_verified`, `password_changed_at`, `max_tokens`,
 * `order_state`. These are the over-tags of a names-only classifier.
 */
export const ATTRIBUTE_WORDS: ReadonlySet<string> = new Set(
  ('type|types|kind|category|status|state|count|counts|cnt|flag|enabled|verified|verification|confirmed|confirm|provider|brand|issuer|network|' +
    'format|length|len|size|limit|policy|model|make|version|approval|approved|created|updated|changed|modified|sent|at|date|time|ts|' +
    'timestamp|expires|expiry|expired|ttl|attempts|attempt|strength|required|optional|rule|rules|opt|optin|optout|opted|consent|preference|' +
    'preferences|promotion|promotions|visibility|visible|hidden|shown|style|prefix|suffix|frequency|interval|schedule|period|currency|method|' +
    'unit|units|template|label|rating|quota|min|max|avg|mean|total|sum|domain|host|server|service|company|score|hint|question|link|ref|' +
    'reference|path|image|photo|picture|icon|pattern|regex|mask|masked|last4|checksum|ratio|share|index|other|detail|details|note|notes|' +
    'comment|comments|description|remark|remarks|archive|file|files').split('|'),
);

/** Words before the phrase that turn it into a measure or a switch: `max_tokens`, `num_passwords`, `is_email_public`. */
export const PREFIX_WORDS: ReadonlySet<string> = new Set('min|max|avg|mean|total|sum|num|count|cnt|nb|is|has|allow|allowed|use|show|require|required|enable|enabled|link|ref|fk|default|sample|example|test|dummy|fake|mock'.split('|'));

/** Categories that attribute and prefix words can remove; health, demographic and behavioural facts keep their dates and types. */
export const VETOABLE: ReadonlySet<PiiCategory> = new Set<PiiCategory>(['contact', 'credential', 'payment_card', 'government_id', 'online_identifier', 'financial', 'location', 'genetic', 'biometric']);

/** Words that make a table a lookup of values (`Ref_Address_Types`, `Allergy_Type`), not a table of people. */
export const LOOKUP_TABLE_WORDS: ReadonlySet<string> = new Set('ref|lookup|lu|type|types|code|codes|category|categories|kind|kinds|enum|option|options'.split('|'));

/** Clinical tables: their measurements are health data even when named by lab abbreviations (`GOT`, `HGB`). */
export const CLINICAL_TABLE_WORDS: ReadonlySet<string> = new Set('laboratory|lab|examination|vital|diagnosis|diagnose|clinical|pathology|radiology|symptom|labresult|observation'.split('|'));

export const CARD_WORDS: ReadonlySet<string> = new Set('card|cards|creditcard|debitcard|credit|debit|payment|billing|cc|pan|cardholder'.split('|'));
export const BANK_WORDS: ReadonlySet<string> = new Set('bank|banking|iban|routing|sort|swift|bic|ach|sepa|beneficiary|payee|payout|wire|transfer'.split('|'));
export const ADDRESS_WORDS: ReadonlySet<string> = new Set('address|addresses|addr|location|locations|residence|shipping|billing|mailing'.split('|'));
export const PAY_WORDS: ReadonlySet<string> = new Set('pay|payroll|salary|wage|wages|compensation|remuneration|payhistory'.split('|'));
export const LOAN_WORDS: ReadonlySet<string> = new Set('loan|loans|mortgage|credit|debt|lending'.split('|'));
/** Tables of patients and care: `admission` or `procedure` there is a health fact. */
export const CLINICAL_CONTEXT_WORDS: ReadonlySet<string> = new Set('patient|hospital|clinic|clinical|medical|ward|inpatient|outpatient|admission|encounter|care'.split('|'));
/** Table heads that keep the person of a compound name: `user_profiles`, `customer_details`. */
export const PERSON_RECORD_WORDS: ReadonlySet<string> = new Set('profile|detail|details|info|record|data|master|account|dim'.split('|'));
export const INSURANCE_WORDS: ReadonlySet<string> = new Set('insurance|insured|insurer|policyholder|coverage|claim'.split('|'));

/** A version-like name vetoes IPv4-shaped values (`4.2.1.0` is a build, not an address). */
export const VERSION_WORDS: ReadonlySet<string> = new Set('version|ver|build|release|revision|rev|semver|firmware|oid'.split('|'));
/** Product codes vetoes card-shaped values. */
export const PRODUCT_CODE_WORDS: ReadonlySet<string> = new Set('isbn|ean|upc|gtin|barcode|sku|asin|issn|tracking'.split('|'));

/** Extra words for splitting concatenated identifiers; the phrase words above are added by classify.ts. */
export const SEGMENT_WORDS: readonly string[] = (
  'id|no|nr|num|number|date|time|code|type|name|line|hash|salt|key|info|information|additional|flag|status|history|rate|frequency|' +
  'hours|hour|leave|sick|vacation|hire|job|title|node|organization|business|entity|person|phone|promotion|style|modified|row|guid|' +
  'change|order|purchase|sales|sale|ship|method|tracking|carrier|approval|revision|territory|province|state|country|region|currency|' +
  'quota|ytd|year|month|day|last|first|middle|family|given|full|display|legal|pay|history|account|card|expiration|exp|credit|debit|' +
  'email|mail|address|postal|post|zip|street|city|spatial|location|national|identity|login|user|password|pass|word|birth|marital|' +
  'gender|demographics|contact|employee|department|shift|start|end|group|candidate|resume|unit|measure|price|discount|standard|lead|' +
  'min|max|average|receipt|cost|qty|quantity|due|total|sub|tax|amt|freight|comment|online|special|offer|description|product|vendor|' +
  'preferred|active|web|service|url|rating|store|reason|salaried|current|valid|from|to|of|the|and|for|by|on|in|is|has|da|de|di'
).split('|');
