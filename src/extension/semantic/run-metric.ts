import * as vscode from 'vscode';
import { METRIC_LIMIT_MAX } from '../../core/semantic/request';
import { TIME_GRAINS } from '../../core/semantic/types';
import type { EntityDef, MetricDef, SemanticModel } from '../../core/semantic/types';
import type { MetricsNode } from '../views/metrics-tree';
import { MetricPanel, type MetricRun } from '../webviews/metric-panel';
import { runVerb, semanticCatalogOf, workspaceDir, type SemanticDeps } from './deps';
import { pickMany } from './pick-many';

/** Run Metric called with arguments (walkthrough links, tests): no prompts for what is given. */
export interface RunMetricArgs {
  readonly name: string;
  /** Given (even empty): no group-by prompt. */
  readonly groupBy?: readonly string[];
  /** Given (null for none): no grain prompt. */
  readonly grain?: string | null;
  /** `entity.column op value`, as the CLI's --filter. */
  readonly filters?: readonly string[];
  readonly limit?: number;
  readonly source?: string;
}

export type RunMetricTarget = MetricsNode | RunMetricArgs | string | undefined;

/** Entities reachable from `start` through defined joins (either direction), nearest first, with the path walked. */
export function reachableEntities(model: SemanticModel, start: string, maxDepth = 3): { entity: EntityDef; via: readonly string[] }[] {
  const out: { entity: EntityDef; via: readonly string[] }[] = [];
  const seen = new Set([start]);
  let frontier: { name: string; via: string[] }[] = [{ name: start, via: [] }];
  const anchor = model.entities.get(start);
  if (anchor) out.push({ entity: anchor, via: [] });
  for (let depth = 0; depth < maxDepth && frontier.length; depth++) {
    const next: { name: string; via: string[] }[] = [];
    for (const f of frontier) {
      for (const jn of model.joinsByEntity.get(f.name) ?? []) {
        const j = model.joins.get(jn);
        if (!j) continue;
        const other = j.from === f.name ? j.to : j.from;
        if (seen.has(other)) continue;
        seen.add(other);
        const e = model.entities.get(other);
        if (!e) continue;
        const via = [...f.via, jn];
        out.push({ entity: e, via });
        next.push({ name: other, via });
      }
    }
    frontier = next;
  }
  return out;
}

interface ColumnItem extends vscode.QuickPickItem {
  readonly ref: string;
}

/** Group-by choices: the metric entity's columns first, then those of joined entities, with type and PII marks. */
export function groupByItems(deps: SemanticDeps, model: SemanticModel, metric: MetricDef): ColumnItem[] {
  const view = deps.catalogView();
  if (!view) return [];
  const cat = semanticCatalogOf(view);
  const items: ColumnItem[] = [];
  for (const { entity, via } of reachableEntities(model, metric.entity)) {
    const table = cat.table(entity.table, entity.source);
    if (!table) continue;
    items.push({ label: entity.name, kind: vscode.QuickPickItemKind.Separator, ref: '' });
    for (const c of table.columns) {
      const pii = c.pii?.categories.length ? ` · PII: ${c.pii.categories.join(', ')} (refused as a group)` : '';
      items.push({
        label: `${entity.name}.${c.name}`,
        ref: `${entity.name}.${c.name}`,
        description: `${c.dataType}${pii}`,
        detail: via.length ? `via ${via.join(' → ')}` : undefined,
      });
    }
  }
  return items;
}

/** Whether a time bucket can resolve: the metric's or its entity's time dimension, or one inherited through joins. */
function hasTime(model: SemanticModel, metric: MetricDef): boolean {
  if (metric.timeDimension) return true;
  return reachableEntities(model, metric.entity).some((r) => r.entity.timeDimension);
}

function metricOf(target: RunMetricTarget): { name: string; args: RunMetricArgs | undefined } | undefined {
  if (typeof target === 'string') return { name: target, args: undefined };
  if (!target) return undefined;
  if ('kind' in target) return target.kind === 'metric' ? { name: target.def.name, args: undefined } : undefined;
  return { name: target.name, args: target };
}

/**
 * Run Metric: which metric (from the node, the argument, or a QuickPick), which group-by columns (multi-select over
 * the entity and the entities it joins), which time grain; then `cli.js metric … --json` and the result panel.
 * Resolves with what the panel shows, or undefined when the user dismissed a prompt.
 */
export async function runMetric(deps: SemanticDeps, target?: RunMetricTarget): Promise<MetricRun | undefined> {
  const ws = workspaceDir();
  if (!ws) {
    deps.notifier.notify('error', 'SchemaBrain: Run Metric needs a workspace folder with definitions in .schemabrain/. Open the folder, then try again.');
    return undefined;
  }
  const loaded = deps.definitions() ?? (await deps.reloadDefinitions());
  const model = loaded?.model;
  let chosen = metricOf(target);
  if (!chosen) {
    const metrics = [...(model?.metrics.values() ?? [])];
    if (!metrics.length) {
      deps.notifier.notify('info', 'SchemaBrain: no metrics are defined yet. Describe them in .schemabrain/*.yaml, or use Apply Suggestions in the Metrics view.');
      return undefined;
    }
    const pick = await deps.prompter().pick(
      metrics.map((m) => ({ label: m.name, description: `${m.measure.agg}(${m.measure.column ?? m.measure.expression ?? '*'}) of ${m.entity}`, detail: m.description ?? undefined })),
      { title: 'SchemaBrain: run which metric?', ignoreFocusOut: true, matchOnDescription: true },
    );
    if (!pick) return undefined;
    chosen = { name: pick.label, args: undefined };
  }
  const args = chosen.args;
  const metric = model?.metrics.get(chosen.name);

  let groupBy = args?.groupBy ? [...args.groupBy] : undefined;
  if (!groupBy) {
    const items = model && metric ? groupByItems(deps, model, metric) : [];
    if (items.length) {
      const picked = await pickMany(deps.prompter(), items, { title: `SchemaBrain: break '${chosen.name}' down by (none for the total)`, placeHolder: 'entity.column — pick any number', ignoreFocusOut: true, matchOnDescription: true });
      if (!picked) return undefined;
      groupBy = picked.map((p) => p.ref).filter(Boolean);
    } else groupBy = [];
  }

  let grain = args && 'grain' in args ? (args.grain ?? null) : undefined;
  if (grain === undefined) {
    grain = null;
    if (model && metric && hasTime(model, metric)) {
      const grains = metric.timeGrains.length ? metric.timeGrains : TIME_GRAINS;
      const none = 'No time grain';
      const pick = await deps.prompter().pick([{ label: none, description: 'one row per group' }, ...grains.map((g) => ({ label: g }))], { title: `SchemaBrain: time grain for '${chosen.name}'`, ignoreFocusOut: true });
      if (!pick) return undefined;
      grain = pick.label === none ? null : pick.label;
    }
  }

  const argv = ['metric', chosen.name, ...groupBy.flatMap((g) => ['--group-by', g]), ...(grain ? ['--grain', grain] : []), ...(args?.filters ?? []).flatMap((f) => ['--filter', f])];
  // No --limit unless asked: a limit without an order is reported degraded; the row cap bounds the rows instead
  // (more come back partial, truncated), as for the agent.
  if (args?.limit !== undefined) argv.push('--limit', String(Math.min(args.limit, METRIC_LIMIT_MAX)));
  // A person's run gets the person's cap, not the agent's (charts drawn from rows cut at 100 mislead).
  argv.push('--max-rows', String(deps.settings().personRowCap), '--workspace', ws);
  if (args?.source) argv.push('--source', args.source);

  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `SchemaBrain: computing '${chosen.name}'`, cancellable: true },
    (_p, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return runVerb(deps, argv, abort.signal);
    },
  );
  if (!outcome.ok && outcome.kind === 'cancelled') return undefined;
  const run: MetricRun = outcome.ok
    ? { metric: chosen.name, groupBy, grain, envelope: outcome.envelope, failure: null, ms: outcome.ms }
    : { metric: chosen.name, groupBy, grain, envelope: null, failure: { kind: outcome.kind, message: outcome.message }, ms: null };
  const status = run.envelope?.status ?? 'error';
  deps.log.info(`metric ${chosen.name}: ${status}${run.envelope?.error ? ` (${run.envelope.error.kind})` : ''}${run.failure ? ` (${run.failure.message})` : ''}`);
  MetricPanel.show(deps.extensionUri, run, { prompter: deps.prompter, notifier: deps.notifier });
  return run;
}
