import type { CliCommand } from '../command';
import { auditListCommand, auditVerifyCommand } from './audit';
import { checkCommand } from './check';
import { demoCommand } from './demo';
import { indexCommand } from './index-source';
import { metricCommand } from './metric';
import { profileCommand } from './profile';
import { serveCommand } from './serve';
import { tailCommand } from './tail';

/** Every CLI verb, listed by hand. */
export const commands: readonly CliCommand[] = [indexCommand, serveCommand, tailCommand, auditVerifyCommand, auditListCommand, checkCommand, demoCommand, metricCommand, profileCommand];
