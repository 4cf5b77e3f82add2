export * from './kinds';
export * from './schema';
export * from './build';
export * from './confidence';
export * from './fuzzy';
