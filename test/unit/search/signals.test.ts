import assert from 'node:assert/strict';
import type { TableInfo } from '../../../src/core/catalog/model';
import { buildSearchIndex, deserializeIndex, findMentions, loadLexicon, parseQuery, serializeIndex, type SearchHit, type SearchTableInput } from '../../../src/core/search/index';
import { catalogBuilders, fk, keyed, reasons, src, whyOf, withRanking } from './builders';

const { column, table } = catalogBuilders((name) => (name.endsWith('id') ? 'integer' : 'text'));
const names = (hits: ReadonlyArray<{ qualifiedName: string }>): string[] => hits.map((h) => h.qualifiedName);

/** A racing catalog: results reference drivers and races; circuits hold the places. */
/**
 * MusicBrainz-shaped relationships: `l_artist_<x>` junctions point at `link`, typed by `link_type` (member of band,
 * producer, drummer…), and at `artist` and the other end.
 */
function relationshipCatalog(): SearchTableInput[] {
  const ends = ['area', 'label', 'place', 'recording', 'release', 'work'];
  return src([
    table('artist_type', ['id', 'name']),
    table('artist', ['id', 'name', 'sort_name', 'type', 'begin_date_year', 'end_date_year'], [fk(['type'], 'artist_type')]),
    table('link_type', ['id', 'name', 'description', 'link_phrase']),
    table('link', ['id', 'link_type', 'begin_date_year', 'begin_date_month', 'end_date_year', 'end_date_month', 'attribute_count', 'created', 'ended'], [fk(['link_type'], 'link_type')]),
    ...ends.map((e) => table(e, ['id', 'name', 'comment'])),
    table('l_artist_artist', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'artist'), fk(['entity1'], 'artist')]),
    ...ends.map((e) => table(`l_artist_${e}`, ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'artist'), fk(['entity1'], e)])),
  ]);
}

/** The relationship hub's list of attributes and its junction to the hub (MusicBrainz `link_attribute_type`, `link_attribute`). */
function attributeTables(): SearchTableInput[] {
  return src([
    table('link_attribute_type', ['id', 'parent', 'root', 'name', 'description'], [fk(['parent'], 'link_attribute_type'), fk(['root'], 'link_attribute_type')]),
    table('link_attribute', ['link', 'attribute_type', 'created'], [fk(['link'], 'link'), fk(['attribute_type'], 'link_attribute_type')]),
  ]);
}

function racing(): SearchTableInput[] {
  return src([
    table('drivers', ['id', 'forename', 'surname', 'nationality']),
    table('circuits', ['id', 'name', 'city', 'country']),
    table('races', ['id', 'year', 'name', 'circuit_id'], [fk(['circuit_id'], 'circuits')]),
    table('results', ['id', 'race_id', 'driver_id', 'points', 'fastest_lap_time'], [fk(['race_id'], 'races'), fk(['driver_id'], 'drivers')]),
    table('pit_stops', ['id', 'race_id', 'driver_id', 'lap', 'duration'], [fk(['race_id'], 'races'), fk(['driver_id'], 'drivers')]),
    table('seasons', ['year', 'url']),
  ]);
}

describe('search: proper names in questions', () => {
  const lexicon = loadLexicon();

  it('reads two capitalised unknown words as a person and a capitalised word after "in" as a place', () => {
    assert.deepEqual(findMentions('What was the fastest lap of Lewis Hamilton in the race?', lexicon), [{ kind: 'person', text: 'Lewis Hamilton' }]);
    assert.deepEqual(findMentions('How many accounts were opened in Litomerice?', lexicon), [{ kind: 'place', text: 'Litomerice' }]);
    assert.deepEqual(findMentions("What is the score of John Salvatier's posts?", lexicon), [{ kind: 'person', text: 'John Salvatier' }]);
  });

  it('reads a known place after "from" as a place, and a business named after a place as no place', () => {
    // Two words the common vocabulary lacks read as a person's name, except where the dictionary knows them as a place.
    assert.deepEqual(findMentions('Which labels from San Francisco put out the most singles?', lexicon), [{ kind: 'place', text: 'San Francisco' }]);
    assert.deepEqual(findMentions('bands from Buenos Aires', lexicon), [{ kind: 'place', text: 'Buenos Aires' }]);
    assert.deepEqual(findMentions('venues in Rio de Janeiro', lexicon), [{ kind: 'place', text: 'Rio de Janeiro' }]);
    assert.deepEqual(findMentions('songs by Paco de Lucia', lexicon), [{ kind: 'person', text: 'Paco de Lucia' }]);
    // A name that opens with a city and ends in a common noun whose first sense is no place is a business's
    // ("Chicago City Saddles": a saddle is a ridge only in its later senses); one that ends in a place's noun stays a place.
    assert.deepEqual(findMentions('For every product we buy from Chicago City Saddles: the standard price', lexicon), []);
    assert.deepEqual(findMentions('we buy from Chicago Saddles', lexicon), []);
    assert.deepEqual(findMentions('Imprint labels in the United Kingdom that have a label code', lexicon), [{ kind: 'place', text: 'United Kingdom' }]);
    assert.deepEqual(findMentions('gigs in Mexico City', lexicon), [{ kind: 'place', text: 'Mexico City' }]);
    assert.deepEqual(findMentions('we buy from Chicago', lexicon), [{ kind: 'place', text: 'Chicago' }]);
  });

  it('reads a street or a feature of the land as a place, and no institution', () => {
    assert.deepEqual(findMentions('stores on Oxford Street with the highest footfall', lexicon), [{ kind: 'place', text: 'Oxford Street' }]);
    assert.deepEqual(findMentions('wire transfers to the Cayman Islands last month', lexicon), [{ kind: 'place', text: 'Cayman Islands' }]);
    assert.deepEqual(findMentions('emigrated from County Cork to Boston', lexicon), [{ kind: 'place', text: 'County Cork' }, { kind: 'place', text: 'Boston' }]);
    assert.deepEqual(findMentions('consultants who worked at Boston Consulting Group', lexicon), []);
    assert.deepEqual(findMentions('court cases filed in Delaware', lexicon), [{ kind: 'place', text: 'Delaware' }]);
    assert.deepEqual(findMentions('books translated from French', lexicon), []);
    // A known place of several words is a place wherever it stands, never a person ("Paris Hilton" is no place).
    assert.deepEqual(findMentions('freight costs on the Los Angeles to Chicago lane', lexicon), [{ kind: 'place', text: 'Los Angeles' }, { kind: 'place', text: 'Chicago' }]);
    assert.deepEqual(findMentions('List the labels whose area is South Africa', lexicon), [{ kind: 'place', text: 'South Africa' }]);
    assert.deepEqual(findMentions('Paris Hilton perfume sales', lexicon), [{ kind: 'person', text: 'Paris Hilton' }]);
    // A name after a grade or size code in capitals names a product: no one, nowhere.
    assert.deepEqual(findMentions('Which vendor sells us the HL Crankarm cheapest?', lexicon), []);
    assert.deepEqual(findMentions('how many LL Bottom Brackets do we have in stock', lexicon), []);
    // A noun of premises that qualifies the next noun ("studio album") names no premises.
    assert.deepEqual(findMentions('the artwork of every Kraftwerk studio album', lexicon), [{ kind: 'person', text: 'Kraftwerk', maker: true }]);
    assert.deepEqual(findMentions('sales at the Lethbridge shop', lexicon), [{ kind: 'place', text: 'Lethbridge' }]);
    // A name joined to a place just read is a place too, known or not.
    assert.deepEqual(findMentions('stores in Ohio and Kentucky', lexicon).map((m) => m.text), ['Ohio', 'Kentucky']);
    assert.deepEqual(findMentions('customers in Texas, Ohio and Utah', lexicon).map((m) => m.text), ['Texas', 'Ohio', 'Utah']);
    assert.deepEqual(findMentions('suppliers located in Bath or Reading', lexicon), [{ kind: 'place', text: 'Bath' }, { kind: 'place', text: 'Reading' }]);
  });

  it('reads no place in a word of a quoted title, in the name of an event or an award, or in an adjective of a place before a noun after "to"', () => {
    assert.deepEqual(findMentions("For 'Heaven or Las Vegas', could you list every edition", lexicon), []);
    assert.deepEqual(findMentions("Who arranged the strings on Dusty Springfield's 'Dusty in Memphis'?", lexicon), [{ kind: 'person', text: 'Dusty Springfield', maker: true }]);
    // A plural's apostrophe opens no quotation ("Mary Lou Williams' Zodiac Suite").
    assert.deepEqual(findMentions("producer of Mary Lou Williams' Zodiac Suite recordings", lexicon).map((m) => m.text), ['Zodiac Suite']);
    assert.deepEqual(findMentions('Which artists who performed at Roskilde Festival in 2019 come from Sweden', lexicon), [{ kind: 'place', text: 'Sweden' }]);
    assert.deepEqual(findMentions('For albums that won at the Grammy Awards ceremonies', lexicon), []);
    assert.deepEqual(findMentions('who penned the lyrics to Bohemian Rhapsody', lexicon), []);
    assert.deepEqual(findMentions('going to South Korea', lexicon), [{ kind: 'place', text: 'South Korea' }]);
  });

  it('reads an adjective of a named place before a noun or after a copula as a place, not as a language', () => {
    assert.deepEqual(findMentions('Which producers worked on releases from German labels?', lexicon), [{ kind: 'place', text: 'German', adjective: true }]);
    assert.deepEqual(findMentions('Icelandic artists with the most albums', lexicon), [{ kind: 'place', text: 'Icelandic', adjective: true }]);
    assert.deepEqual(findMentions('Which of the artists in it are Canadian?', lexicon), [{ kind: 'place', text: 'Canadian', adjective: true }]);
    assert.deepEqual(findMentions('How many South Korean groups are there?', lexicon), [{ kind: 'place', text: 'South Korean', adjective: true }]);
    // Beside words about language and text, an adjective that is also a language names the language.
    assert.deepEqual(findMentions('works with Spanish lyrics written by Mexican composers', lexicon), [{ kind: 'place', text: 'Mexican', adjective: true }]);
    assert.deepEqual(findMentions('Releases whose language is Japanese', lexicon), []);
    assert.deepEqual(findMentions("Quick one — what's the French catalogue description for the Mountain-100?", lexicon), []);
    assert.deepEqual(parseQuery('works with Spanish lyrics', lexicon).titles, [], 'nor is it a title');
    // A function word that starts the sentence is no part of the name.
    assert.deepEqual(findMentions('Which German cities have the most venues listed?', lexicon), [{ kind: 'place', text: 'German', adjective: true }]);
    // As a noun it is a language.
    assert.deepEqual(findMentions('What is the number of nations that use English and Dutch?', lexicon), []);
    assert.deepEqual(findMentions('What is the number of distinct continents where Chinese is spoken?', lexicon), []);
    assert.deepEqual(findMentions('official releases in Japanese', lexicon), []);
    // After "in", at the end of its phrase, it stands for no noun: a language ("sung in Welsh?").
    assert.deepEqual(findMentions('any songs with the words sung in Welsh? who wrote them', lexicon), []);
    assert.deepEqual(findMentions('venues in Welsh towns', lexicon), [{ kind: 'place', text: 'Welsh', adjective: true }]);
  });

  it('reads unknown capitalised words after "in", "at" or "near" as a place even when they look like a name', () => {
    assert.deepEqual(findMentions('Which albums were recorded at studios in Los Angeles?', lexicon), [{ kind: 'place', text: 'Los Angeles' }]);
    assert.deepEqual(findMentions('Which songs did Dolly Parton write?', lexicon), [{ kind: 'person', text: 'Dolly Parton' }]);
  });

  it('reads one name the dictionary knows only as a well-known person\'s as someone, wherever it stands', () => {
    assert.deepEqual(findMentions('aliases for Mozart', lexicon), [{ kind: 'person', text: 'Mozart' }]);
    assert.deepEqual(findMentions('symphonies of Beethoven', lexicon), [{ kind: 'person', text: 'Beethoven' }]);
    // A name that is also a place stays a place after "in".
    assert.deepEqual(findMentions('venues in Lincoln', lexicon), [{ kind: 'place', text: 'Lincoln' }]);
  });

  it('reads a name the dictionary knows as a place after a preposition of motion as a place, and no other name there', () => {
    assert.deepEqual(findMentions("I'm going to Nashville next month — which studios there are busiest?", lexicon), [{ kind: 'place', text: 'Nashville' }]);
    assert.deepEqual(findMentions('bands touring across Europe', lexicon), [{ kind: 'place', text: 'Europe' }]);
    // Someone to whom a thing is credited is no place: the maker.
    assert.deepEqual(findMentions('songs credited to Prince', lexicon), [{ kind: 'person', text: 'Prince', maker: true }]);
    assert.deepEqual(findMentions('orders shipped to Ken Sánchez', lexicon), [{ kind: 'person', text: 'Ken Sánchez' }]);
  });

  it('reads the name a work is attributed or credited to as its maker, whatever its words mean', () => {
    assert.deepEqual(findMentions('Show me the bootlegs attributed to Arctic Monkeys, with the countries and dates each one came out.', lexicon), [{ kind: 'person', text: 'Arctic Monkeys', maker: true }]);
    assert.deepEqual(findMentions('songs credited to the Pixies', lexicon), [{ kind: 'person', text: 'Pixies', maker: true }]);
    // "sent to" credits nothing: a place the dictionary knows stays one.
    assert.deepEqual(findMentions('orders sent to Canada', lexicon), [{ kind: 'place', text: 'Canada' }]);
  });

  it('reads a sentence that opens with two title-case words as opening with a name', () => {
    assert.deepEqual(parseQuery('Warp Records label code official website', lexicon).titles, ['Warp Records']);
    assert.deepEqual(parseQuery('Nine Inch Nails dupes that got squashed into one entry', lexicon).titles, ['Nine Inch Nails']);
    assert.deepEqual(findMentions('Linda Mitchell commission rate and bonus', lexicon), [{ kind: 'person', text: 'Linda Mitchell' }]);
    // A function word or an instruction opens the sentence, not the name.
    assert.deepEqual(findMentions("Show Quincy Jones's arranger credits", lexicon), [{ kind: 'person', text: 'Quincy Jones' }]);
    assert.deepEqual(parseQuery('Which German cities have the most venues listed?', lexicon).titles, []);
    // One capitalised word opens a sentence as any sentence does.
    assert.deepEqual(parseQuery('Nine songs by the band', lexicon).titles, []);
  });

  it('reads the names of well-known people as names even where they are English words, and a name that did something as someone', () => {
    assert.deepEqual(findMentions('Tracks where somebody is featured next to Taylor Swift on the credit line', lexicon), [{ kind: 'person', text: 'Taylor Swift' }]);
    assert.deepEqual(findMentions('I need a list of songs Quincy Jones produced', lexicon), [{ kind: 'person', text: 'Quincy Jones' }]);
    assert.deepEqual(findMentions("I can't remember what Radiohead played that night", lexicon), [{ kind: 'person', text: 'Radiohead' }]);
    // A name of common words after "the" that did something is someone too.
    assert.deepEqual(findMentions('the studios where the Supremes recorded between 1964 and 1967', lexicon), [{ kind: 'person', text: 'Supremes' }]);
    assert.deepEqual(findMentions('tracks the Rolling Stones released in 1969', lexicon), [{ kind: 'person', text: 'Rolling Stones' }]);
    // After "in", the places' rule decides; after a noun of places, a name that is "located" is a place, not a person.
    assert.deepEqual(findMentions('students who live in North Carolina', lexicon), [{ kind: 'place', text: 'North Carolina' }]);
    assert.deepEqual(findMentions('Which region is the city Kabul located in?', lexicon), []);
    // A title of common words stays a title.
    assert.deepEqual(findMentions('what is on the B-side of Blue Monday', lexicon), []);
  });

  it('reads an unknown name with a year after it as one occurrence of something, not a place or a person', () => {
    const q = "I was at Glastonbury 2017 and can't remember half of what Radiohead played.";
    assert.deepEqual(findMentions(q, lexicon), [{ kind: 'person', text: 'Radiohead' }]);
    assert.deepEqual(parseQuery(q, lexicon).titles, ['Glastonbury'], 'it is left to the titles');
    // A place the dictionary knows stays a place; so does an unknown place with no year.
    assert.deepEqual(findMentions('top gigs in Berlin 2019', lexicon), [{ kind: 'place', text: 'Berlin' }]);
    assert.deepEqual(findMentions('I was at Glastonbury and saw them', lexicon), [{ kind: 'place', text: 'Glastonbury' }]);
  });

  it('reads a name opened by a capitalised article as a band or a work, never a place', () => {
    assert.deepEqual(findMentions('Who were the drummers in The Who over time?', lexicon), [{ kind: 'person', text: 'The Who' }]);
    // English words after the article make a title, even one that is also a well-known surname (`tree`).
    const q = "Which producers worked on U2's The Joshua Tree?";
    assert.ok(!findMentions(q, lexicon).some((m) => m.text.includes('Joshua')), JSON.stringify(findMentions(q, lexicon)));
    assert.ok(parseQuery(q, lexicon).titles.includes('The Joshua Tree'));
    // Lower case, the article is the place's: "in the Netherlands".
    assert.deepEqual(findMentions('artists from the Netherlands', lexicon), [{ kind: 'place', text: 'Netherlands' }]);
  });

  it('gives the pieces of a run-together word no related words of their own', () => {
    const music = src([
      table('event', ['id', 'name', 'setlist', 'begin_date_year']),
      table('place', ['id', 'name', 'address', 'coordinates']),
      table('position', ['id', 'name', 'rank']),
    ]);
    const parsed = parseQuery('Is their setlist from that night in there?', lexicon);
    assert.deepEqual(
      parsed.terms.filter((t) => t.surface === 'set').map((t) => t.part),
      [true],
      'the piece is marked',
    );
    // "set" shares WordNet senses with "place" and "position"; "setlist" does not.
    const hits = buildSearchIndex({ tables: music }).search('Is their setlist from that night in there?', { limit: 5 }).hits;
    assert.deepEqual(names(hits), ['public.event']);
    assert.ok(!hits[0]!.why.some((w) => w.includes('related word')), hits[0]!.why.join(' | '));
  });

  it('reads a name in the place of a maker or an owner as someone, whatever its words mean', () => {
    const maker = (q: string): string[] => findMentions(q, lexicon).filter((m) => m.kind === 'person').map((m) => m.text);
    // English words, but a possessive, after `by`, or the subject of a question's auxiliary.
    assert.deepEqual(maker("Which compilations carry Garbage's first single?"), ['Garbage']);
    assert.deepEqual(maker("how long is The Cure's longest track"), ['The Cure']);
    assert.deepEqual(maker('covers of Wonderwall by Arctic Monkeys'), ['Arctic Monkeys']);
    assert.deepEqual(maker('How many EPs did the Silver Jews put out?'), ['Silver Jews']);
    // An unknown name before the plural of what it made.
    assert.deepEqual(maker('Average length of Bjork tracks'), ['Bjork']);
    // Not a place the dictionary knows, not a capitalised common word before a plural, not the end of a longer title.
    assert.deepEqual(maker("Which of Chicago's venues sold out?"), []);
    assert.deepEqual(maker('venues by Toronto standards'), []);
    assert.deepEqual(maker('How many Comedy films are there?'), []);
    assert.deepEqual(maker('Which Graduate students enrolled twice?'), []);
    assert.deepEqual(maker('pressings of Kind of Blue reissues'), []);
    // Only inside a sentence, except for the possessive.
    assert.deepEqual(maker('Bjork tracks by length'), []);
    // A name in capitals or with digits, in the possessive; a place the dictionary knows is none.
    assert.deepEqual(maker("Which producers worked on U2's The Joshua Tree?"), ['U2']);
    assert.deepEqual(maker("How many albums are in ABBA's catalogue?"), ['ABBA']);
    assert.deepEqual(maker("List the USA's venues"), []);
  });

  it('reads one unknown name inside a sentence as someone, unless it is a value, owned, or a piece of an identifier', () => {
    const someone = (q: string): string[] => findMentions(q, lexicon).filter((m) => m.kind === 'person').map((m) => m.text);
    assert.deepEqual(someone('most used tags Björk'), ['Björk']);
    assert.deepEqual(someone('What are the most common tags people have slapped on Metalica?'), ['Metalica']);
    // After a copula or inside quotes it is a value; after a possessive, the owner's work; in an identifier, a piece.
    assert.deepEqual(someone('accounts whose district is Tabor'), []);
    assert.deepEqual(someone("users with the badge 'Necromancer'"), []);
    assert.deepEqual(parseQuery("Who did the string arrangements on Björk's Homogenic?", lexicon).titles, ['Homogenic']);
    assert.deepEqual(someone('students of the Student_Club'), []);
    assert.deepEqual(someone('latest lap refers to Max(time)'), []);
    // A word the dictionary knows stays a title; a place it knows stays a place.
    assert.deepEqual(someone('runtime of every song on Thriller'), []);
    assert.deepEqual(findMentions('venues in Lisbon', lexicon).map((m) => m.kind), ['place']);
    // Where the catalog's people are, the table of people answers for the name.
    const tables = src([
      table('artist', ['id', 'name', 'sort_name']),
      table('tag', ['id', 'name', 'ref_count']),
      table('artist_tag', ['artist', 'tag', 'count'], [fk(['artist'], 'artist'), fk(['tag'], 'tag')]),
      table('label', ['id', 'name', 'label_code']),
      table('label_tag', ['label', 'tag', 'count'], [fk(['label'], 'label'), fk(['tag'], 'tag')]),
    ]);
    const hits = buildSearchIndex({ tables }).search('most used tags Björk', { limit: 5 }).hits;
    const ranked = names(hits);
    assert.ok(ranked.slice(0, 2).includes('public.artist') && ranked.slice(0, 3).includes('public.artist_tag'), reasons(hits));
    assert.ok(ranked.indexOf('public.artist') < ranked.indexOf('public.label'), reasons(hits));
  });

  it('routes a maker to the table of people and the path to it, unless the catalog holds the name itself', () => {
    const tables = src([
      table('artist', ['id', 'name', 'sort_name']),
      table('artist_credit', ['id', 'name', 'artist_count']),
      table('artist_credit_name', ['artist_credit', 'position', 'artist', 'name'], [fk(['artist_credit'], 'artist_credit'), fk(['artist'], 'artist')]),
      table('release', ['id', 'name', 'artist_credit', 'barcode'], [fk(['artist_credit'], 'artist_credit')]),
      table('medium', ['id', 'release', 'position', 'format'], [fk(['release'], 'release')]),
      table('editor', ['id', 'name', 'email']),
      table('territory', ['id', 'name']),
    ]);
    const index = buildSearchIndex({ tables });
    const top = (q: string, n: number): string[] => names(index.search(q, { limit: n }).hits);
    // "Pearl Jam" is two English words; where it stands makes it someone, reached from `release` through the credits.
    const r = top('How many releases does Pearl Jam have?', 5);
    for (const t of ['release', 'artist_credit', 'artist_credit_name', 'artist']) assert.ok(r.includes(`public.${t}`), r.join(', '));
    const people = (q: string): boolean => index.search(q, { limit: 5 }).hits.some((h) => h.why.some((w) => w.startsWith("holds people, for 'Pearl Jam'")));
    assert.equal(people('How many releases does Pearl Jam have?'), true);
    assert.equal(people('How many releases does pearl jam have?'), false, 'lower case is no name');
    // A single word the catalog writes is the catalog's own thing, not someone.
    const own = index.search('release counts by Territory', { limit: 5 }).hits;
    assert.ok(!own.some((h) => h.why.some((w) => w.startsWith('holds people'))), reasons(own));
  });

  it('does not read sentence-initial common words or capitalised common phrases as names', () => {
    assert.deepEqual(findMentions('Show the total sales by region', lexicon), []);
  });

  it('reads the maker after "by" as a name, and leaves it to the catalog to say whether it holds that name itself', () => {
    assert.deepEqual(findMentions('How many heroes are published by Marvel Comics?', lexicon), [{ kind: 'person', text: 'Marvel Comics', maker: true }]);
    const tables = src([
      table('hero', ['id', 'hero_name', 'full_name', 'publisher_id'], [fk(['publisher_id'], 'publisher')]),
      table('publisher', ['id', column('publisher_name', { codeValues: ['Marvel Comics', 'DC Comics'] })]),
      table('person', ['id', 'first_name', 'last_name']),
    ]);
    const r = buildSearchIndex({ tables }).search('How many heroes are published by Marvel Comics?', { limit: 5 });
    assert.ok(!r.hits.some((h) => h.why.some((w) => w.startsWith('holds people'))), reasons(r.hits));
    assert.ok(names(r.hits).slice(0, 2).includes('public.publisher'), names(r.hits).join(', '));
  });

  it('ranks the table of people for a question that names a person, and says why', () => {
    const index = buildSearchIndex({ tables: racing() });
    const r = index.search('What was the fastest lap time of Lewis Hamilton?', { limit: 5 });
    assert.ok(names(r.hits).slice(0, 2).includes('public.drivers'), names(r.hits).join(', '));
    const drivers = r.hits.find((h) => h.qualifiedName === 'public.drivers')!;
    assert.ok(drivers.why.some((w) => w.includes("holds people, for 'Lewis Hamilton'")), drivers.why.join('; '));
  });

  it('ranks the table of places for a question about a place name', () => {
    const index = buildSearchIndex({ tables: racing() });
    const r = index.search('How many races were held in Monza?', { limit: 3 });
    assert.ok(names(r.hits).includes('public.circuits'), names(r.hits).join(', '));
  });

  it('reads run-together names, domain-typed names and named junctions when it looks for places', () => {
    // AdventureWorks' shape: `stateprovince (name "Name", countryregioncode, territoryid)` has two foreign keys and few
    // columns, so it looks like a junction, its name has a domain type, and its head word is run together.
    const domain = (name: string): ReturnType<typeof column> => column(name, { dataType: 'public."Name"' });
    const tables = src([
      table('countryregion', ['countryregioncode', domain('name')]),
      table('salesterritory', ['territoryid', domain('name'), 'salesytd']),
      table('stateprovince', ['stateprovinceid', 'stateprovincecode', 'countryregioncode', domain('name'), 'territoryid'], [fk(['countryregioncode'], 'countryregion', ['countryregioncode']), fk(['territoryid'], 'salesterritory', ['territoryid'])]),
      table('salesorder', ['salesorderid', 'orderdate', 'totaldue', 'territoryid'], [fk(['territoryid'], 'salesterritory', ['territoryid'])]),
      table('productlink', ['productid', 'salesorderid'], [fk(['productid'], 'product', ['productid']), fk(['salesorderid'], 'salesorder', ['salesorderid'])]),
      table('product', ['productid', domain('name'), 'color']),
    ]);
    const r = buildSearchIndex({ tables }).search('How much was ordered in Bavaria?', { limit: 6 });
    const province = r.hits.find((h) => h.qualifiedName === 'public.stateprovince');
    assert.ok(province?.why.includes("holds places, for 'Bavaria'"), reasons(r.hits));
    // A junction without a name of its own still holds no places.
    assert.ok(!r.hits.some((h) => h.qualifiedName === 'public.productlink' && h.why.some((w) => w.startsWith('holds places'))));
  });

  it('reads a named table of people\'s things as holding their names, below the people themselves', () => {
    // `artist_credit.name` is the artist's name as credited on a recording; `artist_tag` holds no name.
    const tables = src([
      table('artist', ['id', 'name', 'sort_name', 'begin_date_year']),
      table('artist_credit', ['id', 'name', 'artist_count']),
      table('artist_credit_name', ['artist_credit', 'position', 'artist', 'name', 'join_phrase'], [fk(['artist_credit'], 'artist_credit'), fk(['artist'], 'artist')]),
      table('artist_tag', ['artist', 'tag', 'count'], [fk(['artist'], 'artist')]),
      table('recording', ['id', 'name', 'artist_credit', 'length'], [fk(['artist_credit'], 'artist_credit')]),
    ]);
    const r = buildSearchIndex({ tables }).search('songs by Dolly Parton', { limit: 10 });
    const why = (n: string): readonly string[] => r.hits.find((h) => h.qualifiedName === `public.${n}`)?.why ?? [];
    const holds = (n: string): boolean => why(n).some((w) => w.startsWith("holds people, for 'Dolly Parton'"));
    assert.ok(holds('artist') && holds('artist_credit') && holds('artist_credit_name'), reasons(r.hits));
    assert.ok(!holds('artist_tag'));
    const rank = (n: string): number => r.hits.findIndex((h) => h.qualifiedName === `public.${n}`);
    assert.ok(rank('artist') < rank('artist_credit'), names(r.hits).join(', '));
  });

  it('reads "which <kind of person>" as a question for people when the catalog has no table for that kind', () => {
    // AdventureWorks' shape: a purchase order names its buyer by employee id; the names are in `person`.
    const tables = src([
      table('person', ['businessentityid', 'firstname', 'lastname']),
      table('employee', ['businessentityid', 'jobtitle', 'hiredate'], [fk(['businessentityid'], 'person', ['businessentityid'])]),
      table('purchaseorderheader', ['purchaseorderid', 'employeeid', 'vendorid', 'orderdate', 'subtotal'], [fk(['employeeid'], 'employee', ['businessentityid']), fk(['vendorid'], 'vendor', ['businessentityid'])]),
      table('purchaseorderdetail', ['purchaseorderid', 'productid', 'orderqty'], [fk(['purchaseorderid'], 'purchaseorderheader', ['purchaseorderid'])]),
      table('vendor', ['businessentityid', 'accountnumber', 'creditrating']),
      table('shipmethod', ['shipmethodid', 'shipbase', 'shiprate']),
      table('workorder', ['workorderid', 'orderqty', 'duedate']),
    ]);
    const index = buildSearchIndex({ tables });
    const people = (q: string): boolean =>
      index.search(q, { limit: 10 }).hits.some((h) => h.qualifiedName === 'public.person' && h.why.some((w) => w.startsWith('holds people')));
    assert.equal(people('Which purchasing agent placed the most purchase orders?'), true);
    assert.equal(people('Which purchase orders were placed in May?'), false, 'no kind of person, no people');
    // The catalog names this kind of person itself: `employee` answers, not every table of people.
    assert.equal(people('Which employees placed the most purchase orders?'), false);
  });

  it('reads capitalised words inside a sentence that are no person or place as a title', () => {
    const titles = (q: string): readonly string[] => parseQuery(q, lexicon).titles;
    assert.deepEqual(titles("what's the song code (ISWC) for Yesterday"), ['Yesterday']);
    assert.deepEqual(titles("what's on the B-side of Blue Monday"), ['Blue Monday']);
    assert.deepEqual(titles('the catalogue number of Kind of Blue'), ['Kind of Blue']);
    // A word in capitals belongs to the title beside it; alone it is an abbreviation.
    assert.deepEqual(titles("all the pressings of Radiohead's OK Computer"), ['OK Computer']);
    assert.deepEqual(titles('how many CD releases came out in 1999'), []);
    // A person or a place is not a title; a capital at the start of a sentence marks nothing.
    assert.deepEqual(titles("Who did the string arrangements on Björk's Homogenic?"), ['Homogenic']);
    assert.deepEqual(titles('Which choirs are from Norway?'), []);
    assert.deepEqual(titles('Show the total sales by region'), []);
  });

  it('reads a quoted title as a title: no name of someone inside it, and its words weigh as a title\'s', () => {
    const q = parseQuery("all the remixes of Daft Punk's 'One More Time' and how long each one runs", lexicon);
    assert.deepEqual(q.titles, ['One More Time']);
    assert.deepEqual(q.mentions.map((m) => m.text), ['Daft Punk'], 'the closing quote does not cut the title into a name');
    assert.equal(q.terms.find((t) => t.surface === 'time')?.weight, 1);
    assert.deepEqual(parseQuery("Who is credited as the lyricist of the song 'Yesterday'?", lexicon).titles, ['Yesterday']);
    // A quoted value is still a value: its words weigh more.
    assert.equal(parseQuery("customers in the 'west coast' segment", lexicon).terms.find((t) => t.surface === 'coast')?.weight, 1.5);
    // An apostrophe inside a word is part of it.
    assert.deepEqual(parseQuery("What did O'Brien's band release?", lexicon).mentions.map((m) => m.text), ["O'Brien"]);
  });

  it('looks for no holder of a title behind the junctions of a record that qualifies relationships of every kind', () => {
    const index = buildSearchIndex({ tables: relationshipCatalog() });
    const q = 'the link types and dates of the relationships of Blue Lines';
    const holders = (skip: number): string[] => withRanking('titleSkipsQualifiers', skip, () => index.search(q, { limit: 8 }).hits).filter((h) => h.why.includes("holds names, for 'Blue Lines'")).map((h) => h.qualifiedName);
    // `link` qualifies every junction: the tables at their other ends are every kind of thing, no holder of this title.
    assert.deepEqual(holders(1), []);
    assert.ok(holders(0).length > 0, 'without the rule, the ends of its junctions hold the title');
  });

  it('finds the title of a thing in the named table that a hit without names points at', () => {
    // MusicBrainz' shape: an ISWC row points at its work; the title is the work's name.
    const tables = src([
      table('work', ['id', 'name', 'type', 'comment']),
      table('iswc', ['id', 'work', 'iswc', 'source'], [fk(['work'], 'work')]),
      table('language', ['id', 'name', 'iso_code_2t', 'iso_code_3']),
      table('country', ['id', 'name', 'code']),
      table('release', ['id', 'name', 'barcode', 'language', 'country'], [fk(['language'], 'language'), fk(['country'], 'country')]),
      table('medium', ['id', 'release', 'position', 'format_code'], [fk(['release'], 'release')]),
      table('script', ['id', 'iso_code', 'name']),
      table('postal_area', ['id', 'zip_code', 'name']),
    ]);
    const r = buildSearchIndex({ tables }).search("what's the song code (ISWC) for Yesterday", { limit: 3 });
    const work = r.hits.find((h) => h.qualifiedName === 'public.work');
    assert.ok(work?.why.includes("holds names, for 'Yesterday'"), reasons(r.hits));
    assert.equal(r.hits[0]?.qualifiedName, 'public.iswc');
    // Behind a junction: AdventureWorks' employees work in departments through their department history.
    const hr = buildSearchIndex({
      tables: src([
        table('employee', ['businessentityid', 'jobtitle', 'maritalstatus', 'gender', 'hiredate']),
        table('department', ['departmentid', 'name', 'groupname']),
        table('shift', ['shiftid', 'name', 'starttime', 'endtime']),
        table('employeedepartmenthistory', ['businessentityid', 'departmentid', 'shiftid', 'startdate'], [fk(['businessentityid'], 'employee', ['businessentityid']), fk(['departmentid'], 'department', ['departmentid']), fk(['shiftid'], 'shift', ['shiftid'])]),
        table('employeepayhistory', ['businessentityid', 'ratechangedate', 'rate'], [fk(['businessentityid'], 'employee', ['businessentityid'])]),
        table('jobcandidate', ['jobcandidateid', 'businessentityid', 'resume'], [fk(['businessentityid'], 'employee', ['businessentityid'])]),
        table('salesperson', ['businessentityid', 'salesquota', 'bonus', 'salesytd']),
        table('salesterritory', ['territoryid', 'name', 'salesytd']),
      ]),
    }).search('married vs single employees in Sales', { limit: 4 });
    const department = hr.hits.find((h) => h.qualifiedName === 'public.department');
    assert.ok(department?.why.includes("holds names, for 'Sales'"), reasons(hr.hits));
    // Without a title the question asks nothing of the work's names.
    const plain = buildSearchIndex({ tables }).search("what's the song code (ISWC)", { limit: 3 });
    assert.ok(!plain.hits.some((h) => h.why.some((w) => w.startsWith('holds names'))));
  });

  it('reads a kind of place that the catalog does not name as a label of the place table\'s kind code list', () => {
    const tables = src([
      table('area_type', ['id', 'name']),
      table('area', ['id', 'name', 'type', 'comment', 'begin_date'], [fk(['type'], 'area_type')]),
      table('place_type', ['id', 'name']),
      table('place', ['id', 'name', 'address', 'coordinates', 'comment', 'begin_date', 'type', 'area'], [fk(['type'], 'place_type'), fk(['area'], 'area')]),
      table('recording', ['id', 'name', 'length', 'comment']),
      table('l_place_recording', ['id', 'entity0', 'entity1'], [fk(['entity0'], 'place'), fk(['entity1'], 'recording')]),
      table('track', ['id', 'recording', 'name', 'position'], [fk(['recording'], 'recording')]),
      table('recording_tag', ['recording', 'tag', 'count'], [fk(['recording'], 'recording')]),
    ]);
    const index = buildSearchIndex({ tables });
    // The tables that join the recordings to the places come first (recording, l_place_recording, place), then the kind.
    const r = index.search('recording studios in London', { limit: 5 });
    const placeType = r.hits.find((h) => h.qualifiedName === 'public.place_type');
    assert.ok(placeType?.why.includes("kind of place, may hold 'studios'"), reasons(r.hits));
    // A kind the catalog names itself ("places") is no code-list label; nor is a singular or a verb form.
    for (const q of ['recording places in London', 'a recording studio in London', 'recordings in London']) {
      assert.ok(!index.search(q, { limit: 6 }).hits.some((h) => h.why.some((w) => w.startsWith('kind of'))), q);
    }
  });

  it('reads a plural the catalog does not write, a synonym of a table\'s name, as a label of that table\'s kind list', () => {
    const tables = src([
      table('artist_type', ['id', 'name']),
      table('area', ['id', 'name', 'type', 'comment']),
      table('artist', ['id', 'gid', 'name', 'sort_name', 'type', 'area', 'begin_date_year', 'end_date_year', 'ended', 'comment', 'last_updated'], [fk(['type'], 'artist_type'), fk(['area'], 'area')]),
      table('release', ['id', 'name', 'barcode', 'comment']),
      table('artist_release', ['artist', 'release'], [fk(['artist'], 'artist'), fk(['release'], 'release')]),
    ]);
    const index = buildSearchIndex({ tables });
    const r = index.search('choirs from Estonia', { limit: 6 });
    const kind = r.hits.find((h) => h.qualifiedName === 'public.artist_type');
    assert.ok(kind?.why.includes("kind of artist, may hold 'choirs'"), reasons(r.hits));
    // The catalog's own word names no kind.
    assert.ok(!index.search('artists from Estonia', { limit: 6 }).hits.some((h) => h.why.some((w) => w.startsWith('kind of'))));
  });

  it('reads a plural for a kind of thing the catalog does not write as a label of the kind lists of the best table that has them', () => {
    // AdventureWorks-shaped: products in subcategories in categories; the word for bicycles is in comments only.
    const tables = src([
      { ...table('productcategory', ['productcategoryid', 'name']), comment: 'High-level product categorization.' },
      { ...table('productsubcategory', ['productsubcategoryid', 'productcategoryid', 'name'], [fk(['productcategoryid'], 'productcategory', ['productcategoryid'])]), comment: 'Product subcategories.' },
      table('product', ['productid', 'name', 'color', 'listprice', 'productsubcategoryid'], [fk(['productsubcategoryid'], 'productsubcategory', ['productsubcategoryid'])]),
      { ...table('illustration', ['illustrationid', 'diagram']), comment: 'Bicycle assembly diagrams.' },
      table('productreview', ['productreviewid', 'productid', 'rating', 'comments'], [fk(['productid'], 'product', ['productid'])]),
    ]);
    const index = buildSearchIndex({ tables });
    const r = index.search('bikes that come in red', { limit: 5 });
    const why = (q: string): string => reasons(r.hits) + `\n(${q})`;
    assert.ok(r.hits.find((h) => h.qualifiedName === 'public.productsubcategory')?.why.includes("kind of product, may hold 'bikes'"), why('the kind list of products'));
    assert.ok(r.hits.find((h) => h.qualifiedName === 'public.productcategory')?.why.includes("wider kind of product, may hold 'bikes'"), why('and the wider one it belongs to'));
    // A word the catalog writes itself names no kind.
    assert.ok(!index.search('products that come in red', { limit: 5 }).hits.some((h) => h.why.some((w) => w.includes('kind of'))));
  });

  it('reads a word before a noun of places as the kind of place, not a kind of the catalog\'s things', () => {
    const tables = src([
      table('productcategory', ['productcategoryid', 'name']),
      table('productsubcategory', ['productsubcategoryid', 'productcategoryid', 'name'], [fk(['productcategoryid'], 'productcategory', ['productcategoryid'])]),
      table('product', ['productid', 'name', 'color', 'listprice', 'productsubcategoryid'], [fk(['productsubcategoryid'], 'productsubcategory', ['productsubcategoryid'])]),
      table('vendor', ['vendorid', 'name', 'creditrating']),
      table('productvendor', ['productid', 'vendorid', 'standardprice'], [fk(['productid'], 'product', ['productid']), fk(['vendorid'], 'vendor', ['vendorid'])]),
      table('store', ['storeid', 'name', 'demographics']),
    ]);
    const index = buildSearchIndex({ tables });
    const kinds = (q: string, on: number): string[] => withRanking('kindOfHolder', on, () => index.search(q, { limit: 6 }).hits.flatMap((h) => h.why.filter((w) => w.includes("may hold 'bike'") || w.includes("may hold 'tire'"))));
    assert.deepEqual(kinds('names of the bike shops in Ohio', 1), []);
    assert.ok(kinds('names of the bike shops in Ohio', 0).length > 0, 'the control: without the rule, bike was read as a kind');
    // Before a noun of people the word may still be a kind of the things they deal in.
    assert.ok(kinds('contacts at our tire suppliers', 1).length > 0, reasons(index.search('contacts at our tire suppliers', { limit: 6 }).hits));
  });

  it('passes over a table of places that has no kind code list for the next one that has', () => {
    // MusicBrainz: `medium` reads as a place noun and ranks between `area` and `place` for a city's name; it has no
    // kind list, so the second list is the place's, not nothing.
    const tables = src([
      table('area_type', ['id', 'name']),
      table('area', ['id', 'name', 'type', 'comment', 'begin_date'], [fk(['type'], 'area_type')]),
      table('place_type', ['id', 'name']),
      table('place', ['id', 'name', 'address', 'coordinates', 'comment', 'begin_date', 'type', 'area'], [fk(['type'], 'place_type'), fk(['area'], 'area')]),
      table('release', ['id', 'name', 'barcode', 'comment']),
      table('medium', ['id', 'release', 'position', 'format', 'name', 'track_count', 'area'], [fk(['release'], 'release'), fk(['area'], 'area')]),
      table('recording', ['id', 'name', 'length', 'comment']),
      table('track', ['id', 'recording', 'medium', 'name', 'position'], [fk(['recording'], 'recording'), fk(['medium'], 'medium')]),
    ]);
    // A kind of place no synonym names (studios are places, halls are not).
    const r = buildSearchIndex({ tables }).search('recording halls located in Nashville', { limit: 10 });
    const order = r.hits.map((h) => h.qualifiedName.replace(/^public\./, ''));
    assert.ok(order.indexOf('medium') >= 0 && order.indexOf('medium') < order.indexOf('place'), `the control: medium ranks before place (${order.join(', ')})`);
    const placeType = r.hits.find((h) => h.qualifiedName === 'public.place_type');
    assert.ok(placeType?.why.includes("kind of place, may hold 'halls'"), reasons(r.hits));
  });

  it('reads a kind of person the catalog does not name as a label of a role list behind a junction the question names', () => {
    // AdventureWorks: people are contacts of stores and vendors in a role (`contacttype`: Owner, Purchasing Manager…).
    const tables = src([
      table('person', ['businessentityid', 'firstname', 'lastname', 'persontype']),
      table('businessentity', ['businessentityid', 'rowguid']),
      table('contacttype', ['contacttypeid', 'name']),
      table('businessentitycontact', ['businessentityid', 'personid', 'contacttypeid'], [fk(['businessentityid'], 'businessentity'), fk(['personid'], 'person'), fk(['contacttypeid'], 'contacttype')]),
      table('store', ['businessentityid', 'name', 'salespersonid'], [fk(['businessentityid'], 'businessentity')]),
      table('shift', ['shiftid', 'name', 'starttime']),
    ]);
    const index = buildSearchIndex({ tables });
    const r = index.search('Who are the purchasing managers listed as contacts for our stores?', { limit: 6 });
    const order = names(r.hits);
    assert.ok(order.includes('public.contacttype') && order.includes('public.businessentitycontact'), order.join(', '));
    assert.ok(r.hits.find((h) => h.qualifiedName === 'public.contacttype')!.why.includes("kind of person via businessentitycontact, may hold 'managers'"), reasons(r.hits));
    // A question that reaches no junction (nothing says "contact") raises no role list behind one.
    const why = index.search('Who are the production supervisors working nights?', { limit: 10 }).hits.flatMap((h) => h.why);
    assert.ok(!why.some((w) => w.startsWith('kind of person via')), why.join('; '));
  });

  it("prefers the role list of a relationship to the kind list of a person's own numbers", () => {
    const tables = src([
      table('person', ['businessentityid', 'firstname', 'lastname', 'persontype', 'emailpromotion']),
      table('businessentity', ['businessentityid', 'rowguid']),
      table('contacttype', ['contacttypeid', 'name']),
      table('businessentitycontact', ['businessentityid', 'personid', 'contacttypeid'], [fk(['businessentityid'], 'businessentity'), fk(['personid'], 'person'), fk(['contacttypeid'], 'contacttype')]),
      table('phonenumbertype', ['phonenumbertypeid', 'name']),
      table('personphone', ['businessentityid', 'phonenumber', 'phonenumbertypeid'], [fk(['businessentityid'], 'person'), fk(['phonenumbertypeid'], 'phonenumbertype')]),
      table('emailaddress', ['businessentityid', 'emailaddressid', 'emailaddress'], [fk(['businessentityid'], 'person')]),
      table('store', ['businessentityid', 'name', 'salespersonid'], [fk(['businessentityid'], 'businessentity')]),
      table('vendor', ['businessentityid', 'name', 'creditrating'], [fk(['businessentityid'], 'businessentity')]),
    ]);
    const index = buildSearchIndex({ tables });
    const q = 'Which people are purchasing managers at our stores, with their phone numbers and email addresses?';
    // The kind lists of people as such (RANKING.roleJunctions, which reads the role at the stores first, is left off).
    const kinds = (roles: number): string[] => withRanking('roleJunctions', 0, () => withRanking('kindRoles', roles, () => index.search(q, { limit: 10 }).hits.flatMap((h) => h.why).filter((w) => w.startsWith('kind of person via'))));
    // The phone numbers are asked for by name, so their junction outscores the contacts'; it holds numbers, not roles.
    assert.deepEqual(kinds(0), ["kind of person via personphone, may hold 'managers'"]);
    assert.deepEqual(kinds(1), ["kind of person via businessentitycontact, may hold 'managers'"]);
    // The role at the stores names the contacts' list too.
    const why = index.search(q, { limit: 10 }).hits.flatMap((h) => h.why);
    assert.ok(why.includes("kind of person at businessentity via businessentitycontact, may hold 'managers'"), why.join('; '));
  });

  it('reads a person named by a role as a type of relationship where the catalog keeps roles in one', () => {
    const index = buildSearchIndex({ tables: relationshipCatalog() });
    const hits = index.search('Who were the drummers in The Who over the years?', { limit: 6 }).hits;
    const order = names(hits);
    for (const t of ['artist', 'link', 'link_type', 'l_artist_artist']) assert.ok(order.includes(`public.${t}`), `${t}: ${order.join(', ')}`);
    assert.ok(hits.find((h) => h.qualifiedName === 'public.link_type')!.why.includes("type of link, may hold 'drummers'"), reasons(hits));
    // A kind of person that is no role ("girls") stays a label of the artist's own kind list.
    const kinds = index.search('Which girls were in The Who?', { limit: 6 }).hits;
    assert.ok(kinds.find((h) => h.qualifiedName === 'public.artist_type')?.why.includes("kind of artist, may hold 'girls'"), reasons(kinds));
    // Without a hub of relationships, a role is a kind of person as before.
    const plain = buildSearchIndex({ tables: src([table('artist_type', ['id', 'name']), table('artist', ['id', 'name', 'type'], [fk(['type'], 'artist_type')])]) });
    const plainHits = plain.search('Who were the drummers in The Who?', { limit: 4 }).hits;
    assert.ok(plainHits.find((h) => h.qualifiedName === 'public.artist_type')?.why.includes("kind of artist, may hold 'drummers'"), reasons(plainHits));
  });

  it('brings the attributes of the relationships with a role that the thesaurus does not place with what it makes', () => {
    const tables = [
      ...relationshipCatalog(),
      ...attributeTables(),
      ...src([
        table('link_creditable_attribute_type', ['attribute_type'], [fk(['attribute_type'], 'link_attribute_type')]),
        table('link_attribute_credit', ['link', 'attribute_type', 'credited_as'], [fk(['link'], 'link'), fk(['attribute_type'], 'link_creditable_attribute_type')]),
        table('l_area_area', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'area'), fk(['entity1'], 'area')]),
      ]),
    ];
    const index = buildSearchIndex({ tables });
    const attributes = (q: string, share: number): string[] => withRanking('roleAttributes', share, () => index.search(q, { limit: 10 }).hits.filter((h) => h.why.some((w) => w.startsWith('attribute'))).map((h) => h.qualifiedName.replace(/^public\./, '')));
    const q = 'Who were the drummers in The Who over the years?';
    assert.deepEqual(attributes(q, 0), []);
    // The junction of two keys to the most referenced list: not the credited list, not a relationship of areas.
    assert.deepEqual(attributes(q, 0.85).sort(), ['link_attribute', 'link_attribute_type'], reasons(index.search(q, { limit: 10 }).hits));
    // "lyricist" is a writer of works: its relationships need no attributes.
    assert.deepEqual(attributes("Who is credited as the lyricist of the song 'Yesterday'?", 0.85), []);
  });

  it('answers a question that names only a role ("theremin players") with the people of the relationships, not the central tables', () => {
    const index = buildSearchIndex({ tables: [...relationshipCatalog(), ...attributeTables()] });
    const q = 'theremin players';
    const off = withRanking('roleAlone', 0, () => index.search(q, { limit: 8 }).hits);
    const on = withRanking('roleAlone', 1, () => index.search(q, { limit: 8 }).hits);
    // No word reaches a table by itself: without the rule the answer is the catalog's most joined tables.
    assert.ok(off.every((h) => h.why.some((w) => w.startsWith('no word of the question'))), reasons(off));
    assert.equal(on[0]?.qualifiedName, 'public.artist', reasons(on));
    assert.ok(on[0]!.why.includes("holds the people of relationships, for 'players'"), reasons(on));
    for (const t of ['link', 'link_type', 'link_attribute', 'link_attribute_type']) assert.ok(on.some((h) => h.qualifiedName === `public.${t}`), `${t}: ${reasons(on)}`);
  });

  it('reads a role whose thesaurus synonyms name nothing in the catalog ("players", beside athletes) as one the attributes qualify', () => {
    const music = [...relationshipCatalog(), ...attributeTables()];
    const attributes = (tables: SearchTableInput[], held: number): boolean =>
      withRanking('roleSynonymsHeld', held, () => buildSearchIndex({ tables }).search('Who were the bass players in The Who?', { limit: 10 }).hits.some((h) => h.why.some((w) => w.startsWith('attributes of link'))));
    assert.equal(attributes(music, 0), false);
    assert.equal(attributes(music, 1), true);
    // Where the catalog holds the synonym, the role is placed with what it names there, and brings no attributes.
    assert.equal(attributes([...music, ...src([table('athlete', ['id', 'name', 'sport'])])], 1), false);
  });

  it('brings the attributes of the relationships only with a role of playing or singing', () => {
    const tables = [
      ...relationshipCatalog(),
      ...attributeTables(),
    ];
    const index = buildSearchIndex({ tables });
    const attributes = (q: string, on: number): boolean => withRanking('performingAttributes', on, () => index.search(q, { limit: 10 }).hits.some((h) => h.why.some((w) => w.startsWith('attributes of link'))));
    // Producing or conducting is qualified by no instrument or guest part.
    for (const q of ['Who was the producer on Nevermind?', 'Which conductors have recorded The Planets?']) {
      assert.equal(attributes(q, 1), false, q);
      assert.equal(attributes(q, 0), true, q);
    }
    // Playing is, and so is a word of playing anywhere in the question besides the role it names (produced … played).
    assert.equal(attributes('Who played bass on Abbey Road?', 1), true);
    assert.equal(attributes('Who produced Abbey Road, and which guitarist played on it?', 1), true);
  });

  it('reads the words a role leaves unexplained as its attributes, not as labels a guess found in other code lists', () => {
    const tables = [
      ...relationshipCatalog().filter((x) => x.table.name !== 'release'),
      ...src([
        table('release_status', ['id', 'name']),
        table('release_packaging', ['id', 'name']),
        table('release', ['id', 'name', 'comment', 'status', 'packaging'], [fk(['status'], 'release_status'), fk(['packaging'], 'release_packaging')]),
      ]),
      ...attributeTables(),
    ];
    const index = buildSearchIndex({ tables });
    const q = 'Who played drums on Abbey Road as a guest?';
    const hits = (v: number): readonly SearchHit[] => withRanking('roleGuesses', v, () => index.search(q, { limit: 12 }).hits);
    const score = (hs: readonly SearchHit[], name: string): number => hs.find((h) => h.qualifiedName === `public.${name}`)?.score ?? 0;
    assert.ok(hits(0.8).some((h) => h.why.some((w) => w.startsWith('attribute types of link'))), reasons(hits(0.8)));
    const guessed = hits(1).filter((h) => h.why.some((w) => w.includes('may hold') && w.includes("'drums'")) && !h.qualifiedName.includes('attribute'));
    assert.ok(guessed.length > 0, reasons(hits(1)));
    for (const g of guessed) assert.ok(score(hits(0.8), g.qualifiedName.replace(/^public\./, '')) < g.score, `${g.qualifiedName}: ${reasons(hits(0.8))}`);
  });

  it('looks for a label in the code lists behind plain junctions, not in things a typed relationship relates', () => {
    const tables = [
      ...relationshipCatalog(),
      ...src([
        // Moods and genres as MusicBrainz has them: small named lists that typed relationships relate to artists.
        table('mood', ['id', 'name']),
        table('l_artist_mood', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'artist'), fk(['entity1'], 'mood')]),
        // A kind list behind a plain junction of two keys.
        table('artist_secondary_type', ['id', 'name']),
        table('artist_secondary_type_join', ['artist', 'secondary_type'], [fk(['artist'], 'artist'), fk(['secondary_type'], 'artist_secondary_type')]),
      ]),
    ];
    const index = buildSearchIndex({ tables });
    const q = 'gloomy artists from the nineties';
    const run = (on: number): ReturnType<typeof index.search> => withRanking('relatedNoList', on, () => index.search(q, { limit: 12 }));
    const [before, after] = [run(0), run(1)];
    assert.ok(whyOf(before.hits, 'mood').some((w) => w.includes('via l_artist_mood')), reasons(before.hits));
    assert.ok(!whyOf(after.hits, 'mood').some((w) => w.includes('via l_artist_mood')), reasons(after.hits));
    // The plain junction's list and the artist's own list are still offered.
    assert.ok(whyOf(after.hits, 'artist_secondary_type').some((w) => w.includes('via artist_secondary_type_join')), reasons(after.hits));
    assert.ok(whyOf(after.hits, 'artist_type').some((w) => w.startsWith('lookup of artist') || w.startsWith('code list of artist')), reasons(after.hits));
  });

  it('guesses no label in a vocabulary that three or more junctions share', () => {
    const things = ['recording', 'release', 'label'];
    const tables = [
      ...relationshipCatalog(),
      ...src([
        table('tag', ['id', 'name', 'ref_count']),
        ...things.map((t) => table(`${t}_tag`, [t, 'tag', 'count'], [fk([t], t), fk(['tag'], 'tag')])),
        // A list behind one junction of its own still sorts that table's rows.
        table('atmosphere', ['id', 'name']),
        table('recording_atmosphere', ['recording', 'atmosphere'], [fk(['recording'], 'recording'), fk(['atmosphere'], 'atmosphere')]),
      ]),
    ];
    const index = buildSearchIndex({ tables });
    const q = 'gloomy recordings from the nineties';
    const guesses = (on: number): ReturnType<typeof index.search> => withRanking('sharedLists', on, () => index.search(q, { limit: 12 }));
    const guessed = (r: ReturnType<typeof index.search>, t: string): boolean => whyOf(r.hits, t).some((w) => w.includes("may hold 'gloomy"));
    assert.ok(guessed(guesses(0), 'tag'), reasons(guesses(0).hits));
    assert.ok(!guessed(guesses(1), 'tag'), reasons(guesses(1).hits));
    assert.ok(guessed(guesses(1), 'atmosphere'), reasons(guesses(1).hits));
  });

  it('reads a table of custom attributes as auxiliary unless the question names attributes, and looks for no label in it', () => {
    const tables = [
      ...relationshipCatalog(),
      ...src([
        table('artist_attribute_type', ['id', 'name', 'comment', 'free_text']),
        table('artist_attribute_type_allowed_value', ['id', 'artist_attribute_type', 'value'], [fk(['artist_attribute_type'], 'artist_attribute_type')]),
        table(
          'artist_attribute',
          ['id', 'artist', 'artist_attribute_type', 'artist_attribute_type_allowed_value', 'artist_attribute_text'],
          [fk(['artist'], 'artist'), fk(['artist_attribute_type'], 'artist_attribute_type'), fk(['artist_attribute_type_allowed_value'], 'artist_attribute_type_allowed_value')],
        ),
      ]),
    ];
    const index = buildSearchIndex({ tables });
    const run = (q: string, on: number): ReturnType<typeof index.search> => withRanking('attributeTables', on, () => index.search(q, { limit: 12 }));
    const rank = (r: ReturnType<typeof index.search>, t: string): number => r.hits.findIndex((h) => h.qualifiedName === `public.${t}`);
    const q = 'gloomy artists from the nineties';
    const [before, after] = [run(q, 0), run(q, 1)];
    assert.ok(whyOf(before.hits, 'artist_attribute_type').some((w) => w.includes('via artist_attribute')), reasons(before.hits));
    assert.ok(!whyOf(after.hits, 'artist_attribute_type').some((w) => w.includes('via artist_attribute')), reasons(after.hits));
    // Below the artist's own kind list now, above it before.
    assert.ok(rank(before, 'artist_attribute') >= 0 && rank(before, 'artist_attribute') < rank(before, 'artist_type'), reasons(before.hits));
    assert.ok(rank(after, 'artist_attribute') < 0 || rank(after, 'artist_attribute') > rank(after, 'artist_type'), reasons(after.hits));
    // Asked for by name, the table keeps its place.
    const asked = 'which attributes do artists have';
    assert.equal(rank(run(asked, 1), 'artist_attribute'), rank(run(asked, 0), 'artist_attribute'));
    assert.ok(rank(run(asked, 1), 'artist_attribute') >= 0 && rank(run(asked, 1), 'artist_attribute') < 3, reasons(run(asked, 1).hits));
  });

  it('reads a word the dictionary does not know before "of" as a relationship of a thing to its own kind', () => {
    const lexicon = loadLexicon();
    assert.deepEqual(parseQuery('tunes that are remixes of Blue Monday', lexicon).madeOf, ['remixes']);
    // Dictionary words before "of" are not (the members of a band, covers of a song).
    assert.deepEqual(parseQuery('the members of Queen and covers of Hallelujah', lexicon).madeOf, []);
    const tables = [
      // Recordings as MusicBrainz has them: more than a name and a comment (not a code list).
      ...relationshipCatalog().filter((t) => t.table.name !== 'recording'),
      ...src([
        table('recording', ['id', 'gid', 'name', 'artist_credit', 'length', 'comment', 'edits_pending', 'last_updated', 'video']),
        table('l_recording_recording', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'recording'), fk(['entity1'], 'recording')]),
        table('l_recording_work', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'recording'), fk(['entity1'], 'work')]),
        table('track', ['id', 'recording', 'name', 'length'], [fk(['recording'], 'recording')]),
        table('tag', ['id', 'name', 'ref_count']),
        table('recording_tag', ['recording', 'tag', 'count'], [fk(['recording'], 'recording'), fk(['tag'], 'tag')]),
        table('recording_meta', ['id', 'rating', 'rating_count'], [fk(['id'], 'recording')]),
        table('isrc', ['id', 'recording', 'isrc'], [fk(['recording'], 'recording')]),
        ...['place', 'release', 'label', 'area'].map((e) => table(`l_${e}_recording`, ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], e), fk(['entity1'], 'recording')])),
      ]),
    ];
    const index = buildSearchIndex({ tables });
    const q = 'List remixes of Daft Punk recordings and how long each runs';
    const run = (share: number): ReturnType<typeof index.search> => withRanking('madeOf', share, () => index.search(q, { limit: 20 }));
    const scoreOf = (r: ReturnType<typeof index.search>, t: string): number => r.hits.find((h) => h.qualifiedName === `public.${t}`)?.score ?? 0;
    const [before, after] = [run(0), run(0.9)];
    assert.ok(!whyOf(before.hits, 'l_recording_recording').some((w) => w.startsWith('relates')), reasons(before.hits));
    assert.ok(whyOf(after.hits, 'l_recording_recording').includes("relates recording to recording, for 'remixes'"), reasons(after.hits));
    // Raised to nine tenths of the recordings it relates, from well below.
    assert.ok(scoreOf(after, 'l_recording_recording') >= 0.85 * scoreOf(after, 'recording') && scoreOf(before, 'l_recording_recording') < 0.7 * scoreOf(before, 'recording'), `${scoreOf(before, 'l_recording_recording')} → ${scoreOf(after, 'l_recording_recording')} (recording ${scoreOf(after, 'recording')})`);
  });

  it("reads a role's verb in a question about someone as that role, towards what the question names", () => {
    // The verb of a role noun, from WordNet's derivations: `produce` of `producer`, `compose` of `composer`.
    assert.ok(lexicon.isRoleVerb('produced') && lexicon.isRoleVerb('composed') && lexicon.isRoleVerb('wrote'));
    assert.ok(!lexicon.isRoleVerb('released') && !lexicon.isRoleVerb('listed'));
    // Only in a question about someone: it asks who, or names a person.
    assert.deepEqual(parseQuery('songs Quincy Jones produced, with the year', lexicon).roleVerbs, ['produced']);
    assert.deepEqual(parseQuery('Who composed the most works?', lexicon).roleVerbs, ['composed']);
    assert.deepEqual(parseQuery('How many albums were produced in 1990?', lexicon).roleVerbs, []);
    const index = buildSearchIndex({ tables: relationshipCatalog() });
    const hits = index.search('I need a list of recordings Quincy Jones produced', { limit: 8 }).hits;
    const order = names(hits);
    for (const t of ['artist', 'link', 'link_type', 'l_artist_recording']) assert.ok(order.includes(`public.${t}`), `${t}: ${order.join(', ')}`);
    assert.ok(hits.find((h) => h.qualifiedName === 'public.link_type')!.why.includes("type of link, may hold 'produced'"), reasons(hits));
    // A role towards people, where the question names nothing else: the junction of people to people, not one to a
    // table that only a column ("dates" of `area`) brought in.
    const band = index.search('Who were the drummers in The Who, with start and end dates?', { limit: 8 }).hits;
    const joins = band.filter((h) => h.why.includes("joins artist in a relationship, for 'drummers'")).map((h) => h.qualifiedName);
    assert.deepEqual(joins, ['public.l_artist_artist'], reasons(band));
    // Belonging to a group is a relationship of people to people too.
    const members = index.search('Who were the members of The Who?', { limit: 6 }).hits;
    const shown = reasons(members);
    assert.ok(members.find((h) => h.qualifiedName === 'public.link_type')?.why.includes("type of link, may hold 'members'"), shown);
    assert.ok(members.find((h) => h.qualifiedName === 'public.l_artist_artist')?.why.includes("joins artist in a relationship, for 'members'"), shown);
    // So is leaving one ("when did he quit").
    const quit = index.search('which bands has dave grohl been in and when did he join and quit each', { limit: 8 }).hits;
    assert.ok(quit.find((h) => h.qualifiedName === 'public.l_artist_artist')?.why.includes("joins artist in a relationship, for 'quit'"), reasons(quit));
    // Towards people, even where the question names another table a junction reaches ("recordings").
    const made = index.search('Which recordings did the members of The Who make?', { limit: 8 }).hits;
    const via = made.filter((h) => h.why.includes("joins artist in a relationship, for 'members'")).map((h) => h.qualifiedName);
    assert.deepEqual(via, ['public.l_artist_artist'], reasons(made));
  });

  it('finds the members of a group among the people of the relationships, not among accounts a word grazed', () => {
    // The site's users have a `member_since`; no junction of the relationship hub reaches them.
    const tables = [...relationshipCatalog(), ...src([table('editor', ['id', 'name', 'email', 'password', 'member_since', 'last_login_date'])])];
    const index = buildSearchIndex({ tables });
    const run = (ends: number): ReturnType<typeof index.search>['hits'] => withRanking('roleEnds', ends, () => index.search('fleetwod mac members', { limit: 6 }).hits);
    const hits = run(1);
    const order = names(hits);
    // The control: without the rule the relationship is the editor's, and the artists are not in the answer.
    assert.ok(!names(run(0)).includes('public.l_artist_artist'), names(run(0)).join(', '));
    for (const t of ['artist', 'link', 'link_type', 'l_artist_artist']) assert.ok(order.includes(`public.${t}`), `${t}: ${reasons(hits)}`);
    assert.ok(hits.find((h) => h.qualifiedName === 'public.artist')?.why.includes("holds the people of relationships, for 'members'"), reasons(hits));
    // Another role word about the accounts stays theirs: the ratings users give are no relationship of artists.
    const users = names(index.search('average rating by user', { limit: 6 }).hits);
    assert.ok(!users.includes('public.l_artist_artist'), users.join(', '));
  });

  it('finds a lineup of something that is no people among the people of the relationships taking part in it', () => {
    const tables = [
      ...relationshipCatalog(),
      ...src([
        table('event', ['id', 'name', 'type', 'begin_date_year', 'end_date_year', 'setlist'], [fk(['type'], 'event_type')]),
        table('event_type', ['id', 'name']),
        table('l_artist_event', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'artist'), fk(['entity1'], 'event')]),
        ...['area', 'label', 'place'].map((e) => table(`l_${e}_event`, ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], e), fk(['entity1'], 'event')])),
      ]),
    ];
    const index = buildSearchIndex({ tables });
    const q = 'festival au desert 2003 lineup setlist';
    const hits = index.search(q, { limit: 4 }).hits;
    for (const t of ['event', 'artist']) assert.ok(names(hits).includes(`public.${t}`), `${t}: ${reasons(hits)}`);
    assert.ok(hits.find((h) => h.qualifiedName === 'public.artist')?.why.includes("holds the people of relationships, for 'lineup'"), reasons(hits));
    const off = names(withRanking('lineupOfThings', 0, () => index.search(q, { limit: 4 }).hits));
    assert.ok(!off.includes('public.artist'), off.join(', '));
  });

  it('finds the people of a role among the people of the relationships when the answer has no table of people', () => {
    const tables = [
      ...relationshipCatalog(),
      ...src([
        table('iswc', ['id', 'work', 'iswc'], [fk(['work'], 'work')]),
        table('work_language', ['work', 'language'], [fk(['work'], 'work')]),
        table('l_area_work', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'area'), fk(['entity1'], 'work')]),
      ]),
    ];
    const index = buildSearchIndex({ tables });
    const q = "iswc composer lyricist 'Autumn Leaves' work";
    // Six tables answer it: the work, its code (`iswc`), and the composer through the relationship and its type.
    const hits = index.search(q, { limit: 6 }).hits;
    for (const t of ['work', 'artist', 'l_artist_work']) assert.ok(names(hits).includes(`public.${t}`), `${t}: ${reasons(hits)}`);
    assert.ok(hits.find((h) => h.qualifiedName === 'public.artist')?.why.includes("holds the people of relationships, for 'composer'"), reasons(hits));
    const off = names(withRanking('rolePeople', 0, () => index.search(q, { limit: 6 }).hits));
    assert.ok(!off.includes('public.artist'), off.join(', '));
    // A role that modifies the noun behind it asks for no people.
    const why = index.search('average user rating of works', { limit: 5 }).hits.flatMap((h) => h.why);
    assert.ok(!why.some((w) => w.startsWith('holds the people of relationships')), why.join('; '));
  });

  it('ranks a table of accounts below the people the data is about for a name in the question', () => {
    // MusicBrainz: `editor` (the site's users, with a password and a last login) beside `artist`, equally far away.
    const catalog = (editorColumns: string[]): SearchTableInput[] =>
      src([table('editor', ['id', 'name', 'email', 'bio', ...editorColumns]), table('artist', ['id', 'name', 'email', 'bio']), table('area', ['id', 'name'])]);
    const score = (t: SearchTableInput[], name: string): number =>
      buildSearchIndex({ tables: t }).search("Metallica's biggest fans", { limit: 5 }).hits.find((h) => h.qualifiedName === `public.${name}`)?.score ?? 0;
    const plain = catalog([]);
    const accounts = catalog(['password', 'last_login_date']);
    assert.equal(score(plain, 'editor'), score(plain, 'artist'), 'the control: the same table of people under two names');
    assert.ok(score(accounts, 'editor') < score(accounts, 'artist'), `${score(accounts, 'editor')} vs ${score(accounts, 'artist')}`);
    // Accounts that carry their holders' own names (Pagila's `staff`) are people of the data who also log in: they keep
    // more of their strength than accounts known by a bare user name.
    const named = src([table('editor', ['id', 'first_name', 'last_name', 'email', 'bio', 'password']), table('artist', ['id', 'first_name', 'last_name', 'email', 'bio']), table('area', ['id', 'name'])]);
    const namedPlain = src([table('editor', ['id', 'first_name', 'last_name', 'email', 'bio']), table('artist', ['id', 'first_name', 'last_name', 'email', 'bio']), table('area', ['id', 'name'])]);
    assert.equal(score(namedPlain, 'editor'), score(namedPlain, 'artist'), 'the control, with people\'s names');
    const kept = (t: SearchTableInput[]): number => score(t, 'editor') / score(t, 'artist');
    assert.ok(kept(named) > kept(accounts), `${kept(named)} vs ${kept(accounts)}`);
  });

  it('reads a table named after a place but with no text of its own as holding places less surely', () => {
    // MusicBrainz: `release_unknown_country (release, date_year, date_month)` holds dates, not the names of places.
    const { table: typed } = catalogBuilders((name) => (name.endsWith('id') || name.startsWith('date_') || name === 'release' ? 'integer' : 'text'));
    const catalog = (extra: string[]): SearchTableInput[] =>
      src([
        typed('release', ['id', 'name', 'barcode']),
        typed('release_unknown_country', ['release', 'date_year', 'date_month', ...extra], [fk(['release'], 'release')]),
        typed('release_country', ['release', 'country', 'date_year'], [fk(['release'], 'release'), fk(['country'], 'country')]),
        typed('country', ['id', 'name', 'iso_code']),
      ]);
    const holds = (t: SearchTableInput[]): number => {
      const hit = buildSearchIndex({ tables: t }).search('releases in Germany', { limit: 5 }).hits.find((h) => h.qualifiedName === 'public.release_unknown_country');
      assert.ok(hit !== undefined && hit.why.some((w) => w.startsWith('holds places')), JSON.stringify(hit));
      return hit.score;
    };
    assert.ok(holds(catalog([])) < holds(catalog(['note'])), `${holds(catalog([]))} vs ${holds(catalog(['note']))}`);
  });

  it('reads a table named by a noun whose first sense is no place as holding places less surely', () => {
    const lexicon = loadLexicon();
    assert.equal(lexicon.isFirstPlace('medium'), false, 'a medium is a means of communication first');
    assert.equal(lexicon.isFirstPlace('cities'), true);
    // The same columns under two names: MusicBrainz' `medium` (a disc) beside `area`.
    const score = (name: string): number =>
      buildSearchIndex({ tables: src([table(name, ['id', 'name', 'comment']), table('release', ['id', 'name'])]) })
        .search('releases in Germany', { limit: 5 })
        .hits.find((h) => h.qualifiedName === `public.${name}`)?.score ?? 0;
    assert.ok(score('medium') < score('area'), `${score('medium')} vs ${score('area')}`);
    // A later place sense that the domain thesaurus puts among places keeps its strength (`country` is a nation first).
    assert.equal(lexicon.isFirstPlace('country'), false);
    assert.equal(score('country'), score('area'));
  });

  it('does not read an enum column named after a kind of person as a column of people', () => {
    // WordNet: a "star" is also a celebrity, a person. An enum column holds a code, never a name.
    const film = table('film', ['film_id', 'title', column('star', { dataType: 'public.star_rating', enumLabels: ['1', '2', '3'] })]);
    const rated = table('film', ['film_id', 'title', column('star', { dataType: 'text' })]);
    const holdsPeople = (t: TableInfo): boolean =>
      buildSearchIndex({ tables: src([t, table('actor', ['actor_id', 'first_name', 'last_name'])]) })
        .search('films with Penelope Guiness', { limit: 5 })
        .hits.some((h) => h.qualifiedName === 'public.film' && h.why.some((w) => w.startsWith('holds people')));
    assert.equal(holdsPeople(film), false);
    assert.equal(holdsPeople(rated), true, 'the control: a text column called star still counts');
  });
});

describe('search: FK neighbours', () => {
  it('raises the entity a matched child table hangs off when the question names it', () => {
    const tables = src([
      table('artist', ['id', 'gid', 'sort_name', 'comment', 'begin_date_year']),
      table('artist_ipi', ['artist', 'ipi', 'created'], [fk(['artist'], 'artist')]),
      table('artist_release', ['artist', 'release', 'country_code'], [fk(['artist'], 'artist'), fk(['release'], 'release')]),
      table('release', ['id', 'name', 'barcode']),
      table('label_ipi', ['label', 'ipi', 'created']),
    ]);
    const r = buildSearchIndex({ tables }).search('What IPI codes are assigned to artists?', { limit: 5 });
    const ranked = names(r.hits);
    assert.equal(ranked[0], 'public.artist_ipi');
    assert.ok(ranked.indexOf('public.artist') > 0 && ranked.indexOf('public.artist') < ranked.indexOf('public.label_ipi'), ranked.join(', '));
    assert.ok(r.hits.find((h) => h.qualifiedName === 'public.artist')!.why.includes('joins artist_ipi'));
  });

  it('returns the lookup tables of a lone hit instead of stopping at one result', () => {
    const tables = src([
      table('superhero', ['id', 'superhero_name', 'race_id', 'gender_id'], [fk(['race_id'], 'race'), fk(['gender_id'], 'gender')]),
      table('race', ['id', 'race']),
      table('gender', ['id', 'gender']),
      table('unrelated', ['id', 'payload']),
    ]);
    const r = buildSearchIndex({ tables }).search('How many vampire superheroes are there?', { limit: 5 });
    assert.equal(r.hits[0]?.qualifiedName, 'public.superhero');
    assert.deepEqual(new Set(names(r.hits).slice(1)), new Set(['public.race', 'public.gender']));
  });
});

describe('search: serialised index', () => {
  it('answers exactly like the built index after a round trip through bytes', () => {
    const tables = racing();
    const built = buildSearchIndex({ tables });
    const bytes = serializeIndex(built);
    assert.ok(bytes.length > 16);
    // A copy at an odd offset of a larger buffer, as a store may hand it back.
    const padded = new Uint8Array(bytes.length + 3);
    padded.set(bytes, 3);
    const loaded = deserializeIndex(padded.subarray(3), { tables });
    assert.ok(loaded !== null);
    for (const q of ['fastest lap of Lewis Hamilton', 'points per season', 'circuit city', '*']) {
      assert.deepEqual(loaded.search(q, { limit: 5, withJoinTree: true }), built.search(q, { limit: 5, withJoinTree: true }), q);
    }
  });

  it('refuses bytes made from other tables, or that are damaged', () => {
    const tables = racing();
    const bytes = serializeIndex(buildSearchIndex({ tables }));
    const changed = tables.map((t, i) => (i === 0 ? { ...t, table: { ...t.table, columns: [...t.table.columns, column('nickname')] } } : t));
    assert.equal(deserializeIndex(bytes, { tables: changed }), null);
    assert.equal(deserializeIndex(bytes.subarray(0, bytes.length - 4), { tables }), null);
    assert.equal(deserializeIndex(new Uint8Array([1, 2, 3]), { tables }), null);
  });
});

describe('search: large catalogs', () => {
  it('keeps words present in most tables from flooding the candidates, without losing the rare match', () => {
    const tables: TableInfo[] = [];
    for (let t = 0; t < 1200; t++) tables.push(table(`thing_${t}`, ['id', 'name', `attr_${t % 50}`]));
    tables.push(table('warehouse_stock', ['id', 'name', 'quantity']));
    const index = buildSearchIndex({ tables: src(tables) });
    const r = index.search('warehouse stock name', { limit: 10 });
    assert.equal(r.hits[0]?.qualifiedName, 'public.warehouse_stock');
    assert.ok(r.totalMatches < 50, `totalMatches ${r.totalMatches}`);
    // A question made only of common words still finds tables.
    assert.ok(index.search('name', { limit: 3 }).hits.length === 3);
  });
});

describe('search: a qualifying word beside the word it qualifies', () => {
  const types = catalogBuilders((name) => (name.endsWith('id') ? 'integer' : name.endsWith('date') ? 'timestamp' : 'text'));
  const { table: t } = types;
  const orders = (): SearchTableInput[] =>
    src([
      t('product', ['productid', 'name', 'listprice']),
      t('vendor', ['vendorid', 'name', 'creditrating']),
      t('customer', ['customerid', 'name']),
      t('salesorderheader', ['salesorderid', 'customerid', 'orderdate', 'duedate'], [fk(['customerid'], 'customer', ['customerid'])]),
      t('salesorderdetail', ['salesorderid', 'productid', 'orderqty', 'unitprice'], [fk(['salesorderid'], 'salesorderheader', ['salesorderid']), fk(['productid'], 'product', ['productid'])]),
      t('purchaseorderheader', ['purchaseorderid', 'vendorid', 'orderdate', 'shipdate'], [fk(['vendorid'], 'vendor', ['vendorid'])]),
      t('purchaseorderdetail', ['purchaseorderid', 'productid', 'orderqty', 'receivedqty', 'rejectedqty'], [fk(['purchaseorderid'], 'purchaseorderheader', ['purchaseorderid']), fk(['productid'], 'product', ['productid'])]),
    ]);

  it('does not match the qualified word a second time through a relation between the two ("purchase orders" are no sales orders twice)', () => {
    const index = buildSearchIndex({ tables: orders() });
    const q = 'which purchase orders from last month are late';
    const score = (hits: readonly SearchHit[], name: string): number => hits.find((h) => h.qualifiedName === `public.${name}`)?.score ?? 0;
    const before = withRanking('ownWordsOnce', 0, () => index.search(q, { limit: 6 }).hits);
    const after = index.search(q, { limit: 6 }).hits;
    // Without the rule, `purchase` also counts as a synonym of `order` at the sales orders.
    assert.ok(whyOf(before, 'salesorderdetail').includes('synonym purchase→order'), reasons(before));
    assert.deepEqual(whyOf(after, 'salesorderdetail'), ["name matches 'orders'"], reasons(after));
    assert.deepEqual(names(after).slice(0, 2), ['public.purchaseorderheader', 'public.purchaseorderdetail']);
    // The purchase orders keep their score; the sales orders fall to two thirds of theirs or less.
    assert.ok(Math.abs(score(after, 'purchaseorderheader') - score(before, 'purchaseorderheader')) < 1e-9);
    assert.ok(score(after, 'salesorderdetail') < 0.7 * score(before, 'salesorderdetail'), reasons(after));
  });
});

describe('search: the ends of a junction known only through another junction', () => {
  const { table: t } = catalogBuilders((name) => (name.endsWith('id') ? 'integer' : name.endsWith('date') ? 'timestamp' : 'text'));
  // Order lines point at the offer-product pair (one key of two columns), which points at offers and products: the
  // lines reach `product` and `specialoffer` only through that pair's keys (implied edges).
  const orders = (): SearchTableInput[] =>
    src([
      keyed(t('product', ['productid', 'name', 'listprice', 'color']), ['productid']),
      keyed(t('specialoffer', ['specialofferid', 'description', 'discountpct', 'startdate', 'enddate']), ['specialofferid']),
      keyed(t('specialofferproduct', ['specialofferid', 'productid'], [fk(['specialofferid'], 'specialoffer', ['specialofferid']), fk(['productid'], 'product', ['productid'])]), ['specialofferid', 'productid']),
      keyed(t('customer', ['customerid', 'accountnumber']), ['customerid']),
      keyed(t('salesorderheader', ['salesorderid', 'customerid', 'orderdate', 'duedate'], [fk(['customerid'], 'customer', ['customerid'])]), ['salesorderid']),
      keyed(t('salesorderdetail', ['salesorderid', 'salesorderdetailid', 'specialofferid', 'productid', 'orderqty', 'unitprice'], [fk(['salesorderid'], 'salesorderheader', ['salesorderid']), fk(['specialofferid', 'productid'], 'specialofferproduct', ['specialofferid', 'productid'])]), ['salesorderid', 'salesorderdetailid']),
    ]);

  it('raises such an end as what the junction relates only where a word of the question reaches it', () => {
    const index = buildSearchIndex({ tables: orders() });
    const q = 'which order lines got a discount';
    const before = withRanking('impliedEnds', 0, () => index.search(q, { limit: 6 }).hits);
    const after = index.search(q, { limit: 6 }).hits;
    assert.ok(whyOf(before, 'product').includes('what salesorderdetail relates'), reasons(before));
    assert.ok(!whyOf(after, 'product').includes('what salesorderdetail relates'), reasons(after));
    // The offer, which "discount" reaches, and the direct end of the lines keep their places.
    assert.deepEqual(names(after).slice(0, 4), names(before).slice(0, 4));
    assert.ok(names(after).indexOf('public.product') > names(after).indexOf('public.specialoffer'), reasons(after));
  });
});
