// The host ⇄ worker protocol: message types, limits and the parser for worker input.
export * from './batch';
export * from './generate';
export * from './limits';
export * from './worker-messages';
export * from './context';
