import type { Introspector } from './introspector';
import type { SourceSpec } from './locator';
import type { MysqlIntrospectorOptions } from './mysql/introspector';
import type { PostgresIntrospectorOptions } from './postgres/introspector';
import type { SqliteIntrospectorOptions } from './sqlite/introspector';

export interface CreateIntrospectorOptions {
  readonly postgres?: Omit<PostgresIntrospectorOptions, 'password'>;
  readonly sqlite?: SqliteIntrospectorOptions;
  readonly mysql?: Omit<MysqlIntrospectorOptions, 'password'>;
}

/**
 * The one place that picks an implementation per engine. `secrets.password` comes from a private channel
 * (SecretStorage via the extension, a prompt); a password written in the spec itself takes precedence. Only the
 * engine in use is loaded: a PostgreSQL re-index never initialises the SQLite engine's glue or the MySQL driver.
 */
export function createIntrospector(spec: SourceSpec, secrets: { readonly password?: string } = {}, options: CreateIntrospectorOptions = {}): Introspector {
  if (spec.engine === 'postgres') {
    const { PostgresIntrospector } = require('./postgres/introspector') as typeof import('./postgres/introspector');
    return new PostgresIntrospector(spec, { ...options.postgres, password: secrets.password });
  }
  if (spec.engine === 'mysql') {
    const { MysqlIntrospector } = require('./mysql/introspector') as typeof import('./mysql/introspector');
    return new MysqlIntrospector(spec, { ...options.mysql, password: secrets.password });
  }
  const { SqliteIntrospector } = require('./sqlite/introspector') as typeof import('./sqlite/introspector');
  return new SqliteIntrospector(spec, options.sqlite);
}
