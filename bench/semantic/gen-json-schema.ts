import { writeFileSync } from 'node:fs';
import { semanticJsonSchema } from '../../src/core/semantic/grammar';

/** Writes schemas/semantic.schema.json from the zod grammar. Run: npx tsx bench/semantic/gen-json-schema.ts */
export function renderSemanticJsonSchema(): string {
  return `${JSON.stringify(semanticJsonSchema(), null, 2)}\n`;
}

if (require.main === module) writeFileSync('schemas/semantic.schema.json', renderSemanticJsonSchema());
