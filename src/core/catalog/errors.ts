/** Typed failures of the catalog file (kept apart from the store so light entry points can name them without sql.js). */

export type CatalogErrorCode = 'not_found' | 'corrupt' | 'too_new' | 'locked' | 'io';

export class CatalogError extends Error {
  constructor(
    readonly code: CatalogErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CatalogError';
  }
}
