import type { Logger } from '../core/util/logger';
import type { CallRecorder } from './deps';
import type { ServerOptions } from './options';

/** Builds the audit + events + telemetry recorder for one server session. */
export async function createRecorder(_options: ServerOptions, _sessionId: string, _logger: Logger): Promise<CallRecorder | null> {
  return null;
}
