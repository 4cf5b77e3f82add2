import { openRecorder } from '../core/audit';
import type { CallRecorder } from '../core/audit';
import { resolveEventsPath } from '../core/events/tail';
import { defaultAuditPath } from '../core/util/home';
import type { Logger } from '../core/util/logger';
import type { ServerOptions } from './options';

/**
 * Audit log + event bus + optional OpenTelemetry for one server session. The audit log defaults to
 * `$SCHEMABRAIN_HOME/audit.log`; events follow seed 002's precedence (flag > SCHEMABRAIN_EVENTS_PATH > default).
 */
export function createRecorder(options: ServerOptions, sessionId: string, logger: Logger, env: NodeJS.ProcessEnv = process.env): CallRecorder {
  if (options.noAudit) logger.warn('auditing is off (--no-audit): tool calls are not recorded in the audit log');
  else if (options.auditFailOpen) logger.warn('--audit-fail-open: tool calls are answered even when their audit row cannot be written; the log records each such gap');
  return openRecorder({
    sessionId,
    auditPath: options.noAudit ? null : (options.auditPath ?? defaultAuditPath(env)),
    eventsPath: resolveEventsPath(options.eventsPath ?? undefined, env),
    env,
    logger,
    failOpen: options.auditFailOpen === true,
  });
}
