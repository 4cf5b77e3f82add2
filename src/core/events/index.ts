export * from './event';
export * from './redact';
export * from './bus';
export * from './tail';
export * from './format';
export * from './time';
