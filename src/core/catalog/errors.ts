/** Typed failures of the catalog file (kept apart from the store so light entry points can name them without sql.js). */

/** `name_taken`: the source name given is the catalog's name for another connection. */
export type CatalogErrorCode = 'not_found' | 'corrupt' | 'too_new' | 'locked' | 'name_taken' | 'io';

export class CatalogError extends Error {
  constructor(
    readonly code: CatalogErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CatalogError';
  }
}

/**
 * A catalog path that exists as a directory, device or pipe: refused before anything is read, locked or moved aside
 * (reading a pipe would block for good, and `--rebuild` would rename a device out of the way).
 */
export function notACatalogFile(filePath: string): CatalogError {
  return new CatalogError('io', `catalog ${filePath} is not a regular file (a directory, device or pipe); give the path of a catalog file, which is created if it does not exist`);
}
