import * as vscode from 'vscode';
import type { AuditHead, AuditRecord } from '../../core/audit/record';
import { listAudit, readHead, verifyAudit, type VerifyResult } from '../../core/audit/verify';
import { AUDIT_ANCHOR_STATE_KEY } from '../constants';

export interface AuditQuery {
  readonly status?: string;
  readonly tool?: string;
  /** ISO instant; rows before it are skipped. */
  readonly since?: string;
  readonly page: number;
  readonly pageSize: number;
}

export interface AuditPage {
  readonly rows: readonly AuditRecord[];
  readonly page: number;
  readonly pageSize: number;
  readonly hasMore: boolean;
}

export type VerificationState =
  | { readonly state: 'unverified' }
  | { readonly state: 'empty' }
  | { readonly state: 'ok'; readonly rows: number; readonly head: AuditHead; readonly anchored: boolean; readonly at: string }
  | { readonly state: 'broken'; readonly rows: number; readonly line: number; readonly seq: number | null; readonly reason: string; readonly detail: string; readonly at: string }
  | { readonly state: 'error'; readonly message: string; readonly at: string };

/**
 * Reads the audit log for the views and verifies its chain. After a clean verification the head hash is kept in
 * globalState: an anchor outside the server's reach, so a later coherent rewrite of the log is detected.
 */
export class AuditService implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<VerificationState>();
  readonly onDidVerify = this.emitter.event;
  private lastState: VerificationState = { state: 'unverified' };

  constructor(
    private readonly auditPath: () => string,
    private readonly state: vscode.Memento,
  ) {}

  get verification(): VerificationState {
    return this.lastState;
  }

  get path(): string {
    return this.auditPath();
  }

  anchor(): AuditHead | undefined {
    const a = this.state.get<{ path: string; seq: number; hash: string }>(AUDIT_ANCHOR_STATE_KEY);
    return a && a.path === this.auditPath() ? { seq: a.seq, hash: a.hash } : undefined;
  }

  head(): AuditHead | undefined {
    try {
      return readHead(this.auditPath());
    } catch {
      return undefined;
    }
  }

  async list(q: AuditQuery): Promise<AuditPage> {
    const rows = await listAudit(this.auditPath(), {
      status: q.status || undefined,
      tool: q.tool || undefined,
      since: q.since || undefined,
      newestFirst: true,
      offset: q.page * q.pageSize,
      limit: q.pageSize + 1,
    }).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return [] as AuditRecord[];
      throw e;
    });
    return { rows: rows.slice(0, q.pageSize), page: q.page, pageSize: q.pageSize, hasMore: rows.length > q.pageSize };
  }

  async verify(): Promise<VerificationState> {
    const at = new Date().toISOString();
    const file = this.auditPath();
    if (this.head() === undefined) {
      this.lastState = { state: 'empty' };
      this.emitter.fire(this.lastState);
      return this.lastState;
    }
    const anchor = this.anchor();
    let r: VerifyResult;
    try {
      r = await verifyAudit(file, { anchor });
    } catch (e) {
      this.lastState = { state: 'error', message: (e as Error).message, at };
      this.emitter.fire(this.lastState);
      return this.lastState;
    }
    if (r.ok) {
      const head = { seq: r.headSeq, hash: r.headHash };
      await this.state.update(AUDIT_ANCHOR_STATE_KEY, { path: file, ...head, at });
      this.lastState = { state: 'ok', rows: r.rows, head, anchored: r.anchorChecked, at };
    } else {
      this.lastState = { state: 'broken', rows: r.rows, line: r.breakAt.line, seq: r.breakAt.seq, reason: r.breakAt.reason, detail: r.breakAt.detail, at };
    }
    this.emitter.fire(this.lastState);
    return this.lastState;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

export function describeVerification(v: VerificationState): string {
  switch (v.state) {
    case 'unverified':
      return 'Audit chain not verified yet';
    case 'empty':
      return 'Audit log is empty: no tool calls recorded yet';
    case 'ok':
      return `Audit chain intact: ${v.rows} rows, head #${v.head.seq}${v.anchored ? ', matches the stored anchor' : ''}`;
    case 'broken':
      return `Audit chain BROKEN at line ${v.line}${v.seq !== null ? ` (seq ${v.seq})` : ''}: ${v.reason} — ${v.detail}`;
    case 'error':
      return `Audit verification failed: ${v.message}`;
  }
}
