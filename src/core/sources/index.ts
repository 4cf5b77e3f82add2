
export * from './errors';
export * from './fingerprint';
export * from './introspector';
export * from './locator';
export { PostgresIntrospector, type PostgresIntrospectorOptions } from './postgres/introspector';
export { SqliteIntrospector, type SqliteIntrospectorOptions } from './sqlite/introspector';
export { MysqlIntrospector, type MysqlIntrospectorOptions } from './mysql/introspector';

export { createIntrospector, type CreateIntrospectorOptions } from './create-introspector';
