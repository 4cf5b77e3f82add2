import * as vscode from 'vscode';
import { COMMAND_IDS } from '../constants';
import { MetricPanel } from '../webviews/metric-panel';
import { ProfilePanel } from '../webviews/profile-panel';
import { ResultsPanel } from '../webviews/results-panel';
import { previewRows, type PreviewRowsTarget } from '../results/preview-rows';
import { applySuggestions, type ApplySuggestionsArgs } from './apply-suggestions';
import { DefinitionDiagnostics } from './definition-diagnostics';
import type { SemanticDeps } from './deps';
import { profileTable, type ProfileTableTarget } from './profile-table';
import { runMetric, type RunMetricTarget } from './run-metric';

/** What the semantic-layer features expose on the extension's API (tests and other extensions). */
export interface SemanticFeatures {
  readonly diagnostics: DefinitionDiagnostics;
  /** The open metric panel, if any. */
  readonly metricPanel: () => MetricPanel | undefined;
  /** The open profile panel, if any. */
  readonly profilePanel: () => ProfilePanel | undefined;
  /** The open results grid (Preview Rows), if any. */
  readonly resultsPanel: () => ResultsPanel | undefined;
}

/** Run Metric, Preview Rows, Profile Table, Apply Suggestions, and squiggles with quick fixes on `.schemabrain/*.yaml`. */
export function registerSemanticFeatures(context: vscode.ExtensionContext, deps: SemanticDeps): SemanticFeatures {
  const diagnostics = new DefinitionDiagnostics(deps.catalogView, deps.log);
  context.subscriptions.push(
    diagnostics,
    vscode.commands.registerCommand(COMMAND_IDS.runMetric, (target?: RunMetricTarget) => runMetric(deps, target)),
    vscode.commands.registerCommand(COMMAND_IDS.previewRows, (target?: PreviewRowsTarget) => previewRows(deps, target)),
    vscode.commands.registerCommand(COMMAND_IDS.profileTable, (target?: ProfileTableTarget) => profileTable(deps, target)),
    vscode.commands.registerCommand(COMMAND_IDS.applySuggestions, (args?: ApplySuggestionsArgs) => applySuggestions(deps, args && typeof args === 'object' && !('kind' in args) ? args : {})),
    { dispose: () => MetricPanel.instance?.dispose() },
    { dispose: () => ProfilePanel.instance?.dispose() },
    { dispose: () => ResultsPanel.instance?.dispose() },
  );
  diagnostics.schedule();
  return { diagnostics, metricPanel: () => MetricPanel.instance, profilePanel: () => ProfilePanel.instance, resultsPanel: () => ResultsPanel.instance };
}
