/**
 * The format of a persisted search index (serialize.ts), in a module of its own so that the unchanged re-index
 * (core/indexing/unchanged.ts, part of the small CLI bundle) can name it without loading the search code.
 *
 * Bump when the tokeniser, the BM25F constants, the frame or the layout change: old bytes then fail to load, and the
 * next index run re-reads the source and writes the index again (the digest it records names the format).
 * v5: the header carries the frame ready to use and the stamp of the catalog it belongs to.
 * v6: a code list's labels (ColumnInfo.codeValues) enter the value index.
 * v7: phrasal verbs, instruction words inside identifiers. v8: places and people in run-together names and domain
 * types, names kept about people. v9: thesaurus concept ids no longer share their spelling with WordNet's;
 * a thesaurus word keeps a WordNet place sense only with a place word in its group. v10: a camel-case word of a
 * comment adds its pieces to the catalog's words, not itself (`SalesOrder` no longer splits `salesorderheader` in
 * two); `-ing`/`-ed` forms drop a consonant only where it is doubled. v11: a word in use only as an adjective or
 * adverb no longer carries the concepts of its unattested noun or verb senses (`quick`, `daily`, `former`); a table of
 * accounts (a password, a last login) holds people less surely, and a place-named table with no text of its own holds
 * places less surely. v12: a view that only renames the columns of one other relation (a mirror) has no postings,
 * values or classes of its own; other views and materialized views have no values or classes of people and places,
 * and the frame says which relations are views. v13: of two splits of a run-together name into as many pieces, the one
 * with more of the catalog's words wins (`rate change date`, not `rate changed ate`); colour names carry the concept of
 * `color`. v14: a singular that ends in s stems like its -es plural (`alias`, `aliases`); a person named for what
 * they do shares a concept with the noun of the doing (`renter`, `rental`); accounts known by a bare user name hold
 * people less surely than accounts with their holders' own names; a table named by a noun whose first sense is no
 * place (`medium`) holds places less surely. v15: the frame keeps the edges a key of several columns implies through
 * a junction's key (`salesorderdetail` → `product` through `specialofferproduct`). v16: the average field lengths of
 * BM25F are those of the tables, not of the views that repeat their columns. v17: the thesaurus groups of web links
 * (`url`) and of following (`subscription`), whose concept terms the stored index holds. v18: a column's comment
 * counts as place evidence only for a column of text; a table that looks like a place but joins no table of places
 * holds places less surely where the source keeps its places linked. v19: a word the dictionary knows is not split into
 * a function word and another (`format` is not `for` + `mat`). v20: the frame says which tables name their rows and
 * which keys make their tables subtypes, so ranking reads no table body to tell. v21: thesaurus groups for a disc (the
 * medium a release comes on), a basket (a cart) and tossing (scrap), whose concept terms the stored index holds and
 * which renumber the groups after them; a column named by a run-together word the dictionary knows whole takes the
 * place sense of the whole (`website` holds no places, though a `site` is one). v22: a single and an EP are
 * releases, a CV is a résumé (thesaurus groups whose concept terms the stored index holds; the new group renumbers
 * the groups after it). v23: a column's name of one word is a word the catalog writes (`setlist`, `owner`): a
 * misspelt word is corrected towards it, and a verb's agent noun after "who" is implied where a column has it. v24:
 * a librettist writes works (thesaurus; concept terms the stored index holds). v25: the phrasal verb `put_out` joined
 * the thesaurus group of labels (taken out again in v27). v26: a label is no tag (the word left the thesaurus group of
 * tags: "albums tagged shoegaze" had reached record labels). v27: `put_out` is no label (see v25). v28: to buy is to order (`buy`, `bought` joined the thesaurus group of orders and
 * purchases: "what did they buy" reaches the order lines). v29: a stock movement is a transaction (`movement` joined the
 * thesaurus group of transactions). v30: a remix is a recording (`remix` joined the thesaurus group of songs). v31: a
 * record company is a label (`record_company`, a pair of nouns the question parser now reads as one word, joined the
 * thesaurus group of labels). v32: a premiere is an event (`premiere` joined the thesaurus group of events). v33: a
 * gerund the thesaurus knows as a word of its own (`recording`) takes none of its verb's dictionary senses either (a
 * `record` that is a history): the concept terms the stored index holds change. v34: a ceremony is an event (`ceremony`
 * joined the thesaurus group of events). v35: the frame says which tables keep their rows in order (a `position`
 * column), so ranking reads no table body to tell. v36: to compose is to make a work (`compose` joined the thesaurus
 * group of works). v37: thesaurus groups for kinds of packaging (a digipak, a jewel case, a slipcase) and for a bootleg as
 * a status, whose concept terms the stored index holds and which renumber the groups after them. v38: an -f noun's -ves
 * plural stems to its singular (`shelves` → `shelf`), and a storeroom is stock (`storeroom` joined the thesaurus group
 * of stock): the stored terms and concept terms change. v39: `po` (a purchase order) and `bom` (a bill of materials) are
 * schema abbreviations, whose expansions a name's terms hold. v40: a login is a password (a thesaurus group whose concept
 * terms the stored index holds, which renumbers the groups after it). v41: standard identifiers are schema abbreviations
 * (`isrc` a recording code, `iswc` a work code, `isbn` a book number…), whose expansions a name's terms hold. v42:
 * the frame lists, per stem of a table name, the tables named with it (IndexFrame.nameDocs), so a first question does
 * not unpack the words of every table that a common word's postings hold. v43: the arrays (postings and the frame's
 * per-doc and per-edge numbers) are binary after the JSON header instead of base64 inside it, and the catalog stores
 * the index as a BLOB. v44: the frame's words are one UTF-8 text of the binary part with per-doc offsets, and its schemas
 * a list of distinct names with a per-doc index, instead of two JSON strings per table. v45: a generated column takes the
 * PII tags of the columns it is computed from (pii/lineage.ts), so it may be left out of the index where it was in it;
 * the new format also makes the next `index` run re-read and re-classify a source indexed before. v46: a column of a
 * relation's row type (`u users`) takes the tags of that relation's columns, and a view's whole-row use written
 * `u.*::text` or a `t.*` item counts as reading every column (pii/lineage.ts); a source indexed before is re-classified.
 * v47: what is derived from a column the operator blocks by name (`column_overrides: … block: true`) is blocked with it,
 * not only tagged with its categories; a source indexed before is re-classified. v48: a column that references a
 * tagged column through a foreign key takes its tags, and a materialized view that reads a view takes the
 * tags of every relation reached through it (pii/lineage.ts); a source indexed before is re-classified.
 */
export const INDEX_FORMAT = 48;
