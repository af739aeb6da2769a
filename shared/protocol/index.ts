// The host ⇄ worker protocol: message types, framing, limits and the parser for worker input.
export * from './framing';
export * from './generate';
export * from './limits';
export * from './worker-messages';
export * from './generate-lumiverse';
export * from './build';
