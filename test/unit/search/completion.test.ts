import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { buildSearchIndex, findMentions, loadLexicon, parseQuery } from '../../../src/core/search/index';
import { catalogBuilders, fk, names, reasons, src, whyOf, withRanking } from './builders';

/** The people and places a question names, as kind and text. */
function mentions(q: string): Array<{ kind: string; text: string }> {
  const lexicon = loadLexicon();
  return parseQuery(q, lexicon, lexicon).mentions.map((m) => ({ kind: m.kind, text: m.text }));
}

const { table: t, column } = catalogBuilders((name) => (/id$|_id$|count|quantity/.test(name) ? 'integer' : /date|_at$|created/.test(name) ? 'timestamp' : /price|cost|amount/.test(name) ? 'numeric' : 'text'));

describe('search: completing an answer with what its tables need', () => {
  it('brings the entity a junction relates when only the junction matched the words', () => {
    // "phone number list": the words reach the phone junction and its number type; each phone belongs to a person.
    const index = buildSearchIndex({
      tables: src([
        t('person', ['businessentityid', 'firstname', 'middlename', 'lastname', 'title', 'modifieddate']),
        t('phonenumbertype', ['phonenumbertypeid', 'name']),
        t('personphone', ['businessentityid', 'phonenumber', 'phonenumbertypeid'], [fk(['businessentityid'], 'person'), fk(['phonenumbertypeid'], 'phonenumbertype')]),
        t('product', ['productid', 'name', 'productnumber', 'listprice']),
        t('unitmeasure', ['unitmeasurecode', 'name']),
        t('productinventory', ['productid', 'locationid', 'shelf', 'bin', 'quantity'], [fk(['productid'], 'product')]),
        t('salesorderheader', ['salesorderid', 'salesordernumber', 'purchaseordernumber', 'accountnumber', 'orderdate']),
        t('salesorderdetail', ['salesorderid', 'salesorderdetailid', 'carriertrackingnumber', 'orderqty', 'productid'], [fk(['salesorderid'], 'salesorderheader'), fk(['productid'], 'product')]),
        t('billofmaterials', ['billofmaterialsid', 'productassemblyid', 'componentid', 'bomlevel', 'perassemblyqty', 'unitmeasurecode'], [fk(['productassemblyid'], 'product'), fk(['componentid'], 'product'), fk(['unitmeasurecode'], 'unitmeasure')]),
        t('document', ['documentnode', 'title', 'filename', 'revision', 'changenumber']),
        t('shoppingcartitem', ['shoppingcartitemid', 'shoppingcartid', 'quantity', 'productid'], [fk(['productid'], 'product')]),
        t('creditcard', ['creditcardid', 'cardtype', 'cardnumber', 'expmonth', 'expyear']),
      ]),
    });
    const res = index.search('phone number list', { limit: 10 });
    const top = names(res.hits);
    assert.ok(top.indexOf('personphone') >= 0 && top.indexOf('personphone') < 3, reasons(res.hits));
    assert.ok(top.includes('person'), reasons(res.hits));
    assert.ok(res.hits.find((h) => h.qualifiedName === 'public.person')!.why.some((w) => w.includes('personphone')), reasons(res.hits));
  });

  it('reads a synonym of a table\'s whole name as its name: "tunes" ranks as "recordings" does', () => {
    const things = ['artist', 'label', 'area', 'event', 'place', 'series', 'work', 'release', 'instrument', 'genre'];
    const index = buildSearchIndex({
      tables: src([
        t('tag', ['id', 'name', 'ref_count']),
        t('recording', ['id', 'name', 'length', 'artist_credit', 'comment', 'video']),
        t('recording_tag', ['recording', 'tag', 'count', 'last_updated'], [fk(['recording'], 'recording'), fk(['tag'], 'tag')]),
        ...things.map((x) => t(x, ['id', 'gid', 'name', 'comment', 'begin_date_year', 'end_date_year'])),
        ...things.map((x) => t(`${x}_tag`, [x, 'tag', 'count', 'last_updated'], [fk([x], x), fk(['tag'], 'tag')])),
      ]),
    });
    const res = index.search('what tags do people stick on these tunes', { limit: 10 });
    const top = names(res.hits);
    // The junction both words name leads, then what it joins: the recording (the thesaurus calls tunes recordings) and the tag.
    assert.equal(top[0], 'recording_tag', reasons(res.hits));
    assert.deepEqual(top.slice(1, 3).sort(), ['recording', 'tag'], reasons(res.hits));
    assert.deepEqual(top.slice(0, 3).sort(), names(index.search('what tags do people stick on these recordings', { limit: 10 }).hits).slice(0, 3).sort());
    assert.ok(whyOf(res.hits, 'recording').some((w) => w.includes('tune→recording')), reasons(res.hits));
  });

  it('reads an alias table the question asks for with the entity it names, the most joined entity first', () => {
    const entities = ['area', 'artist', 'event', 'genre', 'instrument', 'label', 'place', 'recording', 'release', 'series', 'work'];
    const aliases = entities.map((e) => t(`${e}_alias`, ['id', e, 'name', 'locale', 'sort_name', 'begin_date_year', 'end_date_year', 'primary_for_locale'], [fk([e], e)]));
    // The artist is what most other tables point at.
    const credits = ['artist_credit_name', 'artist_ipi', 'artist_isni', 'artist_tag', 'artist_rating_raw', 'artist_meta'].map((n) => t(n, ['artist', 'value'], [fk(['artist'], 'artist')]));
    const index = buildSearchIndex({ tables: src([...entities.map((e) => t(e, ['id', 'gid', 'name', 'comment', 'begin_date_year', 'end_date_year', 'last_updated'])), ...aliases, ...credits]) });
    const res = index.search('radiohed aliases', { limit: 10 });
    const top = names(res.hits);
    assert.equal(top[0], 'artist_alias', reasons(res.hits));
    assert.ok(top.includes('artist'), reasons(res.hits));
    assert.ok(res.hits.find((h) => h.qualifiedName === 'public.artist')!.why.some((w) => w.includes('artist_alias')), reasons(res.hits));
  });

  it('reads a capitalised name after "at" as a place, whatever its words mean', () => {
    const lexicon = loadLexicon();
    for (const [q, place] of [
      ['gigs at the Royal Albert Hall in 1971', 'Royal Albert Hall'],
      ['which songs were recorded at Abbey Road Studios', 'Abbey Road Studios'],
      ['live albums recorded at the Fillmore East', 'Fillmore East'],
    ] as const) {
      const mentions = findMentions(q, lexicon);
      assert.deepEqual(mentions, [{ kind: 'place', text: place }], q);
    }
    // A band after "in" is still no place.
    assert.ok(!findMentions('every song in The Who catalogue', lexicon).some((m) => m.kind === 'place'));
  });

  it('brings the kind list behind a junction of kinds for a kind of thing the catalog does not name', () => {
    // A release group has one primary type and any number of secondary types (compilation, live, soundtrack) through
    // a junction; a release, which names its rows, points at its group, status, packaging, language and script.
    const index = buildSearchIndex({
      tables: src([
        t('language', ['id', 'iso_code_3', 'name']),
        t('script', ['id', 'iso_code', 'name']),
        t('release_status', ['id', 'name', 'description']),
        t('release_packaging', ['id', 'name', 'description']),
        t('release_group_primary_type', ['id', 'name', 'description']),
        t('release_group_secondary_type', ['id', 'name', 'description']),
        t('release_group', ['id', 'gid', 'name', 'type', 'comment'], [fk(['type'], 'release_group_primary_type')]),
        t('release_group_secondary_type_join', ['release_group', 'secondary_type', 'created'], [fk(['release_group'], 'release_group'), fk(['secondary_type'], 'release_group_secondary_type')]),
        t('release', ['id', 'gid', 'name', 'release_group', 'status', 'packaging', 'language', 'script', 'barcode', 'comment'], [
          fk(['release_group'], 'release_group'),
          fk(['status'], 'release_status'),
          fk(['packaging'], 'release_packaging'),
          fk(['language'], 'language'),
          fk(['script'], 'script'),
        ]),
        t('editor_collection', ['id', 'name', 'editor', 'public', 'description']),
        t('editor_collection_release', ['collection', 'release', 'added'], [fk(['collection'], 'editor_collection'), fk(['release'], 'release')]),
      ]),
    });
    const res = index.search('compilations with a barcode', { limit: 10 });
    const top = names(res.hits);
    for (const table of ['release', 'release_group_secondary_type', 'release_group_secondary_type_join']) assert.ok(top.includes(table), `${table}: ${reasons(res.hits)}`);
    assert.ok(top.indexOf('release_group_secondary_type') > top.indexOf('release'), reasons(res.hits));
  });

  it('relates web links to URLs and following to subscriptions', () => {
    const index = buildSearchIndex({
      tables: src([
        t('label', ['id', 'gid', 'name', 'label_code', 'begin_date_year']),
        t('editor', ['id', 'name', 'email', 'member_since']),
        t('url', ['id', 'gid', 'url', 'edits_pending']),
        t('l_label_url', ['id', 'entity0', 'entity1'], [fk(['entity0'], 'label'), fk(['entity1'], 'url')]),
        t('editor_subscribe_label', ['id', 'editor', 'label', 'last_edit_sent'], [fk(['editor'], 'editor'), fk(['label'], 'label')]),
        t('release', ['id', 'gid', 'name', 'barcode', 'comment']),
      ]),
    });
    const links = names(index.search('is there a website or a Bandcamp link for this label', { limit: 5 }).hits);
    assert.ok(links.includes('url'), links.join(', '));
    const follows = names(index.search('who follows this label', { limit: 5 }).hits);
    assert.ok(follows.slice(0, 3).includes('editor_subscribe_label'), follows.join(', '));
  });
});

describe('search: a named place at its level', () => {
  it('knows the level of a place it knows by name', () => {
    const lexicon = loadLexicon();
    assert.deepEqual(lexicon.placeLevels('California'), ['state']);
    assert.deepEqual(lexicon.placeLevels('Canada'), ['country']);
    assert.deepEqual(lexicon.placeLevels('New Orleans'), ['city']);
    assert.deepEqual(lexicon.placeLevels('the United Kingdom'), ['country']);
    assert.deepEqual(lexicon.placeLevels('Glastonbury'), []);
  });

  it('prefers the table of places named for the level of the place the question names', () => {
    const index = buildSearchIndex({
      tables: src([
        t('countryregion', ['countryregioncode', 'name', 'modifieddate']),
        t('stateprovince', ['stateprovinceid', 'stateprovincecode', 'countryregioncode', 'name', 'territoryid'], [fk(['countryregioncode'], 'countryregion')]),
        t('address', ['addressid', 'addressline1', 'city', 'stateprovinceid', 'postalcode'], [fk(['stateprovinceid'], 'stateprovince')]),
        t('store', ['businessentityid', 'name', 'addressid'], [fk(['addressid'], 'address')]),
      ]),
    });
    const scores = (q: string): Map<string, number> => new Map(index.search(q, { limit: 4 }).hits.map((h) => [h.qualifiedName.replace(/^public\./, ''), h.score]));
    const state = scores('stores in California');
    const country = scores('stores in Canada');
    assert.ok(state.get('stateprovince')! > state.get('countryregion')! * 1.5, JSON.stringify([...state]));
    // A country lifts the table of countries against the table of states by the same share a state lifts the latter.
    const lift = (m: Map<string, number>): number => m.get('countryregion')! / m.get('stateprovince')!;
    assert.ok(lift(country) > lift(state) * 1.5, `${lift(country)} vs ${lift(state)}`);
  });

  it('reads a country or city it knows as a place of the table other places point at, not as a venue inside it', () => {
    // MusicBrainz's shape: venues (`place`) and artists are kept in areas, and a release's countries are areas.
    const index = buildSearchIndex({
      tables: src([
        t('area', ['id', 'gid', 'name', 'type', 'begin_date_year']),
        t('place', ['id', 'gid', 'name', 'type', 'address', 'area', 'coordinates'], [fk(['area'], 'area')]),
        t('release', ['id', 'gid', 'name', 'artist_credit', 'status', 'barcode']),
        t('release_country', ['release', 'country', 'date_year'], [fk(['release'], 'release'), fk(['country'], 'area')]),
        t('label', ['id', 'gid', 'name', 'label_code']),
      ]),
    });
    const q = 'releases that came out in Mali';
    const placeWeight = (on: number): number => {
      const hits = withRanking('placeWithin', on, () => index.search(q, { limit: 5 }).hits);
      const weight = (name: string): number => hits.find((h) => h.qualifiedName === `public.${name}`)?.score ?? 0;
      return weight('place') / weight('area');
    };
    // The venue table holds "Mali" half as surely as the areas it is kept in; the areas keep the whole weight.
    assert.ok(placeWeight(0.5) < placeWeight(1) * 0.8, `${placeWeight(0.5)} vs ${placeWeight(1)}`);
    const top = names(index.search(q, { limit: 3 }).hits);
    assert.ok(top.includes('area') && top.includes('release_country') && !top.includes('place'), top.join(', '));
    // A name of no known level ("the Fillmore East") may be a venue as much as before.
    const venue = (on: number): string[] => names(withRanking('placeWithin', on, () => index.search('releases recorded at the Fillmore East', { limit: 5 }).hits));
    assert.deepEqual(venue(0.5), venue(1));
  });
});

describe('search: names written in lower case', () => {
  it('reads a person\'s name and a known place in a search-box query, and leaves ordinary words alone', () => {
    assert.deepEqual(mentions('stephen jiang quota history'), [{ kind: 'person', text: 'stephen jiang' }]);
    assert.deepEqual(mentions('ken sanchez phone number'), [{ kind: 'person', text: 'ken sanchez' }]);
    assert.deepEqual(mentions('stores in canada'), [{ kind: 'place', text: 'canada' }]);
    assert.deepEqual(mentions('nba teams in texas'), [{ kind: 'place', text: 'texas' }]);
    assert.deepEqual(mentions('cheap flights to san francisco'), [{ kind: 'place', text: 'san francisco' }]);
    for (const q of ['cheapest rentals per day', 'digital media versus cds', 'scary moveis in french', 'biggest spender of all time']) assert.deepEqual(mentions(q), [], q);
    // A capitalised name found already is not read again.
    assert.deepEqual(mentions('Stephen Jiang quota history'), [{ kind: 'person', text: 'Stephen Jiang' }]);
  });

  it('brings the table of people for a lower-case name', () => {
    const index = buildSearchIndex({
      tables: src([
        t('person', ['businessentityid', 'firstname', 'middlename', 'lastname', 'title']),
        t('salesperson', ['businessentityid', 'territoryid', 'salesquota', 'bonus', 'commissionpct'], [fk(['businessentityid'], 'person')]),
        t('salespersonquotahistory', ['businessentityid', 'quotadate', 'salesquota'], [fk(['businessentityid'], 'salesperson')]),
        t('salesterritory', ['territoryid', 'name', 'countryregioncode', 'salesquota']),
        t('employeepayhistory', ['businessentityid', 'ratechangedate', 'rate', 'payfrequency']),
        t('transactionhistory', ['transactionid', 'productid', 'transactiondate', 'quantity', 'actualcost']),
      ]),
    });
    const top = names(index.search('stephen jiang quota histroy', { limit: 4 }).hits);
    assert.ok(top.includes('salespersonquotahistory') && top.includes('person'), top.join(', '));
  });
});

describe('search: places kept as a structure', () => {
  // AdventureWorks' shape: addresses point at states, states at countries; `location` is a work centre of the factory,
  // named like a place but joined to no table of places.
  const tables = src([
    t('countryregion', ['countryregioncode', 'name', 'modifieddate']),
    t('stateprovince', ['stateprovinceid', 'stateprovincecode', 'countryregioncode', 'name'], [fk(['countryregioncode'], 'countryregion')]),
    t('address', ['addressid', 'addressline1', 'city', 'stateprovinceid', 'postalcode'], [fk(['stateprovinceid'], 'stateprovince')]),
    t('customer', ['customerid', 'accountnumber', 'addressid'], [fk(['addressid'], 'address')]),
    t('salesorderheader', ['salesorderid', 'customerid', 'orderdate', 'shipmethodid', 'totaldue'], [fk(['customerid'], 'customer'), fk(['shipmethodid'], 'shipmethod')]),
    t('shipmethod', ['shipmethodid', 'name', 'shipbase']),
    t('product', ['productid', 'name', 'listprice']),
    t('productinventory', ['productid', 'locationid', 'shelf', 'bin', 'quantity'], [fk(['productid'], 'product'), fk(['locationid'], 'location')]),
    t('location', ['locationid', 'name', 'costrate', 'availability']),
    t('workorder', ['workorderid', 'productid', 'orderqty', 'duedate'], [fk(['productid'], 'product')]),
    t('workorderrouting', ['workorderid', 'locationid', 'actualcost', 'actualstartdate'], [fk(['workorderid'], 'workorder'), fk(['locationid'], 'location')]),
  ]);

  it('reaches the linked tables of places before a lone table named like a place', () => {
    const index = buildSearchIndex({ tables });
    for (const q of ['how many orders shipped to France', 'orders from customers in Germany', 'products ordered by customers in France']) {
      const top = names(index.search(q, { limit: 8 }).hits);
      const at = (n: string): number => (top.indexOf(n) < 0 ? 99 : top.indexOf(n));
      for (const place of ['address', 'stateprovince', 'countryregion']) assert.ok(at('location') > at(place), `${q}: ${top.join(', ')}`);
    }
  });
});

describe('search: people in the answer', () => {
  it('brings the names of a kind of person kept elsewhere, whatever the question asks of them', () => {
    const index = buildSearchIndex({
      tables: src([
        t('person', ['businessentityid', 'firstname', 'middlename', 'lastname', 'title']),
        t('employee', ['businessentityid', 'jobtitle', 'hiredate', 'gender', 'vacationhours'], [fk(['businessentityid'], 'person')]),
        t('department', ['departmentid', 'name', 'groupname']),
        t('shift', ['shiftid', 'name', 'starttime', 'endtime']),
        t('employeedepartmenthistory', ['businessentityid', 'departmentid', 'shiftid', 'startdate', 'enddate'], [fk(['businessentityid'], 'employee'), fk(['departmentid'], 'department'), fk(['shiftid'], 'shift')]),
        t('employeepayhistory', ['businessentityid', 'ratechangedate', 'rate', 'payfrequency'], [fk(['businessentityid'], 'employee')]),
        t('jobcandidate', ['jobcandidateid', 'businessentityid', 'resume'], [fk(['businessentityid'], 'employee')]),
        t('salesperson', ['businessentityid', 'territoryid', 'salesquota', 'bonus'], [fk(['businessentityid'], 'employee')]),
      ]),
    });
    // No "which", "who" or "list": the rows are still people, and the answer names them.
    for (const q of ['night shift employees', 'employees hired in 2010', 'employees with more than 40 vacation hours']) {
      const top = names(index.search(q, { limit: 4 }).hits);
      assert.ok(top.includes('person') && top.indexOf('person') > top.indexOf('employee'), `${q}: ${top.join(', ')}`);
    }
  });
});

describe('search: a run-together noun asked for', () => {
  it('asks for the rows of the table named by its pieces ("which salespeople": salesperson)', () => {
    const index = buildSearchIndex({
      tables: src([
        t('person', ['businessentityid', 'firstname', 'lastname', 'persontype']),
        t('salesterritory', ['territoryid', 'name', 'countryregioncode']),
        t('salesperson', ['businessentityid', 'territoryid', 'salesquota', 'bonus', 'commissionpct', 'salesytd', 'saleslastyear'], [fk(['businessentityid'], 'person'), fk(['territoryid'], 'salesterritory')]),
        t('store', ['businessentityid', 'name', 'salespersonid'], [fk(['salespersonid'], 'salesperson')]),
        t('customer', ['customerid', 'personid', 'storeid', 'territoryid'], [fk(['personid'], 'person'), fk(['storeid'], 'store'), fk(['territoryid'], 'salesterritory')]),
        t('salesorderheader', ['salesorderid', 'customerid', 'salespersonid', 'orderdate', 'totaldue'], [fk(['customerid'], 'customer'), fk(['salespersonid'], 'salesperson')]),
        t('salesorderdetail', ['salesorderid', 'salesorderdetailid', 'productid', 'orderqty', 'unitprice'], [fk(['salesorderid'], 'salesorderheader')]),
      ]),
    });
    const hits = index.search('Which salespeople sell to stores, and what are those orders priced at?', { limit: 10 }).hits;
    const at = names(hits).indexOf('salesperson');
    assert.ok(at >= 0 && at < 4, names(hits).join(', '));
    assert.ok(hits[at]!.why.includes("the rows asked for ('salespeople')"), hits[at]!.why.join(' | '));
  });
});

describe('search: dates are not titles', () => {
  it('reads a month or a day of the week as a date, not as the title of a row', () => {
    const lexicon = loadLexicon();
    const titles = (q: string): readonly string[] => parseQuery(q, lexicon, lexicon).titles;
    assert.deepEqual(titles('bicycle inventory transactions June 2014'), []);
    assert.deepEqual(titles('rentals on Mondays in August'), []);
    assert.deepEqual(titles('orders placed in Sept 2013'), []);
    // A title with a calendar word in it stays a title.
    assert.deepEqual(titles('Who remixed New Order\'s Blue Monday'), ['Blue Monday']);
  });
});

describe('search: a question no word of which the catalog knows', () => {
  // MusicBrainz' shape: `link` is joined most but names nothing; `release` has several keys and a name of its own.
  const tables = src([
    t('link_type', ['id', 'description', 'link_phrase']),
    t('link', ['id', 'link_type', 'begin_date_year'], [fk(['link_type'], 'link_type')]),
    t('artist', ['id', 'gid', 'name', 'sort_name', 'begin_date_year', 'comment']),
    t('recording', ['id', 'gid', 'name', 'length', 'comment', 'video']),
    t('release_group', ['id', 'gid', 'name', 'comment']),
    t('release_status', ['id', 'name']),
    t('release', ['id', 'name', 'release_group', 'status', 'barcode'], [fk(['release_group'], 'release_group'), fk(['status'], 'release_status')]),
    t('l_artist_recording', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'artist'), fk(['entity1'], 'recording')]),
    t('l_artist_release', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'artist'), fk(['entity1'], 'release')]),
    t('l_recording_recording', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'recording'), fk(['entity1'], 'recording')]),
    t('l_recording_release', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'recording'), fk(['entity1'], 'release')]),
  ]);

  it('offers the tables that can hold the title it names, things with names of their own among them', () => {
    const r = buildSearchIndex({ tables }).search('mashups of Blue Monday', { limit: 4 });
    assert.equal(r.fallback?.reason, 'no_match');
    const top = names(r.hits);
    assert.deepEqual(top.slice(0, 2).sort(), ['recording', 'release'], top.join(', '));
    assert.ok(r.hits[0]!.why[0]!.includes("names of things, for 'Blue Monday'"), r.hits[0]!.why.join(' | '));
  });
});

describe('search: a name after "of"', () => {
  it('is the work or group something belongs to, a place only when the dictionary knows it or a noun of places comes first', () => {
    const lexicon = loadLexicon();
    const places = (q: string): string[] => parseQuery(q, lexicon, lexicon).mentions.filter((m) => m.kind === 'place').map((m) => m.text);
    assert.deepEqual(places('all the different pressings of Dark Side of the Moon'), []);
    assert.deepEqual(places("what's on side B of the Rumours vinyl"), []);
    assert.deepEqual(parseQuery("what's on side B of the Rumours vinyl", lexicon, lexicon).titles, ['Rumours']);
    assert.deepEqual(places('artists of Iceland'), ['Iceland']);
    assert.deepEqual(places('customers in the city of Pisek'), ['Pisek']);
    assert.deepEqual(places('stores in the province of Ontario'), ['Ontario']);
    // Other prepositions of place are unchanged: an unknown name after "in" is a place.
    assert.deepEqual(places('customers in Pisek'), ['Pisek']);
  });
});

describe('search: adjectives of language joined by "and"', () => {
  it('reads "French and Chinese catalogue blurbs" as two languages of a text, not a place or a title', () => {
    const lexicon = loadLexicon();
    const p = parseQuery('I need the French and Chinese catalogue blurbs for our mountain bike models', lexicon, lexicon);
    assert.deepEqual(p.mentions, []);
    assert.deepEqual(p.titles, []);
    assert.ok(p.terms.some((t) => t.implied && t.surface === 'language'), p.terms.map((t) => t.surface).join(' '));
  });
});

describe('search: the rows a request lists', () => {
  it('takes the noun after "list", "show" or "find" at the start of a request for the rows asked for', () => {
    const lexicon = loadLexicon();
    const focus = (q: string): readonly string[] => parseQuery(q, lexicon, lexicon).focus;
    assert.deepEqual(focus('List the salespeople in the Northwest territory'), ['salespeople']);
    assert.deepEqual(focus('Can you show me all customers in France'), ['customers']);
    assert.deepEqual(focus('please find invoices over 500 dollars'), ['invoices']);
    // Not a request: "the list of" / "a short list".
    assert.deepEqual(focus('customers on the mailing list'), []);
  });
});

describe('search: a name before a noun of premises', () => {
  it('is where the premises are, not who made them', () => {
    assert.deepEqual(mentions('I run the Lethbridge shop, how many copies of each title do we have?'), [{ kind: 'place', text: 'Lethbridge' }]);
    assert.deepEqual(mentions('staff of the Woodridge store'), [{ kind: 'place', text: 'Woodridge' }]);
    // A place the dictionary knows by name, though it is also an English word or a surname ("London", "Berlin").
    assert.deepEqual(mentions('Which London studios were used for those recordings?'), [{ kind: 'place', text: 'London' }]);
    assert.deepEqual(mentions('Which Berlin venues hosted the most concerts?'), [{ kind: 'place', text: 'Berlin' }]);
    // Before what someone makes, a name is still its maker.
    assert.deepEqual(mentions('Which DJ has remixed the most Madonna tracks?'), [{ kind: 'person', text: 'Madonna' }]);
  });
});

describe('search: the kind a name says it is', () => {
  it('reads the last word of a name with the domain thesaurus ("the Eras Tour" is a tour, kept as a series)', () => {
    const index = buildSearchIndex({
      tables: src([
        t('artist', ['id', 'gid', 'name', 'sort_name', 'comment']),
        t('event', ['id', 'gid', 'name', 'begin_date_year', 'time', 'setlist']),
        t('series', ['id', 'gid', 'name', 'comment', 'ordering_attribute']),
        t('l_artist_event', ['id', 'link', 'entity0', 'entity1'], [fk(['entity0'], 'artist'), fk(['entity1'], 'event')]),
        t('l_event_series', ['id', 'link', 'entity0', 'entity1'], [fk(['entity0'], 'event'), fk(['entity1'], 'series')]),
        t('release', ['id', 'gid', 'name', 'barcode', 'comment']),
        t('recording', ['id', 'gid', 'name', 'length', 'comment']),
      ]),
    });
    const hits = index.search('dates of the Eras Tour', { limit: 4 }).hits;
    const series = hits.find((h) => h.qualifiedName === 'public.series');
    assert.ok(series?.why.some((w) => w.includes('tour→series')), names(hits).join(', '));
    // A dictionary sense of a name's last word is not read: "The Joshua Tree" says nothing of trees.
    const tree = buildSearchIndex({ tables: src([t('album', ['id', 'name', 'year']), t('plant', ['id', 'species', 'height'])]) });
    assert.ok(!tree.search("Which producers worked on U2's The Joshua Tree?", { limit: 2 }).hits.some((h) => h.why.some((w) => w.includes('tree→'))));
  });
});

describe('search: words that can be a stored label', () => {
  it('offers code lists for a state ("expired") but not for a verb or an adverb ("belongs", "often") or a unit', () => {
    const index = buildSearchIndex({
      tables: src([
        t('subscription_status', ['id', 'name']),
        t('plan_type', ['id', 'name']),
        t('subscription', ['id', 'customer_id', 'status_id', 'plan_type_id', 'started', 'amount'], [fk(['status_id'], 'subscription_status'), fk(['plan_type_id'], 'plan_type')]),
        t('customer', ['id', 'name', 'email']),
      ]),
    });
    const held = (q: string): string[] => index.search(q, { limit: 5 }).hits.flatMap((h) => h.why.filter((w) => w.includes('may hold')));
    assert.ok(held('subscriptions that expired').some((w) => w.includes("'expired'")), held('subscriptions that expired').join(' | '));
    for (const q of ['which subscription often belongs to whom', 'subscriptions per quarter']) {
      const why = held(q);
      assert.ok(!why.some((w) => /'(often|belongs|quarter)'/.test(w)), `${q}: ${why.join(' | ')}`);
    }
  });
});

describe('search: a table named by a synonym', () => {
  it('ranks the table whose whole name is the synonym ("albums" → release) above the many tables that share it', () => {
    const shared = ['label', 'tag', 'country', 'packaging', 'status', 'meta', 'annotation', 'gid_redirect', 'attribute', 'alias'];
    const index = buildSearchIndex({
      tables: src([
        t('release', ['id', 'gid', 'name', 'barcode', 'comment']),
        ...shared.map((x) => t(`release_${x}`, ['release', 'value'], [fk(['release'], 'release')])),
        ...['artist', 'label', 'place', 'recording', 'url'].map((x) => t(`l_${x}_release`, ['id', 'link', 'entity0', 'entity1'], [fk(['entity1'], 'release')])),
        t('medium', ['id', 'release', 'position', 'format', 'name', 'track_count'], [fk(['release'], 'release')]),
        t('medium_cdtoc', ['id', 'medium', 'cdtoc'], [fk(['medium'], 'medium')]),
        t('medium_attribute', ['id', 'medium', 'value'], [fk(['medium'], 'medium')]),
        t('track', ['id', 'medium', 'position', 'name', 'length'], [fk(['medium'], 'medium')]),
      ]),
    });
    const hits = index.search('albums', { limit: 5 }).hits;
    assert.equal(names(hits)[0], 'release', reasons(hits));
  });

  it('reads a code list whose name ends in the synonym ("cassettes" → medium_format) as named by it', () => {
    const formats = ['medium', 'file', 'export', 'report', 'date', 'address', 'phone', 'label', 'print', 'output'];
    const tables = [
      ...formats.map((x) => t(`${x}_setting`, ['id', 'name', 'format', 'owner', 'created'])),
      t('medium_format', ['id', 'name', 'parent', 'year', 'has_discids']),
      t('medium', ['id', 'release', 'position', 'format', 'name'], [fk(['format'], 'medium_format')]),
      t('release', ['id', 'gid', 'name', 'barcode']),
    ];
    const releases = ['label', 'tag', 'country', 'meta', 'annotation'].map((x) => t(`release_${x}`, ['release', 'value'], [fk(['release'], 'release')]));
    const hits = buildSearchIndex({ tables: src([...tables, ...releases]) }).search('releases on cassette', { limit: 4 }).hits;
    assert.ok(names(hits).slice(0, 2).includes('medium_format'), reasons(hits));
  });
});

describe('search: a kind of person the catalog only mentions', () => {
  it('asks for people when no table or column is named for the kind, even where a comment mentions it', () => {
    const index = buildSearchIndex({
      tables: src([
        t('person', ['businessentityid', 'firstname', 'middlename', 'lastname', 'title']),
        t('employee', ['businessentityid', 'jobtitle', 'hiredate', 'organizationnode'], [fk(['businessentityid'], 'person')]),
        t('document', ['documentnode', 'title', 'owner', 'filename', 'revision', column('changenumber', { comment: 'Engineering change approval number, kept by the engineers.' })], [fk(['owner'], 'employee')]),
        t('product', ['productid', 'name', 'productnumber']),
        t('productdocument', ['productid', 'documentnode'], [fk(['productid'], 'product'), fk(['documentnode'], 'document')]),
      ]),
    });
    const hits = index.search('Which design engineers own the most product documents?', { limit: 6 }).hits;
    const person = hits.find((h) => h.qualifiedName === 'public.person');
    assert.ok(person?.why.some((w) => w.startsWith('holds people')), reasons(hits));
  });
});

describe('search: everyday words for events', () => {
  it('reads "shows" as events, but not the request "show me"', () => {
    const index = buildSearchIndex({
      tables: src([
        t('event', ['id', 'gid', 'name', 'begin_date_year', 'time', 'setlist']),
        t('series', ['id', 'gid', 'name', 'comment']),
        t('l_event_series', ['id', 'link', 'entity0', 'entity1'], [fk(['entity0'], 'event'), fk(['entity1'], 'series')]),
        t('customer', ['id', 'name', 'email']),
        t('invoice', ['id', 'customer_id', 'total'], [fk(['customer_id'], 'customer')]),
      ]),
    });
    const shows = index.search('tour shows', { limit: 3 }).hits;
    assert.ok(whyOf(shows, 'event').some((w) => w.includes('show→event')), reasons(shows));
    const request = index.search('show me the customers with the largest invoices', { limit: 5 }).hits;
    assert.ok(!request.some((h) => h.why.some((w) => w.includes('show→'))), reasons(request));
  });
});

describe('search: the join set after the last raises', () => {
  it('brings the table between two answer tables when one of them rose late (the rows asked for)', () => {
    const ref = (col: string, table: string): ReturnType<typeof fk> => fk([col], table, [col]);
    const index = buildSearchIndex({
      tables: src([
        t('actor', ['actor_id', 'first_name', 'last_name', 'last_update']),
        t('country', ['country_id', 'country', 'last_update']),
        t('city', ['city_id', 'city', 'country_id', 'last_update'], [ref('country_id', 'country')]),
        t('address', ['address_id', 'address', 'address2', 'district', 'city_id', 'postal_code', 'phone', 'last_update'], [ref('city_id', 'city')]),
        t('language', ['language_id', 'name', 'last_update']),
        t('category', ['category_id', 'name', 'last_update']),
        t('film', ['film_id', 'title', 'description', 'release_year', 'language_id', 'original_language_id', 'rental_duration', 'rental_rate', 'length', 'replacement_cost', 'rating', 'last_update', 'special_features', 'fulltext'], [ref('language_id', 'language')]),
        t('film_actor', ['actor_id', 'film_id', 'last_update'], [ref('actor_id', 'actor'), ref('film_id', 'film')]),
        t('film_category', ['film_id', 'category_id', 'last_update'], [ref('film_id', 'film'), ref('category_id', 'category')]),
        t('store', ['store_id', 'manager_staff_id', 'address_id', 'last_update'], [ref('address_id', 'address')]),
        t('staff', ['staff_id', 'first_name', 'last_name', 'address_id', 'email', 'store_id', 'active', 'username', 'password', 'last_update', 'picture'], [ref('address_id', 'address'), ref('store_id', 'store')]),
        t('customer', ['customer_id', 'store_id', 'first_name', 'last_name', 'email', 'address_id', 'activebool', 'create_date', 'last_update', 'active'], [ref('address_id', 'address'), ref('store_id', 'store')]),
        t('inventory', ['inventory_id', 'film_id', 'store_id', 'last_update'], [ref('film_id', 'film'), ref('store_id', 'store')]),
        t('rental', ['rental_id', 'rental_date', 'inventory_id', 'customer_id', 'return_date', 'staff_id', 'last_update'], [ref('inventory_id', 'inventory'), ref('customer_id', 'customer'), ref('staff_id', 'staff')]),
        t('payment', ['payment_id', 'customer_id', 'staff_id', 'rental_id', 'amount', 'payment_date'], [ref('customer_id', 'customer'), ref('staff_id', 'staff'), ref('rental_id', 'rental')]),
      ]),
    });
    const hits = index.search('List the cities where customers rented films starring Nick Wahlberg and paid more than $5 for them.', { limit: 10 }).hits;
    assert.ok(names(hits).includes('address'), reasons(hits));
  });
});

describe('search: where', () => {
  it('asks for places, as "who" asks for people, but not when it asks where to find something', () => {
    const lexicon = loadLexicon();
    assert.equal(parseQuery('when was david bowie born and where was he from originally', lexicon, lexicon).asksPlace, true);
    assert.equal(parseQuery('Where were these albums recorded?', lexicon, lexicon).asksPlace, true);
    assert.equal(parseQuery('I need the French catalogue blurbs, where can I find them?', lexicon, lexicon).asksPlace, false);
    assert.equal(parseQuery('where is the data on refunds kept', lexicon, lexicon).asksPlace, false);
    const index = buildSearchIndex({
      tables: src([
        t('area', ['id', 'gid', 'name', 'type', 'begin_date_year']),
        t('artist', ['id', 'gid', 'name', 'sort_name', 'begin_date_year', 'end_date_year', 'area', 'begin_area'], [fk(['area'], 'area'), fk(['begin_area'], 'area')]),
        t('editor', ['id', 'name', 'email', 'birth_date']),
        t('area', ['id', 'gid', 'name', 'type']),
    t('label', ['id', 'gid', 'name', 'label_code', 'area', 'begin_date_year', 'end_date_year', 'comment'], [fk(['area'], 'area')]),
      ]),
    });
    const hits = index.search('when was david bowie born and when did he pass away, and where was he from originally', { limit: 4 }).hits;
    assert.ok(whyOf(hits, 'area').some((w) => w.startsWith('holds places')), reasons(hits));
  });
});

describe('search: which cities', () => {
  it('asks for places when the catalog names no table or column for the kind of place, and not for a verb', () => {
    const lexicon = loadLexicon();
    assert.deepEqual(parseQuery('Which cities are home to the most groups?', lexicon, lexicon).placeNouns, [['cities', 'home']]);
    assert.deepEqual(parseQuery('Which customers rented films', lexicon, lexicon).placeNouns, []);
    // A word right before a determiner is a verb with its object, though it may be a place's word too (a police beat).
    assert.deepEqual(parseQuery('Which salespeople beat their sales quota in 2013?', lexicon, lexicon).placeNouns, []);
    assert.deepEqual(parseQuery('Which recording studios in Nashville are busiest?', lexicon, lexicon).placeNouns, [['studios']]);
    // A noun whose usual sense is no place, after another noun, measures it ("date ranges"); alone it may be a place.
    assert.deepEqual(parseQuery('Which account reps covered the Central region, and for which date ranges?', lexicon, lexicon).placeNouns, []);
    assert.deepEqual(parseQuery('Which ranges have the most hiking trails?', lexicon, lexicon).placeNouns, [['ranges']]);
    const tables = [
      t('area', ['id', 'gid', 'name', 'type', 'begin_date_year']),
      t('artist', ['id', 'gid', 'name', 'sort_name', 'type', 'area'], [fk(['area'], 'area'), fk(['type'], 'artist_type')]),
      t('artist_type', ['id', 'name', 'description']),
      t('artist_attribute', ['artist', 'artist_attribute_type', 'text_value'], [fk(['artist'], 'artist'), fk(['artist_attribute_type'], 'artist_attribute_type')]),
      t('artist_attribute_type', ['id', 'name', 'description']),
      t('gender', ['id', 'name', 'description']),
      t('release_group', ['id', 'gid', 'name', 'artist_credit']),
      t('area', ['id', 'gid', 'name', 'type']),
    t('label', ['id', 'gid', 'name', 'label_code', 'area', 'begin_date_year', 'end_date_year', 'comment'], [fk(['area'], 'area')]),
    ];
    const q = 'Which cities are home to the most groups relative to solo performers?';
    const hits = buildSearchIndex({ tables: src(tables) }).search(q, { limit: 4 }).hits;
    assert.ok(whyOf(hits, 'area').includes("holds places, for 'cities'"), reasons(hits));
    // With a table of cities, that table answers, by its name.
    const named = buildSearchIndex({ tables: src([...tables, t('city', ['id', 'name', 'area'], [fk(['area'], 'area')])]) }).search(q, { limit: 4 }).hits;
    assert.ok(!named.some((h) => h.why.some((w) => w.startsWith('holds places'))) && names(named).includes('city'), reasons(named));
  });
});

describe('search: everyday words for collections', () => {
  it('reads wishlists and playlists as collections', () => {
    const index = buildSearchIndex({
      tables: src([
        t('release', ['id', 'gid', 'name', 'barcode']),
        t('editor', ['id', 'name', 'email']),
        t('editor_collection', ['id', 'gid', 'editor', 'name', 'public'], [fk(['editor'], 'editor')]),
        t('editor_collection_release', ['collection', 'release', 'added'], [fk(['collection'], 'editor_collection'), fk(['release'], 'release')]),
        t('release_tag', ['release', 'tag', 'count'], [fk(['release'], 'release')]),
      ]),
    });
    const hits = index.search("which albums show up the most in people's wishlists", { limit: 4 }).hits;
    assert.ok(whyOf(hits, 'editor_collection_release').some((w) => w.includes('wishlist→collection')), reasons(hits));
  });
});

describe('search: everyday words for premises', () => {
  it('reads studios as places, with venues', () => {
    const index = buildSearchIndex({
      tables: src([
        t('place', ['id', 'gid', 'name', 'type', 'address', 'coordinates']),
        t('recording', ['id', 'gid', 'name', 'length']),
        t('l_place_recording', ['id', 'link', 'entity0', 'entity1'], [fk(['entity0'], 'place'), fk(['entity1'], 'recording')]),
        t('area', ['id', 'gid', 'name', 'type']),
    t('label', ['id', 'gid', 'name', 'label_code', 'area', 'begin_date_year', 'end_date_year', 'comment'], [fk(['area'], 'area')]),
      ]),
    });
    const hits = index.search('recordings made at abbey road studios', { limit: 3 }).hits;
    assert.ok(whyOf(hits, 'place').some((w) => w.includes('studio→place')), reasons(hits));
  });
});

describe('search: everyday words for formats', () => {
  it('reads vinyl, cassettes and CDs as formats', () => {
    const index = buildSearchIndex({
      tables: src([
        t('release', ['id', 'gid', 'name', 'barcode']),
        t('medium_format', ['id', 'name', 'year', 'has_discids']),
        t('medium', ['id', 'release', 'position', 'format', 'name', 'track_count'], [fk(['release'], 'release'), fk(['format'], 'medium_format')]),
        t('release_packaging', ['id', 'name']),
      ]),
    });
    for (const q of ['vinyl LPs released in 1985', 'cassette-only releases', 'how many CDs']) {
      const hits = index.search(q, { limit: 4 }).hits;
      assert.ok(whyOf(hits, 'medium_format').some((w) => w.includes('→format')), `${q}\n${reasons(hits)}`);
    }
  });
});

describe('search: everyday words for departments', () => {
  it('reads a team at work as a department', () => {
    const index = buildSearchIndex({
      tables: src([
        t('person', ['businessentityid', 'firstname', 'lastname']),
        t('employee', ['businessentityid', 'jobtitle', 'hiredate'], [fk(['businessentityid'], 'person')]),
        t('department', ['departmentid', 'name', 'groupname']),
        t('employeedepartmenthistory', ['businessentityid', 'departmentid', 'startdate', 'enddate'], [fk(['businessentityid'], 'employee'), fk(['departmentid'], 'department')]),
        t('vendor', ['businessentityid', 'name', 'creditrating']),
      ]),
    });
    const hits = index.search("who's the boss of the engineering team", { limit: 5 }).hits;
    assert.ok(whyOf(hits, 'department').some((w) => w.includes('team→department')), reasons(hits));
  });
});

describe('search: everyday words for redirects', () => {
  it('reads merged and duplicate entries as redirects', () => {
    const index = buildSearchIndex({
      tables: src([
        t('artist', ['id', 'gid', 'name', 'sort_name']),
        t('artist_gid_redirect', ['gid', 'new_id', 'created'], [fk(['new_id'], 'artist')]),
        t('artist_alias', ['id', 'artist', 'name', 'locale'], [fk(['artist'], 'artist')]),
        t('artist_tag', ['artist', 'tag', 'count'], [fk(['artist'], 'artist')]),
      ]),
    });
    const hits = index.search('artist entries merged into David Bowie', { limit: 3 }).hits;
    assert.ok(whyOf(hits, 'artist_gid_redirect').some((w) => w.includes('→redirect')), reasons(hits));
  });
});

describe('search: everyday words for works', () => {
  it('reads pieces of music as works', () => {
    const index = buildSearchIndex({
      tables: src([
        t('work', ['id', 'gid', 'name', 'type', 'comment']),
        t('recording', ['id', 'gid', 'name', 'length']),
        t('l_recording_work', ['id', 'link', 'entity0', 'entity1'], [fk(['entity0'], 'recording'), fk(['entity1'], 'work')]),
        t('artist', ['id', 'gid', 'name']),
      ]),
    });
    const hits = index.search('which of his pieces have been recorded the most times', { limit: 3 }).hits;
    assert.ok(whyOf(hits, 'work').some((w) => w.includes('piece→work')), reasons(hits));
    // To compose is to make a work, as to write is.
    const composed = index.search('who composed the music', { limit: 3 }).hits;
    assert.ok(whyOf(composed, 'work').some((w) => /^synonym compos(e|ed)→work$/.test(w)), reasons(composed));
  });
});

describe('search: a title someone is credited on', () => {
  // MusicBrainz' shape: tracks are kept in order on media, media in order on releases; roles are typed relationships.
  const tables = src([
    t('artist', ['id', 'gid', 'name', 'sort_name', 'begin_date_year']),
    t('artist_credit', ['id', 'name', 'artist_count']),
    t('artist_credit_name', ['artist_credit', 'position', 'artist', 'name', 'join_phrase'], [fk(['artist_credit'], 'artist_credit'), fk(['artist'], 'artist')]),
    t('recording', ['id', 'gid', 'name', 'artist_credit', 'length'], [fk(['artist_credit'], 'artist_credit')]),
    t('work', ['id', 'gid', 'name', 'type']),
    t('release_group', ['id', 'gid', 'name', 'artist_credit'], [fk(['artist_credit'], 'artist_credit')]),
    t('release', ['id', 'gid', 'name', 'artist_credit', 'release_group', 'barcode'], [fk(['artist_credit'], 'artist_credit'), fk(['release_group'], 'release_group')]),
    t('medium', ['id', 'release', 'position', 'name'], [fk(['release'], 'release')]),
    t('track', ['id', 'gid', 'recording', 'medium', 'position', 'name', 'length'], [fk(['recording'], 'recording'), fk(['medium'], 'medium')]),
    t('link_type', ['id', 'name', 'description', 'link_phrase']),
    t('link', ['id', 'link_type', 'begin_date_year'], [fk(['link_type'], 'link_type')]),
    t('l_artist_artist', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'artist'), fk(['entity1'], 'artist')]),
    t('l_artist_recording', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'artist'), fk(['entity1'], 'recording')]),
    t('l_artist_release', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'artist'), fk(['entity1'], 'release')]),
    t('l_artist_work', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'artist'), fk(['entity1'], 'work')]),
  ]);

  it('is held by the whole that ordered parts lead up to', () => {
    const index = buildSearchIndex({ tables });
    const q = "Who was the mastering engineer on Stereolab's Dots and Loops?";
    const hits = (on: number) => withRanking('titleWholes', on, () => index.search(q, { limit: 6 }).hits);
    const release = (on: number) => hits(on).find((h) => h.qualifiedName === 'public.release');
    assert.ok(release(1)?.why.includes("holds the title of a whole, for 'Dots and Loops'"), hits(1).map((h) => `${h.qualifiedName}: ${h.why.join('; ')}`).join('\n'));
    assert.ok(!(release(0)?.why ?? []).some((w) => w.startsWith('holds the title of a whole')));
    // Without a role, a title after "on" is what a question is about, not what someone is credited on.
    const about = index.search('a podcast episode on Dots and Loops', { limit: 6 }).hits;
    assert.ok(!about.some((h) => h.why.some((w) => w.startsWith('holds the title of a whole'))), about.map((h) => h.qualifiedName).join(', '));
  });

  it('is held by that whole wherever the title stands in a question about who produced it', () => {
    const lexicon = loadLexicon();
    // The object of a verb of a role, and what a name owns, are titles, not people.
    const produced = parseQuery('Who produced and engineered Nevermind?', lexicon, lexicon);
    assert.deepEqual([produced.titles, produced.mentions], [['Nevermind'], []]);
    const owned = parseQuery("Who produced Jorge Ben Jor's África Brasil?", lexicon, lexicon);
    assert.deepEqual([owned.titles, owned.mentions.map((m) => m.text)], [['África Brasil'], ['Jorge Ben Jor']]);
    assert.deepEqual(parseQuery('songs Quincy Jones produced', lexicon, lexicon).mentions.map((m) => m.text), ['Quincy Jones']);
    // So is what a role was played on; after "on" elsewhere a name is still someone's ("tags on Metalica").
    const on = parseQuery('Who was the producer on Nevermind?', lexicon, lexicon);
    assert.deepEqual([on.onTitles, on.mentions], [['Nevermind'], []]);
    assert.deepEqual(parseQuery('tags on Metalica', lexicon, lexicon).mentions.map((m) => m.text), ['Metalica']);
    // What has members is a group, after "of" or "in" as well.
    assert.deepEqual(parseQuery('Who are the current and former members of Red Velvet?', lexicon, lexicon).mentions.map((m) => [m.kind, m.text]), [['person', 'Red Velvet']]);
    assert.deepEqual(parseQuery('who were all the guys in Led Zepplin over the years', lexicon, lexicon).mentions.map((m) => [m.kind, m.text]), [['person', 'Led Zepplin']]);
    assert.deepEqual(parseQuery('stores in Oregon', lexicon, lexicon).mentions.map((m) => m.kind), ['place']);
    // A name that ends in a noun of a venue is a place, with or without "at" before it.
    assert.deepEqual(parseQuery('Which orchestras played the Royal Festival Hall most often?', lexicon, lexicon).mentions.map((m) => [m.kind, m.text]), [['place', 'Royal Festival Hall']]);
    // A verb of naming is no role: the name after it is someone's.
    assert.deepEqual(parseQuery("I'm a session bass player called Marisol Quintero", lexicon, lexicon).mentions.map((m) => [m.kind, m.text]), [['person', 'Marisol Quintero']]);
    // A middle initial is a word of the name.
    assert.deepEqual(parseQuery('what other names has Mark E. Smith from The Fall been credited as?', lexicon, lexicon).mentions.map((m) => m.text), ['Mark E. Smith']);
    // So is a name quoted whole.
    const quoted = parseQuery("the official registration number for the song 'La Bamba'", lexicon, lexicon);
    assert.deepEqual([quoted.titles, quoted.mentions], [['La Bamba'], []]);
    const index = buildSearchIndex({ tables });
    const hits = (q: string, on: number) => withRanking('titleWholesAny', on, () => index.search(q, { limit: 6 }).hits);
    for (const q of ['Who produced and engineered Nevermind?', "who engineered, who mixed and who mastered Opeth's Ghost Reveries?"]) {
      const title = q.includes('Opeth') ? 'Ghost Reveries' : 'Nevermind';
      assert.ok(whyOf(hits(q, 1), 'release').includes(`holds the title of a whole, for '${title}'`), reasons(hits(q, 1)));
      assert.ok(!whyOf(hits(q, 0), 'release').includes(`holds the title of a whole, for '${title}'`), reasons(hits(q, 0)));
    }
    // Not a title of a question about what someone wrote, nor one that asks which things someone produced, nor a DJ's mix.
    for (const q of ["Who wrote the lyrics for IU's Palette?", 'Which recordings did Rudy Van Gelder engineer at his Englewood Cliffs studio?', "Who performed each recording of 'Can't Help Falling in Love'? I need to plan my mix"]) {
      assert.ok(!hits(q, 1).some((h) => h.why.some((w) => w.startsWith('holds the title of a whole'))), reasons(hits(q, 1)));
    }
  });

  it("brings the whole's relationship with the people credited on it", () => {
    // With a plain table of the same pairs (`artist_release`, kept for lookups), which a join path may take instead, and
    // enough typed relationships for `link` to be the catalog's relationship hub.
    const more = src([
      t('label', ['id', 'gid', 'name', 'label_code']),
      t('artist_release', ['artist', 'release'], [fk(['artist'], 'artist'), fk(['release'], 'release')]),
      t('l_artist_label', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'artist'), fk(['entity1'], 'label')]),
      t('l_label_release', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'label'), fk(['entity1'], 'release')]),
    ]);
    const index = buildSearchIndex({ tables: [...tables, ...more] });
    const q = "Who was the mastering engineer on Stereolab's Dots and Loops?";
    const hits = (on: number) => withRanking('titleCredits', on, () => index.search(q, { limit: 8 }).hits);
    assert.ok(whyOf(hits(0.99), 'l_artist_release').includes("credits people on the whole, for 'Dots and Loops'"), reasons(hits(0.99)));
    // Not the relationship of the whole with a label, nor that of the people with their recordings.
    for (const other of ['l_label_release', 'l_artist_recording']) assert.ok(!whyOf(hits(0.99), other).some((w) => w.startsWith('credits people')), reasons(hits(0.99)));
    assert.ok(!hits(0).some((h) => h.why.some((w) => w.startsWith('credits people'))), reasons(hits(0)));
  });
});

describe('search: a title something came out on', () => {
  const tables = src([
    t('artist', ['id', 'gid', 'name', 'sort_name']),
    t('release_status', ['id', 'name']),
    t('release', ['id', 'gid', 'name', 'status', 'barcode'], [fk(['status'], 'release_status')]),
    t('area', ['id', 'gid', 'name', 'type']),
    t('label', ['id', 'gid', 'name', 'label_code', 'area', 'begin_date_year', 'end_date_year', 'comment'], [fk(['area'], 'area')]),
    t('release_label', ['id', 'release', 'label', 'catalog_number'], [fk(['release'], 'release'), fk(['label'], 'label')]),
    t('place', ['id', 'gid', 'name', 'address']),
    t('link_type', ['id', 'name', 'description']),
    t('link', ['id', 'link_type'], [fk(['link_type'], 'link_type')]),
    t('l_place_release', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'place'), fk(['entity1'], 'release')]),
  ]);

  it('is held by what the release is joined to by a junction of its own', () => {
    const lexicon = loadLexicon();
    assert.deepEqual(parseQuery('Promo singles released in 1995 on Creation Records', lexicon, lexicon).issuedOn, ['Creation Records']);
    assert.deepEqual(parseQuery('a podcast episode on Joy Division', lexicon, lexicon).issuedOn, []);
    const index = buildSearchIndex({ tables });
    const hits = (on: number) => withRanking('titleIssuers', on, () => index.search('releases that came out on Touch and Go', { limit: 5 }).hits);
    assert.ok(whyOf(hits(1), 'label').includes("holds who issued it, for 'Touch and Go'"), reasons(hits(1)));
    // Not the place the release has a typed relationship with.
    assert.ok(!whyOf(hits(1), 'place').some((w) => w.includes('Touch and Go')), reasons(hits(1)));
    assert.ok(!whyOf(hits(0), 'label').includes("holds who issued it, for 'Touch and Go'"), reasons(hits(0)));
  });
});

describe('search: a name that issued something', () => {
  const tables = src([
    t('artist', ['id', 'gid', 'name', 'sort_name', 'begin_date_year']),
    t('artist_credit', ['id', 'name', 'artist_count']),
    t('artist_credit_name', ['artist_credit', 'position', 'artist', 'name'], [fk(['artist_credit'], 'artist_credit'), fk(['artist'], 'artist')]),
    t('release', ['id', 'gid', 'name', 'artist_credit', 'barcode'], [fk(['artist_credit'], 'artist_credit')]),
    t('release_country', ['release', 'country', 'date_year'], [fk(['release'], 'release')]),
    t('label', ['id', 'gid', 'name', 'label_code', 'begin_date_year', 'end_date_year', 'comment']),
    t('release_label', ['id', 'release', 'label', 'catalog_number'], [fk(['release'], 'release'), fk(['label'], 'label')]),
    t('place', ['id', 'gid', 'name', 'address']),
  ]);

  it('brings who issued the rows the word before it names, beside who made them', () => {
    const lexicon = loadLexicon();
    assert.deepEqual(parseQuery('How many releases did Warp put out each year?', lexicon, lexicon).issuers, [{ name: 'Warp', thing: 'releases' }]);
    assert.deepEqual(parseQuery('albums that Atlantic Records released in the 1970s', lexicon, lexicon).issuers, [{ name: 'Atlantic Records', thing: 'albums' }]);
    // Not a function word before it, nor a verb that issues nothing.
    assert.deepEqual(parseQuery('What did Warp put out?', lexicon, lexicon).issuers, []);
    assert.deepEqual(parseQuery('songs that Madonna sang', lexicon, lexicon).issuers, []);
    const index = buildSearchIndex({ tables });
    const hits = (on: number) => withRanking('nameIssuers', on, () => index.search('How many releases per year did Warp put out?', { limit: 6 }).hits);
    assert.ok(whyOf(hits(1), 'label').includes("holds who issued it, for 'Warp'"), reasons(hits(1)));
    assert.ok(whyOf(hits(1), 'release_label').includes("joins release to label, for 'Warp'"), reasons(hits(1)));
    // The name may be an artist's: the people tables stay.
    assert.ok(names(hits(1)).includes('artist'), reasons(hits(1)));
    assert.ok(!whyOf(hits(0), 'label').includes("holds who issued it, for 'Warp'"), reasons(hits(0)));
  });

  it('reads who issued them said the other way round, and a name that ends like a record company before what it issued', () => {
    const lexicon = loadLexicon();
    const issuers = (q: string) => parseQuery(q, lexicon, lexicon).issuers;
    assert.deepEqual(issuers('Pink Floyd albums put out by Harvest'), [{ name: 'Harvest', thing: 'albums' }]);
    assert.deepEqual(issuers('share of recordings released by Ninja Tune that have no code'), [{ name: 'Ninja Tune', thing: 'recordings' }]);
    assert.deepEqual(issuers('releases that were issued through Sun Records in the UK'), [{ name: 'Sun Records', thing: 'releases' }]);
    assert.deepEqual(issuers('mastering engineers credited on Mute Records releases'), [{ name: 'Mute Records', thing: 'releases' }]);
    assert.deepEqual(issuers('Which Creation Records 7" vinyl singles have cover art'), [{ name: 'Creation Records', thing: 'singles' }]);
    assert.deepEqual(issuers('Which Numero Group reissues were packaged in gatefold sleeves?'), [{ name: 'Numero Group', thing: 'reissues' }]);
    // A name with no such ending before a plural is a maker's, not an issuer's ("Beatles albums").
    assert.deepEqual(issuers('Beatles albums on vinyl'), []);
    const index = buildSearchIndex({ tables });
    const hits = index.search('Which releases were put out by Ninja Tune?', { limit: 6 }).hits;
    assert.ok(whyOf(hits, 'label').includes("holds who issued it, for 'Ninja Tune'"), reasons(hits));
    assert.ok(whyOf(hits, 'release_label').includes("joins release to label, for 'Ninja Tune'"), reasons(hits));
  });
});

describe('search: a title other things are versions of', () => {
  const tables = src([
    t('artist', ['id', 'gid', 'name', 'sort_name']),
    t('artist_credit', ['id', 'name', 'artist_count']),
    t('artist_credit_name', ['artist_credit', 'position', 'artist', 'name'], [fk(['artist_credit'], 'artist_credit'), fk(['artist'], 'artist')]),
    t('recording', ['id', 'gid', 'name', 'artist_credit', 'length'], [fk(['artist_credit'], 'artist_credit')]),
    t('isrc', ['id', 'recording', 'isrc'], [fk(['recording'], 'recording')]),
    t('work', ['id', 'gid', 'name', 'type']),
    t('place', ['id', 'gid', 'name', 'address']),
    t('label', ['id', 'gid', 'name', 'label_code']),
    t('link_type', ['id', 'name', 'description']),
    t('link', ['id', 'link_type'], [fk(['link_type'], 'link_type')]),
    t('l_recording_work', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'recording'), fk(['entity1'], 'work')]),
    t('l_place_recording', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'place'), fk(['entity1'], 'recording')]),
    t('l_label_work', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'label'), fk(['entity1'], 'work')]),
    t('l_place_work', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'place'), fk(['entity1'], 'work')]),
  ]);

  it('names a composition, held by the table of compositions and joined to the versions through their junction', () => {
    const lexicon = loadLexicon();
    assert.deepEqual(parseQuery('Across all recordings of the song Summertime, how many have an ISRC?', lexicon, lexicon).versionsOf, ['Summertime']);
    assert.deepEqual(parseQuery("Which conductors have recorded Messiaen's Turangalîla-Symphonie?", lexicon, lexicon).versionsOf, ['Turangalîla-Symphonie']);
    assert.deepEqual(parseQuery('Which recordings were made at Abbey Road?', lexicon, lexicon).versionsOf, []);
    const index = buildSearchIndex({ tables });
    const q = 'Across all recordings of the song Summertime, how many have an ISRC and how many do not?';
    const hits = (on: number) => withRanking('versionWorks', on, () => index.search(q, { limit: 8 }).hits);
    assert.ok(whyOf(hits(1), 'work').includes("holds what the others are versions of, for 'Summertime'"), reasons(hits(1)));
    assert.ok(names(hits(1)).includes('l_recording_work'), reasons(hits(1)));
    // Only the junction to the versions, not every relationship the composition has.
    assert.ok(!names(hits(1)).includes('l_label_work') && !names(hits(1)).includes('l_place_work'), reasons(hits(1)));
    assert.ok(names(hits(1)).indexOf('work') < names(hits(0)).indexOf('work') || !names(hits(0)).includes('work'), reasons(hits(0)));
    assert.ok(!whyOf(hits(0), 'work').some((w) => w.startsWith('holds what the others are versions of')), reasons(hits(0)));
  });
});

describe('search: a kind a thing is classed as', () => {
  const tables = src([
    t('area', ['id', 'gid', 'name', 'type']),
    t('label_type', ['id', 'name', 'description']),
    t('label', ['id', 'gid', 'name', 'label_code', 'type', 'area'], [fk(['type'], 'label_type'), fk(['area'], 'area')]),
    t('release_status', ['id', 'name']),
    t('release_group_primary_type', ['id', 'name']),
    t('release_group', ['id', 'gid', 'name', 'type'], [fk(['type'], 'release_group_primary_type')]),
    t('release', ['id', 'gid', 'name', 'status', 'release_group'], [fk(['status'], 'release_status'), fk(['release_group'], 'release_group')]),
    t('release_label', ['id', 'release', 'label', 'catalog_number'], [fk(['release'], 'release'), fk(['label'], 'label')]),
  ]);

  it('is a label of a kind list of the rows asked for, or of the table the word before the verb names', () => {
    const lexicon = loadLexicon();
    assert.deepEqual(parseQuery('Which record labels in Belgium are classed as reissue labels?', lexicon, lexicon).classedAs, [{ kind: 'reissue', of: 'belgium' }]);
    assert.deepEqual(parseQuery('labels classified as reissue production companies', lexicon, lexicon).classedAs, [{ kind: 'reissue', of: 'labels' }]);
    assert.deepEqual(parseQuery('labels with reissues in their class', lexicon, lexicon).classedAs, []);
    const index = buildSearchIndex({ tables });
    for (const q of ['Which record labels in Belgium are classed as reissue labels?', 'labels classified as reissue production companies based in France']) {
      const hits = (on: number) => withRanking('classedAs', on, () => index.search(q, { limit: 6 }).hits);
      assert.ok(whyOf(hits(1), 'label_type').includes("kind of label, may hold 'reissue'"), reasons(hits(1)));
      assert.ok(!whyOf(hits(0), 'label_type').includes("kind of label, may hold 'reissue'"), reasons(hits(0)));
    }
  });
});

describe('search: a thing and the whole it is kept in', () => {
  const tables = src([
    t('artist_credit', ['id', 'name']),
    t('release_group', ['id', 'gid', 'name', 'artist_credit'], [fk(['artist_credit'], 'artist_credit')]),
    t('release', ['id', 'gid', 'name', 'artist_credit', 'release_group', 'barcode'], [fk(['artist_credit'], 'artist_credit'), fk(['release_group'], 'release_group')]),
    t('medium', ['id', 'release', 'position', 'format', 'name'], [fk(['release'], 'release')]),
    t('recording', ['id', 'gid', 'name', 'artist_credit', 'length'], [fk(['artist_credit'], 'artist_credit')]),
    t('track', ['id', 'gid', 'recording', 'medium', 'position', 'number', 'name', 'length'], [fk(['recording'], 'recording'), fk(['medium'], 'medium')]),
    t('isrc', ['id', 'recording', 'isrc'], [fk(['recording'], 'recording')]),
    t('link_type', ['id', 'name', 'description']),
    t('link', ['id', 'link_type'], [fk(['link_type'], 'link_type')]),
    t('l_recording_release', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'recording'), fk(['entity1'], 'release')]),
    t('editor_collection', ['id', 'name', 'editor']),
    t('editor_collection_recording', ['collection', 'recording', 'position'], [fk(['collection'], 'editor_collection'), fk(['recording'], 'recording')]),
  ]);

  it('brings the ordered parts between them', () => {
    const index = buildSearchIndex({ tables });
    const q = 'Find the recording with ISRC GBAYE9300106 and tell me which releases it is on.';
    const hits = (on: number) => withRanking('partChains', on, () => index.search(q, { limit: 8 }).hits);
    for (const part of ['track', 'medium']) assert.ok(whyOf(hits(0.85), part).includes('joins recording to release, the whole it is kept in'), reasons(hits(0.85)));
    assert.ok(!hits(0).some((h) => h.why.some((w) => w.endsWith('the whole it is kept in'))), reasons(hits(0)));
    // Not a list the recording is kept in by position whose whole the question does not name.
    assert.ok(!whyOf(hits(0.85), 'editor_collection_recording').some((w) => w.endsWith('the whole it is kept in')), reasons(hits(0.85)));
  });
});

describe('search: a vocabulary the catalog shares, named by the question', () => {
  const tables = src([
    t('artist', ['id', 'gid', 'name', 'sort_name']),
    t('label', ['id', 'gid', 'name', 'label_code']),
    t('release_group', ['id', 'gid', 'name', 'type']),
    t('release', ['id', 'gid', 'name', 'release_group', 'barcode'], [fk(['release_group'], 'release_group')]),
    t('release_label', ['id', 'release', 'label', 'catalog_number'], [fk(['release'], 'release'), fk(['label'], 'label')]),
    t('tag', ['id', 'name', 'ref_count']),
    t('artist_tag', ['artist', 'tag', 'count'], [fk(['artist'], 'artist'), fk(['tag'], 'tag')]),
    t('label_tag', ['label', 'tag', 'count'], [fk(['label'], 'label'), fk(['tag'], 'tag')]),
    t('release_tag', ['release', 'tag', 'count'], [fk(['release'], 'release'), fk(['tag'], 'tag')]),
    t('release_group_tag', ['release_group', 'tag', 'count'], [fk(['release_group'], 'release_group'), fk(['tag'], 'tag')]),
  ]);

  it('is where the word it names is kept: a junction to it brings it along', () => {
    const index = buildSearchIndex({ tables });
    const q = 'For every release group tagged cumbia, which labels issued it?';
    const hits = (on: number) => withRanking('namedShared', on, () => index.search(q, { limit: 10 }).hits);
    assert.ok(whyOf(hits(1), 'tag').includes('what release_group_tag relates'), reasons(hits(1)));
    assert.ok(!whyOf(hits(0), 'tag').includes('what release_group_tag relates'), reasons(hits(0)));
    // Not a list the question does not name: "cumbia" alone is no word of `tag`.
    const plain = withRanking('namedShared', 1, () => index.search('cumbia release groups and their labels', { limit: 10 }).hits);
    assert.ok(!whyOf(plain, 'tag').includes('what release_group_tag relates'), reasons(plain));
  });
});

describe('search: a title in quotes', () => {
  it('reads no kind of thing in the last word of a quoted title', () => {
    const index = buildSearchIndex({
      tables: src([
        t('artist_credit', ['id', 'name', 'artist_count']),
        t('release_status', ['id', 'name']),
        t('release', ['id', 'gid', 'name', 'artist_credit', 'status', 'barcode'], [fk(['artist_credit'], 'artist_credit'), fk(['status'], 'release_status')]),
        t('medium_format', ['id', 'name', 'year']),
        t('medium', ['id', 'release', 'position', 'format', 'name'], [fk(['release'], 'release'), fk(['format'], 'medium_format')]),
        t('genre', ['id', 'gid', 'name', 'comment']),
        t('link', ['id', 'link_type', 'begin_date_year']),
        t('l_genre_release', ['id', 'link', 'entity0', 'entity1'], [fk(['link'], 'link'), fk(['entity0'], 'genre'), fk(['entity1'], 'release')]),
      ]),
    });
    const q = "Any releases of Pulp's 'Different Class' with status promotional, on cassette?";
    // "Class" is no genre (a thesaurus word for kinds) here: the genres lose the weight it gave them.
    const score = (on: number, table: string): number => withRanking('quotedTitles', on, () => index.search(q, { limit: 8 }).hits).find((h) => h.qualifiedName === `public.${table}`)?.score ?? 0;
    for (const table of ['genre', 'l_genre_release']) assert.ok(score(1, table) < score(0, table) * 0.8, `${table}: ${score(1, table)} vs ${score(0, table)}`);
    const top = names(index.search(q, { limit: 5 }).hits);
    for (const table of ['medium', 'medium_format', 'release', 'release_status']) assert.ok(top.includes(table), top.join(', '));
    // Nor do the reasons say so: they name the senses the ranking read, and a word of a title reads none.
    const hits = index.search(q, { limit: 8 }).hits;
    assert.ok(!hits.some((h) => h.why.some((w) => w.includes('class→'))), reasons(hits));
    assert.ok(hits.some((h) => h.why.some((w) => w.includes('cassette→format'))), reasons(hits));
    // Unquoted, the last word of a name still says what it names ("the Glastonbury Festival lineup").
    assert.deepEqual(parseQuery("Pulp's 'Different Class'", loadLexicon(), loadLexicon()).titles, ['Different Class']);
  });
});
