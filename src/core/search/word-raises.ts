/**
 * The raise steps the question's words drive: named people and places, stored values, FK neighbours of the top hits,
 * the code lists that may hold a word the catalog does not (value lookups, a modifier before a noun, kinds of things,
 * places and people, taxonomies), and roles of people in typed relationships; with the spread of guessed labels and
 * the shares the code lists keep.
 */
import { cachedConcepts, valueKey, type IndexData } from './build';
import type { ParsedQuery } from './query';
import { RANKING } from './ranking';
import { applyRaises, idfOf, keepOffer, leadingTables, piece, pieceBit, pushExtra, raiseOffers, topCandidates, type Offer, type QueryState } from './query-state';
import { isCatalogTerm, isMeasureWord, isNameTerm, isVerbForm, levelWords, MEMBERSHIP_WORDS, namedByNoun, namedMention, namesTable, NO_WORDS, sameForms, synonymHeld, thesaurusConcepts } from './question-words';
import { attributeList, holdersOf, isAttributeTable, isCodeColumn, isKindList, isPeopleEntity, isSharedVocabulary, isThing, labelsRefute, mostJoined, relationHub, relationPeople, sortsIntoLists } from './table-shape';

/**
 * Proper names: "Lewis Hamilton" is looked up in a table of people, "in Pisek" in a table of places. Each kind
 * counts once, like a query word whose postings are the tables of that kind: one piece of the question's evidence.
 */
export function addMentions(data: IndexData, parsed: ParsedQuery, st: QueryState, allowed: (d: number) => boolean): void {
  // The tables the question's words reached most strongly: a table of people or places near them is more likely the
  // one meant than one in another part of the catalog (the artist of "songs Quincy Jones produced", not the site's
  // editors).
  let context: Set<number> | null = null;
  // "Who …?" asks for people without naming one: the tables of people count, at a lower weight; "where" for places.
  // "Which purchasing agent …?" asks for people too, unless the catalog has a table or column for that kind of person
  // ("which actors" is answered by `actor` itself, not by every table of people).
  // "His page", "her card": someone the question speaks of, unless it already names what kind of person of the catalog
  // that is ("a customer … her card": `customer`).
  const pronoun = RANKING.pronouns > 0 && parsed.personPronoun && !parsed.terms.some((t) => !t.part && data.lexicon.isPerson(t.surface) && isCatalogTerm(data, t.surface));
  const asksPerson = parsed.asksPerson || pronoun || parsed.personNouns.some((ws) => ws.every((w) => !isNameTerm(data, w)));
  // "Which cities …?" in a catalog with no table or column for cities asks for places as plainly as a name would.
  const placeNoun = parsed.placeNouns.find((ws) => ws.every((w) => !isNameTerm(data, w)))?.[0];
  for (const kind of ['person', 'place'] as const) {
    const named = namedMention(parsed, kind);
    const byNoun = kind === 'place' && placeNoun !== undefined;
    const asked = kind === 'person' ? (asksPerson ? 'who' : undefined) : placeNoun ?? (parsed.asksPlace ? 'where' : undefined);
    const mention = named ?? (asked === undefined ? undefined : { kind, text: asked });
    if (mention === undefined) continue;
    const weight = named !== undefined || byNoun ? 1 : RANKING.asksPerson;
    const { docs, strength } = holdersOf(data, kind);
    const idf = idfOf(data.searchable, docs.length);
    const bit = piece(st, weight * idf, docs.length > 0);
    let near: Map<number, number> | null = null;
    if (docs.length <= RANKING.mentionContextDocs) {
      // Before any mention is scored, the touched tables are the ones the words reached.
      context ??= new Set(topCandidates(data, st, RANKING.mentionContext));
      if (context.size > 0) near = nearness(data, docs, context);
    }
    // A place the dictionary knows the level of ("California", a state) is held by the table named for that level
    // (`stateprovince`), more than by the other tables of places.
    const level = named !== undefined && kind === 'place' ? levelWords(data, named.text) : null;
    // A table of places kept inside another (`address` in a `stateprovince`, a venue in an `area`) and keeping none
    // holds such a place less surely than the tables of places it points at: "in Mali" is an area, not a venue.
    const places = level === null ? null : new Set(docs);
    const isAtLevel = (x: number): boolean => level !== null && data.docs[x]!.nameParts.some((w) => level.has(w));
    for (const d of docs) {
      if (!allowed(d)) continue;
      const atLevel = isAtLevel(d);
      const within = !atLevel && places !== null && RANKING.placeWithin < 1 && innermostPlaces(data, d, places, isAtLevel);
      const s = weight * RANKING.mention * idf * strength[d]! * (near === null ? 1 : 1 - RANKING.mentionAway * (1 - near.get(d)!)) * (atLevel ? 1 + RANKING.placeLevel : within ? RANKING.placeWithin : 1);
      st.touch(d);
      st.score[d]! += s;
      st.evidenceBits[d]! |= bit;
      pushExtra(st, d, { weight: s, text: `${kind === 'person' ? 'holds people' : 'holds places'}, for '${mention.text}'`, show: 2.7 });
    }
  }
}

/**
 * Whether a table of places is kept inside another (an FK to one of `places`) and keeps none itself: `address` in a
 * `stateprovince`, a venue in an `area`. A level between two (`stateprovince`, which addresses point at) is not.
 * Only a table as sure to hold places as this one makes it a level: a venue's aliases or an order's ship-to address
 * keep no places inside it.
 */
function innermostPlaces(data: IndexData, d: number, places: ReadonlySet<number>, atLevel: (x: number) => boolean): boolean {
  let inside = false;
  let towardsLevel = false;
  let kept = false;
  for (const e of data.edges[d]!) {
    if (e.to === d || e.subtype || !places.has(e.to)) continue;
    if (e.outgoing) {
      inside = true;
      if (atLevel(e.to)) towardsLevel = true;
    } else if (data.placeTable[e.to]! >= data.placeTable[d]!) kept = true;
  }
  return inside && !(towardsLevel && kept);
}

/** For each doc: 1 when it or a neighbour is in `context`, `mentionTwoSteps` when one two FK steps away is, else 0. */
function nearness(data: IndexData, docs: ArrayLike<number>, context: ReadonlySet<number>): Map<number, number> {
  const out = new Map<number, number>();
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    let near = context.has(d) ? 1 : 0;
    for (const e of data.edges[d]!) {
      if (near === 1) break;
      if (context.has(e.to)) near = 1;
      else if (near === 0 && data.edges[e.to]!.some((e2) => context.has(e2.to))) near = RANKING.mentionTwoSteps;
    }
    out.set(d, near);
  }
  return out;
}

/**
 * Value index: literal category values named in the question ("customers in 'LATAM'"). A quoted value is a piece of the
 * question's evidence of its own; any value covers the question's words it is made of.
 */
export function addValueHits(data: IndexData, parsed: ParsedQuery, st: QueryState, allowed: (d: number) => boolean, lexical: Set<number>): void {
  const n = data.searchable;
  const probed = new Set<string>();
  for (const probe of parsed.valueProbes) {
    const k = valueKey(probe);
    if (probed.has(k)) continue;
    probed.add(k);
    const list = data.values.get(k);
    if (list === undefined) continue;
    const idf = idfOf(n, new Set(list.map((e) => e.d)).size);
    const quoted = parsed.quoted.includes(probe);
    const full = (quoted ? 1.5 : 1) * RANKING.value * idf * Math.min(1, 0.5 + probe.length / 10);
    // A code list's label that is also a word of the catalog's names ("sales", "product") is more often that
    // word than the label; a label the names do not hold ("night", "refunded") is the value.
    const words = probe.split(/[^\p{L}\p{N}]+/u);
    const named = !quoted && words.every((w) => w.length === 0 || isCatalogTerm(data, w));
    const done = new Set<number>();
    // The value covers the question's words it is made of ("documentaries" → 'Documentary').
    let bit = quoted ? piece(st, idf, true) : 0;
    for (const w of words) {
      const i = st.wordPieces.get(w);
      if (i === undefined) continue;
      bit |= pieceBit(i);
      st.pieces[i]!.known = true;
    }
    const referrers = new Map<number, { value: number; text: string }>();
    for (const e of list) {
      if (!allowed(e.d) || done.has(e.d) || (RANKING.valueForms > 0 && !sameForms(probe, e.value))) continue;
      done.add(e.d);
      const code = isCodeColumn(data, e.d, e.column);
      const boost = code && named ? RANKING.codeValueNamed * full : full;
      lexical.add(e.d);
      st.touch(e.d);
      st.score[e.d]! += boost;
      st.evidenceBits[e.d]! |= bit;
      pushExtra(st, e.d, { weight: boost, text: `value '${e.value}' in ${e.column}`, column: e.column });
      if (!code) continue;
      // The tables that point at the code list are where rows with that value live ("night shift" → the
      // assignments that reference `shift`).
      const lift = RANKING.codeValueReferrer * boost;
      for (const edge of data.edges[e.d]!) {
        if (edge.outgoing || edge.to === e.d || !allowed(edge.to)) continue;
        const prev = referrers.get(edge.to);
        if (prev === undefined || lift > prev.value) referrers.set(edge.to, { value: lift, text: `references ${data.docs[e.d]!.name}, which holds '${e.value}'` });
      }
    }
    for (const [d, r] of referrers) {
      if (done.has(d)) continue;
      st.touch(d);
      st.score[d]! += r.value;
      pushExtra(st, d, { weight: r.value, text: r.text, show: 1 });
    }
  }
}

/**
 * FK neighbours of the top hits. A neighbour whose whole name the question uses ("assigned to artists" next to
 * `artist_ipi`) is the entity the hit hangs off and rises close to it; other neighbours gain a little, which orders
 * the tables a query is likely to join when the words alone do not decide.
 */
export function addNeighbours(data: IndexData, ranked: readonly number[], queryTerms: ReadonlySet<string>, queryConcepts: ReadonlySet<string>, st: QueryState, allowed: (d: number) => boolean): void {
  const boosts = new Map<number, { value: number; named: boolean; via: number }>();
  const asked = (word: string, stemmed: string): boolean =>
    queryTerms.has(stemmed) || cachedConcepts(data.conceptCache, data.lexicon, word).some((c) => queryConcepts.has(c));
  for (const h of ranked.slice(0, RANKING.neighbourTop)) {
    const base = st.score[h]!;
    const own = data.docs[h]!.nameStems;
    for (const e of data.edges[h]!) {
      const p = e.to;
      if (p === h || !allowed(p)) continue;
      const pd = data.docs[p]!;
      const stems = pd.nameStems;
      // A lookup the hit points at is named by the words it adds to the hit's name (`release` → `release_status`
      // by "status"), or by the FK column that points at it (`medium.format`).
      const lookupNamed =
        pd.role === 'lookup' &&
        e.outgoing &&
        (stems.some((w) => !own.includes(w)) ? stems.every((w, i) => own.includes(w) || asked(pd.nameWords[i]!, w)) : false);
      const named = (stems.length > 0 && stems.every((w) => queryTerms.has(w))) || lookupNamed;
      const value = named ? Math.max(0, RANKING.namedNeighbour * base - st.score[p]!) : RANKING.neighbour * base;
      const prev = boosts.get(p);
      if (prev === undefined || value > prev.value) boosts.set(p, { value, named, via: h });
    }
  }
  for (const [p, b] of boosts) {
    if (b.value <= 0) continue;
    st.touch(p);
    st.score[p]! += b.value;
    if (b.named) pushExtra(st, p, { weight: b.value, text: `joins ${data.docs[b.via]!.name}`, show: 1 });
    else if (st.score[p]! === b.value) pushExtra(st, p, { weight: b.value, text: `joins ${data.docs[b.via]!.name}`, show: 0.3 });
  }
}

/**
 * Words the catalog does not know are likely values of a code list (a genre, a language, a shift name): the lookup
 * tables of the top hits, directly referenced or behind a junction (`film` → `film_category` → `category`), rise
 * with their entity, together with the junction.
 */
export function addValueLookups(data: IndexData, tops: readonly number[], words: readonly string[], st: QueryState, allowed: (d: number) => boolean, share: number = RANKING.valueLookup, named: ReadonlySet<string> = NO_WORDS): void {
  const boosts = new Map<number, Offer>();
  // `below`: the score of the table that makes the offer, which a lookup stacking evidence never passes.
  const offer = (d: number, value: number, text: string, below: number, far = false): void => {
    if (!allowed(d)) return;
    if (st.score[d]! < value) keepOffer(boosts, d, value, text, far);
    else if (RANKING.valueStack > 0 && data.docs[d]!.role === 'lookup' && st.score[d]! < below) keepOffer(boosts, d, Math.min(st.score[d]! + RANKING.valueStack * value, below), text, far);
  };
  // Not a vocabulary the whole catalog shares, nor a list whose labels are all known and none is one of the words.
  // A shared vocabulary the question names by its own name ("release groups tagged cumbia") is where its word is kept.
  const open = (l: number): boolean => (!isSharedVocabulary(data, l) || (RANKING.namedShared > 0 && data.docs[l]!.nameStems.every((w) => named.has(w)))) && !labelsRefute(data, l, words);
  const label = words.slice(0, 2).map((w) => `'${w}'`).join(', ');
  // A plural noun that names no person, place or role ("large jerseys", "tires and tubes") names a kind of the rows.
  const kinds = RANKING.valueKind > 0 && words.some((w) => /[^s]s$/.test(w) && data.lexicon.concepts(w).length > 0 && !data.lexicon.isNotNominal(w) && !data.lexicon.isPerson(w) && !data.lexicon.isPlace(w) && !data.lexicon.isRole(w));
  for (const h of tops) {
    const target = share * st.score[h]!;
    for (const e of data.edges[h]!) {
      const p = e.to;
      if (p === h) continue;
      const pd = data.docs[p]!;
      if (e.outgoing && pd.role === 'lookup') {
        if (open(p)) offer(p, kinds && isKindList(data, p) ? RANKING.valueKind * st.score[h]! : target, `lookup of ${data.docs[h]!.name}, may hold ${label}`, st.score[h]!);
      } else if (!e.outgoing && sortsIntoLists(data, p)) {
        for (const e2 of data.edges[p]!) {
          if (!e2.outgoing || e2.to === h || data.docs[e2.to]!.role !== 'lookup' || !open(e2.to)) continue;
          offer(e2.to, target * 0.95, `lookup of ${data.docs[h]!.name} via ${pd.name}, may hold ${label}`, st.score[h]!, true);
          offer(p, target * 0.9, `joins ${data.docs[h]!.name} to ${data.docs[e2.to]!.name}`, st.score[h]!);
        }
      }
    }
  }
  raiseOffers(data, st, boosts, 1.1);
}

/**
 * A word the catalog does not hold, in a question about things that a catalog sorts into kinds within wider kinds
 * (`product` → `productsubcategory` → `productcategory`): "handlebars", "seatposts", "bikes" are most likely the name
 * of one of those kinds. Of the first such thing among the `taxonomyTop` leading tables, the kind list rises to
 * `kindLookup` of it and the wider one just below; the thing itself, which the question is about, rises first to
 * `taxonomyLead` of the best table ("bikes … left in their baskets": `product` beside `shoppingcartitem`).
 */
export function addTaxonomy(data: IndexData, ranked: number[], limit: number, word: string, st: QueryState, allowed: (d: number) => boolean): number[] {
  const piece = st.wordPieces.get(word);
  const bit = piece === undefined ? 0 : pieceBit(piece);
  for (const c of leadingTables(data, ranked.slice(0, limit), RANKING.taxonomyTop)) {
    // A word the thing itself answers to ("red": its colour) is a value of its own columns, not a kind.
    if (!isThing(data, c) || data.personTable[c]! > 0 || (st.evidenceBits[c]! & bit) !== 0) continue;
    for (const e of data.edges[c]!) {
      if (!e.outgoing || e.to === c || !allowed(e.to) || !isKindList(data, e.to)) continue;
      const wider = data.edges[e.to]!.find((x) => x.outgoing && x.to !== e.to && x.to !== c && allowed(x.to) && isKindList(data, x.to));
      if (wider === undefined) continue;
      // The thing whose kind the word names is what the question is about: it rises to a share of the best table.
      const lead = ranked[0] === undefined ? 0 : RANKING.taxonomyLead * st.score[ranked[0]]!;
      const thing = Math.max(st.score[c]!, lead);
      const value = RANKING.kindLookup * RANKING.taxonomy * thing;
      return applyRaises(data, ranked, [
        ...(thing > st.score[c]! ? [[c, thing, `sorted into kinds, one of which may be '${word}'`] as [number, number, string]] : []),
        [e.to, value, `kind of ${data.docs[c]!.name}, may hold '${word}'`],
        [wider.to, value * 0.95, `wider kind of ${data.docs[c]!.name}, may hold '${word}'`],
      ], st);
    }
  }
  return ranked;
}

/**
 * A value word before a noun ("bootleg albums", "vinyl LPs", "jazz combos"): the noun names a table among the
 * candidates (literally or through a thesaurus synonym), and the word is a value of one of that table's code lists, so
 * its lookups — referenced directly or behind a junction (`release_group` → `…_secondary_type_join` → `…_type`) — rise
 * just below it. Returns each offer as a share of the table that made it, for keepShares after the graph steps.
 */
export function addModifierLookups(data: IndexData, ranked: readonly number[], parsed: ParsedQuery, values: ReadonlySet<string>, unknown: ReadonlySet<string>, st: QueryState, allowed: (d: number) => boolean): ShareLink[] {
  const boosts = new Map<number, Offer>();
  const links: ShareLink[] = [];
  let from = -1;
  const offer = (d: number, value: number, text: string, far = false): void => {
    if (!allowed(d)) return;
    links.push({ d, of: from, share: value / st.score[from]! });
    if (st.score[d]! < value) keepOffer(boosts, d, value, text, far);
  };
  const terms = parsed.terms;
  // Only words the question writes name a code list ("by race"); an implied `language` or `year` does not.
  const queryTerms = new Set(terms.filter((t) => t.implied !== true).map((t) => t.term));
  for (let i = 0; i < terms.length; i++) {
    const v = terms[i]!;
    // A verb form ("rented films", "remastered albums", "bought products") says what happened to the rows, not which
    // kind they are.
    if (!values.has(v.surface) || v.position === undefined || isMeasureWord(data, v.surface) || isVerbForm(v.surface)) continue;
    // The head: the next word that the catalog knows, literally or through a related word, with nothing but
    // further unknown words in between ("female solo artist"); a stop word ends the phrase ("refers to …").
    let head: (typeof terms)[number] | undefined;
    let at = v.position;
    for (let j = i + 1; j < terms.length; j++) {
      const t = terms[j]!;
      if (t.position === undefined || t.position === at) continue;
      if (t.position !== at + 1 || t.position - v.position > 2) break;
      if (unknown.has(t.surface)) {
        at = t.position;
        continue;
      }
      head = t;
      break;
    }
    if (head === undefined) continue;
    const synonyms = thesaurusConcepts(data, head.surface);
    // The tables the noun names outright (each word of the name is the noun or a thesaurus synonym of it), the best
    // ranked first: the noun may name a table that other words of the question have not lifted yet.
    let namedSeen = 0;
    for (const h of ranked) {
      if (namedSeen >= RANKING.modifierNamed) break;
      const hd = data.docs[h]!;
      if (hd.role === 'lookup' || hd.role === 'auxiliary') continue;
      if (!namedByNoun(data, hd, head.term, synonyms)) continue;
      namedSeen++;
      from = h;
      const target = RANKING.modifierLookup * st.score[h]!;
      const label = `'${v.surface} ${head.surface}'`;
      // Code lists of h, directly or behind a junction: [lookup, junction or -1].
      const own = hd.nameStems;
      const isNamed = (l: number): boolean => {
        const extra = data.docs[l]!.nameStems.filter((w) => !own.includes(w));
        return extra.length > 0 && extra.every((w) => queryTerms.has(w));
      };
      const lists: Array<readonly [number, number]> = [];
      const namedLists: Array<readonly [number, number]> = [];
      for (const e of data.edges[h]!) {
        const p = e.to;
        if (p === h) continue;
        const pd = data.docs[p]!;
        if (e.outgoing && (isNamed(p) || (pd.role === 'lookup' && !isSharedVocabulary(data, p)))) (isNamed(p) ? namedLists : lists).push([p, -1]);
        else if (!e.outgoing && sortsIntoLists(data, p)) {
          for (const e2 of data.edges[p]!) {
            if (e2.outgoing && e2.to !== h && data.docs[e2.to]!.role === 'lookup' && !isSharedVocabulary(data, e2.to)) (isNamed(e2.to) ? namedLists : lists).push([e2.to, p]);
          }
        }
      }
      // A table h points at that the question names ("vampire superheroes … by race") is where the value is;
      // else any of h's code lists may be.
      for (const [l, via] of (namedLists.length > 0 ? namedLists : lists).filter(([l]) => !labelsRefute(data, l, [v.surface]))) {
        // A word that sorts rows into kinds ("live albums", "horror films") is most often a label of a list of kinds.
        const t = namedLists.length > 0 || isKindList(data, l) ? target : target * RANKING.modifierOther;
        if (via < 0) {
          offer(l, t, `code list of ${hd.name}, may hold ${label}`);
          // A kind list of a wider kind ("Accessories products": a category above the subcategory) may hold it too.
          if (isKindList(data, l)) {
            for (const e2 of data.edges[l]!) if (e2.outgoing && e2.to !== l && e2.to !== h && isKindList(data, e2.to) && !labelsRefute(data, e2.to, [v.surface])) offer(e2.to, target * 0.95, `wider kind of ${hd.name}, may hold ${label}`);
          }
        } else {
          offer(l, t * 0.95, `code list of ${hd.name} via ${data.docs[via]!.name}, may hold ${label}`, true);
          offer(via, t * 0.9, `joins ${hd.name} to ${data.docs[l]!.name}`);
        }
      }
    }
  }
  raiseOffers(data, st, [...boosts].sort((x, y) => x[0] - y[0]), 1.15);
  return links;
}

/**
 * A word the catalog does not hold may be a label of any code list of the tables it qualifies (a language, a
 * packaging, a status, a genre, a mood…): once `guessKeep` lists raised mostly by such a guess are in the answer, the
 * further ones that the guess reached through another table (a junction, a part), unless they are lists of kinds, keep
 * `guessSpread` of their score, so that the tables other words of the question found come before them. The table's
 * own code lists stay: the word qualifies its noun first.
 */
export function spreadGuesses(data: IndexData, ranked: number[], limit: number, st: QueryState): number[] {
  if (st.guesses.size <= RANKING.guessKeep) return ranked;
  let kept = 0;
  let changed = false;
  for (const d of ranked.slice(0, limit)) {
    const g = st.guesses.get(d);
    if (g === undefined || g.share < RANKING.guessShare || ++kept <= RANKING.guessKeep || !g.far || isKindList(data, d)) continue;
    st.score[d]! *= RANKING.guessSpread;
    changed = true;
  }
  return changed ? topCandidates(data, st, RANKING.candidates) : ranked;
}

/** A table that rose to a share of another (a code list with the table its value qualifies). */
interface ShareLink {
  readonly d: number;
  readonly of: number;
  readonly share: number;
}

/**
 * The tables that rise later (as a junction, on a join path, as a parent) would leave behind the code lists raised to
 * a share of them: after the graph steps each keeps its share of the final score. Returns whether anything rose.
 */
export function keepShares(links: readonly ShareLink[], st: QueryState): boolean {
  let changed = false;
  for (const { d, of, share } of links) {
    const value = share * st.score[of]!;
    if (st.score[d]! >= value) continue;
    st.score[d] = value;
    changed = true;
  }
  return changed;
}

/**
 * A noun for a kind of place or person that the catalog does not name ("recording studios in London") is a label of
 * a kind code list: the kind code lists of the best-ranked tables of that class in the answer rise just below them,
 * and so does a wider kind list that one belongs to (`productsubcategory` → `productcategory`). The same holds for a
 * kind of thing ("bikes"), with any entity table as the class.
 * When no table of the class has a kind list of its own, one may sit behind a junction that gives its rows a role
 * (`person` ← `businessentitycontact` → `contacttype` for "purchasing managers … contacts"): then the junction rises
 * with it.
 */
export function addKindLookups(data: IndexData, ranked: number[], limit: number, ofClass: (d: number) => boolean, word: string, lexical: ReadonlySet<number>, st: QueryState, allowed: (d: number) => boolean, asked?: number, viaJunctions = true): number[] {
  const boosts: Array<[number, number, string]> = [];
  const candidates = ranked.slice(0, limit).filter(ofClass);
  let seen = 0;
  for (const c of candidates) {
    if (seen >= RANKING.kindTop) break;
    const lists = data.edges[c]!.filter((e) => e.outgoing && e.to !== c && allowed(e.to) && isKindList(data, e.to));
    let base = st.score[c]!;
    // The kind is the noun the question asks for ("which bikes …"): its rows are the first such table's, which rises as
    // the rows asked for do (see addFocusTables), its kind lists with it.
    if (asked !== undefined && seen === 0 && lists.length > 0 && base < asked) {
      boosts.push([c, asked, `the rows asked for ('${word}', a kind of ${data.docs[c]!.name})`]);
      base = asked;
    }
    let kinds = 0;
    const value = RANKING.kindLookup * base;
    for (const e of lists) {
      kinds++;
      if (st.score[e.to]! < value) boosts.push([e.to, value, `kind of ${data.docs[c]!.name}, may hold '${word}'`]);
      // A kind list within a wider one (`productsubcategory` → `productcategory`): the word may name either level.
      for (const e2 of data.edges[e.to]!) {
        if (e2.outgoing && e2.to !== e.to && e2.to !== c && allowed(e2.to) && isKindList(data, e2.to) && st.score[e2.to]! < value * 0.95) boosts.push([e2.to, value * 0.95, `wider kind of ${data.docs[c]!.name}, may hold '${word}'`]);
      }
    }
    // A kind list of many kinds per row sits behind a junction of its own (`release_group` ←
    // `release_group_secondary_type_join` → `release_group_secondary_type`): the word may name it as well.
    if (lists.length > 0 && viaJunctions) {
      for (const e of data.edges[c]!) {
        if (e.outgoing || e.to === c || !allowed(e.to) || !data.docs[e.to]!.isBridge || (RANKING.attributeKinds > 0 && isAttributeTable(data, e.to))) continue;
        const outs = data.edges[e.to]!.filter((x) => x.outgoing && x.to !== e.to);
        const list = outs.find((x) => x.to !== c && isKindList(data, x.to));
        if (list === undefined || outs.some((x) => x.to !== c && x.to !== list.to) || !allowed(list.to)) continue;
        if (st.score[list.to]! < value * 0.95) boosts.push([list.to, value * 0.95, `kind of ${data.docs[c]!.name} via ${data.docs[e.to]!.name}, may hold '${word}'`]);
        if (st.score[e.to]! < value * 0.9) boosts.push([e.to, value * 0.9, `joins ${data.docs[c]!.name} to ${data.docs[list.to]!.name}`]);
      }
    }
    // Only tables that have a kind code list count: a table of places without one (`medium`) leaves room for the next.
    if (kinds > 0) seen++;
  }
  // No table of the class has a kind list of its own: the first one that has one behind a junction the question
  // already reaches (its words name the junction or the list: "listed as contacts"), a junction of a relationship
  // before any other, then the strongest such junction, the first in table order on a tie.
  for (const c of seen > 0 ? [] : candidates) {
    let best: { via: number; list: number; score: number; role: boolean } | null = null;
    for (const e of data.edges[c]!) {
      // Custom attributes (`recording_attribute`) are no kinds of the rows.
      if (e.outgoing || e.to === c || !allowed(e.to) || data.docs[e.to]!.role !== 'bridge' || (RANKING.attributeKinds > 0 && isAttributeTable(data, e.to))) continue;
      for (const e2 of data.edges[e.to]!) {
        if (!e2.outgoing || e2.to === c || !allowed(e2.to) || !isKindList(data, e2.to)) continue;
        if (!lexical.has(e.to) && !lexical.has(e2.to)) continue;
        // A role of the rows is their part in a relationship with something else (`businessentitycontact`: a person
        // at a business, of a contact type); a junction of theirs with no other end (`personphone`: a person's
        // numbers, of a phone number type) sorts what it holds, not them.
        const role = RANKING.kindRoles > 0 && data.edges[e.to]!.some((x) => x.outgoing && x.to !== c && x.to !== e2.to && x.to !== e.to);
        const score = st.score[e.to]! + st.score[e2.to]!;
        const better = best === null || (role !== best.role ? role : score > best.score || (score === best.score && data.order[e.to]! < data.order[best.via]!));
        if (better) best = { via: e.to, list: e2.to, score, role };
      }
    }
    if (best === null) continue;
    const value = RANKING.kindLookup * st.score[c]!;
    boosts.push([best.list, value * 0.95, `kind of ${data.docs[c]!.name} via ${data.docs[best.via]!.name}, may hold '${word}'`]);
    boosts.push([best.via, value * 0.9, `joins ${data.docs[c]!.name} to ${data.docs[best.list]!.name}`]);
    break;
  }
  return applyRaises(data, ranked, boosts, st);
}

/**
 * A person named by a role ("producers", "the lyricist of") in a catalog with a hub of typed relationships: the hub and
 * its type list rise just below the best table of people in the answer, and so does the junction of the hub that joins
 * that table to the strongest other table in the answer that `named` accepts (`l_artist_recording` for "songs Quincy
 * Jones produced"), or else to itself (`l_artist_artist` for "drummers in The Who").
 */
export function addRoleLookups(data: IndexData, ranked: number[], limit: number, word: string, named: (d: number) => boolean, st: QueryState, allowed: (d: number) => boolean, modifier = false, performing = true): number[] {
  const rel = relationHub(data);
  if (rel === null || !allowed(rel.hub) || !allowed(rel.list)) return ranked;
  const ends = relationPeople(data, rel.hub);
  const belonging = MEMBERSHIP_WORDS.has(word);
  // Belonging to something that is no people ("the festival's lineup", with no table of people in the answer) is the
  // people of the relationships taking part in it: they stand in below the best table, and the junction goes towards
  // what the question names (`l_artist_event`).
  const joining = (belonging || (RANKING.rolePeople > 0 && !modifier)) && RANKING.lineupOfThings > 0 && ranked[0] !== undefined && !ranked.slice(0, limit).some((d) => isPeopleEntity(data, d)) ? mostJoined(data, ends, allowed) : -1;
  // A question no word of which reached a table ("theremin players") asks only for people in a role: the people of
  // the relationships stand in, as the whole answer.
  const alone = RANKING.roleAlone > 0 && ranked[0] === undefined && !modifier ? mostJoined(data, ends, allowed) : -1;
  if (alone >= 0) {
    st.touch(alone);
    st.score[alone] = 1;
    pushExtra(st, alone, { weight: 1, text: `holds the people of relationships, for '${word}'`, show: 1.2 });
    ranked = topCandidates(data, st, RANKING.candidates);
  }
  const first = joining >= 0 ? joining : alone >= 0 ? alone : ranked.slice(0, limit).find((d) => isPeopleEntity(data, d));
  if (first === undefined) return ranked;
  // Belonging is otherwise of people to people.
  const towards = belonging && joining < 0 ? (): boolean => false : named;
  // The people a role is of are an end of the relationships (`artist` of `l_artist_artist`): a table of people that no
  // junction of the hub reaches (`editor`, whose `member_since` a word grazed) has no roles.
  let people = joining >= 0 ? joining : RANKING.roleEnds > 0 ? ranked.slice(0, limit).find((d) => isPeopleEntity(data, d) && ends.has(d)) : first;
  const boosts: Array<[number, number, string]> = [];
  const value = RANKING.kindLookup * st.score[joining >= 0 ? ranked[0]! : first]!;
  if (joining >= 0) boosts.push([joining, value, `holds the people of relationships, for '${word}'`]);
  if (people === undefined) {
    // Belonging ("members", "lineup") is always to a group of people in a relationship: the table of people most
    // junctions reach stands in. Another role word may name people of the catalog that hold no roles ("user ratings":
    // `editor`), which stay the people it is about.
    const stand = MEMBERSHIP_WORDS.has(word) ? mostJoined(data, ends, allowed) : -1;
    people = stand < 0 ? first : stand;
    if (stand >= 0) boosts.push([stand, value, `holds the people of relationships, for '${word}'`]);
  }
  boosts.push([rel.list, value * 0.95, `type of ${data.docs[rel.hub]!.name}, may hold '${word}'`], [rel.hub, value * 0.95, `relationship of ${data.docs[people]!.name}, for '${word}'`]);
  const top = new Set(ranked.slice(0, limit));
  let best: { via: number; score: number } | null = null;
  for (const e of data.edges[rel.hub]!) {
    const b = e.to;
    if (e.outgoing || b === rel.hub || !allowed(b) || data.docs[b]!.role !== 'bridge') continue;
    const ends = data.edges[b]!.filter((x) => x.outgoing && x.to !== rel.hub).map((x) => x.to);
    if (!ends.includes(people)) continue;
    const other: number = ends.find((x) => x !== people) ?? people;
    // A role is towards a thing the question names ("songs … produced": `recording`); with none, towards people
    // ("drummers in The Who"), not towards a table that only a column or a neighbour brought in.
    if (other !== people && (!top.has(other) || !towards(other))) continue;
    const score = other === people ? 0 : st.score[other]!;
    if (best === null || score > best.score || (score === best.score && data.order[b]! < data.order[best.via]!)) best = { via: b, score };
  }
  if (best !== null) boosts.push([best.via, value * 0.9, `joins ${data.docs[people]!.name} in a relationship, for '${word}'`]);
  // A role is a type of relationship and the attributes it is qualified by (an instrument played, a guest part): the
  // hub's junction to its most referenced list of attributes (`link_attribute` → `link_attribute_type`).
  // A role the thesaurus places with what it makes ("lyricist": a work) needs none.
  // (A synonym the catalog does not hold places it with nothing: "players" beside athletes, in a catalog of music.)
  const makes = RANKING.roleSynonymsHeld > 0 ? synonymHeld(data, word) : thesaurusConcepts(data, word).size > 0;
  const attributes = RANKING.roleAttributes > 0 && !makes && (!(RANKING.performingAttributes > 0) || performing) ? attributeList(data, rel.hub) : null;
  if (attributes !== null && allowed(attributes.via) && allowed(attributes.list)) {
    boosts.push([attributes.via, value * RANKING.roleAttributes, `attributes of ${data.docs[rel.hub]!.name}, for '${word}'`], [attributes.list, value * RANKING.roleAttributes * 0.95, `attribute types of ${data.docs[rel.hub]!.name}, for '${word}'`]);
    // The words the catalog does not hold are then the role's attributes ("played drums as a guest"), not labels of the
    // code lists of other tables that a guess reached through them.
    if (RANKING.roleGuesses < 1) {
      for (const d of st.guesses.keys()) if (d !== attributes.list) st.score[d]! *= RANKING.roleGuesses;
    }
  }
  return applyRaises(data, ranked, boosts, st);
}

/**
 * A role that no table, column or synonym names, in a catalog with no hub of typed relationships (see
 * RANKING.roleJunctions): a junction of three keys, to a table of people, to a kind list and to a third table that a
 * table the question's words found is (or points at), gives people a role there. Its kind list holds the role; both rise
 * below the people, as a kind list of theirs would (addKindLookups). The first such junction of the best-ranked such
 * table; none where the people are not in the answer.
 */
export function addRoleJunctions(data: IndexData, ranked: number[], limit: number, word: string, next: string | undefined, lexical: ReadonlySet<number>, st: QueryState, allowed: (d: number) => boolean): number[] {
  if (namesTable(data, word)) return ranked;
  const top = ranked.slice(0, limit);
  for (const t of top) {
    if (!lexical.has(t) || data.personTable[t]! > 0 || data.docs[t]!.role === 'lookup') continue;
    const at = new Set([t, ...data.edges[t]!.filter((e) => e.outgoing && e.to !== t).map((e) => e.to)]);
    for (const a of at) {
      for (const e of data.edges[a]!) {
        const j = e.to;
        if (e.outgoing || j === a || !allowed(j) || data.docs[j]!.role !== 'bridge') continue;
        const outs = data.edges[j]!.filter((x) => x.outgoing && x.to !== j).map((x) => x.to);
        if (outs.length !== 3) continue;
        const people = outs.find((x) => x !== a && isPeopleEntity(data, x) && top.includes(x));
        const list = outs.find((x) => x !== a && isKindList(data, x));
        if (people === undefined || list === undefined || !allowed(list)) continue;
        // "The owner contact" names the junction after the role; "the dealer network" is no part of anyone.
        if (next !== undefined && !data.docs[j]!.name.toLowerCase().includes(next)) continue;
        const value = RANKING.kindLookup * st.score[people]!;
        return applyRaises(data, ranked, [
          [list, value * 0.95, `kind of ${data.docs[people]!.name} at ${data.docs[a]!.name} via ${data.docs[j]!.name}, may hold '${word}'`],
          [j, value * 0.9, `joins ${data.docs[people]!.name} to ${data.docs[a]!.name} in a role, for '${word}'`],
        ], st);
      }
    }
  }
  return ranked;
}

/**
 * Something made of or from a thing, in a word the dictionary does not know ("remixes of Blue Monday"): in a catalog
 * of typed relationships, a relationship of that kind of thing to another of its kind. The hub's junction of the best
 * table in the answer with itself (`l_recording_recording`), the hub and its type list rise to `madeOf` of that table.
 */
export function addSelfRelations(data: IndexData, ranked: number[], limit: number, word: string, st: QueryState, allowed: (d: number) => boolean): number[] {
  const rel = relationHub(data);
  if (rel === null || !allowed(rel.hub) || !allowed(rel.list)) return ranked;
  for (const c of ranked.slice(0, limit)) {
    const cd = data.docs[c]!;
    if (cd.role !== 'entity' || data.personTable[c]! > 0) continue;
    const self = data.edges[c]!.find((e) => {
      if (e.outgoing || e.to === c || !allowed(e.to) || data.docs[e.to]!.role !== 'bridge') return false;
      const outs = data.edges[e.to]!.filter((x) => x.outgoing && x.to !== e.to);
      return outs.some((x) => x.to === rel.hub) && outs.filter((x) => x.to === c).length >= 2 && outs.every((x) => x.to === c || x.to === rel.hub);
    });
    if (self === undefined) continue;
    const value = RANKING.madeOf * st.score[c]!;
    return applyRaises(data, ranked, [
      [self.to, value, `relates ${cd.name} to ${cd.name}, for '${word}'`],
      [rel.hub, value * 0.95, `relationship of ${cd.name}, for '${word}'`],
      [rel.list, value * 0.95, `type of ${data.docs[rel.hub]!.name}, may hold '${word}'`],
    ], st);
  }
  return ranked;
}
