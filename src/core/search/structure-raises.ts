/**
 * The raise steps that complete an answer along the catalog's structure: junctions between matched tables and their
 * qualifiers, the wholes parts belong to and the tables that name their rows, the ends of junctions, holders of names
 * and titles, chains of ordered parts, paths to named people and places, places within places, the rows asked for and
 * the homes of their attributes; and the places of views and of tables kept apart.
 */
import { cachedTerms, isMirror, nameDocs, type IndexData } from './build';
import { isThesaurusConcept } from './lexicon';
import type { Mention, ParsedQuery } from './query';
import { knownWord } from './spelling';
import { stem } from './tokenize';
import { RANKING } from './ranking';
import { applyRaises, leadingTables, pieceBit, pushExtra, topCandidates, type QueryState } from './query-state';
import { isCatalogTerm, levelWords, namedByNoun, PLACE_LEVEL_NOUNS, producedWhole, thesaurusConcepts, wordConcepts } from './question-words';
import { columnWords, compositionTable, copiesNames, creditJunction, holdersOf, isBareSupertype, isOrderedPart, isOwnTable, isQualifierRecord, isSharedVocabulary, isThing, isTypedRelationship, isTypingRecord, isWholeOf, junctionsAt, mainWhole, namesOwnWord, partStems, sideJunctions, standsApart, subsetOf, timeColumns, viewBases, wholeNameStems, wholesOf } from './table-shape';
import { joinedDirectly, passedOnKey, pathToAny } from './key-paths';

/** Junction tables: a bridge whose FK targets both match joins them even when its own name says nothing. */
export function addBridges(data: IndexData, ranked: readonly number[], evidence: ReadonlySet<number>, lexical: ReadonlySet<number>, unasked: (d: number) => boolean, st: QueryState, allowed: (d: number) => boolean): void {
  // Only bridges next to a candidate can have two matched ends worth reporting.
  const seenBridge = new Set<number>();
  const side = sideJunctions(data);
  const ahead = (x: number, y: number): boolean => st.score[x]! > st.score[y]! || (st.score[x] === st.score[y] && x < y);
  const boosts: Array<[number, number, string]> = [];
  for (const c of ranked.slice(0, RANKING.bridgeCandidates)) {
    for (const edge of data.edges[c]!) {
      const d = edge.to;
      if (edge.outgoing || seenBridge.has(d) || !data.docs[d]!.isBridge || !allowed(d)) continue;
      seenBridge.add(d);
      // Both ends need evidence of their own: a neighbour that only borrowed score from a hit joins nothing asked for.
      // The two best ends (score, then table order), without building a list per junction.
      let first = -1;
      let second = -1;
      let reached = false;
      for (const e of data.edges[d]!) {
        const x = e.to;
        if (!e.outgoing || x === d || x === first || x === second || !evidence.has(x)) continue;
        // The record that types the junction (`link` of `l_event_url`) is none of the two things it joins.
        if (RANKING.bridgeRecords > 0 && isTypingRecord(data, x)) continue;
        if (lexical.has(x)) reached = true;
        if (first < 0 || ahead(x, first)) {
          second = first;
          first = x;
        } else if (second < 0 || ahead(x, second)) second = x;
      }
      // Two tables reached only as "holds people" (a name in the question) are not a pair the question joins.
      if (second < 0 || !reached) continue;
      // Ends an FK of their own already joins (`recording` → `artist_credit`, `salesterritory` → `countryregion`) need
      // no table between them: the junction is another relationship of theirs, not the join.
      if (RANKING.bridgeJoined > 0 && joinedDirectly(data, first, second)) continue;
      // An auxiliary junction (`artist_rating_raw`) joins the same ends as its entity's own: it keeps the discount.
      const boost = RANKING.bridge * Math.min(st.score[first]!, st.score[second]!) * (unasked(d) || side[d] === 1 ? RANKING.auxiliary : 1);
      boosts.push([d, boost, `bridge between ${data.docs[first]!.name} and ${data.docs[second]!.name}`]);
    }
  }
  boosts.sort((x, y) => x[0] - y[0]);
  for (const [d, boost, text] of boosts) {
    st.touch(d);
    st.score[d]! += boost;
    pushExtra(st, d, { weight: boost, text });
  }
}

/**
 * A junction row often says *how* its two ends are related through a further FK: a relationship record and its
 * type (`l_artist_recording` → `link` → `link_type`), a role or a kind. A question that needs the junction needs
 * that qualifier too, so for each junction in the answer its targets that are not among the matched ends — code
 * lists, or records shared by several junctions — come along just below it, with their own code lists.
 */
export function addQualifiers(data: IndexData, ranked: number[], limit: number, evidence: ReadonlySet<number>, st: QueryState, allowed: (d: number) => boolean, parsed: ParsedQuery): number[] {
  // The words a question implies by a value it names (`language` of "lyrics in Spanish").
  const implied: Array<{ term: string; bit: number }> = [];
  if (RANKING.impliedQualifiers > 0) {
    for (const t of parsed.terms) {
      const i = t.implied === true ? st.wordPieces.get(t.surface) : undefined;
      if (i !== undefined) implied.push({ term: t.term, bit: pieceBit(i) });
    }
  }
  // …where the code list is named by that word (`language`), not a date or a history every table may hold.
  const namedByImplied = (t: number): boolean => implied.some((w) => data.docs[t]!.nameStems.includes(w.term) && (st.evidenceBits[t]! & w.bit) !== 0);
  const boosts: Array<[number, number, string]> = [];
  const offer = (d: number, value: number, text: string): void => {
    if (allowed(d) && st.score[d]! < value) boosts.push([d, value, text]);
  };
  for (const b of ranked.slice(0, Math.max(1, limit) - 1)) {
    const bd = data.docs[b]!;
    if (!bd.isBridge) continue;
    const base = st.score[b]!;
    const outs = data.edges[b]!.filter((e) => e.outgoing && e.to !== b);
    // Only a junction one of whose ends the question reached: otherwise it is a guess of its own.
    if (!outs.some((e) => evidence.has(e.to))) continue;
    // Of a junction of three keys, the one to the record most junctions share (`link`, not `artist`) is its qualifier
    // even where a word of the question grazed that record; other matched ends are no qualifiers.
    const third = outs.length > 2 ? outs.reduce((a, e) => (junctionsAt(data, e.to) > junctionsAt(data, a.to) ? e : a)).to : -1;
    for (const e of outs) {
      const t = e.to;
      const td = data.docs[t]!;
      const record = isQualifierRecord(data, t);
      // A code list the question reached only by a word a value implies is still the junction's qualifier.
      if (evidence.has(t) && !(record && t === third) && !(td.role === 'lookup' && namedByImplied(t))) continue;
      if (td.role !== 'lookup' && !record) continue;
      // A junction with a name of its own (`release`, between its credit and its group) is a thing: its code lists are
      // its attributes, which come along only when they may hold a word of the question (st.guesses).
      if (RANKING.namedQualifiers > 0 && !record && !st.guesses.has(t) && bd.hasName) continue;
      offer(t, RANKING.qualifier * base, `qualifies ${bd.name}`);
      for (const e2 of data.edges[t]!) {
        if (e2.outgoing && e2.to !== t && data.docs[e2.to]!.role === 'lookup') offer(e2.to, RANKING.qualifier * 0.95 * base, `type of ${td.name}, qualifies ${bd.name}`);
      }
    }
  }
  return applyRaises(data, ranked, boosts, st);
}

/**
 * A part is read with the whole it belongs to: a table whose FK points at a table named like itself less its last
 * word (`order_line` → `order`, `salesorderdetail` → `salesorderheader`, `release_country` → `release`) brings that
 * parent along just below it, where dates, owners and status of the whole usually live.
 */
export function addParents(data: IndexData, ranked: number[], limit: number, unasked: (d: number) => boolean, st: QueryState, allowed: (d: number) => boolean): number[] {
  const boosts: Array<[number, number, string]> = [];
  const answer = ranked.slice(0, Math.max(1, limit) - 1);
  for (const c of answer) {
    const cd = data.docs[c]!;
    // An auxiliary table the question asks for ("aliases") is read with the entity it shadows (`artist_alias` → `artist`).
    if (cd.role === 'lookup' || (cd.role === 'auxiliary' && unasked(c))) continue;
    for (const e of data.edges[c]!) {
      if (!e.outgoing || e.to === c || !allowed(e.to)) continue;
      const pd = data.docs[e.to]!;
      if (!isWholeOf(pd, cd)) continue;
      const value = RANKING.parent * st.score[c]!;
      if (st.score[e.to]! < value) boosts.push([e.to, value, `the ${pd.name} that ${cd.name} belongs to`]);
    }
  }
  for (const c of answer) addNamers(data, c, st, allowed, boosts);
  return applyRaises(data, ranked, boosts, st);
}

/**
 * A junction the question's words reached stands for a relationship between its ends, and an answer needs those ends
 * to name what it relates (`recording_tag` for "tags on Burial's tunes" needs `recording`; `personphone` for "Ken
 * Sánchez's phone number" needs `person`; `release_label` needs `release`, a junction that names its rows). Each end
 * that is a thing (isThing) of a junction in the answer rises to `junctionEnd` of it,
 * but no higher than just below the `junctionEndAfter`-th table: the tables the words found first keep their places,
 * and the ends fill the rest of the answer.
 */
export function addJunctionEnds(data: IndexData, ranked: number[], lexical: ReadonlySet<number>, st: QueryState, allowed: (d: number) => boolean, parsed: ParsedQuery): number[] {
  // Whether the question is about people or places at all: one asked about ("who", "where", "customers"), named, or a
  // title or a word no dictionary or catalog knows, which may name someone ("radiohead ok computer barcode").
  const asked = !(RANKING.thingEndsAsked > 0);
  const unknownName = parsed.terms.some((t) => !t.part && t.surface.length >= 4 && /^[a-z]+$/.test(t.surface) && !knownWord(t.surface, data.vocab) && !isCatalogTerm(data, t.surface));
  const people = asked || parsed.asksPerson || parsed.personNouns.length > 0 || parsed.mentions.some((m) => m.kind === 'person') || parsed.titles.length > 0 || unknownName;
  const places = asked || parsed.asksPlace || parsed.placeNouns.length > 0 || parsed.mentions.some((m) => m.kind === 'place');
  const boosts: Array<[number, number, string]> = [];
  const named = new Set(parsed.terms.filter((t) => t.implied !== true).map((t) => t.term));
  // Views come after the tables in the end (placeViews): the place counts tables only.
  let cap = Infinity;
  for (let i = 0, tables = 0; i < ranked.length; i++) {
    if (data.docs[ranked[i]!]!.derived || ++tables < RANKING.junctionEndAfter) continue;
    cap = RANKING.junctionEndCap * st.score[ranked[i]!]!;
    break;
  }
  for (const b of ranked.slice(0, RANKING.junctionEndTop)) {
    const bd = data.docs[b]!;
    if (!bd.isBridge || !lexical.has(b)) continue;
    // A junction other tables point at is a thing of its own (a copy on a shelf, an edition): its keys are what it is
    // of, not what a question about it relates, except the people and places it names, when the question is about
    // people or places.
    const thing = RANKING.thingEnds > 0 && data.edges[b]!.some((e) => !e.outgoing && e.to !== b);
    const value = Math.min(RANKING.junctionEnd * st.score[b]!, cap);
    for (const e of data.edges[b]!) {
      // A vocabulary the whole catalog shares, which the question names ("release groups tagged cumbia": `tag`), holds
      // the words the junction gives its rows.
      const sharedNamed = RANKING.namedShared > 0 && isSharedVocabulary(data, e.to) && data.docs[e.to]!.nameStems.every((w) => named.has(w));
      if (!e.outgoing || e.to === b || !allowed(e.to) || !(sharedNamed || (RANKING.namedEnds > 0 ? isThing(data, e.to) : data.docs[e.to]!.role === 'entity')) || isBareSupertype(data, e.to)) continue;
      if (thing && !(people && data.personTable[e.to] > 0) && !(places && data.placeTable[e.to] > 0)) continue;
      // An end reached only through a key of another junction (`salesorderdetail` → `specialofferproduct` →
      // `specialoffer`) is what that junction relates, not this one: only where the question's words reach it.
      if (RANKING.impliedEnds > 0 && e.implied !== undefined && !lexical.has(e.to)) continue;
      if (st.score[e.to]! < value) boosts.push([e.to, value, `what ${bd.name} relates`]);
    }
  }
  return applyRaises(data, ranked, boosts, st);
}

/**
 * People named elsewhere: a table whose name is a kind of person (`salesperson`, `employee`, `customer`) but which is
 * not the catalog's strongest record of people it points at (`person`, with first and last names) keeps their names
 * there. When the answer names them ("top 5 sales reps", "which employee", "night shift employees": anything but a
 * count), that table rises just below the people it names. So does the one named thing that the best table's unnamed
 * rows point at (RANKING.itemNames).
 */
export function addNameHolders(data: IndexData, ranked: number[], st: QueryState, allowed: (d: number) => boolean): number[] {
  const boosts: Array<[number, number, string]> = [];
  const leading = leadingTables(data, ranked, Math.max(1, RANKING.nameHolderTop));
  // The rows of the best table name nothing themselves: "what's still in the carts" lists the products they point at.
  const best = leading[0];
  if (RANKING.itemNames > 0 && best !== undefined && !data.docs[best]!.hasName && !data.docs[best]!.isBridge) {
    // Things, not people: the names of people have rules of their own (the loop below, addMentionPaths).
    const named = new Set(data.edges[best]!.filter((e) => e.outgoing && e.to !== best && allowed(e.to) && data.docs[e.to]!.role === 'entity' && data.docs[e.to]!.hasName && !(data.personTable[e.to]! > 0)).map((e) => e.to));
    const value = RANKING.itemNames * st.score[best]!;
    const [thing] = named;
    if (named.size === 1 && st.score[thing!]! < value) boosts.push([thing!, value, `holds the names of what ${data.docs[best]!.name} lists`]);
  }
  for (const c of leading.slice(0, RANKING.nameHolderTop)) {
    const cd = data.docs[c]!;
    const head = cd.nameParts[cd.nameParts.length - 1];
    if (cd.role !== 'entity' || head === undefined || !data.lexicon.isFirstPerson(head) || cd.hasName) continue;
    const holder = nameHolder(data, c, allowed);
    if (holder < 0 || !data.docs[holder]!.hasName) continue;
    const value = RANKING.nameHolder * st.score[c]!;
    if (st.score[holder]! < value) boosts.push([holder, value, `holds the names of ${cd.name}`]);
  }
  return applyRaises(data, ranked, boosts, st);
}

/** The strongest table of people that `d` points at within two FK steps, when stronger than `d` itself; -1 if none. */
function nameHolder(data: IndexData, d: number, allowed: (d: number) => boolean): number {
  let best = -1;
  let bestStrength = data.personTable[d]!;
  const visit = (x: number, depth: number): void => {
    for (const e of data.edges[x]!) {
      if (!e.outgoing || e.to === d || e.to === x || !allowed(e.to)) continue;
      const s = data.personTable[e.to]!;
      if (s > bestStrength) {
        best = e.to;
        bestStrength = s;
      }
      if (depth < 2) visit(e.to, depth + 1);
    }
  };
  visit(d, 1);
  return best;
}

/**
 * A title in the question ("the ISWC of Yesterday", "the catalogue number of Kind of Blue", "employees in Sales")
 * names a row of a table with a name or title column. When a top hit has none (`iswc`, `release_label`,
 * `employee`), the title is in a table it points at that has one (`work`, `release`, `label`), directly or behind a
 * junction (`department`): those rise just below it.
 */
export function addTitleHolders(data: IndexData, ranked: number[], parsed: ParsedQuery, st: QueryState, allowed: (d: number) => boolean): number[] {
  const titles = parsed.titles;
  const boosts: Array<[number, number, string]> = [];
  const label = `'${titles[0]!}'`;
  const offer = (c: number, p: number, share: number): void => {
    if (p === c || !allowed(p)) return;
    const pd = data.docs[p]!;
    if (pd.role !== 'entity' || !pd.hasName) return;
    const value = share * st.score[c]!;
    if (st.score[p]! < value) boosts.push([p, value, `holds names, for ${label}`]);
  };
  const whole = RANKING.partWholes > 0 ? parsed.wholes[0] : undefined;
  // With no title, only a name that issued something (parsed.issuers) is here.
  for (const c of leadingTables(data, ranked, titles.length > 0 ? RANKING.titleTop : 0)) {
    const cd = data.docs[c]!;
    // A part kept in order (`track` by position) is named by the whole it belongs to: "the tracks on Mezzanine".
    if (whole !== undefined && isOrderedPart(data, c)) {
      const chain = wholesOf(data, c, allowed);
      const last = chain.length - 1;
      chain.forEach((w, i) => {
        // The whole first, the tables on the way up just below it.
        const value = RANKING.titleHolder * st.score[c]! * (i < last ? 0.99 : 1);
        const why = i < last ? `joins ${cd.name} to ${data.docs[chain[last]!]!.name}, for '${whole}'` : `the whole ${cd.name} is part of, for '${whole}'`;
        if (st.score[w]! < value) boosts.push([w, value, why]);
      });
      continue;
    }
    if (cd.hasName || (RANKING.titleSkipsQualifiers > 0 && isQualifierRecord(data, c))) continue;
    for (const e of data.edges[c]!) {
      if (e.outgoing) offer(c, e.to, RANKING.titleHolder);
      // Behind a junction that points at the hit (`employee` ← `employeedepartmenthistory` → `department`).
      else if (e.to !== c && data.docs[e.to]!.role === 'bridge') {
        for (const e2 of data.edges[e.to]!) if (e2.outgoing && e2.to !== e.to) offer(c, e2.to, RANKING.titleHolder * 0.95);
      }
    }
  }
  // A title someone is credited on ("the mastering engineer on Stereolab's Dots and Loops") names a whole that parts
  // are kept in: the catalog's main such whole (`release`, which `track` and `medium` lead up to) holds it.
  const credited = (): boolean => parsed.roleVerbs.length > 0 || parsed.jobTitles.length > 0 || parsed.terms.some((t) => !t.part && data.lexicon.isRole(t.surface));
  // …and so does any title of a question about who produced a record ("who produced Nevermind", "Opeth's Ghost
  // Reveries: who mixed it"), where no title follows "on": producing, engineering, mixing and mastering are done to a
  // whole record, where writing is done to a song and playing to a recording.
  const onTitle = parsed.onTitles[0] ?? (RANKING.titleWholesAny > 0 && producedWhole(data, parsed) ? parsed.titles.find((t) => !parsed.jobTitles.includes(t)) : undefined);
  if (RANKING.titleWholes > 0 && onTitle !== undefined && ranked.length > 0 && credited()) {
    const main = mainWhole(data, allowed);
    const lead = ranked[0]!;
    if (main >= 0 && main !== lead) {
      const value = RANKING.titleHolder * RANKING.titleWholes * st.score[lead]!;
      if (st.score[main]! < value) boosts.push([main, value, `holds the title of a whole, for '${onTitle}'`]);
      // Who is credited on it: the typed relationship of the whole with the catalog's people (`l_artist_release`).
      const credit = RANKING.titleCredits > 0 ? creditJunction(data, main, allowed) : -1;
      if (credit >= 0 && st.score[credit]! < value * RANKING.titleCredits) boosts.push([credit, value * RANKING.titleCredits, `credits people on the whole, for '${onTitle}'`]);
    }
  }
  // The named tables behind a junction of c's own that is no typed relationship, raised to `value` as who issued it.
  const offerIssuers = (c: number, value: number, name: string): void => {
    for (const e of data.edges[c]!) {
      const j = e.to;
      if (e.outgoing || j === c || !data.docs[j]!.isBridge || data.docs[j]!.role === 'auxiliary' || isTypedRelationship(data, j) || !allowed(j)) continue;
      for (const e2 of data.edges[j]!) {
        const p = e2.to;
        if (!e2.outgoing || p === c || p === j || !allowed(p) || !data.docs[p]!.hasName || data.docs[p]!.role !== 'entity') continue;
        if (st.score[p]! < value) boosts.push([p, value, `holds who issued it, for '${name}'`]);
        if (st.score[j]! < value * 0.99) boosts.push([j, value * 0.99, `joins ${data.docs[c]!.name} to ${data.docs[p]!.name}, for '${name}'`]);
      }
    }
  };
  // A title something came out on ("cassettes released on Touch and Go") names who put it out: the named table behind
  // a junction of the leading named table's own (`release` ← `release_label` → `label`), not a typed relationship.
  const issuedOn = parsed.issuedOn[0];
  if (RANKING.titleIssuers > 0 && issuedOn !== undefined && ranked.length > 0) {
    for (const c of leadingTables(data, ranked, 1)) if (data.docs[c]!.hasName) offerIssuers(c, RANKING.titleHolder * RANKING.titleIssuers * st.score[c]!, issuedOn);
  }
  // A name that issued what the word before it names ("releases did Warp put out"): that word's table, by its name or a
  // thesaurus synonym's, and who issued its rows (the people tables keep their own score: the name may be who made them).
  if (RANKING.nameIssuers > 0) {
    for (const { name, thing } of parsed.issuers) {
      // The word before the name, else a word the question asks for ("releases per year did Warp put out").
      const c = [thing, ...parsed.focus]
        .map((w) => {
          const term = stem(w);
          const synonyms = thesaurusConcepts(data, w);
          return ranked.find((d) => data.docs[d]!.role !== 'lookup' && data.docs[d]!.role !== 'auxiliary' && data.docs[d]!.hasName && namedByNoun(data, data.docs[d]!, term, synonyms));
        })
        .find((d) => d !== undefined);
      if (c !== undefined) offerIssuers(c, RANKING.titleHolder * RANKING.nameIssuers * st.score[c]!, name);
    }
  }
  // A title other things are versions of ("every recording of Summertime") names a composition, not one of them: the
  // table named for compositions holds it, with the junction that joins it to a leading table.
  const versionOf = parsed.versionsOf[0];
  if (RANKING.versionWorks > 0 && versionOf !== undefined && ranked.length > 0) {
    const work = compositionTable(data, allowed);
    // The record that types relationships (`link`) is no thing that versions are made of.
    const leads = leadingTables(data, ranked.filter((c) => c !== work && !isTypingRecord(data, c)), RANKING.titleTop);
    if (work >= 0 && leads.length > 0) {
      const value = RANKING.titleHolder * RANKING.versionWorks * st.score[leads[0]!]!;
      if (st.score[work]! < value) boosts.push([work, value, `holds what the others are versions of, for '${versionOf}'`]);
      for (const c of leads) {
        for (const e of data.edges[work]!) {
          const j = e.to;
          if (e.outgoing || j === work || !allowed(j) || !data.docs[j]!.isBridge || !data.edges[j]!.some((x) => x.outgoing && x.to === c)) continue;
          if (st.score[j]! < value * 0.99) boosts.push([j, value * 0.99, `joins ${data.docs[c]!.name} to ${data.docs[work]!.name}, for '${versionOf}'`]);
        }
      }
    }
  }
  return applyRaises(data, ranked, boosts, st);
}

/**
 * A thing kept in a whole by an ordered part of its own (`recording` ← `track` → `medium` → `release`), with that whole
 * in the answer too: the rows of the two belong together through the parts, so the part and the tables on the way up
 * rise to `partChains` of the weaker of the two, as a join path does (a relationship of its own between the two, such
 * as `l_recording_release`, is another fact about them).
 */
export function addPartChains(data: IndexData, ranked: number[], limit: number, lexical: ReadonlySet<number>, st: QueryState, allowed: (d: number) => boolean): number[] {
  const top = ranked.slice(0, limit);
  const boosts: Array<[number, number, string]> = [];
  for (const c of top) {
    if (isOrderedPart(data, c) || !data.docs[c]!.hasName || !lexical.has(c)) continue;
    const parts = [...new Set(data.edges[c]!.filter((e) => !e.outgoing && e.to !== c && allowed(e.to) && isOrderedPart(data, e.to)).map((e) => e.to))];
    for (const part of parts) {
      const chain = wholesOf(data, part, allowed);
      const whole = chain[chain.length - 1];
      if (whole === undefined || whole === c || !top.includes(whole) || !lexical.has(whole)) continue;
      const value = RANKING.partChains * Math.min(st.score[c]!, st.score[whole]!);
      for (const w of [part, ...chain.slice(0, -1)]) if (st.score[w]! < value) boosts.push([w, value, `joins ${data.docs[c]!.name} to ${data.docs[whole]!.name}, the whole it is kept in`]);
    }
  }
  return applyRaises(data, ranked, boosts, st);
}

/**
 * A named person or place ("Radiohead's albums", "German labels") is a row of the table of people or places that the
 * tables the question is about lead to: for each of the `mentionTop` best answer tables that is not of that kind,
 * the shortest FK path (up to `pathMaxHops` edges) to the nearest of the catalog's strongest tables of that kind
 * rises to `mentionPath` of it (`release` → `artist_credit` → `artist_credit_name` → `artist`; `label` → `area`).
 */
export function addMentionPaths(data: IndexData, ranked: number[], limit: number, mention: Mention, unasked: (d: number) => boolean, st: QueryState, allowed: (d: number) => boolean): number[] {
  const { docs, strength } = holdersOf(data, mention.kind);
  let strongest = 0;
  for (let i = 0; i < docs.length; i++) if (allowed(docs[i]!)) strongest = Math.max(strongest, strength[docs[i]!]!);
  if (strongest === 0) return ranked;
  // Rows that others point at: a place where something is (`address`, `area`), not a leaf about one row (`emailaddress`).
  const holders = new Set<number>();
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    if (allowed(d) && strength[d]! >= strongest && data.edges[d]!.some((e) => !e.outgoing && e.to !== d)) holders.add(d);
  }
  const boosts: Array<[number, number, string]> = [];
  for (const c of leadingTables(data, ranked.slice(0, limit), RANKING.mentionTop)) {
    const cd = data.docs[c]!;
    if (strength[c]! >= strongest) continue;
    // The people or places a row names itself, through its own FK (`release.artist_credit`), before those a separate
    // relationship links to it (`l_artist_release`); among equal paths, the one through tables that hold them too.
    const path = pathToAny(data, c, holders, allowed, st, true, strength) ?? pathToAny(data, c, holders, allowed, st, false, strength);
    if (path === null) continue;
    const target = RANKING.mentionPath * st.score[c]!;
    const end = data.docs[path[path.length - 1]!]!.name;
    for (let i = 1; i < path.length; i++) {
      const mid = path[i]!;
      if (i < path.length - 1 && passedOnKey(data, path, i)) continue;
      const value = unasked(mid) ? RANKING.auxiliary * target : target;
      if (st.score[mid]! < value) boosts.push([mid, value, `leads from ${cd.name} to ${end}, which holds ${mention.kind === 'person' ? 'people' : 'places'}, for '${mention.text}'`]);
    }
  }
  return applyRaises(data, ranked, boosts, st);
}

/**
 * A place the dictionary knows the level of ("Oregon", a state) is found by its name in the table named for that level
 * (`stateprovince`). Where the answer holds places that point at that table (`address`) but not the table itself, it
 * rises just below the best of them (RANKING.levelTable). A country, a region or a continent is left out: held by so
 * many tables (or named like a sales territory: "the Southeast"), its level says little.
 */
export function addLevelTable(data: IndexData, ranked: number[], limit: number, mention: Mention, st: QueryState, allowed: (d: number) => boolean): number[] {
  if (data.lexicon.placeLevels(mention.text).some((l) => l === 'country' || l === 'region' || l === 'continent')) return ranked;
  const level = levelWords(data, mention.text);
  if (level === null) return ranked;
  const top = ranked.slice(0, limit);
  const { strength } = holdersOf(data, 'place');
  for (const h of top) {
    if (strength[h]! <= 0) continue;
    const at = data.edges[h]!.find((e) => e.outgoing && e.to !== h && allowed(e.to) && strength[e.to]! > 0 && data.docs[e.to]!.nameParts.some((w) => level.has(w)));
    if (at === undefined) continue;
    if (top.includes(at.to)) return ranked;
    return applyRaises(data, ranked, [[at.to, RANKING.levelTable * st.score[h]!, `names the ${[...level][0]} of ${data.docs[h]!.name}, for '${mention.text}'`]], st);
  }
  return ranked;
}

/**
 * Places of one kind within a named place of another ("German cities", "cities in Australia"): the table of places
 * in the answer has its places within places in a junction of its own, both of whose keys point at it and nothing
 * else (MusicBrainz `area_containment`, not the typed `l_area_area`); it rises to `containment` of the best such table.
 */
export function addContainment(data: IndexData, ranked: number[], limit: number, mention: Mention, noun: string, st: QueryState, allowed: (d: number) => boolean): number[] {
  // Only a noun of a level of places ("studios in Nashville" are premises); the same level both ways ("cities like
  // Paris") asks for no containment.
  const lemma = data.lexicon.lemma(noun);
  if (!PLACE_LEVEL_NOUNS.has(lemma)) return ranked;
  const levels = levelWords(data, mention.text);
  if (levels !== null && levels.has(lemma)) return ranked;
  const boosts: Array<[number, number, string]> = [];
  for (const h of ranked.slice(0, limit)) {
    if (data.placeTable[h]! <= 0 || data.docs[h]!.role !== 'entity') continue;
    for (const e of data.edges[h]!) {
      const j = e.to;
      if (e.outgoing || j === h || !allowed(j)) continue;
      const outs = data.edges[j]!.filter((x) => x.outgoing && x.to !== j);
      if (outs.length < 2 || outs.some((x) => x.to !== h)) continue;
      const value = RANKING.containment * st.score[h]!;
      if (st.score[j]! < value) boosts.push([j, value, `places within places of ${data.docs[h]!.name}, for '${noun}' of '${mention.text}'`]);
    }
    // The best table of places that has such a junction.
    if (boosts.length > 0) break;
  }
  return applyRaises(data, ranked, boosts, st);
}

/**
 * The rows a question asks for ("which artists …", "what labels …", "how many customers …") come from the table named
 * by that noun, even when tables that share more of the question's words outrank it (`artist_release` for "which
 * artists … releases"): a table whose whole name is the asked-for noun rises to the score of the `focusRank`-th hit.
 * A noun the catalog never writes ("which choirs") asks for the rows of a candidate whose one-word name is a thesaurus
 * synonym of it (`artist`).
 */
export function addFocusTables(data: IndexData, ranked: number[], parsed: ParsedQuery, st: QueryState, allowed: (d: number) => boolean): { ranked: number[]; asked: number[] } {
  if (parsed.focus.length === 0 || ranked.length === 0) return { ranked, asked: [] };
  // In the source of the best hit: a catalog of several databases has a `customers` in each.
  const source = data.docs[ranked[0]!]!.source;
  const value = focusValue(ranked, st);
  const boosts: Array<[number, number, string]> = [];
  // Every table found to be the rows asked for, raised or already above the focus score.
  const asked: number[] = [];
  const take = (d: number, text: string): void => {
    if (!asked.includes(d)) asked.push(d);
    if (st.score[d]! < value) boosts.push([d, value, text]);
  };
  const { termIds } = data.postings;
  for (const word of parsed.focus) {
    const t = stem(word);
    const id = termIds.get(t);
    if (id !== undefined) {
      // An entity or a code list ("Rank genres by …": the rows are the list's) whose whole name is the noun, or a table
      // of keys named so (AdventureWorks `customer`: a person or a store in a territory).
      const before = asked.length;
      for (const d of nameDocs(data, t)) {
        const dd = data.docs[d]!;
        const kind = dd.role === 'entity' || dd.role === 'lookup' || (RANKING.focusBridges > 0 && dd.role === 'bridge');
        if (!allowed(d) || dd.source !== source || !kind || dd.nameStems.length !== 1 || dd.nameStems[0] !== t) continue;
        take(d, `the rows asked for ('${word}')`);
      }
      // A noun the catalog writes only inside other words or in columns ("shops", of `shoppingcartitem`) names no table
      // by itself: a thesaurus synonym may (below).
      if (asked.length > before || !(RANKING.focusUnnamed > 0) || wholeNameStems(data).has(t)) continue;
    }
    // A run-together noun the catalog writes apart or together with its own spelling ("which salespeople": `salesperson`,
    // sales + person): the table whose name is those pieces, in that order.
    const whole = parsed.terms.find((x) => !x.part && x.surface === word);
    const pieces = whole === undefined ? [] : parsed.terms.filter((x) => x.part && x.position === whole.position).map((x) => x.term);
    if (pieces.length >= 2) {
      const before = asked.length;
      for (const d of ranked) {
        const dd = data.docs[d]!;
        if (!allowed(d) || dd.source !== source || dd.role !== 'entity' || dd.nameParts.length !== pieces.length) continue;
        if (partStems(data, d).every((w, k) => w === pieces[k])) take(d, `the rows asked for ('${word}')`);
      }
      if (asked.length > before) continue;
    }
    // A noun the catalog never writes ("which choirs", "what festivals"): the candidate named by a thesaurus synonym.
    const synonyms = thesaurusConcepts(data, word);
    if (synonyms.size === 0) continue;
    for (const d of ranked) {
      const dd = data.docs[d]!;
      // A junction with a name of its own is a thing too (AdventureWorks `store`, a business with a salesperson).
      const thing = dd.role === 'entity' || (RANKING.focusUnnamed > 0 && isThing(data, d));
      if (!allowed(d) || dd.source !== source || !thing || dd.nameWords.length !== 1) continue;
      if (namedByNoun(data, dd, t, synonyms)) take(d, `the rows asked for ('${word}', as ${dd.name})`);
    }
  }
  return { ranked: applyRaises(data, ranked, boosts, st), asked };
}

/**
 * An attribute asked of the leading rows that their table does not hold ("albums from the 70s": MusicBrainz `release`
 * has no date) lives in a table of their own: one that points at them and whose name starts with theirs
 * (`release_country.date_year`, `recording_first_release_date.year`). The best such table for each word rises to
 * `attributeHome` of the entity's score.
 */
export function addAttributeHomes(data: IndexData, ranked: number[], parsed: ParsedQuery, mentionWords: ReadonlySet<string>, st: QueryState, allowed: (d: number) => boolean): number[] {
  // "Number of events" counts the events: no column holds that number.
  const words = parsed.terms.filter((t) => !t.part && !mentionWords.has(t.surface) && !parsed.properWords.has(t.surface) && !(RANKING.countWords > 0 && parsed.countWords.includes(t.surface)));
  if (words.length === 0) return ranked;
  const boosts: Array<[number, number, string]> = [];
  // What names each word in a column: the word itself and its thesaurus concepts, once for every table looked at.
  const keys = new Map(words.map((t) => [t, [t.term, ...(RANKING.attributeSynonyms > 0 ? wordConcepts(data, parsed, t).filter(isThesaurusConcept) : [])]]));
  const named = (t: ParsedQuery['terms'][number], cols: ReadonlySet<string>): boolean => keys.get(t)!.some((k) => cols.has(k));
  const leaders = ranked.slice(0, RANKING.attributeTop).filter((f) => data.docs[f]!.role === 'entity' || data.docs[f]!.role === 'bridge');
  for (const f of leaders) {
    const fd = data.docs[f]!;
    const own = columnWords(data, f);
    const asked = words.filter((t) => !named(t, own) && !fd.nameStems.includes(t.term));
    if (asked.length === 0) continue;
    const best = new Map<string, number>();
    // A code list the leading table points at by a column the question names ("and packaging": `release.packaging` →
    // `release_packaging`): the list holds what that column's value reads as.
    if (RANKING.attributeLookups > 0) {
      for (const e of data.edges[f]!) {
        const c = e.to;
        if (!e.outgoing || c === f || e.implied !== undefined || !allowed(c) || data.docs[c]!.role !== 'lookup') continue;
        const cols = new Set(e.fromColumns.flatMap((n) => cachedTerms(data.termCache, data.vocab, n).map((t) => t.term)).filter((t) => t !== 'id' && !fd.nameStems.includes(t)));
        const t = asked.find((q) => cols.has(q.term));
        if (t !== undefined && !best.has(t.surface)) best.set(t.surface, c);
      }
    }
    for (const e of data.edges[f]!) {
      const c = e.to;
      if (e.outgoing || c === f || !allowed(c)) continue;
      const cd = data.docs[c]!;
      if (!isOwnTable(fd, cd)) continue;
      const cols = columnWords(data, c);
      for (const t of asked) {
        if (!named(t, cols)) continue;
        const prev = best.get(t.surface);
        if (prev === undefined || st.score[c]! > st.score[prev]!) best.set(t.surface, c);
      }
    }
    // "When did it come out": a time of the rows, kept in a table of their own when theirs holds none (a release's
    // dates per country).
    if (RANKING.askedTime > 0 && parsed.asksTime && !best.has('when') && timeColumns(data, f) === 0) {
      // The table whose columns hold most of a time (a date in its year, month and day parts: when it happened) rather
      // than one stamp (`date_added`: when the row was written); then the stronger, then the first.
      let home = -1;
      let most = 0;
      for (const e of data.edges[f]!) {
        const c = e.to;
        if (e.outgoing || c === f || !allowed(c) || !isOwnTable(fd, data.docs[c]!)) continue;
        const n = timeColumns(data, c);
        if (n > 0 && (n > most || (n === most && (st.score[c]! > st.score[home]! || (st.score[c]! === st.score[home]! && data.order[c]! < data.order[home]!))))) {
          home = c;
          most = n;
        }
      }
      if (home >= 0) best.set('when', home);
    }
    for (const [w, c] of best) boosts.push([c, st.score[f]! * RANKING.attributeHome, `holds the '${w}' of ${fd.name}`]);
  }
  return applyRaises(data, ranked, boosts, st);
}

/** The score the rows asked for rise to: that of the `focusRank`-th hit (of the last, when fewer). `ranked` is not empty. */
function focusValue(ranked: readonly number[], st: QueryState): number {
  return st.score[ranked[Math.min(RANKING.focusRank, ranked.length) - 1]!]!;
}

/** focusValue when `word` is the noun asked for, else undefined. */
export function focusScore(ranked: readonly number[], parsed: ParsedQuery, word: string, st: QueryState): number | undefined {
  return parsed.focus.includes(word) && ranked.length > 0 ? focusValue(ranked, st) : undefined;
}

/**
 * A subset table names its rows in the table it extends (`country_area` → `area`): the names come along with it, or
 * with an answer table `c` that points at it (`release_country.country`).
 */
function addNamers(data: IndexData, c: number, st: QueryState, allowed: (d: number) => boolean, boosts: Array<[number, number, string]>): void {
  const offer = (x: number, via: string): void => {
    const y = subsetOf(data, x);
    if (y < 0 || y === c || !allowed(y)) return;
    const value = RANKING.parent * st.score[c]!;
    if (st.score[y]! < value) boosts.push([y, value, `names the rows of ${via}`]);
  };
  offer(c, data.docs[c]!.name);
  for (const e of data.edges[c]!) if (e.outgoing && e.to !== c) offer(e.to, `${data.docs[c]!.name}.${e.fromColumns.join(', ')}`);
}

/**
 * Views follow the relations they are computed from: a view the question does not name ranks after every relation it
 * reads that is in the answer (`sales_by_store` after `inventory`, `customer_list` after `customer`). A view sums up
 * its relations; it does not take their place, nor that of any other table the question reached (`sales_by_film_category`
 * does not push out the `staff` who took the payments): it fills the places the tables leave.
 */
export function placeViews(data: IndexData, ranked: number[], limit: number, queryTerms: ReadonlySet<string>, st: QueryState): number[] {
  let changed = false;
  // An unnamed view comes after every table the question reached, not only after its own relations.
  let floor = Infinity;
  for (const d of ranked) if (!data.docs[d]!.derived && st.score[d]! > 0) floor = Math.min(floor, st.score[d]!);
  for (const v of ranked.slice(0, 2 * Math.max(1, limit))) {
    const doc = data.docs[v]!;
    if (!doc.derived || isMirror(doc) || doc.nameStems.every((w) => w.length < 3 || queryTerms.has(w))) continue;
    let cap = Infinity;
    for (const b of viewBases(data, v)) if (st.score[b]! > 0) cap = Math.min(cap, st.score[b]!);
    cap = Math.min(cap, floor);
    if (cap === Infinity || st.score[v]! < cap) continue;
    st.score[v] = cap * 0.99;
    changed = true;
  }
  return changed ? topCandidates(data, st, RANKING.candidates) : ranked;
}

/**
 * Tables kept beside the model (standsApart, copiesNames) and the bare shared key of subtypes (isBareSupertype), which
 * the question does not name, come after every other table it reached, as views do (placeViews): they fill the places
 * the tables leave. Their copies of names and words, or a comment that names the subtypes, would otherwise win places
 * on every question about the things they copy or stand for (`artist_release` on "releases by an artist",
 * `businessentity` on "vendors").
 */
export function placeApart(data: IndexData, ranked: number[], limit: number, queryTerms: ReadonlySet<string>, st: QueryState): number[] {
  const apart = new Set(ranked.filter((d) => ((RANKING.apart < 1 && standsApart(data, d)) || (RANKING.copies > 0 && copiesNames(data, d)) || (RANKING.bareApart > 0 && isBareSupertype(data, d))) && !namesOwnWord(data, d, queryTerms)));
  if (apart.size === 0) return ranked;
  let floor = Infinity;
  for (const d of ranked) if (!data.docs[d]!.derived && st.score[d]! > 0 && !apart.has(d)) floor = Math.min(floor, st.score[d]!);
  let changed = false;
  for (const d of ranked.slice(0, 2 * Math.max(1, limit))) {
    if (floor === Infinity || st.score[d]! < floor || !apart.has(d)) continue;
    st.score[d] = floor * 0.99;
    changed = true;
  }
  return changed ? topCandidates(data, st, RANKING.candidates) : ranked;
}
