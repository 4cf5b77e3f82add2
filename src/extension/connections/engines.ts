/**
 * The database engines a connection can use, as data: the connection form, the tree and the pickers read this list,
 * so a new engine (MySQL/MariaDB) is one entry here plus its driver, not a change to each view.
 */
export interface EngineSpec {
  /** The `engine` value stored in settings and understood by the indexer. */
  readonly id: string;
  readonly label: string;
  /** `server`: host, port, database, user, password, SSL mode. `file`: a database file. */
  readonly kind: 'server' | 'file';
  readonly defaultPort?: number;
  readonly defaultDatabase?: string;
  readonly defaultUser?: string;
  /** SSL modes offered (first is the default); empty for engines without TLS settings. */
  readonly sslModes: readonly string[];
  /** File dialog filters for file engines. */
  readonly fileExtensions?: readonly string[];
  /** Codicon of the engine. */
  readonly icon: string;
  /** Server engines whose database may be left empty (MySQL/MariaDB: index every database the user can read). */
  readonly databaseOptional?: boolean;
}

export const ENGINES: readonly EngineSpec[] = [
  {
    id: 'postgres',
    label: 'PostgreSQL',
    kind: 'server',
    defaultPort: 5432,
    defaultDatabase: 'postgres',
    defaultUser: 'postgres',
    sslModes: ['prefer', 'disable', 'require', 'verify-ca', 'verify-full'],
    icon: 'database',
  },
  {
    id: 'mysql',
    label: 'MySQL / MariaDB',
    kind: 'server',
    defaultPort: 3306,
    defaultDatabase: '',
    defaultUser: 'root',
    sslModes: ['preferred', 'disabled', 'required', 'verify_ca', 'verify_identity'],
    icon: 'database',
    databaseOptional: true,
  },
  { id: 'sqlite', label: 'SQLite', kind: 'file', sslModes: [], fileExtensions: ['sqlite', 'sqlite3', 'db', 'db3'], icon: 'file' },
];

export function engineSpec(id: string): EngineSpec | undefined {
  return ENGINES.find((e) => e.id === id);
}

/** Display name of an engine id (`postgres` → PostgreSQL); unknown ids show as given. */
export function engineLabel(id: string): string {
  return engineSpec(id)?.label ?? id;
}
