import type { QueryResult, ResultColumn, StatementKind } from './types';

/**
 * Layer 3: row and byte caps applied while rows stream in, with an explicit record of which cap cut the result
 * (silent truncation is a correctness bug: DBHub #404, Metabase #82850).
 */
export class RowBudget {
  readonly rows: unknown[][] = [];
  truncatedBy: 'rows' | 'bytes' | null = null;
  private bytes = 2; // "[]"

  constructor(
    private readonly maxRows: number,
    readonly maxBytes: number,
  ) {
    if (!Number.isInteger(maxRows) || maxRows < 0) throw new RangeError('maxRows must be a non-negative integer');
    if (!Number.isInteger(maxBytes) || maxBytes < 2) throw new RangeError('maxBytes must be an integer >= 2');
  }

  /** How many more rows to ask the database for: one past the cap, so a cut result is recognised as cut. */
  rowsWanted(): number {
    return Math.max(1, this.maxRows + 1 - this.rows.length);
  }

  /** Adds rows; returns false once a cap is reached (no further rows should be fetched). */
  take(batch: readonly unknown[][]): boolean {
    for (const row of batch) {
      if (this.rows.length >= this.maxRows) {
        this.truncatedBy = 'rows';
        return false;
      }
      const size = jsonSize(row) + 1;
      if (this.bytes + size > this.maxBytes) {
        this.truncatedBy = 'bytes';
        return false;
      }
      this.bytes += size;
      this.rows.push(row);
    }
    return true;
  }

  /** The rows taken as a query's result, with which cap (if any) cut them. */
  result(columns: readonly ResultColumn[], startedMs: number, meta: { readonly statementKind: StatementKind; readonly fingerprint: string }): QueryResult {
    return {
      columns: [...columns],
      rows: this.rows,
      rowCount: this.rows.length,
      truncated: this.truncatedBy !== null,
      truncatedBy: this.truncatedBy,
      elapsedMs: Math.round((performance.now() - startedMs) * 100) / 100,
      statementKind: meta.statementKind,
      fingerprint: meta.fingerprint,
    };
  }
}

/**
 * The data-row bytes a statement may bring in on the wire for an answer of at most `maxBytes` of JSON: past twice the
 * cap (and a little room) the answer is cut already, and the rest is not read in.
 */
export function wireBudget(maxBytes: number): number {
  return 2 * maxBytes + 64 * 1024;
}

function jsonSize(row: readonly unknown[]): number {
  return Buffer.byteLength(JSON.stringify(row));
}

/** Makes a driver value JSON-safe: bigint → string, bytes → `\x…` hex (PostgreSQL's text form), Date → ISO. */
export function toJsonValue(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Uint8Array) return `\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? String(v) : v.toISOString();
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return v;
}

/** What `exactRow` reads from: a sql.js statement stepped onto a row (its `get` takes sql.js's read options). */
interface SteppedStatement {
  get(params?: null, config?: { useBigInt?: boolean }): unknown[];
}

/**
 * sql.js reads an INTEGER as a double by default, which rounds values past 2^53: distinct 64-bit keys came back equal,
 * and a filter on one of them matched its neighbour. `bigRow` reads the current row of a stepped statement with its
 * integers as bigints; `exactValue` keeps those a double holds exactly as numbers and gives the others as decimal
 * strings, as PostgreSQL's bigint is given.
 */
export function bigRow(stmt: SteppedStatement): unknown[] {
  return stmt.get(null, { useBigInt: true });
}

export function exactValue(v: unknown): unknown {
  if (typeof v !== 'bigint') return v;
  return v >= MIN_EXACT && v <= MAX_EXACT ? Number(v) : v.toString();
}

/** The current row with its integers exact (see `bigRow`). */
export function exactRow(stmt: SteppedStatement): unknown[] {
  return bigRow(stmt).map(exactValue);
}

const MIN_EXACT = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);
