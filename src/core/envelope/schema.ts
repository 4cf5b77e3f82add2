import { z } from 'zod';
import {
  CONFIDENCES,
  DEGRADATION_REASONS,
  ERROR_KINDS,
  INFERENCE_METHODS,
  PII_CATEGORIES,
  PROVENANCE_SOURCES,
  REFUSAL_KINDS,
  STATUSES,
  VALIDATION_STATES,
} from './kinds';

/**
 * The envelope wire shape, with every invariant of the original's model validators (reference §3.3)
 * enforced here so a test can validate any response against it.
 */

export const ProvenanceSchema = z
  .object({
    source: z.enum(PROVENANCE_SOURCES),
    model: z.string().nullable().optional(),
    observed_in: z.record(z.string(), z.unknown()).nullable().optional(),
    inference_method: z.enum(INFERENCE_METHODS).nullable().optional(),
    validation_state: z.enum(VALIDATION_STATES).nullable().optional(),
  })
  .strict();

export const SuggestedRewriteSchema = z.object({ rewritten: z.string().min(1), reason: z.string().min(1) }).strict();

export const WideningHintSchema = z
  .object({ scope_requested: z.string().min(1), would_unblock: z.boolean(), reason: z.string().min(1) })
  .strict();

export const RecoverySchema = z
  .object({
    suggested_tool: z.string().nullable().optional(),
    suggested_args: z.record(z.string(), z.unknown()).nullable().optional(),
    fuzzy_matches: z.array(z.string()).optional(),
    suggested_rewrite: SuggestedRewriteSchema.nullable().optional(),
    widening_hint: WideningHintSchema.nullable().optional(),
  })
  .strict();

export const ToolErrorSchema = z
  .object({
    kind: z.enum(ERROR_KINDS),
    message: z.string().min(1),
    recovery: RecoverySchema,
    pii_categories: z.array(z.enum(PII_CATEGORIES)).optional(),
  })
  .strict()
  .superRefine((e, ctx) => {
    const refusal = REFUSAL_KINDS.has(e.kind);
    if (!refusal && e.recovery.suggested_rewrite) {
      ctx.addIssue({ code: 'custom', message: 'suggested_rewrite is allowed only on refusal kinds' });
    }
    if (!refusal && e.recovery.widening_hint) {
      ctx.addIssue({ code: 'custom', message: 'widening_hint is allowed only on refusal kinds' });
    }
    if (!refusal && e.pii_categories && e.pii_categories.length > 0) {
      ctx.addIssue({ code: 'custom', message: 'pii_categories is allowed only on refusal kinds' });
    }
  });

const EnvelopeObject = z
  .object({
    status: z.enum(STATUSES),
    data: z.unknown().nullable(),
    error: ToolErrorSchema.nullable(),
    confidence: z.enum(CONFIDENCES).nullable(),
    provenance: ProvenanceSchema.nullable(),
    follow_up_hints: z.array(z.string()).max(3).nullable(),
    degradation_reason: z.enum(DEGRADATION_REASONS).nullable(),
    charter_version: z.string().regex(/^\d+\.\d+$/),
  })
  .strict();

export const EnvelopeSchema = EnvelopeObject.superRefine((env, ctx) => {
  const failed = env.status === 'error' || env.status === 'refused';
  if (failed) {
    if (!env.error) ctx.addIssue({ code: 'custom', message: `status '${env.status}' requires error` });
    if (env.data !== null && env.data !== undefined) {
      ctx.addIssue({ code: 'custom', message: `status '${env.status}' requires data to be null` });
    }
  } else if (env.error) {
    ctx.addIssue({ code: 'custom', message: `status '${env.status}' must not carry error` });
  }
  if (env.status === 'success' && (env.data === null || env.data === undefined)) {
    ctx.addIssue({ code: 'custom', message: "status 'success' requires data" });
  }
  if ((env.degradation_reason !== null) !== (env.status === 'degraded')) {
    ctx.addIssue({ code: 'custom', message: 'degradation_reason is set iff status is degraded' });
  }
  if (env.status === 'refused' && env.error && !REFUSAL_KINDS.has(env.error.kind)) {
    ctx.addIssue({ code: 'custom', message: `status 'refused' requires a refusal kind, got '${env.error.kind}'` });
  }
  if (env.status === 'error' && env.error && REFUSAL_KINDS.has(env.error.kind)) {
    ctx.addIssue({ code: 'custom', message: `refusal kind '${env.error.kind}' must use status 'refused'` });
  }
});

export type Provenance = z.infer<typeof ProvenanceSchema>;
export type Recovery = z.infer<typeof RecoverySchema>;
export type ToolError = z.infer<typeof ToolErrorSchema>;
export type SuggestedRewrite = z.infer<typeof SuggestedRewriteSchema>;
export type WideningHint = z.infer<typeof WideningHintSchema>;

export interface Envelope<T = unknown> {
  readonly status: z.infer<typeof EnvelopeObject>['status'];
  readonly data: T | null;
  readonly error: ToolError | null;
  readonly confidence: z.infer<typeof EnvelopeObject>['confidence'];
  readonly provenance: Provenance | null;
  readonly follow_up_hints: string[] | null;
  readonly degradation_reason: z.infer<typeof EnvelopeObject>['degradation_reason'];
  readonly charter_version: string;
}

/**
 * JSON Schema published as every tool's `outputSchema`: the envelope's fields, statuses and closed enums, without
 * the nested detail of `error` and `provenance` (the full zod schema above validates those in tests). Every tool
 * repeats it in `tools/list`, so it stays small enough to keep the whole listing within its token budget.
 */
export function compactEnvelopeJsonSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      status: { enum: [...STATUSES] },
      data: {},
      error: {},
      confidence: { enum: [...CONFIDENCES, null] },
      provenance: {},
      follow_up_hints: {},
      degradation_reason: {},
      charter_version: { type: 'string' },
    },
    required: ['status', 'charter_version'],
  };
}

/** The complete envelope as JSON Schema (documentation and external validators). */
export function envelopeJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(EnvelopeObject, { target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}
