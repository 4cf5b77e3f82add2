export * from './url';
export * from './principal';
export * from './migrations';
export * from './pg-store';
export * from './pg-audit';
export * from './tokens';
export * from './shared-state';
export * from './team-state';
