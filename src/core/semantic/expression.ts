/**
 * Whitelist parser for measure expressions: column names, finite numeric literals, unary minus/plus, `+ - * /`
 * and parentheses. Anything else (function calls, CASE, casts, comparisons, strings, subqueries, `;`, comments)
 * is rejected with the offset of the offending text, so the SQL we emit can only ever be arithmetic over columns.
 */

export type Expr =
  | { readonly kind: 'column'; readonly name: string }
  | { readonly kind: 'number'; readonly value: number; readonly text: string }
  | { readonly kind: 'neg'; readonly operand: Expr }
  | { readonly kind: 'binary'; readonly op: '+' | '-' | '*' | '/'; readonly left: Expr; readonly right: Expr };

export interface ExpressionError {
  readonly message: string;
  /** 0-based offset into the expression text. */
  readonly offset: number;
}

export type ParseResult = { readonly ok: true; readonly expr: Expr; readonly columns: readonly string[] } | { readonly ok: false; readonly error: ExpressionError };

type Token =
  | { readonly t: 'ident'; readonly v: string; readonly at: number; readonly quoted: boolean }
  | { readonly t: 'num'; readonly v: string; readonly at: number }
  | { readonly t: 'op'; readonly v: '+' | '-' | '*' | '/' | '(' | ')'; readonly at: number }
  | { readonly t: 'end'; readonly at: number };

const MAX_LENGTH = 1000;
const MAX_DEPTH = 64;

/** SQL words that would change the meaning of the expression if we let them through as column names. */
const RESERVED = new Set([
  'select', 'from', 'where', 'case', 'when', 'then', 'else', 'end', 'cast', 'and', 'or', 'not', 'null', 'is', 'in',
  'like', 'between', 'exists', 'union', 'join', 'on', 'as', 'distinct', 'true', 'false', 'interval', 'collate',
  'over', 'filter', 'within', 'group', 'order', 'by', 'limit', 'having', 'with', 'into', 'insert', 'update',
  'delete', 'drop', 'create', 'alter', 'values', 'current_date', 'current_time', 'current_timestamp',
]);

class ExprSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '+' || c === '-' || c === '*' || c === '/' || c === '(' || c === ')') {
      if ((c === '-' && src[i + 1] === '-') || (c === '/' && src[i + 1] === '*')) throw new ExprSyntaxError('comments are not allowed in a measure expression', i);
      out.push({ t: 'op', v: c, at: i });
      i++;
      continue;
    }
    if (c === '.' && !/[0-9]/.test(src[i + 1] ?? '')) throw new ExprSyntaxError("qualified names are not allowed: use the metric entity's column name", i);
    if (/[0-9.]/.test(c)) {
      const m = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(src.slice(i));
      if (!m) throw new ExprSyntaxError(`unexpected '${c}'`, i);
      const next = src[i + m[0].length];
      if (next !== undefined && /[A-Za-z_]/.test(next)) throw new ExprSyntaxError(`malformed number '${m[0]}${next}'`, i);
      if (!Number.isFinite(Number(m[0]))) throw new ExprSyntaxError(`number '${m[0]}' is not finite`, i);
      out.push({ t: 'num', v: m[0], at: i });
      i += m[0].length;
      continue;
    }
    if (/[\p{L}_]/u.test(c)) {
      const m = /^[\p{L}_][\p{L}\p{N}_$]*/u.exec(src.slice(i))!;
      out.push({ t: 'ident', v: m[0], at: i, quoted: false });
      i += m[0].length;
      continue;
    }
    if (c === '"') {
      // A double-quoted column name, `""` escaping a quote, for mixed-case or spaced names.
      let j = i + 1;
      let name = '';
      for (;;) {
        if (j >= src.length) throw new ExprSyntaxError('unterminated quoted column name', i);
        if (src[j] === '"') {
          if (src[j + 1] === '"') {
            name += '"';
            j += 2;
            continue;
          }
          break;
        }
        name += src[j];
        j++;
      }
      if (name.length === 0) throw new ExprSyntaxError('empty quoted column name', i);
      out.push({ t: 'ident', v: name, at: i, quoted: true });
      i = j + 1;
      continue;
    }
    if (c === ';') throw new ExprSyntaxError("';' is not allowed: a measure expression is one arithmetic expression", i);
    if (c === "'") throw new ExprSyntaxError('string literals are not allowed in a measure expression', i);
    if (c === ',') throw new ExprSyntaxError("',' is not allowed: function calls and lists are not supported", i);
    throw new ExprSyntaxError(`'${c}' is not allowed: only + - * / ( ), numbers and column names`, i);
  }
  out.push({ t: 'end', at: src.length });
  return out;
}

class Parser {
  private pos = 0;
  private depth = 0;
  readonly columns: string[] = [];

  constructor(private readonly tokens: readonly Token[]) {}

  private peek(): Token {
    return this.tokens[this.pos]!;
  }

  parse(): Expr {
    const e = this.additive();
    const t = this.peek();
    if (t.t !== 'end') throw new ExprSyntaxError(`unexpected ${describe(t)}`, t.at);
    return e;
  }

  private additive(): Expr {
    let left = this.multiplicative();
    for (;;) {
      const t = this.peek();
      if (t.t === 'op' && (t.v === '+' || t.v === '-')) {
        this.pos++;
        left = { kind: 'binary', op: t.v, left, right: this.multiplicative() };
      } else return left;
    }
  }

  private multiplicative(): Expr {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      if (t.t === 'op' && (t.v === '*' || t.v === '/')) {
        this.pos++;
        left = { kind: 'binary', op: t.v, left, right: this.unary() };
      } else return left;
    }
  }

  private unary(): Expr {
    const t = this.peek();
    if (t.t === 'op' && (t.v === '-' || t.v === '+')) {
      this.pos++;
      this.enter(t.at);
      const operand = this.unary();
      this.depth--;
      return t.v === '-' ? { kind: 'neg', operand } : operand;
    }
    return this.primary();
  }

  private enter(at: number): void {
    if (++this.depth > MAX_DEPTH) throw new ExprSyntaxError('expression is nested too deeply', at);
  }

  private primary(): Expr {
    const t = this.peek();
    if (t.t === 'num') {
      this.pos++;
      return { kind: 'number', value: Number(t.v), text: t.v };
    }
    if (t.t === 'ident') {
      this.pos++;
      const next = this.peek();
      if (next.t === 'op' && next.v === '(') throw new ExprSyntaxError(`function calls are not allowed ('${t.v}(')`, t.at);
      if (!t.quoted && RESERVED.has(t.v.toLowerCase())) throw new ExprSyntaxError(`SQL keyword '${t.v}' is not allowed in a measure expression`, t.at);
      if (next.t === 'ident' || next.t === 'num') throw new ExprSyntaxError(`unexpected ${describe(next)} after '${t.v}'`, next.at);
      if (!this.columns.includes(t.v)) this.columns.push(t.v);
      return { kind: 'column', name: t.v };
    }
    if (t.t === 'op' && t.v === '(') {
      this.pos++;
      this.enter(t.at);
      const inner = this.additive();
      this.depth--;
      const close = this.peek();
      if (close.t !== 'op' || close.v !== ')') throw new ExprSyntaxError(`expected ')' but found ${describe(close)}`, close.at);
      this.pos++;
      return inner;
    }
    throw new ExprSyntaxError(`expected a column, a number or '(' but found ${describe(t)}`, t.at);
  }
}

function describe(t: Token): string {
  if (t.t === 'end') return 'the end of the expression';
  return `'${t.v}'`;
}

export function parseMeasureExpression(src: string): ParseResult {
  if (src.length > MAX_LENGTH) return { ok: false, error: { message: `expression is longer than ${MAX_LENGTH} characters`, offset: MAX_LENGTH } };
  try {
    const parser = new Parser(tokenize(src));
    const expr = parser.parse();
    if (parser.columns.length === 0) return { ok: false, error: { message: 'a measure expression must reference at least one column', offset: 0 } };
    return { ok: true, expr, columns: parser.columns };
  } catch (e) {
    if (e instanceof ExprSyntaxError) return { ok: false, error: { message: e.message, offset: e.offset } };
    throw e;
  }
}

/**
 * Renders an expression as SQL with fully parenthesised operations. Division is written `a / NULLIF(b, 0)` so
 * that PostgreSQL (which raises on division by zero) and SQLite (which returns NULL) agree: the row's value is NULL
 * and aggregates skip it.
 */
export function renderExpression(expr: Expr, column: (name: string) => string): string {
  switch (expr.kind) {
    case 'column':
      return column(expr.name);
    case 'number':
      return expr.text.startsWith('.') ? `0${expr.text}` : expr.text;
    case 'neg':
      return `(-${renderExpression(expr.operand, column)})`;
    case 'binary': {
      const l = renderExpression(expr.left, column);
      const r = renderExpression(expr.right, column);
      return expr.op === '/' ? `(${l} / NULLIF(${r}, 0))` : `(${l} ${expr.op} ${r})`;
    }
  }
}

export function expressionColumns(expr: Expr, out: string[] = []): string[] {
  if (expr.kind === 'column') {
    if (!out.includes(expr.name)) out.push(expr.name);
  } else if (expr.kind === 'neg') expressionColumns(expr.operand, out);
  else if (expr.kind === 'binary') {
    expressionColumns(expr.left, out);
    expressionColumns(expr.right, out);
  }
  return out;
}
