import type { InferenceMethod, ValidationState } from '../envelope/kinds';
import type { Expr } from './expression';

/**
 * The semantic layer's domain model: entities bound to one table, canonical joins between entities, and metrics
 * aggregating a measure of one entity. Readonly camelCase; the YAML grammar (snake_case) is mapped once in
 * `load.ts`.
 */

export const ORIGINS = ['manual', 'suggested', 'dbt_import'] as const;
export type Origin = (typeof ORIGINS)[number];

export const ENTITY_GROUPS = ['identity', 'billing', 'activity', 'catalog', 'other'] as const;
export type EntityGroup = (typeof ENTITY_GROUPS)[number];

export const CARDINALITIES = ['one_to_one', 'many_to_one', 'one_to_many', 'many_to_many'] as const;
export type Cardinality = (typeof CARDINALITIES)[number];

export const AGGREGATIONS = ['sum', 'count', 'count_distinct', 'avg', 'min', 'max'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

/** Canonical order, finest first. */
export const TIME_GRAINS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type TimeGrain = (typeof TIME_GRAINS)[number];

export const FILTER_OPS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'not_in', 'is_null', 'not_null'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

export type Dialect = 'postgres' | 'sqlite' | 'mysql';

export type ScalarValue = string | number | boolean;

/** Where a definition was written: the file and the YAML path of its node, for diagnostics. */
export interface DefinitionLocation {
  readonly file: string;
  readonly path: readonly (string | number)[];
}

export interface Trust {
  readonly origin: Origin;
  readonly inferenceMethod: InferenceMethod;
  readonly validationState: ValidationState;
}

export interface TableRef {
  readonly schema: string;
  readonly name: string;
}

export interface EntityDef extends Trust {
  readonly name: string;
  readonly description: string | null;
  readonly table: TableRef;
  /** Catalog source name, when a workspace indexes several sources. */
  readonly source: string | null;
  /** Identity (primary or unique not-null key) columns; empty when the table has none. */
  readonly identity: readonly string[];
  readonly group: EntityGroup;
  /** Default time column of the entity, inherited by metrics that declare none. */
  readonly timeDimension: string | null;
  readonly location: DefinitionLocation | null;
}

export interface JoinKeyPair {
  readonly from: string;
  readonly to: string;
}

export interface JoinDef extends Trust {
  readonly name: string;
  readonly description: string | null;
  readonly from: string;
  readonly to: string;
  readonly on: readonly JoinKeyPair[];
  /** Read from `from` to `to`: `many_to_one` means many `from` rows per `to` row. */
  readonly cardinality: Cardinality;
  readonly location: DefinitionLocation | null;
}

export interface FilterSpec {
  /** `entity.column`. */
  readonly column: string;
  readonly op: FilterOp;
  readonly value?: ScalarValue | readonly ScalarValue[] | null;
}

export interface Measure {
  readonly agg: Aggregation;
  /** Column of the metric's entity; null for `count` of rows or when `expression` is used. */
  readonly column: string | null;
  readonly expression: string | null;
  /** Parsed `expression`, checked by the whitelist parser. */
  readonly expressionAst: Expr | null;
}

export interface MetricDef extends Trust {
  readonly name: string;
  readonly description: string | null;
  readonly entity: string;
  readonly measure: Measure;
  readonly filters: readonly FilterSpec[];
  /** `entity.column` (a bare column means the metric's entity). */
  readonly timeDimension: string | null;
  /** Allowed grains in canonical order; empty means every grain the time column's type supports. */
  readonly timeGrains: readonly TimeGrain[];
  readonly location: DefinitionLocation | null;
}

export interface SemanticModel {
  readonly entities: ReadonlyMap<string, EntityDef>;
  readonly joins: ReadonlyMap<string, JoinDef>;
  readonly metrics: ReadonlyMap<string, MetricDef>;
  /** Join names touching each entity, for path finding. */
  readonly joinsByEntity: ReadonlyMap<string, readonly string[]>;
}

export type Severity = 'error' | 'warning' | 'info';

/** A quick fix: replace the text of the flagged range with `replacement`. */
export interface DiagnosticFix {
  readonly title: string;
  readonly replacement: string;
}

/**
 * A problem in a definitions file. `line` and `col` are 1-based (as editors display them); `endLine`/`endCol`
 * close the flagged range (exclusive end column). The VS Code extension turns these into squiggles and code
 * actions.
 */
export interface Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly endLine: number;
  readonly endCol: number;
  readonly severity: Severity;
  readonly code: string;
  readonly message: string;
  readonly fix?: DiagnosticFix;
}

export function buildModel(entities: readonly EntityDef[], joins: readonly JoinDef[], metrics: readonly MetricDef[]): SemanticModel {
  const byEntity = new Map<string, string[]>();
  const add = (entity: string, join: string): void => {
    const list = byEntity.get(entity);
    if (list) {
      if (!list.includes(join)) list.push(join);
    } else byEntity.set(entity, [join]);
  };
  for (const j of joins) {
    add(j.from, j.name);
    add(j.to, j.name);
  }
  return {
    entities: new Map(entities.map((e) => [e.name, e])),
    joins: new Map(joins.map((j) => [j.name, j])),
    metrics: new Map(metrics.map((m) => [m.name, m])),
    joinsByEntity: byEntity,
  };
}

export function flipCardinality(c: Cardinality): Cardinality {
  if (c === 'many_to_one') return 'one_to_many';
  if (c === 'one_to_many') return 'many_to_one';
  return c;
}

/** True when walking an edge with this effective cardinality can multiply rows of the side walked from. */
export function fansOut(c: Cardinality): boolean {
  return c === 'one_to_many' || c === 'many_to_many';
}
