// The package version (esbuild inlines only this field of package.json); an injected value wins when a build sets one.
import { version as packageVersion } from '../../package.json';

declare const __SCHEMABRAIN_VERSION__: string | undefined;
export const VERSION: string = typeof __SCHEMABRAIN_VERSION__ === 'string' ? __SCHEMABRAIN_VERSION__ : packageVersion;
