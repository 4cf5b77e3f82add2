export * from './canonical';
export * from './record';
export * from './lock';
export * from './log';
export * from './verify';
export * from './sql-fingerprint';
export * from './recorder';
export * from './checkpoint';
