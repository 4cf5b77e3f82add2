// Injected by esbuild from package.json; falls back for tests running from source.
declare const __SCHEMABRAIN_VERSION__: string | undefined;
export const VERSION: string = typeof __SCHEMABRAIN_VERSION__ === 'string' ? __SCHEMABRAIN_VERSION__ : '0.0.0-dev';
