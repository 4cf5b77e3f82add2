import type { PiiCategory } from '../envelope/kinds';
import { defaultPolicyPath } from '../util/home';
import { NOT_REGULAR, readRegularFile } from '../util/regular-file';
import { createPolicy, DEFAULT_POLICY, parsePolicyYaml, PolicyError } from './policy';
import type { PiiPolicy } from './policy';

export { defaultPolicyPath };

/**
 * The operator's policy: an explicit file must exist and parse; the default file is optional. `extraBlock` (from
 * `--pii-block`) widens the block list. Every problem is a PolicyError whose message names the fix.
 */
export function loadPolicy(opts: { file?: string | null; extraBlock?: readonly PiiCategory[]; env?: NodeJS.ProcessEnv } = {}): PiiPolicy {
  const file = opts.file ?? defaultPolicyPath(opts.env);
  let base = DEFAULT_POLICY;
  let text: string | null = null;
  try {
    text = readRegularFile(file).toString('utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // The default path is optional when absent, never when it is a directory, device or pipe.
    if (opts.file || (code !== undefined && code !== 'ENOENT' && code !== 'ENOTDIR')) {
      throw new PolicyError('bad_value', 'file', code === NOT_REGULAR ? `PII policy file ${file} is not a regular file (a directory, device or pipe)` : `cannot read PII policy file ${file}: ${code ?? String(e)}`);
    }
  }
  if (text !== null) base = parsePolicyYaml(text);
  if (!opts.extraBlock?.length) return base;
  return createPolicy({
    block: [...base.block, ...opts.extraBlock],
    allow: [...base.allow],
    force: base.force,
    columnOverrides: base.columnOverrides,
    description: base.description,
  });
}
