/**
 * Domain vocabulary for the synthetic schema: one PostgreSQL schema per business domain, each with its own entity
 * nouns and attribute words, plus table-name qualifiers and attributes every domain shares. Names are built from
 * these words the way people name tables (`invoice_line`, `archived_shipment`, `patient_allergy_history`).
 */

export interface Domain {
  readonly schema: string;
  /** Entity nouns, singular, snake_case. */
  readonly entities: readonly string[];
  /** Attribute words of this domain (column name stems). */
  readonly attributes: readonly string[];
  /** One sentence about the domain, used in comments. */
  readonly about: string;
}

export const DOMAINS: readonly Domain[] = [
  {
    schema: 'sales',
    about: 'orders, quotes and invoices for customers',
    entities: ['customer', 'account', 'order', 'order_line', 'quote', 'quote_line', 'invoice', 'invoice_line', 'credit_note', 'payment', 'refund', 'discount', 'coupon', 'price_list', 'price_rule', 'sales_rep', 'territory', 'region', 'channel', 'campaign', 'lead', 'opportunity', 'contract', 'subscription', 'renewal', 'commission', 'target', 'forecast', 'pipeline_stage', 'deal', 'contact', 'partner', 'reseller', 'tax_rate', 'currency', 'exchange_rate', 'cart', 'cart_item', 'wishlist', 'promotion'],
    attributes: ['order_date', 'ship_date', 'due_date', 'net_amount', 'gross_amount', 'tax_amount', 'discount_pct', 'unit_price', 'list_price', 'quantity_ordered', 'payment_method', 'payment_terms', 'billing_address', 'shipping_address', 'invoice_number', 'po_number', 'quote_number', 'close_date', 'win_probability', 'stage', 'revenue', 'margin', 'commission_rate', 'quota', 'renewal_date', 'churn_risk', 'lifetime_value', 'segment', 'industry', 'annual_revenue'],
  },
  {
    schema: 'hr',
    about: 'employees, positions, payroll and leave',
    entities: ['employee', 'department', 'position', 'job_title', 'salary_band', 'payroll_run', 'payslip', 'payslip_line', 'benefit', 'benefit_plan', 'enrollment', 'leave_request', 'leave_balance', 'holiday', 'timesheet', 'timesheet_entry', 'shift', 'roster', 'applicant', 'application', 'interview', 'offer', 'onboarding_task', 'training_course', 'certification', 'skill', 'performance_review', 'goal', 'feedback', 'promotion_request', 'transfer', 'termination', 'dependent', 'emergency_contact', 'grievance', 'disciplinary_action', 'overtime', 'expense_claim', 'manager', 'org_unit'],
    attributes: ['hire_date', 'birth_date', 'termination_date', 'base_salary', 'bonus_amount', 'gross_pay', 'net_pay', 'tax_withheld', 'hours_worked', 'overtime_hours', 'leave_type', 'leave_days', 'job_grade', 'employment_type', 'work_location', 'cost_center', 'rating', 'review_period', 'interview_date', 'offer_amount', 'start_date', 'national_insurance_number', 'marital_status', 'gender', 'nationality', 'badge_number', 'shift_start', 'shift_end', 'approved_by', 'reason_code'],
  },
  {
    schema: 'finance',
    about: 'the general ledger, budgets and accounts payable',
    entities: ['ledger', 'ledger_account', 'journal', 'journal_entry', 'journal_line', 'fiscal_year', 'fiscal_period', 'budget', 'budget_line', 'cost_center', 'profit_center', 'vendor', 'vendor_invoice', 'vendor_payment', 'bank_account', 'bank_statement', 'bank_transaction', 'reconciliation', 'asset', 'depreciation_schedule', 'accrual', 'allocation', 'tax_return', 'tax_code', 'expense_report', 'expense_item', 'purchase_requisition', 'approval', 'cash_forecast', 'intercompany_transfer', 'dunning_notice', 'write_off', 'audit_finding', 'chart_of_accounts', 'consolidation', 'entity', 'revaluation', 'credit_limit', 'payment_run', 'remittance'],
    attributes: ['posting_date', 'document_date', 'debit_amount', 'credit_amount', 'balance', 'opening_balance', 'closing_balance', 'account_number', 'iban', 'swift_code', 'budgeted_amount', 'actual_amount', 'variance', 'period_number', 'fiscal_year_start', 'depreciation_method', 'useful_life_months', 'book_value', 'acquisition_cost', 'salvage_value', 'tax_rate', 'vat_number', 'approval_status', 'reference_number', 'memo', 'reconciled_at', 'statement_date', 'clearing_date', 'payment_due', 'exchange_rate'],
  },
  {
    schema: 'logistics',
    about: 'warehouses, shipments, carriers and inventory',
    entities: ['warehouse', 'location', 'bin', 'shipment', 'shipment_item', 'package', 'carrier', 'carrier_service', 'route', 'route_stop', 'vehicle', 'driver', 'delivery', 'delivery_attempt', 'pick_list', 'pick_task', 'pack_station', 'receipt', 'receipt_line', 'inventory_item', 'stock_level', 'stock_movement', 'cycle_count', 'transfer_order', 'purchase_order', 'purchase_order_line', 'supplier', 'supplier_item', 'replenishment_rule', 'dock_appointment', 'freight_bill', 'customs_declaration', 'tracking_event', 'return_authorization', 'pallet', 'container', 'port', 'lane', 'fuel_log', 'incident'],
    attributes: ['tracking_number', 'weight_kg', 'volume_m3', 'length_cm', 'width_cm', 'height_cm', 'dispatched_at', 'delivered_at', 'expected_delivery', 'origin_postcode', 'destination_postcode', 'quantity_on_hand', 'quantity_reserved', 'reorder_point', 'reorder_quantity', 'lead_time_days', 'unit_of_measure', 'sku', 'barcode', 'lot_number', 'serial_number', 'expiry_date', 'freight_cost', 'incoterm', 'hs_code', 'license_plate', 'odometer_km', 'fuel_litres', 'temperature_c', 'signature_name'],
  },
  {
    schema: 'clinical',
    about: 'patients, encounters, diagnoses and prescriptions',
    entities: ['patient', 'encounter', 'admission', 'discharge', 'ward', 'bed', 'physician', 'nurse', 'appointment', 'referral', 'diagnosis', 'procedure', 'prescription', 'medication', 'dose', 'allergy', 'immunization', 'lab_order', 'lab_result', 'specimen', 'vital_sign', 'observation', 'care_plan', 'clinical_note', 'insurance_policy', 'claim', 'claim_line', 'payer', 'consent', 'imaging_study', 'radiology_report', 'surgery', 'operating_room', 'triage', 'problem', 'family_history', 'device', 'implant', 'transfusion', 'discharge_summary'],
    attributes: ['admit_date', 'discharge_date', 'icd10_code', 'cpt_code', 'snomed_code', 'loinc_code', 'dosage_mg', 'route_of_administration', 'frequency', 'blood_type', 'systolic_bp', 'diastolic_bp', 'heart_rate', 'body_temperature', 'weight_grams', 'height_cm', 'bmi', 'result_value', 'reference_range', 'abnormal_flag', 'severity', 'onset_date', 'medical_record_number', 'attending_physician', 'bed_number', 'triage_level', 'consent_given', 'policy_number', 'copay_amount', 'allowed_amount'],
  },
  {
    schema: 'education',
    about: 'students, courses, enrolments and grades',
    entities: ['student', 'teacher', 'course', 'course_section', 'enrolment', 'grade', 'assignment', 'submission', 'exam', 'exam_result', 'classroom', 'timetable', 'lesson', 'attendance', 'term', 'academic_year', 'programme', 'module', 'prerequisite', 'faculty', 'school', 'campus', 'scholarship', 'tuition_fee', 'fee_payment', 'transcript', 'degree', 'graduation', 'advisor', 'library_loan', 'book', 'dormitory', 'room_assignment', 'club', 'club_membership', 'parent', 'guardian', 'disciplinary_record', 'accommodation_request', 'curriculum'],
    attributes: ['student_number', 'enrolment_date', 'graduation_date', 'credit_hours', 'grade_point', 'gpa', 'letter_grade', 'score', 'max_score', 'weighting', 'due_at', 'submitted_at', 'attendance_status', 'absence_reason', 'room_capacity', 'term_start', 'term_end', 'tuition_amount', 'scholarship_amount', 'major', 'minor', 'year_level', 'class_rank', 'isbn', 'loan_due', 'returned_at', 'homeroom', 'guardian_relationship', 'special_needs', 'exam_date'],
  },
  {
    schema: 'manufacturing',
    about: 'production orders, bills of materials and quality control',
    entities: ['product', 'component', 'bill_of_materials', 'bom_line', 'routing', 'operation', 'work_center', 'machine', 'production_order', 'work_order', 'batch', 'lot', 'quality_inspection', 'defect', 'nonconformance', 'corrective_action', 'maintenance_order', 'spare_part', 'downtime_event', 'shift_report', 'scrap', 'yield_record', 'tool', 'calibration', 'sensor', 'sensor_reading', 'energy_meter', 'production_plan', 'capacity', 'setup', 'changeover', 'engineering_change', 'specification', 'drawing', 'supplier_audit', 'material', 'material_lot', 'recipe', 'recipe_step', 'safety_incident'],
    attributes: ['planned_start', 'planned_finish', 'actual_start', 'actual_finish', 'quantity_produced', 'quantity_scrapped', 'cycle_time_seconds', 'setup_minutes', 'run_rate', 'oee', 'defect_code', 'inspection_result', 'tolerance', 'measured_value', 'nominal_value', 'revision', 'part_number', 'machine_hours', 'mtbf_hours', 'kwh', 'pressure_bar', 'rpm', 'torque_nm', 'batch_size', 'shelf_life_days', 'root_cause', 'disposition', 'calibration_due', 'operator_code', 'line_number'],
  },
  {
    schema: 'media',
    about: 'titles, episodes, streams and royalties',
    entities: ['title', 'series', 'season', 'episode', 'movie', 'track', 'album', 'artist', 'genre', 'playlist', 'playlist_item', 'stream', 'viewer', 'viewing_session', 'rating', 'review', 'license', 'rights_window', 'royalty_statement', 'royalty_line', 'publisher', 'studio', 'cast_member', 'crew_member', 'credit', 'subtitle', 'audio_track', 'thumbnail', 'advert', 'ad_impression', 'ad_campaign', 'recommendation', 'watchlist', 'download', 'device_registration', 'content_tag', 'age_certificate', 'territory_availability', 'live_event', 'chapter'],
    attributes: ['release_date', 'runtime_minutes', 'duration_ms', 'isrc', 'upc', 'bitrate_kbps', 'resolution', 'language_code', 'age_rating', 'stars', 'review_text', 'play_count', 'watch_seconds', 'completion_pct', 'royalty_rate', 'royalty_amount', 'window_start', 'window_end', 'impressions', 'clicks', 'cpm', 'budget', 'device_type', 'app_version', 'country_code', 'synopsis', 'episode_number', 'season_number', 'track_number', 'explicit'],
  },
  {
    schema: 'telecom',
    about: 'subscribers, plans, usage records and network elements',
    entities: ['subscriber', 'plan', 'tariff', 'sim_card', 'phone_number', 'handset', 'usage_record', 'call_detail_record', 'data_session', 'sms_message', 'roaming_event', 'bill', 'bill_item', 'top_up', 'bundle', 'add_on', 'cell_site', 'antenna', 'base_station', 'network_element', 'outage', 'ticket', 'port_request', 'number_block', 'interconnect_partner', 'settlement', 'fraud_alert', 'credit_check', 'device_order', 'installation', 'fiber_line', 'router', 'ip_allocation', 'service_order', 'provisioning_task', 'coverage_area', 'spectrum_license', 'churn_prediction', 'loyalty_point', 'complaint'],
    attributes: ['msisdn', 'imsi', 'iccid', 'imei', 'call_start', 'call_end', 'duration_seconds', 'bytes_up', 'bytes_down', 'charge_amount', 'rate_per_minute', 'data_allowance_mb', 'minutes_allowance', 'roaming_zone', 'cell_id', 'latitude', 'longitude', 'signal_strength_dbm', 'frequency_mhz', 'bandwidth_mbps', 'outage_start', 'outage_end', 'affected_subscribers', 'ip_address', 'mac_address', 'activation_date', 'contract_end', 'credit_score', 'port_in_date', 'balance_remaining'],
  },
  {
    schema: 'energy',
    about: 'meters, readings, tariffs and generation assets',
    entities: ['meter', 'meter_reading', 'service_point', 'premise', 'utility_account', 'energy_tariff', 'tariff_rate', 'energy_bill', 'energy_bill_line', 'generation_unit', 'wind_turbine', 'solar_array', 'substation', 'feeder', 'transformer', 'grid_outage', 'work_crew', 'crew_assignment', 'demand_forecast', 'load_profile', 'interval_read', 'net_metering', 'carbon_certificate', 'emission_record', 'fuel_contract', 'dispatch_schedule', 'market_bid', 'settlement_period', 'imbalance_charge', 'connection_request', 'smart_device', 'appliance', 'efficiency_program', 'rebate', 'inspection', 'vegetation_patrol', 'pole', 'cable_segment', 'storage_battery', 'charging_station'],
    attributes: ['reading_value', 'reading_date', 'kwh_consumed', 'kw_peak', 'kvarh', 'power_factor', 'voltage', 'current_amps', 'capacity_mw', 'output_mwh', 'capacity_factor', 'tariff_code', 'unit_rate', 'standing_charge', 'meter_serial', 'mpan', 'install_date', 'last_read_date', 'estimated', 'co2_tonnes', 'bid_price', 'bid_volume', 'settlement_date', 'forecast_mw', 'temperature_f', 'wind_speed', 'irradiance', 'state_of_charge', 'charge_sessions', 'outage_minutes'],
  },
  {
    schema: 'support',
    about: 'tickets, agents, knowledge articles and service levels',
    entities: ['ticket', 'ticket_comment', 'agent', 'team', 'queue', 'sla_policy', 'sla_breach', 'escalation', 'knowledge_article', 'article_feedback', 'macro', 'tag', 'satisfaction_survey', 'survey_response', 'chat_session', 'chat_message', 'call_recording', 'callback_request', 'customer_profile', 'organization', 'product_area', 'bug_report', 'feature_request', 'incident', 'problem_record', 'change_request', 'asset_record', 'on_call_schedule', 'business_hours', 'automation_rule', 'trigger', 'view', 'attachment', 'channel_config', 'language', 'translation', 'forum_post', 'forum_reply', 'status_page_update', 'maintenance_window'],
    attributes: ['subject', 'priority', 'severity_level', 'opened_at', 'first_response_at', 'resolved_at', 'closed_at', 'reopen_count', 'response_minutes', 'resolution_minutes', 'csat_score', 'nps_score', 'sentiment', 'channel_type', 'assignee', 'requester_email', 'body_html', 'word_count', 'helpful_votes', 'view_count', 'breach_minutes', 'escalation_level', 'queue_position', 'wait_seconds', 'handle_seconds', 'transcript_url', 'article_slug', 'locale', 'is_public', 'satisfaction_comment'],
  },
  {
    schema: 'marketing',
    about: 'audiences, email sends, web analytics and attribution',
    entities: ['audience', 'segment_rule', 'email_campaign', 'email_send', 'email_open', 'email_click', 'unsubscribe', 'landing_page', 'web_session', 'page_view', 'web_event', 'utm_source', 'conversion', 'attribution_touch', 'ad_group', 'keyword', 'ad_creative', 'social_post', 'social_mention', 'influencer', 'event_registration', 'webinar', 'survey', 'form', 'form_submission', 'lead_score', 'persona', 'journey', 'journey_step', 'ab_test', 'ab_variant', 'content_asset', 'newsletter', 'referral_code', 'affiliate', 'affiliate_payout', 'brand', 'budget_allocation', 'media_plan', 'cohort'],
    attributes: ['sent_at', 'opened_at', 'clicked_at', 'bounce_type', 'open_rate', 'click_rate', 'conversion_rate', 'utm_campaign', 'utm_medium', 'referrer_url', 'page_url', 'session_seconds', 'bounce', 'spend_amount', 'cost_per_click', 'cost_per_acquisition', 'roas', 'reach', 'engagement_rate', 'follower_count', 'score_value', 'variant_label', 'sample_size', 'p_value', 'lift_pct', 'attribution_model', 'touch_position', 'user_agent', 'browser', 'landing_time'],
  },
];

/** Attribute words every domain uses. */
export const COMMON_ATTRIBUTES: readonly string[] = [
  'name', 'code', 'description', 'status', 'type', 'category', 'notes', 'title', 'label', 'external_ref', 'source_system',
  'created_at', 'updated_at', 'deleted_at', 'created_by', 'updated_by', 'valid_from', 'valid_to', 'effective_date', 'version',
  'is_active', 'is_deleted', 'is_primary', 'sort_order', 'priority_rank', 'amount', 'quantity', 'total', 'currency_code',
  'email', 'phone', 'website', 'address_line1', 'address_line2', 'city', 'state_province', 'postal_code', 'country',
  'comment_text', 'metadata', 'checksum', 'row_hash', 'imported_at', 'batch_id', 'locale_code', 'timezone', 'owner',
];

/** Words put in front of an entity to name a variant table. */
export const QUALIFIERS: readonly string[] = [
  'archived', 'pending', 'approved', 'rejected', 'draft', 'historical', 'staged', 'legacy', 'external', 'internal',
  'daily', 'weekly', 'monthly', 'quarterly', 'annual', 'regional', 'global', 'planned', 'actual', 'forecast',
  'temp', 'imported', 'exported', 'scheduled', 'recurring', 'cancelled', 'failed', 'duplicate', 'merged', 'flagged',
];

/** Words put after an entity to name a satellite table. */
export const SUFFIXES: readonly string[] = [
  'history', 'audit', 'snapshot', 'summary', 'detail', 'log', 'archive', 'staging', 'queue', 'error', 'mapping',
  'attribute', 'note', 'document', 'status', 'version', 'approval', 'assignment', 'metric', 'stat', 'event', 'link',
];

/** SQL types an attribute gets from how its name ends. */
export function typeFor(attribute: string): string {
  if (/(^|_)(at|start|end|finish|time)$/.test(attribute) || attribute.endsWith('_at')) return 'timestamptz';
  if (/(date|_due|_from|_to)$/.test(attribute)) return 'date';
  if (/^(is|has)_|^(explicit|estimated|bounce|consent_given|is_public)$/.test(attribute)) return 'boolean';
  if (/(amount|price|cost|salary|pay|balance|value|revenue|margin|budget|charge|rate|pct|fee|spend|total|variance|withheld)$/.test(attribute)) return 'numeric(14,2)';
  if (/(count|quantity|number|hours|minutes|seconds|days|months|_ms|_kg|_cm|_mb|score|rank|level|size|position|clicks|impressions|reach|rpm|kwh|order)$/.test(attribute)) return 'integer';
  if (/(latitude|longitude|kw|mw|mwh|bar|nm|dbm|mhz|mbps|amps|voltage|factor|oee|bmi|gpa|stars|tonnes|speed|irradiance|temperature_c|temperature_f|body_temperature)$/.test(attribute)) return 'double precision';
  if (attribute === 'metadata') return 'jsonb';
  if (/(description|notes|text|body_html|synopsis|memo|comment)$/.test(attribute)) return 'text';
  return 'varchar(120)';
}
