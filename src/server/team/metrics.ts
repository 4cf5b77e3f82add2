/**
 * Prometheus text-format metrics of one replica: tool calls by tool and status, call latency (histogram),
 * refusals by reason (HTTP 401/403 and in-envelope role, source and rate refusals), audit appends and commit
 * latency (the audit lag: how long a call waits for its row to be durable), the catalog generation served, and the
 * calls in flight.
 */
const LATENCY_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class TeamMetrics {
  private readonly calls = new Map<string, number>();
  private readonly latency = new Array<number>(LATENCY_BUCKETS_S.length + 1).fill(0);
  private latencySum = 0;
  private latencyCount = 0;
  private readonly refusals = new Map<string, number>();
  private auditRows = 0;
  private auditBatches = 0;
  private auditCommitSum = 0;
  private auditLastMs = 0;
  generation = 0;
  /** Newest definition version (store id) this replica has written to its definitions folder. */
  definitions = 0;
  /** When (ms since the epoch) this replica put `definitions` in place. */
  definitionsAt = 0;
  inflight: () => number = () => 0;

  call(tool: string, status: string, durationMs: number): void {
    const key = `tool="${tool.replace(/[^a-z0-9_:]/gi, '_').slice(0, 60)}",status="${status}"`;
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
    const s = durationMs / 1000;
    let i = LATENCY_BUCKETS_S.findIndex((b) => s <= b);
    if (i === -1) i = LATENCY_BUCKETS_S.length;
    this.latency[i]!++;
    this.latencySum += s;
    this.latencyCount++;
  }

  refusal(reason: string): void {
    this.refusals.set(reason, (this.refusals.get(reason) ?? 0) + 1);
  }

  auditCommit(rows: number, ms: number): void {
    this.auditRows += rows;
    this.auditBatches++;
    this.auditCommitSum += ms / 1000;
    this.auditLastMs = ms;
  }

  render(): string {
    const out: string[] = [];
    out.push('# HELP schemabrain_tool_calls_total Tool calls answered, by tool and envelope status.', '# TYPE schemabrain_tool_calls_total counter');
    for (const [k, v] of this.calls) out.push(`schemabrain_tool_calls_total{${k}} ${v}`);
    out.push('# HELP schemabrain_tool_call_duration_seconds Tool call latency, audit append included.', '# TYPE schemabrain_tool_call_duration_seconds histogram');
    let cum = 0;
    LATENCY_BUCKETS_S.forEach((b, i) => {
      cum += this.latency[i]!;
      out.push(`schemabrain_tool_call_duration_seconds_bucket{le="${b}"} ${cum}`);
    });
    out.push(`schemabrain_tool_call_duration_seconds_bucket{le="+Inf"} ${this.latencyCount}`);
    out.push(`schemabrain_tool_call_duration_seconds_sum ${this.latencySum}`, `schemabrain_tool_call_duration_seconds_count ${this.latencyCount}`);
    out.push('# HELP schemabrain_refusals_total Requests and calls refused, by reason.', '# TYPE schemabrain_refusals_total counter');
    for (const [k, v] of this.refusals) out.push(`schemabrain_refusals_total{reason="${k}"} ${v}`);
    out.push('# HELP schemabrain_audit_rows_total Audit rows committed to the store by this replica.', '# TYPE schemabrain_audit_rows_total counter', `schemabrain_audit_rows_total ${this.auditRows}`);
    out.push('# HELP schemabrain_audit_commit_seconds Audit batch commit time (the lag before a call may answer).', '# TYPE schemabrain_audit_commit_seconds summary');
    out.push(`schemabrain_audit_commit_seconds_sum ${this.auditCommitSum}`, `schemabrain_audit_commit_seconds_count ${this.auditBatches}`);
    out.push('# HELP schemabrain_audit_lag_seconds Commit time of the latest audit batch.', '# TYPE schemabrain_audit_lag_seconds gauge', `schemabrain_audit_lag_seconds ${this.auditLastMs / 1000}`);
    out.push('# HELP schemabrain_catalog_generation Catalog generation this replica serves.', '# TYPE schemabrain_catalog_generation gauge', `schemabrain_catalog_generation ${this.generation}`);
    out.push('# HELP schemabrain_definitions_version Newest published definition version this replica serves.', '# TYPE schemabrain_definitions_version gauge', `schemabrain_definitions_version ${this.definitions}`);
    out.push('# HELP schemabrain_definitions_loaded_timestamp_seconds When this replica put the newest definitions in place.', '# TYPE schemabrain_definitions_loaded_timestamp_seconds gauge', `schemabrain_definitions_loaded_timestamp_seconds ${this.definitionsAt / 1000}`);
    out.push('# HELP schemabrain_inflight_calls Tool calls running now.', '# TYPE schemabrain_inflight_calls gauge', `schemabrain_inflight_calls ${this.inflight()}`);
    return `${out.join('\n')}\n`;
  }
}
