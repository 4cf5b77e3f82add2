import assert from 'node:assert/strict';
import { classifyColumn, identifierTokens, type ClassifyInput } from '../../../src/core/pii/classify';

function cats(table: string, column: string, dataType = 'text', extra: Partial<ClassifyInput> = {}): readonly string[] {
  return classifyColumn({ schema: 'public', table, column, dataType, ...extra })?.categories ?? [];
}

describe('PII classifier: identifier tokens', () => {
  it('splits snake, camel, ALLCAPS and all-lowercase concatenations into words', () => {
    assert.deepEqual(identifierTokens('AdmFName1'), ['adm', 'f', 'name', '1']);
    assert.deepEqual(identifierTokens('FIRST_NAME'), ['first', 'name']);
    assert.deepEqual(identifierTokens('nationalidnumber'), ['national', 'id', 'number']);
    assert.deepEqual(identifierTokens('emailpromotion'), ['email', 'promotion']);
    assert.deepEqual(identifierTokens('HTTPServerLog'), ['http', 'server', 'log']);
    assert.deepEqual(identifierTokens('Téléphone'), ['telephone']);
  });
});

describe('PII classifier: each category with positives and hard negatives', () => {
  it('tags contact data from names and leaves workflow states and company names alone', () => {
    assert.deepEqual(cats('customer', 'email'), ['contact']);
    assert.deepEqual(cats('customer', 'first_name'), ['contact']);
    assert.deepEqual(cats('person', 'phonenumber', 'varchar(25)'), ['contact']);
    assert.deepEqual(cats('staff', 'name'), ['contact']);
    assert.deepEqual(cats('orders', 'order_state'), []);
    assert.deepEqual(cats('customers', 'company_name'), []);
    assert.deepEqual(cats('products', 'product_name'), []);
    assert.deepEqual(cats('users', 'email_verified', 'boolean'), []);
    assert.deepEqual(cats('phone_market', 'Phone_ID', 'text'), []);
    assert.deepEqual(cats('address', 'address_id', 'integer'), []);
  });

  it('tags a person’s pay as financial but not prices or transaction amounts', () => {
    assert.deepEqual(cats('employees', 'salary', 'numeric'), ['financial']);
    assert.deepEqual(cats('employeepayhistory', 'rate', 'numeric'), ['financial']);
    assert.deepEqual(cats('payment', 'amount', 'numeric'), []);
    assert.deepEqual(cats('order_details', 'unit_price', 'numeric'), []);
  });

  it('tags card numbers and IBANs, but not card types or approval codes', () => {
    assert.deepEqual(cats('creditcard', 'cardnumber'), ['payment_card']);
    assert.deepEqual(cats('payout', 'iban'), ['payment_card']);
    assert.deepEqual(cats('creditcard', 'cardtype'), []);
    assert.deepEqual(cats('salesorderheader', 'creditcardapprovalcode', 'varchar(15)', { comment: 'Approval code provided by the credit card company.' }), []);
    assert.deepEqual(cats('salesorderheader', 'creditcardid', 'integer'), []);
  });

  it('tags government ids, including textbook SSN keys', () => {
    assert.deepEqual(cats('employee', 'nationalidnumber', 'varchar(15)'), ['government_id']);
    assert.deepEqual(cats('students', 'ssn'), ['government_id']);
    assert.deepEqual(cats('works_on', 'Essn', 'number'), ['government_id']);
    assert.deepEqual(cats('customers', 'passport_number'), ['government_id']);
    assert.deepEqual(cats('documents', 'passport_type'), []);
  });

  it('tags credentials, but not token counts, limits or password timestamps', () => {
    assert.deepEqual(cats('staff', 'password'), ['credential']);
    assert.deepEqual(cats('editor_oauth_token', 'refresh_token'), ['credential']);
    assert.deepEqual(cats('cards', 'pin'), ['credential']);
    assert.deepEqual(cats('llm_calls', 'token_count', 'integer'), []);
    assert.deepEqual(cats('llm_calls', 'max_tokens', 'integer'), []);
    assert.deepEqual(cats('users', 'password_changed_at', 'timestamp with time zone'), []);
    assert.deepEqual(cats('products', 'pin_code'), []);
  });

  it('tags session ids as online identifiers, not credentials', () => {
    assert.deepEqual(cats('web_sessions', 'session_id', 'uuid'), ['online_identifier']);
    assert.deepEqual(cats('audit', 'client_ip', 'inet'), ['online_identifier']);
    assert.deepEqual(cats('audit', 'peer', 'inet'), ['online_identifier']);
    assert.deepEqual(cats('staff', 'username'), ['online_identifier']);
    assert.deepEqual(cats('flight', 'aid', 'integer'), []);
  });

  it('tags health data, including lab measurements in clinical tables, but not catalogues or animals', () => {
    assert.deepEqual(cats('Patient', 'Diagnosis'), ['health']);
    assert.deepEqual(cats('Laboratory', 'HGB', 'real'), ['health']);
    assert.deepEqual(cats('Has_Allergy', 'Allergy'), ['health']);
    assert.deepEqual(cats('Laboratory', 'ID', 'integer'), []);
    assert.deepEqual(cats('Allergy_Type', 'Allergy'), []);
    assert.deepEqual(cats('Treatment_Types', 'treatment_type_code'), []);
  });

  it('tags genetic, biometric and behavioural data', () => {
    assert.deepEqual(cats('samples', 'genotype'), ['genetic']);
    assert.deepEqual(cats('users', 'face_embedding', 'bytea'), ['biometric']);
    assert.deepEqual(cats('users', 'last_login_date', 'timestamp'), ['behavioral']);
    assert.deepEqual(cats('files', 'fingerprint'), []);
  });

  it('tags demographic facts of people only: not an age group of toys, a dog’s age, or a gender lookup table', () => {
    assert.deepEqual(cats('employee', 'birthdate', 'date'), ['demographic_protected']);
    assert.deepEqual(cats('Student', 'Age', 'number'), ['demographic_protected']);
    assert.deepEqual(cats('employee', 'maritalstatus', 'character(1)'), ['demographic_protected']);
    assert.deepEqual(cats('products', 'age_group'), []);
    assert.deepEqual(cats('Dogs', 'age'), []);
    assert.deepEqual(cats('Dogs', 'date_of_birth', 'date'), []);
    assert.deepEqual(cats('gender', 'gender'), []);
    assert.deepEqual(cats('wine', 'age', 'integer'), []);
  });

  it('tags coordinates and geometry as location, but not place names', () => {
    assert.deepEqual(cats('circuits', 'lat', 'real'), ['location']);
    assert.deepEqual(cats('place', 'coordinates', 'point'), ['location']);
    assert.deepEqual(cats('place', 'geom', 'geometry(Point,4326)'), ['location']);
    assert.deepEqual(cats('circuits', 'location'), []);
  });
});

describe('PII classifier: multilingual names', () => {
  const cases: ReadonlyArray<readonly [string, string, string, string]> = [
    ['kunden', 'e_mail_adresse', 'text', 'contact'],
    ['clientes', 'correo_electronico', 'text', 'contact'],
    ['clients', 'courriel', 'text', 'contact'],
    ['kunden', 'telefonnummer', 'text', 'contact'],
    ['clientes', 'telefone', 'text', 'contact'],
    ['clients', 'téléphone', 'text', 'contact'],
    ['kunden', 'geburtsdatum', 'date', 'demographic_protected'],
    ['clients', 'date_de_naissance', 'date', 'demographic_protected'],
    ['clientes', 'fecha_nacimiento', 'date', 'demographic_protected'],
    ['clientes', 'data_nascimento', 'date', 'demographic_protected'],
    ['mitarbeiter', 'gehalt', 'numeric', 'financial'],
    ['employes', 'salaire', 'numeric', 'financial'],
    ['empleados', 'salario', 'numeric', 'financial'],
    ['funcionarios', 'salário', 'numeric', 'financial'],
    ['kunden', 'kreditkartennummer', 'text', 'payment_card'],
    ['clientes_br', 'cpf', 'text', 'government_id'],
    ['usuarios', 'contraseña', 'text', 'credential'],
  ];
  for (const [table, column, type, expected] of cases) {
    it(`classifies ${table}.${column} as ${expected}`, () => {
      assert.deepEqual(cats(table, column, type), [expected]);
    });
  }
});

describe('PII classifier: sampled values', () => {
  const card = ['4111 1111 1111 1111', '5500 0000 0000 0004', '4012888888881881', '378282246310005', '6011111111111117'];
  it('tags a neutrally named column from a majority of matching values', () => {
    const tag = classifyColumn({ schema: 'p', table: 'payments_raw', column: 'ref', dataType: 'text', samples: card });
    assert.deepEqual(tag?.categories, ['payment_card']);
    assert.ok(tag!.signals.some((s) => s.startsWith('values:card')));
    assert.equal(tag!.sensitivity, 'pii');
    assert.ok(tag!.confidence > 0.8 && tag!.confidence <= 1);
  });

  it('ignores a single matching value among many others', () => {
    const samples = ['call back', 'fixed', 'anna@example.com', 'wontfix', 'dup', 'ok'];
    assert.equal(classifyColumn({ schema: 'p', table: 'notes', column: 'body', dataType: 'text', samples }), null);
  });

  it('does not treat ISBNs or order numbers that fail Luhn or lack a card prefix as cards', () => {
    const isbns = ['9783161484100', '9780306406157', '9781861972712', '9780262033848'];
    assert.equal(classifyColumn({ schema: 'p', table: 'books', column: 'code', dataType: 'text', samples: isbns }), null);
    const orders = ['4111111111111112', '5500000000000005', '4012888888881882', '6011111111111118'];
    assert.equal(classifyColumn({ schema: 'p', table: 'orders', column: 'order_number', dataType: 'text', samples: orders }), null);
  });

  it('does not read version strings as IPv4 addresses', () => {
    const versions = ['4.2.1.0', '10.0.1.7', '1.12.0.3', '2.0.0.1'];
    assert.equal(classifyColumn({ schema: 'p', table: 'builds', column: 'build_version', dataType: 'text', samples: versions }), null);
  });

  it('drops a contact name signal when the values are plainly not phone numbers', () => {
    const models = ['Pixel 7', 'Galaxy S23', 'iPhone 15 Pro', 'Xperia 5', 'Moto G'];
    assert.equal(classifyColumn({ schema: 'p', table: 'devices', column: 'phone', dataType: 'text', samples: models }), null);
  });

  it('recognises JWTs, vendor keys and password hashes as credentials', () => {
    const jwt = ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlX2hlcmVfb2s', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0NTYifQ.YW5vdGhlcl9zaWduYXR1cmU'];
    assert.deepEqual(classifyColumn({ schema: 'p', table: 't', column: 'auth_header', dataType: 'text', samples: jwt })?.categories, ['credential']);
    const bcrypt = ['$2b$12$' + 'a'.repeat(53), '$2b$10$' + 'B'.repeat(53), '$2a$12$' + 'c1'.repeat(26) + 'c'];
    assert.deepEqual(classifyColumn({ schema: 'p', table: 't', column: 'h', dataType: 'text', samples: bcrypt })?.categories, ['credential']);
  });

  it('recognises gender enum labels and blood-type values', () => {
    assert.deepEqual(classifyColumn({ schema: 'p', table: 'survey', column: 'q7', dataType: 'answer', enumLabels: ['female', 'male', 'non-binary'] })?.categories, ['demographic_protected']);
    assert.deepEqual(classifyColumn({ schema: 'p', table: 'donors', column: 'bt', dataType: 'text', samples: ['A+', 'O-', 'B+', 'AB-'] })?.categories, ['health']);
  });

  it('classifies 200,000 columns without samples well within the latency budget', () => {
    const inputs: ClassifyInput[] = [];
    for (let i = 0; i < 1000; i++) inputs.push({ schema: 's', table: `customer_${i % 37}`, column: ['email', 'first_name', 'order_total', 'created_at', 'nationalidnumber'][i % 5]!, dataType: 'text' });
    for (const x of inputs) classifyColumn(x);
    // The fastest of five rounds: the machine is shared, and contention only ever adds time.
    let microsPerColumn = Infinity;
    for (let round = 0; round < 5; round++) {
      const t0 = process.hrtime.bigint();
      for (let r = 0; r < 4; r++) for (const x of inputs) classifyColumn(x);
      microsPerColumn = Math.min(microsPerColumn, Number(process.hrtime.bigint() - t0) / 1000 / 4000);
    }
    assert.ok(microsPerColumn < 50, `took ${microsPerColumn.toFixed(1)} µs per column`);
  });
});

describe('credential names of any declared type, and short spellings', () => {
  const tag = (column: string, dataType: string) =>
    classifyColumn({ schema: 'public', table: 'account', column, dataType, comment: null, tableComment: null, enumLabels: null })?.categories ?? [];
  it('tags pw, passcode and jwt, and a password column whatever type it declares', () => {
    for (const [c, t] of [['pw', 'varchar(40)'], ['passcode', 'integer'], ['password', 'INTEGER'], ['password', 'NUMERIC'], ['jwt', 'text'], ['user_pw', 'text']] as const) {
      assert.ok(tag(c, t).includes('credential'), `${c} ${t}`);
    }
  });
  it('leaves flags and times about credentials alone', () => {
    for (const [c, t] of [['password_reset_required', 'boolean'], ['password_changed_at', 'timestamp with time zone'], ['jwt_expires_at', 'timestamptz'], ['pwm_duty', 'integer']] as const) {
      assert.ok(!tag(c, t).includes('credential'), `${c} ${t}: ${tag(c, t).join(',')}`);
    }
  });
});
