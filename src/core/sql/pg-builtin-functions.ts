/**
 * PostgreSQL built-in functions (schema pg_catalog) that agent SQL may call: the allow-list of
 * `function-policy.ts`. Generated from PostgreSQL 15's pg_proc, then narrowed by hand:
 *
 *   SELECT DISTINCT proname FROM pg_proc WHERE pronamespace = 'pg_catalog'::regnamespace AND prokind IN ('f','a','w')
 *     AND oid NOT IN (every typinput/typoutput/typreceive/typsend/typmodin/typmodout/typanalyze/typsubscript)
 *     AND NOT 'internal'::regtype = ANY (proargtypes)
 *     AND prorettype NOT IN (internal, trigger, event_trigger and the handler pseudo-types)
 *     AND (provolatile <> 'v' OR proname IN ('random', 'gen_random_uuid', 'clock_timestamp', 'timeofday'))
 *     AND proname !~ '^(pg_|has_|txid_|lo_|binary_upgrade|brin_|gin_|_)'
 *
 * minus server introspection and SQL-in-a-string helpers (current_setting, *_description, *_to_xml*, inet_client_addr/port,
 * inet_server_addr/port, version, to_reg*, acl*, ts_rewrite, format_type, regclass, row_security_active, validators), plus a
 * few harmless pg_* helpers (pg_typeof, pg_column_size, pg_size_pretty, …) and names added in PostgreSQL 16–18 (any_value,
 * random_normal, array_sample, date_add, uuidv7, casefold, …) so newer servers are not refused for ordinary SQL.
 * Volatile functions are absent except the four above: a volatile built-in is either a clock, a random source, or a
 * function with an effect (setseed, nextval, pg_advisory_lock, …). Operator-implementation functions (int4pl,
 * texteq, …) stay: every operator calls them anyway.
 */
export const PG_BUILTIN_ALLOWED_NAMES: ReadonlySet<string> = new Set(
  (
    'abbrev abs acos acosd acosh age any_value anytextcat area array_agg array_append array_cat array_dims ' +
    'array_eq array_fill array_ge array_gt array_larger array_le array_length array_lower array_lt array_ndims ' +
    'array_ne array_position array_positions array_prepend array_remove array_replace array_reverse array_sample ' +
    'array_shuffle array_smaller array_sort array_to_json array_to_string array_to_tsvector array_upper ' +
    'arraycontained arraycontains arrayoverlap ascii asin asind asinh atan atan2 atan2d atand atanh avg bit ' +
    'bit_and bit_count bit_length bit_or bit_xor bitand bitcat bitcmp biteq bitge bitgt bitle bitlt bitne bitnot ' +
    'bitor bitshiftleft bitshiftright bitxor bool bool_and bool_or booland_statefunc booleq boolge boolgt boolle ' +
    'boollt boolne boolor_statefunc bound_box box box_above box_above_eq box_add box_below box_below_eq box_center ' +
    'box_contain box_contain_pt box_contained box_distance box_div box_eq box_ge box_gt box_intersect box_le ' +
    'box_left box_lt box_mul box_overabove box_overbelow box_overlap box_overleft box_overright box_right box_same ' +
    'box_sub bpchar bpchar_larger bpchar_pattern_ge bpchar_pattern_gt bpchar_pattern_le bpchar_pattern_lt ' +
    'bpchar_smaller bpcharcmp bpchareq bpcharge bpchargt bpchariclike bpcharicnlike bpcharicregexeq ' +
    'bpcharicregexne bpcharle bpcharlike bpcharlt bpcharne bpcharnlike bpcharregexeq bpcharregexne broadcast ' +
    'btarraycmp btboolcmp btbpchar_pattern_cmp btcharcmp btequalimage btfloat48cmp btfloat4cmp btfloat84cmp ' +
    'btfloat8cmp btint24cmp btint28cmp btint2cmp btint42cmp btint48cmp btint4cmp btint82cmp btint84cmp btint8cmp ' +
    'btnamecmp btnametextcmp btoidcmp btoidvectorcmp btrecordcmp btrecordimagecmp btrim bttext_pattern_cmp ' +
    'bttextcmp bttextnamecmp bttidcmp btvarstrequalimage byteacat byteacmp byteaeq byteage byteagt byteale ' +
    'bytealike bytealt byteane byteanlike cardinality casefold cash_cmp cash_div_cash cash_div_flt4 cash_div_flt8 ' +
    'cash_div_int2 cash_div_int4 cash_div_int8 cash_eq cash_ge cash_gt cash_le cash_lt cash_mi cash_mul_flt4 ' +
    'cash_mul_flt8 cash_mul_int2 cash_mul_int4 cash_mul_int8 cash_ne cash_pl cash_words cashlarger cashsmaller ' +
    'cbrt ceil ceiling center char char_length character_length chareq charge chargt charle charlt charne chr ' +
    'cideq cidr circle circle_above circle_add_pt circle_below circle_center circle_contain circle_contain_pt ' +
    'circle_contained circle_distance circle_div_pt circle_eq circle_ge circle_gt circle_le circle_left circle_lt ' +
    'circle_mul_pt circle_ne circle_overabove circle_overbelow circle_overlap circle_overleft circle_overright ' +
    'circle_right circle_same circle_sub_pt clock_timestamp close_ls close_lseg close_pb close_pl close_ps ' +
    'close_sb concat concat_ws convert convert_from convert_to corr cos cosd cosh cot cotd count covar_pop ' +
    'covar_samp crc32 crc32c cume_dist current_database current_schema current_schemas date date_add date_bin ' +
    'date_cmp date_cmp_timestamp date_cmp_timestamptz date_eq date_eq_timestamp date_eq_timestamptz date_ge ' +
    'date_ge_timestamp date_ge_timestamptz date_gt date_gt_timestamp date_gt_timestamptz date_larger date_le ' +
    'date_le_timestamp date_le_timestamptz date_lt date_lt_timestamp date_lt_timestamptz date_mi date_mi_interval ' +
    'date_mii date_ne date_ne_timestamp date_ne_timestamptz date_part date_pl_interval date_pli date_smaller ' +
    'date_subtract date_trunc datemultirange daterange daterange_canonical daterange_subdiff datetime_pl ' +
    'datetimetz_pl dcbrt decode degrees dense_rank dexp diagonal diameter dist_bp dist_bs dist_cpoint dist_cpoly ' +
    'dist_lp dist_ls dist_pathp dist_pb dist_pc dist_pl dist_polyc dist_polyp dist_ppath dist_ppoly dist_ps ' +
    'dist_sb dist_sl dist_sp div dlog1 dlog10 dpow dround dsqrt dtrunc elem_contained_by_multirange ' +
    'elem_contained_by_range encode enum_cmp enum_eq enum_first enum_ge enum_gt enum_larger enum_last enum_le ' +
    'enum_lt enum_ne enum_range enum_smaller erf erfc every exp extract factorial family first_value float4 ' +
    'float48div float48eq float48ge float48gt float48le float48lt float48mi float48mul float48ne float48pl ' +
    'float4_accum float4abs float4div float4eq float4ge float4gt float4larger float4le float4lt float4mi float4mul ' +
    'float4ne float4pl float4smaller float4um float4up float8 float84div float84eq float84ge float84gt float84le ' +
    'float84lt float84mi float84mul float84ne float84pl float8_accum float8_avg float8_combine float8_corr ' +
    'float8_covar_pop float8_covar_samp float8_regr_accum float8_regr_avgx float8_regr_avgy float8_regr_combine ' +
    'float8_regr_intercept float8_regr_r2 float8_regr_slope float8_regr_sxx float8_regr_sxy float8_regr_syy ' +
    'float8_stddev_pop float8_stddev_samp float8_var_pop float8_var_samp float8abs float8div float8eq float8ge ' +
    'float8gt float8larger float8le float8lt float8mi float8mul float8ne float8pl float8smaller float8um float8up ' +
    'floor flt4_mul_cash flt8_mul_cash format gamma gcd gen_random_uuid generate_series generate_subscripts ' +
    'get_bit get_byte get_current_ts_config getdatabaseencoding hash_array hash_array_extended hash_multirange ' +
    'hash_multirange_extended hash_numeric hash_numeric_extended hash_range hash_range_extended hash_record ' +
    'hash_record_extended hashbpchar hashbpcharextended hashchar hashcharextended hashenum hashenumextended ' +
    'hashfloat4 hashfloat4extended hashfloat8 hashfloat8extended hashinet hashinetextended hashint2 ' +
    'hashint2extended hashint4 hashint4extended hashint8 hashint8extended hashmacaddr hashmacaddr8 ' +
    'hashmacaddr8extended hashmacaddrextended hashname hashnameextended hashoid hashoidextended hashoidvector ' +
    'hashoidvectorextended hashtext hashtextextended hashtid hashtidextended height host hostmask in_range ' +
    'inet_merge inet_same_family inetand inetmi inetmi_int8 inetnot inetor inetpl initcap int2 int24div int24eq ' +
    'int24ge int24gt int24le int24lt int24mi int24mul int24ne int24pl int28div int28eq int28ge int28gt int28le ' +
    'int28lt int28mi int28mul int28ne int28pl int2_avg_accum int2_avg_accum_inv int2_mul_cash int2_sum int2abs ' +
    'int2and int2div int2eq int2ge int2gt int2int4_sum int2larger int2le int2lt int2mi int2mod int2mul int2ne ' +
    'int2not int2or int2pl int2shl int2shr int2smaller int2um int2up int2xor int4 int42div int42eq int42ge int42gt ' +
    'int42le int42lt int42mi int42mul int42ne int42pl int48div int48eq int48ge int48gt int48le int48lt int48mi ' +
    'int48mul int48ne int48pl int4_avg_accum int4_avg_accum_inv int4_avg_combine int4_mul_cash int4_sum int4abs ' +
    'int4and int4div int4eq int4ge int4gt int4inc int4larger int4le int4lt int4mi int4mod int4mul int4multirange ' +
    'int4ne int4not int4or int4pl int4range int4range_canonical int4range_subdiff int4shl int4shr int4smaller ' +
    'int4um int4up int4xor int8 int82div int82eq int82ge int82gt int82le int82lt int82mi int82mul int82ne int82pl ' +
    'int84div int84eq int84ge int84gt int84le int84lt int84mi int84mul int84ne int84pl int8_avg int8_mul_cash ' +
    'int8_sum int8abs int8and int8dec int8dec_any int8div int8eq int8ge int8gt int8inc int8inc_any ' +
    'int8inc_float8_float8 int8larger int8le int8lt int8mi int8mod int8mul int8multirange int8ne int8not int8or ' +
    'int8pl int8pl_inet int8range int8range_canonical int8range_subdiff int8shl int8shr int8smaller int8um int8up ' +
    'int8xor integer_pl_date inter_lb inter_sb inter_sl interval interval_accum interval_accum_inv interval_avg ' +
    'interval_cmp interval_combine interval_div interval_eq interval_ge interval_gt interval_hash ' +
    'interval_hash_extended interval_larger interval_le interval_lt interval_mi interval_mul interval_ne ' +
    'interval_pl interval_pl_date interval_pl_time interval_pl_timestamp interval_pl_timestamptz ' +
    'interval_pl_timetz interval_smaller interval_um is_normalized isclosed isempty isfinite ishorizontal isopen ' +
    'isparallel isperp isvertical json_agg json_array_element json_array_element_text json_array_elements ' +
    'json_array_elements_text json_array_length json_build_array json_build_object json_each json_each_text ' +
    'json_extract_path json_extract_path_text json_object json_object_agg json_object_field json_object_field_text ' +
    'json_object_keys json_populate_record json_populate_recordset json_strip_nulls json_to_record ' +
    'json_to_recordset json_to_tsvector json_typeof jsonb_agg jsonb_array_element jsonb_array_element_text ' +
    'jsonb_array_elements jsonb_array_elements_text jsonb_array_length jsonb_build_array jsonb_build_object ' +
    'jsonb_cmp jsonb_concat jsonb_contained jsonb_contains jsonb_delete jsonb_delete_path jsonb_each ' +
    'jsonb_each_text jsonb_eq jsonb_exists jsonb_exists_all jsonb_exists_any jsonb_extract_path ' +
    'jsonb_extract_path_text jsonb_ge jsonb_gt jsonb_hash jsonb_hash_extended jsonb_insert jsonb_le jsonb_lt ' +
    'jsonb_ne jsonb_object jsonb_object_agg jsonb_object_field jsonb_object_field_text jsonb_object_keys ' +
    'jsonb_path_exists jsonb_path_exists_opr jsonb_path_exists_tz jsonb_path_match jsonb_path_match_opr ' +
    'jsonb_path_match_tz jsonb_path_query jsonb_path_query_array jsonb_path_query_array_tz jsonb_path_query_first ' +
    'jsonb_path_query_first_tz jsonb_path_query_tz jsonb_populate_record jsonb_populate_recordset jsonb_pretty ' +
    'jsonb_set jsonb_set_lax jsonb_strip_nulls jsonb_to_record jsonb_to_recordset jsonb_to_tsvector jsonb_typeof ' +
    'justify_days justify_hours justify_interval lag last_value lcm lead left length lgamma like like_escape line ' +
    'line_distance line_eq line_horizontal line_interpt line_intersect line_parallel line_perp line_vertical ln ' +
    'log log10 lower lower_inc lower_inf lpad lseg lseg_center lseg_distance lseg_eq lseg_ge lseg_gt ' +
    'lseg_horizontal lseg_interpt lseg_intersect lseg_le lseg_length lseg_lt lseg_ne lseg_parallel lseg_perp ' +
    'lseg_vertical ltrim macaddr macaddr8 macaddr8_and macaddr8_cmp macaddr8_eq macaddr8_ge macaddr8_gt ' +
    'macaddr8_le macaddr8_lt macaddr8_ne macaddr8_not macaddr8_or macaddr8_set7bit macaddr_and macaddr_cmp ' +
    'macaddr_eq macaddr_ge macaddr_gt macaddr_le macaddr_lt macaddr_ne macaddr_not macaddr_or make_date ' +
    'make_interval make_time make_timestamp make_timestamptz masklen max md5 min min_scale mod mode money ' +
    'mul_d_interval multirange multirange_adjacent_multirange multirange_adjacent_range ' +
    'multirange_after_multirange multirange_after_range multirange_before_multirange multirange_before_range ' +
    'multirange_cmp multirange_contained_by_multirange multirange_contained_by_range multirange_contains_elem ' +
    'multirange_contains_multirange multirange_contains_range multirange_eq multirange_ge multirange_gt ' +
    'multirange_intersect multirange_intersect_agg_transfn multirange_le multirange_lt multirange_minus ' +
    'multirange_ne multirange_overlaps_multirange multirange_overlaps_range multirange_overleft_multirange ' +
    'multirange_overleft_range multirange_overright_multirange multirange_overright_range multirange_union name ' +
    'nameconcatoid nameeq nameeqtext namege namegetext namegt namegttext nameiclike nameicnlike nameicregexeq ' +
    'nameicregexne namele nameletext namelike namelt namelttext namene namenetext namenlike nameregexeq ' +
    'nameregexne netmask network network_cmp network_eq network_ge network_gt network_larger network_le network_lt ' +
    'network_ne network_overlap network_smaller network_sub network_subeq network_sup network_supeq normalize ' +
    'notlike now npoints nth_value ntile num_nonnulls num_nulls numeric numeric_abs numeric_add numeric_cmp ' +
    'numeric_div numeric_div_trunc numeric_eq numeric_exp numeric_ge numeric_gt numeric_inc numeric_larger ' +
    'numeric_le numeric_ln numeric_log numeric_lt numeric_mod numeric_mul numeric_ne numeric_pl_pg_lsn ' +
    'numeric_power numeric_smaller numeric_sqrt numeric_sub numeric_uminus numeric_uplus nummultirange numnode ' +
    'numrange numrange_subdiff octet_length oid oideq oidge oidgt oidlarger oidle oidlt oidne oidsmaller ' +
    'oidvectoreq oidvectorge oidvectorgt oidvectorle oidvectorlt oidvectorne oidvectortypes on_pb on_pl on_ppath ' +
    'on_ps on_sb on_sl overlaps overlay parse_ident path path_add path_add_pt path_contain_pt path_distance ' +
    'path_div_pt path_inter path_length path_mul_pt path_n_eq path_n_ge path_n_gt path_n_le path_n_lt path_npoints ' +
    'path_sub_pt pclose percent_rank percentile_cont percentile_disc pg_client_encoding pg_collation_for ' +
    'pg_column_size pg_input_error_info pg_input_is_valid pg_size_bytes pg_size_pretty pg_typeof phraseto_tsquery ' +
    'pi plainto_tsquery point point_above point_add point_below point_distance point_div point_eq point_horiz ' +
    'point_left point_mul point_ne point_right point_sub point_vert poly_above poly_below poly_center poly_contain ' +
    'poly_contain_pt poly_contained poly_distance poly_left poly_npoints poly_overabove poly_overbelow ' +
    'poly_overlap poly_overleft poly_overright poly_right poly_same polygon popen position pow power ' +
    'pt_contained_circle pt_contained_poly querytree quote_ident quote_literal quote_nullable radians radius ' +
    'random random_normal range_adjacent range_adjacent_multirange range_after range_after_multirange range_agg ' +
    'range_before range_before_multirange range_cmp range_contained_by range_contained_by_multirange ' +
    'range_contains range_contains_elem range_contains_multirange range_eq range_ge range_gt range_intersect ' +
    'range_intersect_agg range_intersect_agg_transfn range_le range_lt range_merge range_minus range_ne ' +
    'range_overlaps range_overlaps_multirange range_overleft range_overleft_multirange range_overright ' +
    'range_overright_multirange range_union rank record_eq record_ge record_gt record_image_eq record_image_ge ' +
    'record_image_gt record_image_le record_image_lt record_image_ne record_le record_lt record_ne regexp_count ' +
    'regexp_instr regexp_like regexp_match regexp_matches regexp_replace regexp_split_to_array ' +
    'regexp_split_to_table regexp_substr regr_avgx regr_avgy regr_count regr_intercept regr_r2 regr_slope regr_sxx ' +
    'regr_sxy regr_syy repeat replace reverse right round row_number row_to_json rpad rtrim scale set_bit set_byte ' +
    'set_masklen setweight sha224 sha256 sha384 sha512 sign similar_escape similar_to_escape sin sind sinh slope ' +
    'split_part sqrt starts_with statement_timestamp stddev stddev_pop stddev_samp string_agg string_to_array ' +
    'string_to_table strip strpos substr substring sum tan tand tanh text text_ge text_gt text_larger text_le ' +
    'text_lt text_pattern_ge text_pattern_gt text_pattern_le text_pattern_lt text_smaller textanycat textcat ' +
    'texteq texteqname textgename textgtname texticlike texticnlike texticregexeq texticregexne textlen textlename ' +
    'textlike textltname textne textnename textnlike textregexeq textregexne tideq tidge tidgt tidlarger tidle ' +
    'tidlt tidne tidsmaller time time_cmp time_eq time_ge time_gt time_hash time_hash_extended time_larger time_le ' +
    'time_lt time_mi_interval time_mi_time time_ne time_pl_interval time_smaller timedate_pl timeofday timestamp ' +
    'timestamp_cmp timestamp_cmp_date timestamp_cmp_timestamptz timestamp_eq timestamp_eq_date ' +
    'timestamp_eq_timestamptz timestamp_ge timestamp_ge_date timestamp_ge_timestamptz timestamp_gt ' +
    'timestamp_gt_date timestamp_gt_timestamptz timestamp_hash timestamp_hash_extended timestamp_larger ' +
    'timestamp_le timestamp_le_date timestamp_le_timestamptz timestamp_lt timestamp_lt_date ' +
    'timestamp_lt_timestamptz timestamp_mi timestamp_mi_interval timestamp_ne timestamp_ne_date ' +
    'timestamp_ne_timestamptz timestamp_pl_interval timestamp_smaller timestamptz timestamptz_cmp ' +
    'timestamptz_cmp_date timestamptz_cmp_timestamp timestamptz_eq timestamptz_eq_date timestamptz_eq_timestamp ' +
    'timestamptz_ge timestamptz_ge_date timestamptz_ge_timestamp timestamptz_gt timestamptz_gt_date ' +
    'timestamptz_gt_timestamp timestamptz_larger timestamptz_le timestamptz_le_date timestamptz_le_timestamp ' +
    'timestamptz_lt timestamptz_lt_date timestamptz_lt_timestamp timestamptz_mi timestamptz_mi_interval ' +
    'timestamptz_ne timestamptz_ne_date timestamptz_ne_timestamp timestamptz_pl_interval timestamptz_smaller ' +
    'timetz timetz_cmp timetz_eq timetz_ge timetz_gt timetz_hash timetz_hash_extended timetz_larger timetz_le ' +
    'timetz_lt timetz_mi_interval timetz_ne timetz_pl_interval timetz_smaller timetzdate_pl timezone to_ascii ' +
    'to_bin to_char to_date to_hex to_json to_jsonb to_number to_oct to_timestamp to_tsquery to_tsvector ' +
    'transaction_timestamp translate trim_array trim_scale trunc ts_debug ts_delete ts_filter ts_headline ' +
    'ts_lexize ts_match_qv ts_match_tq ts_match_tt ts_match_vq ts_parse ts_rank ts_rank_cd ts_token_type ' +
    'tsmultirange tsq_mcontained tsq_mcontains tsquery_and tsquery_cmp tsquery_eq tsquery_ge tsquery_gt tsquery_le ' +
    'tsquery_lt tsquery_ne tsquery_not tsquery_or tsquery_phrase tsrange tsrange_subdiff tstzmultirange tstzrange ' +
    'tstzrange_subdiff tsvector_cmp tsvector_concat tsvector_eq tsvector_ge tsvector_gt tsvector_le tsvector_lt ' +
    'tsvector_ne tsvector_to_array unistr unnest upper upper_inc upper_inf uuid_cmp uuid_eq uuid_extract_timestamp ' +
    'uuid_extract_version uuid_ge uuid_gt uuid_hash uuid_hash_extended uuid_le uuid_lt uuid_ne uuidv4 uuidv7 ' +
    'var_pop var_samp varbit varbitcmp varbiteq varbitge varbitgt varbitle varbitlt varbitne varchar variance ' +
    'websearch_to_tsquery width width_bucket xid xid8_larger xid8_smaller xid8cmp xid8eq xid8ge xid8gt xid8le ' +
    'xid8lt xid8ne xideq xideqint4 xidneq xidneqint4 xml xml_is_well_formed xml_is_well_formed_content ' +
    'xml_is_well_formed_document xmlagg xmlcomment xmlconcat2 xmlexists xmlvalidate xpath xpath_exists '
  )
    .split(' ')
    .filter(Boolean),
);
