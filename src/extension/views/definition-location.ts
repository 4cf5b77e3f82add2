import fs from 'node:fs';
import * as vscode from 'vscode';
import { LineCounter, parseDocument, type Document } from 'yaml';
import type { DefinitionLocation } from '../../core/semantic/types';

interface Parsed {
  readonly mtimeMs: number;
  readonly doc: Document;
  readonly lines: LineCounter;
}

const parsed = new Map<string, Parsed>();

function parse(file: string): Parsed | undefined {
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
  const hit = parsed.get(file);
  if (hit && hit.mtimeMs === mtimeMs) return hit;
  const lines = new LineCounter();
  const doc = parseDocument(fs.readFileSync(file, 'utf8'), { lineCounter: lines, version: '1.2' });
  const p = { mtimeMs, doc, lines };
  parsed.set(file, p);
  return p;
}

/**
 * Where a definition is written: the range of its `name:` value (else of its whole node) in the YAML file, from the
 * file as saved. Undefined when the file or the node is gone.
 */
export function definitionRange(loc: DefinitionLocation): vscode.Range | undefined {
  const p = parse(loc.file);
  if (!p) return undefined;
  const node = (p.doc.getIn([...loc.path, 'name'], true) ?? p.doc.getIn([...loc.path], true)) as { range?: [number, number, number] } | undefined;
  const range = node?.range;
  if (!range) return undefined;
  const a = p.lines.linePos(range[0]);
  const b = p.lines.linePos(Math.max(range[1], range[0]));
  return new vscode.Range(a.line - 1, a.col - 1, b.line - 1, b.col - 1);
}

/** The tree item command that opens a definition's file at its name. */
export function openDefinitionCommand(loc: DefinitionLocation | null, name: string): vscode.Command | undefined {
  if (!loc) return undefined;
  const selection = definitionRange(loc);
  return {
    command: 'vscode.open',
    title: `Open the definition of ${name}`,
    arguments: [vscode.Uri.file(loc.file), selection ? { selection, preview: true } : { preview: true }],
  };
}
