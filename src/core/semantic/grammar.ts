import { z } from 'zod';
import { INFERENCE_METHODS, VALIDATION_STATES } from '../envelope/kinds';
import { AGGREGATIONS, CARDINALITIES, ENTITY_GROUPS, FILTER_OPS, ORIGINS, TIME_GRAINS } from './types';

/**
 * The YAML grammar of `.schemabrain/*.yaml`, version 1. Every object is strict: an unknown key is an error (the
 * loader reports it with its line and column and the closest allowed key). These schemas are also the source of
 * the published JSON Schema (`schemas/semantic.schema.json`), so editors validate and complete the same grammar.
 */

export const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

const Name = z.string().regex(NAME_PATTERN, 'must start with a letter or _ and contain only letters, digits and _');

const trustFields = {
  origin: z.enum(ORIGINS).optional().describe('Where the definition came from; default `manual`.'),
  inference_method: z
    .enum(INFERENCE_METHODS)
    .optional()
    .describe('How it was derived (charter provenance); default `manually_authored` for manual, `dbt_import` for dbt imports.'),
  validation_state: z.enum(VALIDATION_STATES).optional().describe('How validated it is; default `applied`. Suggestions start as `draft`.'),
};

export const EntityYamlSchema = z
  .object({
    name: Name.describe('Entity name, unique in the workspace; referenced as `<entity>.<column>`.'),
    description: z.string().optional(),
    table: z.string().min(1).describe('Bound table as `schema.table` (SQLite: `main.table`).'),
    source: z.string().min(1).optional().describe('Indexed source name, when the workspace indexes several.'),
    identity: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
      .optional()
      .describe('Identity column (or columns of a composite key): unique and not null. Needed for fan-out-correct metrics.'),
    group: z.enum(ENTITY_GROUPS).optional(),
    time_dimension: z.string().min(1).optional().describe('Default time column of the entity, inherited by metrics that declare none.'),
    ...trustFields,
  })
  .strict();

export const JoinKeyYamlSchema = z
  .object({
    from: z.string().min(1).describe('Column of the `from` entity.'),
    to: z.string().min(1).describe('Column of the `to` entity.'),
  })
  .strict();

export const JoinYamlSchema = z
  .object({
    name: Name.describe('Canonical join name, unique in the workspace; usable in `via`.'),
    description: z.string().optional(),
    from: Name.describe('Entity on the left side.'),
    to: Name.describe('Entity on the right side.'),
    on: z.array(JoinKeyYamlSchema).min(1).describe('Column pairs compared with = and combined with AND.'),
    cardinality: z.enum(CARDINALITIES).describe('Read from `from` to `to`: many_to_one means many `from` rows per `to` row.'),
    ...trustFields,
  })
  .strict();

const Scalar = z.union([z.string(), z.number(), z.boolean()]);

export const FilterYamlSchema = z
  .object({
    column: z.string().min(1).describe('`entity.column`.'),
    op: z.enum(FILTER_OPS),
    value: z.union([Scalar, z.array(Scalar)]).optional().describe('Omitted for is_null/not_null; a list for in/not_in; a scalar otherwise.'),
  })
  .strict()
  .superRefine((f, ctx) => {
    const msg = filterValueProblem(f.op, f.value);
    if (msg) ctx.addIssue({ code: 'custom', message: msg, path: ['value'] });
  });

export function filterValueProblem(op: string, value: unknown): string | null {
  const isNullOp = op === 'is_null' || op === 'not_null';
  const isListOp = op === 'in' || op === 'not_in';
  if (isNullOp) return value === undefined || value === null ? null : `op '${op}' takes no value`;
  if (value === undefined || value === null) return `op '${op}' needs a value`;
  if (isListOp) return Array.isArray(value) ? null : `op '${op}' needs a list value`;
  if (Array.isArray(value)) return `op '${op}' needs a single value, not a list`;
  if (typeof value === 'number' && !Number.isFinite(value)) return 'value must be a finite number';
  return null;
}

export const MeasureYamlSchema = z
  .object({
    agg: z.enum(AGGREGATIONS),
    column: z.string().min(1).optional().describe("Column of the metric's entity."),
    expression: z.string().min(1).optional().describe('Arithmetic over columns: + - * / parentheses and numeric literals only.'),
  })
  .strict()
  .superRefine((m, ctx) => {
    if (m.column !== undefined && m.expression !== undefined) ctx.addIssue({ code: 'custom', message: 'give either column or expression, not both', path: ['expression'] });
    if (m.column === undefined && m.expression === undefined && m.agg !== 'count') {
      ctx.addIssue({ code: 'custom', message: `agg '${m.agg}' needs a column or an expression (only count may omit both, to count rows)`, path: [] });
    }
  });

export const MetricYamlSchema = z
  .object({
    name: Name.describe('Metric name, unique in the workspace; the `name` argument of get_metric.'),
    description: z.string().optional(),
    entity: Name.describe('Entity whose rows are aggregated.'),
    measure: MeasureYamlSchema,
    filters: z.array(FilterYamlSchema).optional().describe('Always applied (AND) before the caller’s filters.'),
    time_dimension: z.string().min(1).optional().describe('`entity.column` (or a column of the metric entity) used for time grains.'),
    time_grains: z.array(z.enum(TIME_GRAINS)).optional().describe('Allowed grains; omitted means every grain the column type supports.'),
    ...trustFields,
  })
  .strict();

export const SemanticFileSchema = z
  .object({
    version: z.literal(1).describe('Grammar version; must be 1.'),
    entities: z.array(EntityYamlSchema).optional(),
    joins: z.array(JoinYamlSchema).optional(),
    metrics: z.array(MetricYamlSchema).optional(),
  })
  .strict();

export type EntityYaml = z.infer<typeof EntityYamlSchema>;
export type JoinYaml = z.infer<typeof JoinYamlSchema>;
export type MetricYaml = z.infer<typeof MetricYamlSchema>;
export type FilterYaml = z.infer<typeof FilterYamlSchema>;
export type SemanticFile = z.infer<typeof SemanticFileSchema>;

/** Allowed keys per YAML path shape, for "did you mean" fixes on unknown keys. */
export function allowedKeysAt(path: readonly (string | number)[]): readonly string[] {
  const shape = (s: z.ZodObject): string[] => Object.keys(s.shape);
  const p = path.filter((x) => typeof x === 'string');
  if (p.length === 0) return shape(SemanticFileSchema);
  const [section, ...rest] = p;
  if (section === 'entities') return shape(EntityYamlSchema);
  if (section === 'joins') return rest[0] === 'on' ? shape(JoinKeyYamlSchema) : shape(JoinYamlSchema);
  if (section === 'metrics') {
    if (rest[0] === 'measure') return Object.keys(MeasureYamlSchema.shape);
    if (rest[0] === 'filters') return Object.keys(FilterYamlSchema.shape);
    return shape(MetricYamlSchema);
  }
  return [];
}

/** The JSON Schema of a definitions file (draft 2020-12), generated from the zod schemas above. */
export function semanticJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(SemanticFileSchema, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' }) as Record<string, unknown>;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://schemabrain.dev/schemas/semantic.schema.json',
    title: 'SchemaBrain semantic layer definitions (version 1)',
    description: 'Entities, canonical joins and metrics in .schemabrain/*.yaml.',
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema')),
  };
}
