export { classifyColumn, identifierTokens, typeKind, type ClassifyInput, type TypeKind } from './classify';
export {
  applyOverrides,
  assertCategory,
  blockedCategories,
  createPolicy,
  DEFAULT_POLICY,
  effectiveBlockSet,
  findOverride,
  FLOOR_CATEGORIES,
  isBlocked,
  OPERATOR_BLOCK_SIGNAL,
  overrideKey,
  parseCategoryList,
  parsePolicyYaml,
  PolicyError,
  type ColumnOverride,
  type PiiPolicy,
  type PolicyErrorKind,
  type PolicyInit,
} from './policy';
export { FAIL_CLOSED_SIGNAL, isFailClosed, maxSensitivity, propagate, PROPAGATE_EMPTY_INPUT, SENSITIVITIES, type Sensitivity } from './propagate';
export {
  columnVisibility,
  placeholderCategory,
  placeholderName,
  REDACTED_COLUMN,
  REDACTED_VALUE,
  redactColumns,
  scrubSqlLiterals,
  scrubText,
  type ColumnRef,
  type RedactedColumn,
  type ScrubOptions,
  type Visibility,
} from './redact';
export { isCardNumber, isCpf, isDniNie, isEmail, isIban, isNino, isPhone, isSsn, luhnValid, scanSamples, type ValueDetector, type ValueEvidence } from './values';
export { defaultPolicyPath, loadPolicy } from './load-policy';
export { embeddedSecretCategories, findFloorSecrets, redactDeep, redactFloorSecrets, scrubEnvelope, type SecretHit } from './secrets';
