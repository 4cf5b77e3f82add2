import type { Introspector } from './introspector';
import type { SourceSpec } from './locator';
import { PostgresIntrospector, type PostgresIntrospectorOptions } from './postgres/introspector';
import { SqliteIntrospector, type SqliteIntrospectorOptions } from './sqlite/introspector';
import { MysqlIntrospector, type MysqlIntrospectorOptions } from './mysql/introspector';

export * from './errors';
export * from './fingerprint';
export * from './introspector';
export * from './locator';
export { PostgresIntrospector, type PostgresIntrospectorOptions } from './postgres/introspector';
export { SqliteIntrospector, type SqliteIntrospectorOptions } from './sqlite/introspector';
export { MysqlIntrospector, type MysqlIntrospectorOptions } from './mysql/introspector';

export interface CreateIntrospectorOptions {
  readonly postgres?: Omit<PostgresIntrospectorOptions, 'password'>;
  readonly sqlite?: SqliteIntrospectorOptions;
  readonly mysql?: Omit<MysqlIntrospectorOptions, 'password'>;
}

/**
 * The one place that picks an implementation per engine. `secrets.password` comes from a private channel
 * (SecretStorage via the extension, a prompt); a password written in the spec itself takes precedence.
 */
export function createIntrospector(spec: SourceSpec, secrets: { readonly password?: string } = {}, options: CreateIntrospectorOptions = {}): Introspector {
  if (spec.engine === 'postgres') return new PostgresIntrospector(spec, { ...options.postgres, password: secrets.password });
  if (spec.engine === 'mysql') return new MysqlIntrospector(spec, { ...options.mysql, password: secrets.password });
  return new SqliteIntrospector(spec, options.sqlite);
}
